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
	// offS, offI, offV list each front pivot's column (then each back
	// pivot's, from offS[len(front)]) without its pivot entry, in the
	// column's order: the solves' sweeps read them from one array rather
	// than through each column's slices and a test of the row, the same
	// operations in the same order.
	offS []int32
	offI []int32
	offV []float64
	// xZero (by position) and yZero (by row) hold what ftran and btran
	// store for a front or back pivot whose dividend is +0: +0 divided by
	// the pivot, a zero with the pivot's sign. The sparse solves
	// (sparse.go) start from them and skip such pivots, storing the same
	// bits without the division.
	xZero, yZero []float64
	kind         []int8  // per row: rowFront, rowNucleus, rowBack
	nRows        []int32 // nucleus rows, in nucleus order
	nCols        []int32 // nucleus positions, in nucleus order
	nIndex       []int32 // row -> index in nRows, or -1
	perm         []int32 // perm[k]: nucleus row index of the k-th pivot row
	nd           int

	// nfS, nfI and nfV list each nucleus column's entries in front rows
	// (the a-th column's from nfS[a] to nfS[a+1]), in the column's
	// order: btran's step to the nucleus reads them without testing each
	// entry's row kind (nucleusFront).
	nfS []int32
	nfI []int32
	nfV []float64

	// The nucleus's factors, sparse: L by columns (lc) and rows (lr), U
	// by columns (uc) and rows (ur) without its diagonal diag.
	diag               []float64
	lcS, lrS, ucS, urS []int32
	lcI, lrI, ucI, urI []int32
	lcV, lrV, ucV, urV []float64

	etaPos   []int32
	etaPiv   []float64
	etaStart []int32
	etaIdx   []int32
	etaVal   []float64

	work  []float64
	work2 []float64

	sc luScratch
	sp sparseIndex
}

// luScratch is factorize's working storage, kept from one factorisation
// to the next (and, in a Workspace, from one solve to the next).
type luScratch struct {
	rowStart, rowPos, fill     []int32
	stride                     int // s when rowStart holds i·s (strideRows), else 0
	done                       []bool
	colCount, rowCount, queue  []int32
	cols, rowOrder, good, nzc  []int32
	rowCnt, colCnt, rows, open []int32
	dense, uMax                []float64
}

type pivot struct {
	row, pos int32
	val      float64
}

// A row's kind. rowNucleus is 0 so that factorize's clear makes every
// row active (not yet pivoted).
const (
	rowNucleus int8 = iota
	rowFront
	rowBack
)

// strideRows is the most rows for which factorize gives every row room
// for as many positions (64 rows, or strideRows, of strideRows each),
// rather than counting the rows first.
const strideRows = 128

const (
	pivotTol = 1e-11
	dropTol  = 1e-14
)

// factorize factors the basis columns. It returns the positions whose
// columns could not be pivoted (the basis is singular there) and the rows
// left without a pivot; the caller replaces those columns by the rows'
// logicals and factors again.
func (f *factor) factorize(m int, colRows [][]int32, colVals [][]float64) (singular []int, freeRows []int) {
	f.m, f.colRows, f.colVals = m, colRows, colVals
	f.etaPos, f.etaPiv, f.etaStart, f.etaIdx, f.etaVal = f.etaPos[:0], f.etaPiv[:0], f.etaStart[:0], f.etaIdx[:0], f.etaVal[:0]
	f.sp.built = false // its index of the updates (et) goes with them
	f.nIndex = resizeI32(f.nIndex, m)
	f.work = resizeF(f.work, m)
	f.work2 = resizeF(f.work2, m)
	// kind doubles as the rows' activity (rowNucleus, 0, until a row is
	// pivoted) and colCount as the columns' (-1 once pivoted): water
	// filling's bases are small (42 rows, 38 front pivots), so flags of
	// their own cost a sizeable part of a factorisation to set and test.
	f.kind = resizeI8(f.kind, m)
	kind := f.kind
	clear(kind)
	f.sc.colCount = resizeI32(f.sc.colCount, m)
	colCount := f.sc.colCount

	// Row lists: for each row, the positions with a nonzero in it, in
	// increasing order: row r's are rowPos[rowStart[r]:fill[r]]. The pass
	// that fills them also counts each column and queues the column
	// singletons, in increasing order.
	// queue is a stack of at most m: a column is queued once, when its
	// count is 1 at first or falls to 1 (and so is a row below).
	f.sc.queue = resizeI32(f.sc.queue, m)
	queue, top := f.sc.queue, 0
	var rowStart, rowPos, fill []int32
	nnz := 0
	if m <= strideRows {
		// Every row has room for m positions or more (a basis column
		// holds each row once), so one pass fills them, with no counts
		// first. The stride is 64 or strideRows, so the rows' starts stay
		// from one factorisation to the next though m changes.
		stride := 64
		if m > stride {
			stride = strideRows
		}
		if f.sc.stride != stride {
			f.sc.rowStart = resizeI32(f.sc.rowStart, stride+1)
			for i := range f.sc.rowStart {
				f.sc.rowStart[i] = int32(i * stride)
			}
			f.sc.rowPos = resizeI32(f.sc.rowPos, stride*stride)
			f.sc.stride = stride
		}
		rowStart, rowPos = f.sc.rowStart, f.sc.rowPos
		fill = append(f.sc.fill[:0], rowStart[:m]...)
		for p, rows := range colRows[:m] {
			colCount[p] = int32(len(rows))
			nnz += len(rows)
			if len(rows) == 1 {
				queue[top] = int32(p)
				top++
			}
			for _, r := range rows {
				rowPos[fill[r]] = int32(p)
				fill[r]++
			}
		}
	} else {
		f.sc.stride = 0
		f.sc.rowStart = zeroI32(f.sc.rowStart, m+1)
		rowStart = f.sc.rowStart
		for p, rows := range colRows[:m] {
			colCount[p] = int32(len(rows))
			if len(rows) == 1 {
				queue[top] = int32(p)
				top++
			}
			for _, r := range rows {
				rowStart[r+1]++
			}
		}
		for i := 0; i < m; i++ {
			rowStart[i+1] += rowStart[i]
		}
		nnz = int(rowStart[m])
		f.sc.rowPos = resizeI32(f.sc.rowPos, nnz)
		rowPos = f.sc.rowPos
		fill = append(f.sc.fill[:0], rowStart[:m]...)
		for p, rows := range colRows[:m] {
			for _, r := range rows {
				rowPos[fill[r]] = int32(p)
				fill[r]++
			}
		}
	}
	f.sc.fill = fill

	// Column singletons. A column met in a pivot's row is active if its
	// count is positive: it holds that row, still active.
	front, nf := resizePivots(f.front, m), 0
	for top > 0 {
		top--
		p := queue[top]
		if colCount[p] != 1 {
			continue // pivoted (-1), or no active row left (0)
		}
		r, v := int32(-1), 0.0
		vals := colVals[p]
		for k, i := range colRows[p] {
			if kind[i] == rowNucleus {
				r, v = i, vals[k]
				break
			}
		}
		if r < 0 || math.Abs(v) < pivotTol {
			continue // left to the nucleus, where it shows up as singular
		}
		front[nf] = pivot{r, p, v}
		nf++
		kind[r] = rowFront
		colCount[p] = -1
		// By index, not over a subslice of rowPos: making the subslice
		// (bounds, capacity, pointer mask) cost more than its checks save
		// on a row of two or three positions.
		for t, end := rowStart[r], fill[r]; t < end; t++ {
			q := rowPos[t]
			if c := colCount[q]; c > 0 {
				colCount[q] = c - 1
				if c == 2 {
					queue[top] = q
					top++
				}
			}
		}
	}
	f.front = front[:nf]
	if nf == m {
		f.noNucleus(m, nnz)
		return nil, nil
	}

	// Row singletons, on what is left.
	f.sc.rowCount = zeroI32(f.sc.rowCount, m)
	rowCount := f.sc.rowCount
	for i := 0; i < m; i++ {
		if kind[i] != rowNucleus {
			continue
		}
		for _, q := range rowPos[rowStart[i]:fill[i]] {
			if colCount[q] >= 0 {
				rowCount[i]++
			}
		}
		if rowCount[i] == 1 {
			queue[top] = int32(i)
			top++
		}
	}
	back := f.back[:0]
	for top > 0 {
		top--
		r := queue[top]
		if kind[r] != rowNucleus || rowCount[r] != 1 {
			continue
		}
		p := int32(-1)
		for _, q := range rowPos[rowStart[r]:fill[r]] {
			if colCount[q] >= 0 {
				p = q
				break
			}
		}
		v, big := 0.0, 0.0
		for k, i := range colRows[p] {
			if kind[i] == rowNucleus {
				big = maxAbs(big, math.Abs(colVals[p][k]))
				if i == r {
					v = colVals[p][k]
				}
			}
		}
		if math.Abs(v) < pivotTol || math.Abs(v) < 0.01*big {
			continue // unstable: leave it to the nucleus
		}
		back = append(back, pivot{r, p, v})
		kind[r] = rowBack
		colCount[p] = -1
		for _, i := range colRows[p] {
			if kind[i] == rowNucleus {
				rowCount[i]--
				if rowCount[i] == 1 {
					queue[top] = i
					top++
				}
			}
		}
	}
	f.back = back

	// The nucleus: dense LU with partial pivoting, column by column.
	f.nRows, f.nCols = f.nRows[:0], f.nCols[:0]
	nIndex := f.nIndex[:m]
	for i, kd := range kind[:m] {
		nIndex[i] = -1
		if kd == rowNucleus {
			nIndex[i] = int32(len(f.nRows))
			f.nRows = append(f.nRows, int32(i))
		}
	}
	cols := f.sc.cols[:0]
	for p, c := range colCount[:m] {
		if c >= 0 {
			cols = append(cols, int32(p))
		}
	}
	nr := len(f.nRows)
	f.sc.cols = cols
	f.sc.dense = zeroF(f.sc.dense, nr*len(cols))
	dense := f.sc.dense
	// Eliminate: rows are permuted, columns that find no pivot are singular.
	nc := len(cols)
	// rowCnt and colCnt count the active nonzeros, by nucleus row index
	// and by nucleus column; the scatter counts them (a basis column
	// holds each row once).
	f.sc.rowCnt, f.sc.colCnt = zeroI32(f.sc.rowCnt, nr), zeroI32(f.sc.colCnt, nc)
	rowCnt, colCnt := f.sc.rowCnt, f.sc.colCnt
	for c, p := range cols {
		for k, i := range colRows[p] {
			if x := f.nIndex[i]; x >= 0 {
				v := colVals[p][k]
				dense[int(x)*nc+c] = v
				if v != 0 {
					rowCnt[x]++
					colCnt[c]++
				}
			}
		}
	}
	f.sc.rowOrder = resizeI32(f.sc.rowOrder, nr)
	rowOrder := f.sc.rowOrder
	for i := range rowOrder {
		rowOrder[i] = int32(i)
	}
	k := 0
	good, nzc := f.sc.good[:0], f.sc.nzc[:0]
	defer func() { f.sc.good, f.sc.nzc = good, nzc }()
	// Markowitz-style order: the active column with fewest nonzeros, then
	// among its rows within a factor 10 of the largest entry (threshold
	// partial pivoting) the one with fewest nonzeros, to keep fill low.
	f.sc.uMax = zeroF(f.sc.uMax, nc)
	uMax := f.sc.uMax
	f.sc.done = resizeBool(f.sc.done, nc)
	done := f.sc.done
	clear(done)
	// open lists the columns not yet done, in increasing order, so the
	// choice below is the lowest-numbered column of fewest nonzeros.
	open := f.sc.open[:0]
	for cc := 0; cc < nc; cc++ {
		open = append(open, int32(cc))
	}
	f.sc.open = open
	for left := nc; left > 0 && k < nr; left-- {
		c, at := -1, -1
		for x, cc := range open {
			if c < 0 || colCnt[cc] < colCnt[c] {
				c, at = int(cc), x
			}
		}
		open = append(open[:at], open[at+1:]...)
		done[c] = true
		// A zero entry (most) changes neither maximum: both are ≥ 0 or
		// NaN. The rows pivoted so far have given their entries' maximum
		// (uMax): the same maxAbs of the same values in the same order
		// as a scan of rowOrder[:k] here.
		colMax := uMax[c]
		best := 0.0
		for _, r := range rowOrder[k:] {
			if v := math.Abs(dense[int(r)*nc+c]); v != 0 {
				colMax, best = maxAbs(colMax, v), maxAbs(best, v)
			}
		}
		if best < pivotTol || best < 1e-9*colMax {
			singular = append(singular, int(cols[c]))
			for i := k; i < nr; i++ {
				if dense[int(rowOrder[i])*nc+c] != 0 {
					rowCnt[rowOrder[i]]--
				}
			}
			continue
		}
		bi := -1
		for i := k; i < nr; i++ {
			r := rowOrder[i]
			if v := math.Abs(dense[int(r)*nc+c]); v >= 0.1*best && (bi < 0 || rowCnt[r] < rowCnt[rowOrder[bi]]) {
				bi = i
			}
		}
		rowOrder[k], rowOrder[bi] = rowOrder[bi], rowOrder[k]
		prow := int(rowOrder[k]) * nc
		pv := dense[prow+c]
		// The nucleus is sparse: update only the pivot row's nonzeros.
		nzc = nzc[:0]
		for cc := 0; cc < nc; cc++ {
			if v := dense[prow+cc]; !done[cc] && v != 0 {
				nzc = append(nzc, int32(cc))
				colCnt[cc]--
				uMax[cc] = maxAbs(uMax[cc], math.Abs(v)) // final: row k is pivoted
			}
		}
		for i := k + 1; i < nr; i++ {
			r := rowOrder[i]
			row := int(r) * nc
			a := dense[row+c]
			if a == 0 {
				continue // l would be 0 (pv is finite and not 0): no division
			}
			l := a / pv
			if l == 0 {
				continue
			}
			dense[row+c] = l
			rowCnt[r]--
			for _, cc := range nzc {
				old := dense[row+int(cc)]
				v := old - l*dense[prow+int(cc)]
				dense[row+int(cc)] = v
				switch {
				case old == 0 && v != 0:
					rowCnt[r]++
					colCnt[cc]++
				case old != 0 && v == 0:
					rowCnt[r]--
					colCnt[cc]--
				}
			}
		}
		good = append(good, int32(c))
		k++
	}
	for c := 0; c < nc; c++ {
		if !done[c] {
			singular = append(singular, int(cols[c])) // no rows left for them
		}
	}
	if len(singular) > 0 || k < nr {
		for i := k; i < nr; i++ {
			freeRows = append(freeRows, int(f.nRows[rowOrder[i]]))
		}
		return singular, freeRows
	}
	// The factors in pivot order: row a, column b of the k×k LU is
	// dense[rowOrder[a]][good[b]].
	f.nd = k
	f.perm = resizeI32(f.perm, k)
	copy(f.perm, rowOrder[:k])
	f.nCols = f.nCols[:0]
	for _, c := range good {
		f.nCols = append(f.nCols, cols[c])
	}
	f.sparseLU(dense, nc, good)
	// nRows in pivot order, and nIndex to match.
	f.sc.rows = resizeI32(f.sc.rows, k)
	rows := f.sc.rows
	for a := 0; a < k; a++ {
		rows[a] = f.nRows[f.perm[a]]
	}
	copy(f.nRows, rows)
	for a, r := range f.nRows {
		f.nIndex[r] = int32(a)
	}
	f.nucleusFront()
	f.offPivot(nnz)
	return nil, nil
}

// noNucleus ends a factorisation whose front pivots took every row (most
// of water filling's: 58% at 0.4 jobs/h) as the rest of factorize would,
// without its passes over the rows and positions that find nothing left:
// no back pivots, an empty nucleus, every row's nucleus index -1.
func (f *factor) noNucleus(m, nnz int) {
	f.back = f.back[:0]
	f.nRows, f.nCols = f.nRows[:0], f.nCols[:0]
	nIndex := f.nIndex[:m]
	for i := range nIndex {
		nIndex[i] = -1
	}
	f.nd = 0
	f.perm = f.perm[:0]
	f.sparseLU(nil, 0, nil)
	f.offPivot(nnz)
}

// offPivot fills offS, offI and offV from the front and back pivots.
// The lists are sized once, for every coefficient of the basis (nnz,
// at least what they hold), and written by index in offList, whose few
// live values stay in registers (appends to f's fields reloaded them
// at every entry).
func (f *factor) offPivot(nnz int) {
	nf, nb := len(f.front), len(f.back)
	f.offS = resizeI32(f.offS, nf+nb+1)
	f.offI, f.offV = resizeI32(f.offI, nnz), resizeF(f.offV, nnz)
	f.offS[0] = 0
	o := offList(f.front, f.colRows, f.colVals, f.offS[1:nf+1], f.offI, f.offV, 0)
	o = offList(f.back, f.colRows, f.colVals, f.offS[nf+1:], f.offI, f.offV, o)
	f.offI, f.offV = f.offI[:o], f.offV[:o]
	f.sp.built = false // buildSparse, when a sparse solve first needs it
}

// nucleusFront lists each nucleus column's entries in front rows into
// nfS, nfI and nfV, in nCols' order and each column's: what
// frontToNucleus reads at every btran (one a pivot row) and ftran at
// every dense solve, listed once a factorisation.
func (f *factor) nucleusFront() {
	kind := f.kind
	f.nfS = resizeI32(f.nfS, len(f.nCols)+1)
	nfS := f.nfS
	nfI, nfV := f.nfI[:0], f.nfV[:0]
	nfS[0] = 0
	for a, p := range f.nCols {
		rows, vals := f.colRows[p], f.colVals[p]
		vals = vals[:len(rows)]
		for k, i := range rows {
			if kind[i] == rowFront {
				nfI, nfV = append(nfI, i), append(nfV, vals[k])
			}
		}
		nfS[a+1] = int32(len(nfI))
	}
	f.nfI, f.nfV = nfI, nfV
}

// offList writes each pivot's column without its pivot entry into offI
// and offV from o on, and each one's end into ends; it returns the last
// end.
func offList(list []pivot, colRows [][]int32, colVals [][]float64, ends, offI []int32, offV []float64, o int) int {
	ends = ends[:len(list)]
	offV = offV[:len(offI)]
	for k, pv := range list {
		rows := colRows[pv.pos]
		if len(rows) == 1 {
			ends[k] = int32(o) // its one entry is the pivot's (logicals, most)
			continue
		}
		vals := colVals[pv.pos][:len(rows)]
		for x, i := range rows {
			if i != pv.row {
				offI[o], offV[o] = i, vals[x]
				o++
			}
		}
		ends[k] = int32(o)
	}
	return o
}

// sparseLU stores the nucleus's L and U (in dense, mostly zeros) by rows
// and by columns, so the triangular solves touch only nonzeros and skip
// zero entries of the vector. One pass over dense gathers the rows; the
// columns follow by a counting sort.
func (f *factor) sparseLU(dense []float64, nc int, good []int32) {
	nd := f.nd
	f.diag = resizeF(f.diag, nd)
	f.lcS, f.lrS, f.ucS, f.urS = resizeI32(f.lcS, nd+1), resizeI32(f.lrS, nd+1), resizeI32(f.ucS, nd+1), resizeI32(f.urS, nd+1)
	f.lrI, f.lrV, f.urI, f.urV = f.lrI[:0], f.lrV[:0], f.urI[:0], f.urV[:0]
	for i := range f.lcS {
		f.lcS[i], f.ucS[i] = 0, 0
	}
	for a := 0; a < nd; a++ {
		row := dense[int(f.perm[a])*nc:]
		f.lrS[a], f.urS[a] = int32(len(f.lrI)), int32(len(f.urI))
		for b, c := range good[:nd] {
			v := row[c]
			switch {
			case v == 0:
			case b < a:
				f.lrI, f.lrV = append(f.lrI, int32(b)), append(f.lrV, v)
				f.lcS[b+1]++
			case b > a:
				f.urI, f.urV = append(f.urI, int32(b)), append(f.urV, v)
				f.ucS[b+1]++
			default:
				f.diag[a] = v
			}
		}
	}
	f.lrS[nd], f.urS[nd] = int32(len(f.lrI)), int32(len(f.urI))
	f.lcI, f.lcV = transposeRows(f.lrS, f.lrI, f.lrV, f.lcS, f.lcI, f.lcV, &f.sc.fill)
	f.ucI, f.ucV = transposeRows(f.urS, f.urI, f.urV, f.ucS, f.ucI, f.ucV, &f.sc.fill)
}

// transposeRows turns row lists (rs, ri, rv) into column lists whose
// starts cs hold, on entry, each column's count at cs[c+1]. Within a
// column the rows come in increasing order.
func transposeRows(rs, ri []int32, rv []float64, cs, ci []int32, cv []float64, scratch *[]int32) ([]int32, []float64) {
	nd := len(rs) - 1
	for c := 0; c < nd; c++ {
		cs[c+1] += cs[c]
	}
	ci, cv = resizeI32(ci, len(ri)), resizeF(cv, len(rv))
	fill := append((*scratch)[:0], cs[:nd]...)
	*scratch = fill
	for a := 0; a < nd; a++ {
		for k := rs[a]; k < rs[a+1]; k++ {
			c := ri[k]
			ci[fill[c]], cv[fill[c]] = int32(a), rv[k]
			fill[c]++
		}
	}
	return ci, cv
}

// ftran solves B x = b in place: b is indexed by row on entry and x by
// position on return (in x).
func (f *factor) ftran(b, x []float64) {
	clear(x)
	nf := len(f.front)
	if len(f.back) > 0 {
		ftranBack(f.back, f.offS[nf:], f.offI, f.offV, b, x)
	}
	if nd := f.nd; nd > 0 {
		z := f.work[:nd]
		for a, r := range f.nRows[:nd] {
			z[a] = b[r]
		}
		f.solveNucleus(z)
		// Each nucleus column's entries in front rows as nucleusFront
		// listed them, in the column's order.
		nfS, nfI := f.nfS[:len(f.nCols)+1], f.nfI
		nfV := f.nfV[:len(nfI)]
		for a, p := range f.nCols {
			xc := z[a]
			x[p] = xc
			if xc == 0 {
				continue
			}
			for t := nfS[a]; t < nfS[a+1]; t++ {
				b[nfI[t]] -= nfV[t] * xc
			}
		}
	}
	ftranFrontDense(f.front, f.offS, f.offI, f.offV, b, x)
	f.ftranEtas(x)
}

// The dense solves' sweeps over the front and back pivots are functions
// of their own that call nothing, each taking only the slices it reads:
// inside ftran and btran, with the factor and the other parts' slices
// live, the compiler kept the loops' counters and slices on the stack
// and reloaded them at every pivot and entry (about 35 instructions a
// front pivot of one entry on space sharing's bases). The same
// operations in the same order.

// ftranBack is ftran's sweep over the back pivots, first to last; offS
// holds their entries' bounds (offS[k], offS[k+1] for back pivot k).
//
//go:noinline
func ftranBack(back []pivot, offS, offI []int32, offV, b, x []float64) {
	offV = offV[:len(offI)]
	for k, pv := range back {
		xc := b[pv.row] / pv.val
		x[pv.pos] = xc
		if xc == 0 {
			continue
		}
		for t, end := offS[k], offS[k+1]; t < end; t++ {
			b[offI[t]] -= offV[t] * xc
		}
	}
}

// ftranFrontDense is ftran's sweep over every front pivot, last first:
// each one's entries start where the one before's end, so the start is
// carried, one load of offS a pivot.
//
//go:noinline
func ftranFrontDense(front []pivot, offS, offI []int32, offV, b, x []float64) {
	offV = offV[:len(offI)]
	end := offS[len(front)]
	for k := len(front) - 1; k >= 0; k-- {
		pv := front[k]
		start := offS[k]
		xc := b[pv.row] / pv.val
		x[pv.pos] = xc
		if xc != 0 {
			for t := start; t < end; t++ {
				b[offI[t]] -= offV[t] * xc
			}
		}
		end = start
	}
}

// frontToNucleus is btran's step from the front pivots to the nucleus:
// z[a] is d at the nucleus's a-th position less the dot product of its
// column's entries in front rows with y, in the column's order, as
// nucleusFront listed them (from nfS[a] to nfS[a+1] in nfI and nfV). A
// function of its own that calls nothing: in btran the compiler kept the
// loops' slices on the stack and reloaded them per entry.
//
//go:noinline
func frontToNucleus(nCols, nfS, nfI []int32, nfV, d, y, z []float64) {
	z = z[:len(nCols)]
	for a, p := range nCols {
		z[a] = d[p]
	}
	nfV = nfV[:len(nfI)]
	// Each column's entries start where the one before's end: t runs on.
	t := int(nfS[0])
	for a, end := range nfS[1 : len(z)+1] {
		s := z[a]
		for ; t < int(end); t++ {
			s -= nfV[t] * y[nfI[t]]
		}
		z[a] = s
	}
}

// solveNucleus solves the nucleus's L U z = z in place: L (unit
// diagonal) then U, each by columns. Each column's end is read once: in
// the loop's test the compiler loaded it again (with its bounds check)
// at every entry, since the stores into z might change it for all it
// knows.
func (f *factor) solveNucleus(z []float64) {
	nd := len(z)
	lcS, lcI, lcV := f.lcS, f.lcI, f.lcV
	for c := 0; c < nd; c++ {
		if zc := z[c]; zc != 0 {
			for k, end := lcS[c], lcS[c+1]; k < end; k++ {
				z[lcI[k]] -= lcV[k] * zc
			}
		}
	}
	ucS, ucI, ucV, diag := f.ucS, f.ucI, f.ucV, f.diag
	for a := nd - 1; a >= 0; a-- {
		za := z[a] / diag[a]
		z[a] = za
		if za != 0 {
			for k, end := ucS[a], ucS[a+1]; k < end; k++ {
				z[ucI[k]] -= ucV[k] * za
			}
		}
	}
}

// solveNucleusT solves the nucleus's (L U)ᵀ z = z in place: Uᵀ then Lᵀ,
// each by rows, each row's end read once as in solveNucleus.
func (f *factor) solveNucleusT(z []float64) {
	nd := len(z)
	urS, urI, urV, diag := f.urS, f.urI, f.urV, f.diag
	for a := 0; a < nd; a++ {
		za := z[a] / diag[a]
		z[a] = za
		if za != 0 {
			for k, end := urS[a], urS[a+1]; k < end; k++ {
				z[urI[k]] -= urV[k] * za
			}
		}
	}
	lrS, lrI, lrV := f.lrS, f.lrI, f.lrV
	for c := nd - 1; c >= 0; c-- {
		if zc := z[c]; zc != 0 {
			for k, end := lrS[c], lrS[c+1]; k < end; k++ {
				z[lrI[k]] -= lrV[k] * zc
			}
		}
	}
}

// ftranEtas applies the product-form updates to x, oldest first. Each
// update's entries are indexed in the arrays of all of them: slicing
// them per update cost more than the loops of the short ones (FTF's
// tie-break: about 45 updates of 4.5 entries).
func (f *factor) ftranEtas(x []float64) {
	pos, piv, starts := f.etaPos, f.etaPiv[:len(f.etaPos)], f.etaStart[:len(f.etaPos)]
	idx := f.etaIdx
	val := f.etaVal[:len(idx)]
	for e, p := range pos {
		xp := x[p] / piv[e]
		if xp != 0 {
			end := len(idx)
			if e+1 < len(starts) {
				end = int(starts[e+1])
			}
			for t := int(starts[e]); t < end; t++ {
				x[idx[t]] -= val[t] * xp
			}
		}
		x[p] = xp
	}
}

// btran solves Bᵀ y = d: d is indexed by position (it is overwritten) and
// y by row.
func (f *factor) btran(d, y []float64) {
	f.btranEtas(d)
	clear(y)
	btranFrontDense(f.front, f.offS, f.offI, f.offV, d, y)
	if nd := f.nd; nd > 0 {
		z := f.work[:nd]
		frontToNucleus(f.nCols, f.nfS, f.nfI, f.nfV, d, y, z)
		f.solveNucleusT(z)
		for a, r := range f.nRows[:nd] {
			y[r] = z[a]
		}
	}
	if len(f.back) > 0 {
		btranBack(f.back, f.offS[len(f.front):], f.offI, f.offV, d, y)
	}
}

// btranFrontDense is btran's sweep over every front pivot, first to
// last: each one's entries end where the next one's start, so the end is
// carried, one load of offS a pivot instead of two.
//
//go:noinline
func btranFrontDense(front []pivot, offS, offI []int32, offV, d, y []float64) {
	offV = offV[:len(offI)]
	t := offS[0]
	for k, pv := range front {
		s := d[pv.pos]
		end := offS[k+1]
		for ; t < end; t++ {
			s -= offV[t] * y[offI[t]]
		}
		y[pv.row] = s / pv.val
	}
}

// btranBack is btran's sweep over the back pivots, last first; offS
// holds their entries' bounds as in ftranBack.
//
//go:noinline
func btranBack(back []pivot, offS, offI []int32, offV, d, y []float64) {
	for k := len(back) - 1; k >= 0; k-- {
		pv := back[k]
		s := d[pv.pos]
		idx := offI[offS[k]:offS[k+1]]
		val := offV[offS[k]:offS[k+1]]
		val = val[:len(idx)]
		for t, i := range idx {
			s -= val[t] * y[i]
		}
		y[pv.row] = s / pv.val
	}
}

// btranEtas applies the product-form updates' transposes to d, newest
// first. Each update's entries end where the next one's start: the end
// is carried, and the entries indexed as in ftranEtas.
func (f *factor) btranEtas(d []float64) {
	pos, piv, starts := f.etaPos, f.etaPiv[:len(f.etaPos)], f.etaStart[:len(f.etaPos)]
	idx := f.etaIdx
	val := f.etaVal[:len(idx)]
	end := len(idx)
	for e := len(pos) - 1; e >= 0; e-- {
		p, start := pos[e], int(starts[e])
		s := d[p]
		for t := start; t < end; t++ {
			s -= val[t] * d[idx[t]]
		}
		d[p] = s / piv[e]
		end = start
	}
}

// btranRest is btran after the front pivots: the nucleus, then the back
// pivots, last first.
func (f *factor) btranRest(d, y []float64) {
	offS, offI, offV, nf := f.offS, f.offI, f.offV, len(f.front)
	if nd := f.nd; nd > 0 {
		z := f.work[:nd]
		frontToNucleus(f.nCols, f.nfS, f.nfI, f.nfV, d, y, z)
		f.solveNucleusT(z)
		for a, r := range f.nRows {
			y[r] = z[a]
		}
	}
	for k := len(f.back) - 1; k >= 0; k-- {
		pv := f.back[k]
		s := d[pv.pos]
		idx := offI[offS[nf+k]:offS[nf+k+1]]
		val := offV[offS[nf+k]:offS[nf+k+1]]
		val = val[:len(idx)]
		for t, i := range idx {
			s -= val[t] * y[i]
		}
		if math.Float64bits(s) != 0 {
			y[pv.row] = s / pv.val
		}
	}
}

// update records that position p now holds the column whose ftran is
// alpha (indexed by position), which is 0 but at the positions listed in
// nz, in increasing order.
func (f *factor) update(p int, alpha []float64, nz []int32) {
	f.etaPos = append(f.etaPos, int32(p))
	f.etaPiv = append(f.etaPiv, alpha[p])
	f.etaStart = append(f.etaStart, int32(len(f.etaIdx)))
	for _, k32 := range nz {
		k, v := int(k32), alpha[k32]
		// Entries below dropTol are rounding noise from cancellation:
		// keeping them only makes every later solve slower.
		if k != p && (v > dropTol || v < -dropTol) {
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

func resizePivots(s []pivot, n int) []pivot {
	if cap(s) < n {
		return make([]pivot, n)
	}
	return s[:n]
}

func resizeI8(s []int8, n int) []int8 {
	if cap(s) < n {
		return make([]int8, n)
	}
	return s[:n]
}

// zeroF, zeroI32, resizeVS and resizeBool are resize's kin: zeroF and
// zeroI32 clear what they return; the others leave it to the caller.
func zeroF(s []float64, n int) []float64 {
	s = resizeF(s, n)
	clear(s)
	return s
}

func zeroI32(s []int32, n int) []int32 {
	s = resizeI32(s, n)
	clear(s)
	return s
}

func resizeVS(s []VarStatus, n int) []VarStatus {
	if cap(s) < n {
		return make([]VarStatus, n)
	}
	return s[:n]
}

func resizeBool(s []bool, n int) []bool {
	if cap(s) < n {
		return make([]bool, n)
	}
	return s[:n]
}

// maxAbs is math.Max(m, v) for m and v each an absolute value or NaN (so
// never −0), without math.Max's call in the common case: the nucleus's
// column scans made that call a tenth of a factorisation.
func maxAbs(m, v float64) float64 {
	if v > m {
		return v
	}
	if v != v || m != m {
		return maxNaN(m, v)
	}
	return m
}

// maxNaN is maxAbs's rare case, out of line so that maxAbs inlines.
//
//go:noinline
func maxNaN(m, v float64) float64 { return math.Max(m, v) }

func resizeU8(s []uint8, n int) []uint8 {
	if cap(s) < n {
		return make([]uint8, n)
	}
	return s[:n]
}
