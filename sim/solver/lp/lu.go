package lp

import "math"

// factor is an LU factorisation of a basis B (m×m, columns by position)
// with product-form updates. Column singletons are pivoted first, then row
// singletons, and what is left (the nucleus, small for the block-angular
// LPs of scheduling policies) gets a dense LU with partial pivoting. In
// the resulting order B is block upper triangular, so solves are one
// sweep over the pivots plus a dense solve.
type factor struct {
	m       int
	colRows [][]int32 // basis columns by position
	colVals [][]float64

	front, back []pivot
	kind        []int8  // per row: rowFront, rowNucleus, rowBack
	nRows       []int32 // nucleus rows, in nucleus order
	nCols       []int32 // nucleus positions, in nucleus order
	nIndex      []int32 // row -> index in nRows, or -1
	lu          []float64
	perm        []int32 // perm[k]: nucleus row index of the k-th pivot row
	nd          int

	etaPos   []int32
	etaPiv   []float64
	etaStart []int32
	etaIdx   []int32
	etaVal   []float64

	work  []float64
	work2 []float64
}

type pivot struct {
	row, pos int32
	val      float64
}

const (
	rowFront int8 = iota
	rowNucleus
	rowBack
)

const pivotTol = 1e-11

// factorize factors the basis columns. It returns the positions whose
// columns could not be pivoted (the basis is singular there) and the rows
// left without a pivot; the caller replaces those columns by the rows'
// logicals and factors again.
func (f *factor) factorize(m int, colRows [][]int32, colVals [][]float64) (singular []int, freeRows []int) {
	f.m, f.colRows, f.colVals = m, colRows, colVals
	f.front, f.back = f.front[:0], f.back[:0]
	f.etaPos, f.etaPiv, f.etaStart, f.etaIdx, f.etaVal = f.etaPos[:0], f.etaPiv[:0], f.etaStart[:0], f.etaIdx[:0], f.etaVal[:0]
	f.kind = resizeI8(f.kind, m)
	f.nIndex = resizeI32(f.nIndex, m)
	f.work = resizeF(f.work, m)
	f.work2 = resizeF(f.work2, m)

	// Row lists: for each row, the positions with a nonzero in it.
	rowStart := make([]int32, m+1)
	for p := 0; p < m; p++ {
		for _, r := range colRows[p] {
			rowStart[r+1]++
		}
	}
	for i := 0; i < m; i++ {
		rowStart[i+1] += rowStart[i]
	}
	rowPos := make([]int32, rowStart[m])
	fill := append([]int32(nil), rowStart[:m]...)
	for p := 0; p < m; p++ {
		for _, r := range colRows[p] {
			rowPos[fill[r]] = int32(p)
			fill[r]++
		}
	}
	activeRow := make([]bool, m)
	activeCol := make([]bool, m)
	colCount := make([]int32, m)
	rowCount := make([]int32, m)
	for i := range activeRow {
		activeRow[i], activeCol[i] = true, true
		colCount[i] = int32(len(colRows[i]))
	}

	// Column singletons.
	queue := make([]int32, 0, m)
	for p := 0; p < m; p++ {
		if colCount[p] == 1 {
			queue = append(queue, int32(p))
		}
	}
	for len(queue) > 0 {
		p := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if !activeCol[p] || colCount[p] != 1 {
			continue
		}
		r, v := int32(-1), 0.0
		for k, i := range colRows[p] {
			if activeRow[i] {
				r, v = i, colVals[p][k]
				break
			}
		}
		if r < 0 || math.Abs(v) < pivotTol {
			continue // left to the nucleus, where it shows up as singular
		}
		f.front = append(f.front, pivot{r, p, v})
		f.kind[r] = rowFront
		activeCol[p], activeRow[r] = false, false
		for _, q := range rowPos[rowStart[r]:rowStart[r+1]] {
			if activeCol[q] {
				colCount[q]--
				if colCount[q] == 1 {
					queue = append(queue, q)
				}
			}
		}
	}

	// Row singletons, on what is left.
	for i := 0; i < m; i++ {
		if !activeRow[i] {
			continue
		}
		for _, q := range rowPos[rowStart[i]:rowStart[i+1]] {
			if activeCol[q] {
				rowCount[i]++
			}
		}
		if rowCount[i] == 1 {
			queue = append(queue, int32(i))
		}
	}
	for len(queue) > 0 {
		r := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if !activeRow[r] || rowCount[r] != 1 {
			continue
		}
		p := int32(-1)
		for _, q := range rowPos[rowStart[r]:rowStart[r+1]] {
			if activeCol[q] {
				p = q
				break
			}
		}
		v, big := 0.0, 0.0
		for k, i := range colRows[p] {
			if activeRow[i] {
				big = math.Max(big, math.Abs(colVals[p][k]))
				if i == r {
					v = colVals[p][k]
				}
			}
		}
		if math.Abs(v) < pivotTol || math.Abs(v) < 0.01*big {
			continue // unstable: leave it to the nucleus
		}
		f.back = append(f.back, pivot{r, p, v})
		f.kind[r] = rowBack
		activeCol[p], activeRow[r] = false, false
		for _, i := range colRows[p] {
			if activeRow[i] {
				rowCount[i]--
				if rowCount[i] == 1 {
					queue = append(queue, i)
				}
			}
		}
	}

	// The nucleus: dense LU with partial pivoting, column by column.
	f.nRows, f.nCols = f.nRows[:0], f.nCols[:0]
	for i := 0; i < m; i++ {
		f.nIndex[i] = -1
		if activeRow[i] {
			f.nIndex[i] = int32(len(f.nRows))
			f.nRows = append(f.nRows, int32(i))
			f.kind[i] = rowNucleus
		}
	}
	var cols []int32
	for p := 0; p < m; p++ {
		if activeCol[p] {
			cols = append(cols, int32(p))
		}
	}
	nr := len(f.nRows)
	dense := make([]float64, nr*len(cols))
	for c, p := range cols {
		for k, i := range colRows[p] {
			if x := f.nIndex[i]; x >= 0 {
				dense[int(x)*len(cols)+c] = colVals[p][k]
			}
		}
	}
	// Eliminate: rows are permuted, columns that find no pivot are singular.
	nc := len(cols)
	rowOrder := make([]int32, nr)
	for i := range rowOrder {
		rowOrder[i] = int32(i)
	}
	k := 0
	var good []int32
	for c := 0; c < nc && k < nr; c++ {
		best, bi := 0.0, -1
		colMax := 0.0
		for i := k; i < nr; i++ {
			v := math.Abs(dense[int(rowOrder[i])*nc+c])
			if v > best {
				best, bi = v, i
			}
		}
		for i := 0; i < nr; i++ {
			colMax = math.Max(colMax, math.Abs(dense[int(rowOrder[i])*nc+c]))
		}
		if bi < 0 || best < pivotTol || best < 1e-9*colMax {
			singular = append(singular, int(cols[c]))
			continue
		}
		rowOrder[k], rowOrder[bi] = rowOrder[bi], rowOrder[k]
		prow := int(rowOrder[k]) * nc
		pv := dense[prow+c]
		for i := k + 1; i < nr; i++ {
			row := int(rowOrder[i]) * nc
			l := dense[row+c] / pv
			if l == 0 {
				continue
			}
			dense[row+c] = l
			for cc := c + 1; cc < nc; cc++ {
				dense[row+cc] -= l * dense[prow+cc]
			}
		}
		good = append(good, int32(c))
		k++
	}
	for c := len(good) + len(singular); c < nc; c++ {
		singular = append(singular, int(cols[c])) // no rows left for them
	}
	if len(singular) > 0 || k < nr {
		for i := k; i < nr; i++ {
			freeRows = append(freeRows, int(f.nRows[rowOrder[i]]))
		}
		return singular, freeRows
	}
	// Compact the factors into a k×k LU in pivot order.
	f.nd = k
	f.lu = resizeF(f.lu, k*k)
	f.perm = resizeI32(f.perm, k)
	f.nCols = f.nCols[:0]
	for a := 0; a < k; a++ {
		f.perm[a] = rowOrder[a]
		for b := 0; b < k; b++ {
			f.lu[a*k+b] = dense[int(rowOrder[a])*nc+int(good[b])]
		}
	}
	for _, c := range good {
		f.nCols = append(f.nCols, cols[c])
	}
	// nRows in pivot order, and nIndex to match.
	rows := make([]int32, k)
	for a := 0; a < k; a++ {
		rows[a] = f.nRows[f.perm[a]]
	}
	copy(f.nRows, rows)
	for a, r := range f.nRows {
		f.nIndex[r] = int32(a)
	}
	return nil, nil
}

// ftran solves B x = b in place: b is indexed by row on entry and x by
// position on return (in x).
func (f *factor) ftran(b, x []float64) {
	for k := range x {
		x[k] = 0
	}
	for _, pv := range f.back {
		xc := b[pv.row] / pv.val
		x[pv.pos] = xc
		if xc == 0 {
			continue
		}
		rows, vals := f.colRows[pv.pos], f.colVals[pv.pos]
		for k, i := range rows {
			if i != pv.row {
				b[i] -= vals[k] * xc
			}
		}
	}
	if nd := f.nd; nd > 0 {
		z := f.work[:nd]
		for a := 0; a < nd; a++ {
			z[a] = b[f.nRows[a]]
		}
		for a := 0; a < nd; a++ { // L, unit diagonal
			s := z[a]
			row := f.lu[a*nd:]
			for c := 0; c < a; c++ {
				s -= row[c] * z[c]
			}
			z[a] = s
		}
		for a := nd - 1; a >= 0; a-- { // U
			s := z[a]
			row := f.lu[a*nd:]
			for c := a + 1; c < nd; c++ {
				s -= row[c] * z[c]
			}
			z[a] = s / row[a]
		}
		for a, p := range f.nCols {
			xc := z[a]
			x[p] = xc
			if xc == 0 {
				continue
			}
			rows, vals := f.colRows[p], f.colVals[p]
			for k, i := range rows {
				if f.kind[i] == rowFront {
					b[i] -= vals[k] * xc
				}
			}
		}
	}
	for k := len(f.front) - 1; k >= 0; k-- {
		pv := f.front[k]
		xc := b[pv.row] / pv.val
		x[pv.pos] = xc
		if xc == 0 {
			continue
		}
		rows, vals := f.colRows[pv.pos], f.colVals[pv.pos]
		for k2, i := range rows {
			if i != pv.row {
				b[i] -= vals[k2] * xc
			}
		}
	}
	// Product-form updates, oldest first.
	for e := range f.etaPos {
		p := f.etaPos[e]
		xp := x[p] / f.etaPiv[e]
		if xp != 0 {
			for k := f.etaStart[e]; k < f.etaEnd(e); k++ {
				x[f.etaIdx[k]] -= f.etaVal[k] * xp
			}
		}
		x[p] = xp
	}
}

func (f *factor) etaEnd(e int) int32 {
	if e+1 < len(f.etaStart) {
		return f.etaStart[e+1]
	}
	return int32(len(f.etaIdx))
}

// btran solves Bᵀ y = d: d is indexed by position (it is overwritten) and
// y by row.
func (f *factor) btran(d, y []float64) {
	for e := len(f.etaPos) - 1; e >= 0; e-- {
		p := f.etaPos[e]
		s := d[p]
		for k := f.etaStart[e]; k < f.etaEnd(e); k++ {
			s -= f.etaVal[k] * d[f.etaIdx[k]]
		}
		d[p] = s / f.etaPiv[e]
	}
	for i := range y {
		y[i] = 0
	}
	for _, pv := range f.front {
		s := d[pv.pos]
		rows, vals := f.colRows[pv.pos], f.colVals[pv.pos]
		for k, i := range rows {
			if i != pv.row {
				s -= vals[k] * y[i]
			}
		}
		y[pv.row] = s / pv.val
	}
	if nd := f.nd; nd > 0 {
		z := f.work[:nd]
		for a, p := range f.nCols {
			s := d[p]
			rows, vals := f.colRows[p], f.colVals[p]
			for k, i := range rows {
				if f.kind[i] == rowFront {
					s -= vals[k] * y[i]
				}
			}
			z[a] = s
		}
		for a := 0; a < nd; a++ { // Uᵀ
			s := z[a]
			for c := 0; c < a; c++ {
				s -= f.lu[c*nd+a] * z[c]
			}
			z[a] = s / f.lu[a*nd+a]
		}
		for a := nd - 1; a >= 0; a-- { // Lᵀ
			s := z[a]
			for c := a + 1; c < nd; c++ {
				s -= f.lu[c*nd+a] * z[c]
			}
			z[a] = s
		}
		for a, r := range f.nRows {
			y[r] = z[a]
		}
	}
	for k := len(f.back) - 1; k >= 0; k-- {
		pv := f.back[k]
		s := d[pv.pos]
		rows, vals := f.colRows[pv.pos], f.colVals[pv.pos]
		for k2, i := range rows {
			if i != pv.row {
				s -= vals[k2] * y[i]
			}
		}
		y[pv.row] = s / pv.val
	}
}

// update records that position p now holds the column whose ftran is
// alpha (indexed by position).
func (f *factor) update(p int, alpha []float64) {
	f.etaPos = append(f.etaPos, int32(p))
	f.etaPiv = append(f.etaPiv, alpha[p])
	f.etaStart = append(f.etaStart, int32(len(f.etaIdx)))
	for k, v := range alpha {
		if k != p && v != 0 {
			f.etaIdx = append(f.etaIdx, int32(k))
			f.etaVal = append(f.etaVal, v)
		}
	}
}

func (f *factor) numUpdates() int  { return len(f.etaPos) }
func (f *factor) etaNonzeros() int { return len(f.etaIdx) }

func resizeF(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

func resizeI32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

func resizeI8(s []int8, n int) []int8 {
	if cap(s) < n {
		return make([]int8, n)
	}
	return s[:n]
}
