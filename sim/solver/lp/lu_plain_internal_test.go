package lp

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// factorizePlain is factorize as first written: the rows' and columns'
// activity in flags of their own, set to true row by row, the column
// singletons queued by a pass of their own, offPivotPlain.
func factorizePlain(f *factor, m int, colRows [][]int32, colVals [][]float64) (singular []int, freeRows []int) {
	f.m, f.colRows, f.colVals = m, colRows, colVals
	f.front, f.back = f.front[:0], f.back[:0]
	f.etaPos, f.etaPiv, f.etaStart, f.etaIdx, f.etaVal = f.etaPos[:0], f.etaPiv[:0], f.etaStart[:0], f.etaIdx[:0], f.etaVal[:0]
	f.kind = resizeI8(f.kind, m)
	f.nIndex = resizeI32(f.nIndex, m)
	f.work = resizeF(f.work, m)
	f.work2 = resizeF(f.work2, m)

	// Row lists: for each row, the positions with a nonzero in it.
	f.sc.rowStart = zeroI32(f.sc.rowStart, m+1)
	rowStart := f.sc.rowStart
	for p := 0; p < m; p++ {
		for _, r := range colRows[p] {
			rowStart[r+1]++
		}
	}
	for i := 0; i < m; i++ {
		rowStart[i+1] += rowStart[i]
	}
	f.sc.rowPos = resizeI32(f.sc.rowPos, int(rowStart[m]))
	rowPos := f.sc.rowPos
	fill := append(f.sc.fill[:0], rowStart[:m]...)
	f.sc.fill = fill
	for p := 0; p < m; p++ {
		for _, r := range colRows[p] {
			rowPos[fill[r]] = int32(p)
			fill[r]++
		}
	}
	activeRow, activeCol := make([]bool, m), make([]bool, m)
	f.sc.colCount, f.sc.rowCount = resizeI32(f.sc.colCount, m), zeroI32(f.sc.rowCount, m)
	colCount, rowCount := f.sc.colCount, f.sc.rowCount
	for i := range activeRow {
		activeRow[i], activeCol[i] = true, true
		colCount[i] = int32(len(colRows[i]))
	}

	// Column singletons.
	queue := f.sc.queue[:0]
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
				big = maxAbs(big, math.Abs(colVals[p][k]))
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
	cols := f.sc.cols[:0]
	for p := 0; p < m; p++ {
		if activeCol[p] {
			cols = append(cols, int32(p))
		}
	}
	nr := len(f.nRows)
	f.sc.queue, f.sc.cols = queue, cols
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
	f.nucleusFront() // what btran's step to the nucleus reads
	offPivotPlain(f)
	return nil, nil
}

// offPivotPlain is offPivot as first written, appending through f.
func offPivotPlain(f *factor) {
	f.offS, f.offI, f.offV = append(f.offS[:0], 0), f.offI[:0], f.offV[:0]
	for _, list := range [2][]pivot{f.front, f.back} {
		for _, pv := range list {
			vals := f.colVals[pv.pos]
			for k, i := range f.colRows[pv.pos] {
				if i != pv.row {
					f.offI = append(f.offI, i)
					f.offV = append(f.offV, vals[k])
				}
			}
			f.offS = append(f.offS, int32(len(f.offI)))
		}
	}
	f.sp.built = false // buildSparse, when a sparse solve first needs it
}

// randomBasis draws m basis columns like a warm simplex basis's: most of
// them logicals (one entry, the shared value −1), the others structural
// over a few random rows, now and then a row in every column (water
// filling's t), tiny entries (below pivotTol), zeros, an empty column,
// or a column twice (singular bases).
func randomBasis(r *rand.Rand, m int) ([][]int32, [][]float64) {
	colRows, colVals := make([][]int32, m), make([][]float64, m)
	logVal := []float64{-1}
	dense := -1
	if r.IntN(3) == 0 {
		dense = r.IntN(m)
	}
	perm := r.Perm(m) // the logicals' rows, each row's logical once
	for p := range m {
		switch k := r.IntN(10); {
		case k < 5:
			colRows[p], colVals[p] = []int32{int32(perm[p])}, logVal
			continue
		case k == 5 && p > 0 && r.IntN(40) == 0:
			q := r.IntN(p)
			colRows[p], colVals[p] = colRows[q], colVals[q]
			continue
		case k == 6 && r.IntN(60) == 0:
			continue // empty
		}
		rows := map[int32]bool{}
		rows[int32(perm[p])] = true
		for range r.IntN(4) {
			rows[int32(r.IntN(m))] = true
		}
		if dense >= 0 {
			rows[int32(dense)] = true
		}
		for i := range rows {
			colRows[p] = append(colRows[p], i)
		}
		slices.Sort(colRows[p])
		if r.IntN(2) == 0 {
			slices.Reverse(colRows[p])
		}
		for range colRows[p] {
			v := (r.Float64() - 0.5) * math.Ldexp(1, r.IntN(40)-20)
			switch r.IntN(60) {
			case 0:
				v = 0
			case 1:
				v = 1e-12
			case 2:
				v = float64(1 + r.IntN(3))
			}
			colVals[p] = append(colVals[p], v)
		}
	}
	return colRows, colVals
}

// sameFactors reports the first difference between two factorisations
// of the same basis: their results, their pivots and every array the
// solves read, bit for bit, and then ftran and btran of a few vectors.
func sameFactors(r *rand.Rand, a, b *factor, sa, sb, fa, fb []int) error {
	if !slices.Equal(sa, sb) || !slices.Equal(fa, fb) {
		return fmt.Errorf("singular %v and free rows %v, plain gives %v and %v", sa, fa, sb, fb)
	}
	if len(sa) > 0 {
		if !slices.Equal(a.kind, b.kind) {
			return fmt.Errorf("singular basis: row kinds %v, plain gives %v", a.kind, b.kind)
		}
		return nil
	}
	bits := func(v []float64) []uint64 {
		out := make([]uint64, len(v))
		for i, x := range v {
			out[i] = math.Float64bits(x)
		}
		return out
	}
	checks := []struct {
		name string
		same bool
	}{
		{"front pivots", slices.Equal(a.front, b.front)},
		{"back pivots", slices.Equal(a.back, b.back)},
		{"row kinds", slices.Equal(a.kind, b.kind)},
		{"nucleus rows", slices.Equal(a.nRows, b.nRows)},
		{"nucleus positions", slices.Equal(a.nCols, b.nCols)},
		{"nucleus index", slices.Equal(a.nIndex, b.nIndex)},
		{"nucleus order", a.nd == b.nd && slices.Equal(a.perm, b.perm)},
		{"diagonal", slices.Equal(bits(a.diag[:a.nd]), bits(b.diag[:b.nd]))},
		{"L", slices.Equal(a.lcS, b.lcS) && slices.Equal(a.lcI, b.lcI) && slices.Equal(bits(a.lcV), bits(b.lcV)) &&
			slices.Equal(a.lrS, b.lrS) && slices.Equal(a.lrI, b.lrI) && slices.Equal(bits(a.lrV), bits(b.lrV))},
		{"U", slices.Equal(a.ucS, b.ucS) && slices.Equal(a.ucI, b.ucI) && slices.Equal(bits(a.ucV), bits(b.ucV)) &&
			slices.Equal(a.urS, b.urS) && slices.Equal(a.urI, b.urI) && slices.Equal(bits(a.urV), bits(b.urV))},
		{"off-pivot lists", slices.Equal(a.offS, b.offS) && slices.Equal(a.offI, b.offI) && slices.Equal(bits(a.offV), bits(b.offV))},
	}
	for _, c := range checks {
		if !c.same {
			return fmt.Errorf("%s differ", c.name)
		}
	}
	m := a.m
	for range 3 {
		rhs := make([]float64, m)
		for i := range rhs {
			if r.IntN(3) > 0 {
				rhs[i] = r.NormFloat64()
			}
		}
		ba, bb, xa, xb := slices.Clone(rhs), slices.Clone(rhs), make([]float64, m), make([]float64, m)
		a.ftran(ba, xa)
		b.ftran(bb, xb)
		if !slices.Equal(bits(xa), bits(xb)) {
			return fmt.Errorf("ftran gives %v, plain %v", xa, xb)
		}
		da, db, ya, yb := slices.Clone(rhs), slices.Clone(rhs), make([]float64, m), make([]float64, m)
		a.btran(da, ya)
		b.btran(db, yb)
		if !slices.Equal(bits(ya), bits(yb)) {
			return fmt.Errorf("btran gives %v, plain %v", ya, yb)
		}
	}
	return nil
}

// factorize must factor as factorizePlain does, bit for bit: the same
// singular positions and free rows, pivots, factors and solves. One
// factor serves every basis in turn (so nothing may be left from the
// one before), random bases of 1 to 60 rows, an eighth of them of
// strideRows±30 instead (both ways of building the row lists), and bases drawn from water filling's step LPs (each with its
// logicals).
func TestFactorizeSameAsPlain(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var got, want factor
	allFront := 0 // bases whose front pivots take every row (noNucleus)
	check := func(name string, m int, colRows [][]int32, colVals [][]float64) {
		t.Helper()
		sg, fg := got.factorize(m, colRows, colVals)
		if len(got.front) == m && len(sg) == 0 {
			allFront++
		}
		sw, fw := factorizePlain(&want, m, colRows, colVals)
		if err := sameFactors(r, &got, &want, sg, sw, fg, fw); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	singular := 0
	for trial := range 20000 {
		m := 1 + r.IntN(60)
		if trial%8 == 0 {
			// Either side of strideRows: row lists at a stride of m, or
			// counted first, one factor going from one to the other.
			m = strideRows - 30 + r.IntN(60)
		}
		colRows, colVals := randomBasis(r, m)
		if s, _ := factorizePlain(&factor{}, m, colRows, colVals); len(s) > 0 {
			singular++
		}
		check(fmt.Sprintf("random basis %d (%d rows)", trial, m), m, colRows, colVals)
	}
	t.Logf("%d of 20000 random bases singular, %d all front pivots", singular, allFront)
	if allFront < 1000 {
		t.Fatalf("%d random bases all front pivots: the test wants more", allFront)
	}
	if singular < 2000 || singular > 18000 {
		t.Fatalf("%d of 20000 random bases singular: the test wants both kinds", singular)
	}
	for k, p := range waterfillProblems(t) {
		m, n := p.NumRows(), p.NumCols()
		logVal := []float64{-1}
		for trial := range 40 {
			colRows, colVals := make([][]int32, m), make([][]float64, m)
			for pos := range m {
				if j := r.IntN(n + m); j < n && r.IntN(3) > 0 {
					colRows[pos], colVals[pos] = p.colRows[j], p.colVals[j]
				} else {
					colRows[pos], colVals[pos] = []int32{int32(r.IntN(m))}, logVal
				}
			}
			check(fmt.Sprintf("water filling LP %d, basis %d", k, trial), m, colRows, colVals)
		}
	}
}

// waterfillProblems are the LPs of testdata/waterfill-steps.mps.gz.
func waterfillProblems(tb testing.TB) []*Problem {
	tb.Helper()
	var ps []*Problem
	var cur bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(gunzipTestdata(tb, "waterfill-steps.mps.gz")))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		cur.Write(sc.Bytes())
		cur.WriteByte('\n')
		if sc.Text() == "ENDATA" {
			p, err := ReadMPS(&cur)
			if err != nil {
				tb.Fatal(err)
			}
			ps = append(ps, p)
			cur.Reset()
		}
	}
	return ps
}
