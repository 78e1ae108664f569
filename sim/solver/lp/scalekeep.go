package lp

import "math"

// scaleKeep lets a solver scale a problem that CopyRows made from a
// template from the scales of the last one it loaded from that template,
// when the new problem's rows are some of the last one's: water filling's
// steps, about eleven a template, each its template's rows less those of
// the classes that froze (alloc.stepLP). Every scale scale computes is a
// function of a set of values: each row's and column's smallest and
// largest |a_ij| times the scales of the other side, then a power of two
// from their product. Minimum and maximum do not depend on the order
// (the values are never NaN, and never −0: absolute values times powers
// of two), so a scale whose inputs are the same values gives the same
// bits, and only those whose inputs may have changed are computed again:
//
//   - the first pass's row scales depend on the row's own entries, and
//     a kept row has all of them (every column is kept): they never
//     change;
//   - the first pass's column scales, on the first-pass scales of the
//     column's rows: only a column with an entry in a row left out;
//   - the second pass's row scales, on the first-pass scales of the
//     row's columns: only a row with a column whose first-pass scale
//     changed;
//   - the final column scales, on the second-pass scales of the column's
//     rows (and its first-pass scale if it has no nonzero entry): only a
//     column with an entry in a row left out or in a row whose second-
//     pass scale changed.
//
// The scaled matrix and its row-wise copy are then written as scale
// writes them, from the same scales. TestKeptScalesAsSeparatePasses
// compares it with the separate passes over random sequences of copies.
type scaleKeep struct {
	tpl       *Problem // nil: nothing kept
	tplMatrix uint64
	rows      []int32 // the template's rows of the problem loaded last
	// c0 are the first pass's column scales.
	c0 []float64
	// rs0 and rs1 are the first pass's and the final row scales, by the
	// template's row (valid for rows of base).
	rs0, rs1 []float64
	// The raw row-wise copy of base, the problem last scaled in full:
	// bAt is each template row's row in it (or −1), bStart, bCol and bVal
	// its rows' columns and coefficients (all later problems' rows are
	// among its rows).
	bAt    []int32
	bStart []int32
	bCol   []int32
	bVal   []float64
	// Scratch: marks by column and by row (a mark is stamp), the columns
	// and rows marked, and the problem's first-pass row scales.
	colMark, rowMark    []uint32
	stamp               uint32
	gone, marked, moved []int32
	rs0p                []float64
	// used counts the loads scaled from kept scales, for tests (a count of
	// the solver's own: solvers run on several goroutines at once).
	used int
}

// fits reports whether p can be scaled from the kept scales: it is a copy
// of the template they are of, neither has changed since, and its rows
// are some of those of the problem loaded last, in the same order (water
// filling's are in increasing order). It lists in k.gone the template's
// rows left out since.
func (k *scaleKeep) fits(p *Problem) bool {
	if k.tpl == nil || p.src != k.tpl || !p.derived() || p.srcMatrix != k.tplMatrix || len(p.colRows) != len(k.c0) {
		return false
	}
	gone := k.gone[:0]
	at := 0
	for _, r := range p.srcRows {
		for at < len(k.rows) && k.rows[at] < r {
			gone = append(gone, k.rows[at])
			at++
		}
		if at == len(k.rows) || k.rows[at] != r {
			k.gone = gone
			return false // a row the last problem did not have
		}
		at++
	}
	gone = append(gone, k.rows[at:]...)
	k.gone = gone
	return true
}

// nextStamp starts a new marking of columns and rows.
func (k *scaleKeep) nextStamp(n, m int) uint32 {
	if len(k.colMark) < n {
		k.colMark = make([]uint32, n)
	}
	if len(k.rowMark) < m {
		k.rowMark = make([]uint32, m)
	}
	k.stamp++
	if k.stamp == 0 { // wrapped: no mark may be taken for a current one
		clear(k.colMark)
		clear(k.rowMark)
		k.stamp = 1
	}
	return k.stamp
}

// record keeps the scales of p, a copy of a template just scaled in full
// (s.colScale and s.rowScale are final, k.c0 and k.rs0p the first
// pass's), and its raw row-wise copy, for later copies of the template.
func (s *solver) record(p *Problem) {
	k := &s.keep
	t, rs0 := p.src, k.rs0p
	nt, m := len(t.rowLo), len(p.srcRows)
	k.tpl, k.tplMatrix = t, p.srcMatrix
	k.rows = append(k.rows[:0], p.srcRows...)
	k.rs0, k.rs1 = resizeF(k.rs0, nt), resizeF(k.rs1, nt)
	k.bAt = resizeI32(k.bAt, nt)
	for r := range k.bAt {
		k.bAt[r] = -1
	}
	for i, r := range p.srcRows {
		k.rs0[r], k.rs1[r], k.bAt[r] = rs0[i], s.rowScale[i], int32(i)
	}
	// The row-wise copy's starts and columns are scale's; only the raw
	// values are new.
	k.bStart = append(k.bStart[:0], s.rs[:m+1]...)
	k.bCol = append(k.bCol[:0], s.rc...)
	k.bVal = resizeF(k.bVal, len(s.rc))
	fill := append(s.fill[:0], k.bStart[:m]...)
	s.fill = fill
	for j, rows := range p.colRows {
		vals := p.colVals[j][:len(rows)]
		for x, i := range rows {
			k.bVal[fill[i]] = vals[x]
			fill[i]++
		}
	}
}

// scaleKept is scale for a problem fits took: the scales that may have
// changed since the problem loaded last are computed again (see
// scaleKeep), the others kept, and the scaled matrix and its row-wise
// copy written from them.
func (s *solver) scaleKept(p *Problem) {
	k := &s.keep
	k.used++
	n, m := s.n, s.m
	colRows, colVals := p.colRows[:n], p.colVals[:n]
	s.rowScale = resizeF(s.rowScale, m)
	rowScale := s.rowScale[:m]
	colScale := s.colScale[:n] // the last problem's final column scales
	k.rs0p = resizeF(k.rs0p, m)
	rs0 := k.rs0p[:m]
	for i, r := range p.srcRows {
		rs0[i] = k.rs0[r]
	}
	stamp := k.nextStamp(n, m)
	colMark, rowMark := k.colMark[:n], k.rowMark[:m]
	// The columns of the rows left out: their first-pass scales.
	gone := k.gone
	touched := k.marked[:0]
	for _, r := range gone {
		b := k.bAt[r]
		for _, j := range k.bCol[k.bStart[b]:k.bStart[b+1]] {
			if colMark[j] != stamp {
				colMark[j] = stamp
				touched = append(touched, j)
			}
		}
	}
	// Rows with a column whose first-pass scale changed: their second-
	// pass scales.
	rows := k.moved[:0]
	for _, j := range touched {
		c := colScaleOf(colRows[j], colVals[j], rs0, 1)
		if math.Float64bits(c) == math.Float64bits(k.c0[j]) {
			continue
		}
		k.c0[j] = c
		for _, i := range colRows[j] {
			if rowMark[i] != stamp {
				rowMark[i] = stamp
				rows = append(rows, i)
			}
		}
	}
	for _, i := range rows {
		r := p.srcRows[i]
		b := k.bAt[r]
		lo, hi := math.Inf(1), 0.0
		vals := k.bVal[k.bStart[b]:k.bStart[b+1]]
		for x, j := range k.bCol[k.bStart[b]:k.bStart[b+1]] {
			v := math.Abs(vals[x]) * k.c0[j]
			if v < lo {
				lo = v
			}
			if v > hi {
				hi = v
			}
		}
		rs1 := rs0[i]
		if hi > 0 {
			if rs1 = pow2Normal(1 / math.Sqrt(lo*hi)); rs1 == 0 {
				rs1 = pow2Frexp(1 / math.Sqrt(lo*hi))
			}
		}
		if math.Float64bits(rs1) == math.Float64bits(k.rs1[r]) {
			continue
		}
		k.rs1[r] = rs1
		// Its columns' final scales change too.
		for _, j := range k.bCol[k.bStart[b]:k.bStart[b+1]] {
			if colMark[j] != stamp {
				colMark[j] = stamp
				touched = append(touched, j)
			}
		}
	}
	for i, r := range p.srcRows {
		rowScale[i] = k.rs1[r]
	}
	for _, j := range touched {
		colScale[j] = colScaleOf(colRows[j], colVals[j], rowScale, k.c0[j])
	}
	k.marked, k.moved = touched, rows
	// The row-wise copy's counts are the rows' own, kept.
	s.rs = resizeI32(s.rs, m+1)
	rs := s.rs[:m+1]
	rs[0] = 0
	for i, r := range p.srcRows {
		b := k.bAt[r]
		rs[i+1] = rs[i] + k.bStart[b+1] - k.bStart[b]
	}
	nnz := len(s.ri)
	s.rc, s.rvr = resizeI32(s.rc, nnz), resizeF(s.rvr, nnz)
	s.fill = append(s.fill[:0], rs[:m]...)
	copyScaled(colRows, colVals, rowScale, colScale, s.ri[:nnz], s.rv[:nnz], s.rc[:nnz], s.rvr[:nnz], s.fill)
	k.rows = append(k.rows[:0], p.srcRows...)
}

// copyScaled writes the columns, scaled, into ri and rv (by columns, in
// order) and into the row-wise copy rc and rvr at the rows' fill
// pointers fill: scale's last loop, its scales already set.
func copyScaled(colRows [][]int32, colVals [][]float64, rowScale, colScale []float64, ri []int32, rv []float64, rc []int32, rvr []float64, fill []int32) {
	o := 0
	colScale = colScale[:len(colRows)]
	for j, rows := range colRows {
		vals, cj := colVals[j][:len(rows)], colScale[j]
		for x, i := range rows {
			v := vals[x] * (rowScale[i] * cj)
			ri[o], rv[o] = i, v
			o++
			f := fill[i]
			rc[f], rvr[f] = int32(j), v
			fill[i] = f + 1
		}
	}
}

// colScaleOf is the scale of a column with entries vals in rows under the
// rows' scales rowScale, as scale computes it, or old for a column with
// no nonzero entry.
func colScaleOf(rows []int32, vals, rowScale []float64, old float64) float64 {
	vals = vals[:len(rows)]
	a, b := math.Inf(1), 0.0
	for x, i := range rows {
		v := math.Abs(vals[x]) * rowScale[i]
		if v < a {
			a = v
		}
		if v > b {
			b = v
		}
	}
	if b > 0 {
		if c := pow2Normal(1 / math.Sqrt(a*b)); c != 0 {
			return c
		}
		return pow2Frexp(1 / math.Sqrt(a*b))
	}
	return old
}
