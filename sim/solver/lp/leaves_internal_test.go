package lp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The per-pivot loops run as functions of their own (rowScatter.byMark,
// addRowMarked, dualsAlong, structuralCosts; the dense solves' sweeps):
// the tests here hold the loops as they were written inside pivotRow,
// updateDuals, ftran and btran, and compare them bit for bit.

// bitsOf is v's bits, for comparing floats with their signed zeros and
// NaNs.
func bitsOf(v []float64) []uint64 {
	out := make([]uint64, len(v))
	for i, x := range v {
		out[i] = math.Float64bits(x)
	}
	return out
}

// pivotRowPlain is pivotRow's product as first written, inside the
// function, after the btran: ρ in s.rho at the rows s.rowNZ lists, the
// list written by index into touch, reading s.stat or, when marked,
// s.mark for the basics. It returns the list's length and the entries.
func pivotRowPlain(s *solver, touch []int32, marked bool) (int, int) {
	alphaR := s.alphaR
	mark := s.mark[:len(alphaR)]
	nt := 0
	rho, rs, rc, rvr, n := s.rho, s.rs, s.rc, s.rvr, s.n
	rvr = rvr[:len(rc)]
	entries := 0
	if !marked {
		stat := s.stat[:len(alphaR)]
		for _, i32 := range s.rowNZ {
			i := int(i32)
			v := rho[i]
			if v == 0 {
				continue
			}
			if j := n + i; stat[j] != Basic {
				alphaR[j] = -v
				mark[j] = markListed
				touch[nt] = int32(j)
				nt++
			}
			end := int(rs[i+1])
			entries += end - int(rs[i])
			for t := int(rs[i]); t < end; t++ {
				j := rc[t]
				if stat[j] == Basic {
					continue
				}
				if mark[j] == markNone {
					mark[j] = markListed
					touch[nt] = j
					nt++
				}
				alphaR[j] += v * rvr[t]
			}
		}
		return nt, entries
	}
	for _, j := range s.head {
		mark[j] = markBasic
	}
	for _, i32 := range s.rowNZ {
		i := int(i32)
		v := rho[i]
		if v == 0 {
			continue
		}
		if j := n + i; mark[j] != markBasic {
			alphaR[j] = -v
			mark[j] = markListed
			touch[nt] = int32(j)
			nt++
		}
		cols := rc[rs[i]:rs[i+1]]
		vals := rvr[rs[i]:rs[i+1]]
		vals = vals[:len(cols)]
		entries += len(cols)
		for k, j := range cols {
			switch mark[j] {
			case markListed:
			case markBasic:
				continue
			default:
				mark[j] = markListed
				touch[nt] = j
				nt++
			}
			alphaR[j] += v * vals[k]
		}
	}
	for _, j := range s.head {
		mark[j] = markNone
	}
	return nt, entries
}

// updateDualsPlain is updateDuals as first written, its loop inside it,
// testing for q there.
func updateDualsPlain(s *solver, q, out, r int, alphaRQ float64, phase1 bool) {
	if phase1 {
		defer func(cOut float64) { s.d[out] -= cOut; s.prevCb[r] = 0 }(s.prevCb[r])
	} else {
		s.prevCb[r] = s.c[q]
	}
	thetaD := s.d[q] / alphaRQ
	wq := s.w[q]
	d, w, alphaR := s.d, s.w[:len(s.d)], s.alphaR[:len(s.d)]
	mark := s.mark[:len(s.d)]
	dOut, stat := s.dOut, s.stat[:len(s.d)]
	for _, j := range s.touch {
		a := alphaR[j]
		alphaR[j], mark[j] = 0, markNone
		if a == 0 || int(j) == q {
			continue
		}
		dj := d[j] - thetaD*a
		d[j] = dj
		if mayPick(dj, stat[j]) {
			dOut[j>>6] |= 1 << (uint(j) & 63)
		}
		r := a / alphaRQ
		if v := r * r * wq; v > w[j] {
			w[j] = v
		}
	}
	s.touch = s.touch[:0]
	s.d[q] = 0
	s.d[out] = -thetaD
	setBit(s.dOut, int32(out))
	s.w[out] = max(wq/(alphaRQ*alphaRQ), 1)
	if s.w[out] > 1e6 {
		s.resetWeights()
	}
}

// someFloat draws from values that make exact cancellations, signed
// zeros and ties likely, and from random ones.
func someFloat(r *rand.Rand) float64 {
	vals := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 2, 3, 1e-9, -1e-9, 1e300}
	if r.IntN(3) == 0 {
		return r.NormFloat64()
	}
	return vals[r.IntN(len(vals))]
}

// randomPivotState is a solver holding a random m×n row-wise matrix (rows
// listing columns in increasing order), m basic variables among the n+m,
// a ρ with zeros at some of the rows rowNZ lists, and the pivot row's
// storage clear.
func randomPivotState(r *rand.Rand) *solver {
	m, n := 1+r.IntN(30), 1+r.IntN(60)
	N := n + m
	s := &solver{m: m, n: n}
	s.rs = make([]int32, m+1)
	for i := range m {
		for j := range n {
			if r.IntN(4) == 0 {
				s.rc = append(s.rc, int32(j))
				s.rvr = append(s.rvr, someFloat(r))
			}
		}
		s.rs[i+1] = int32(len(s.rc))
	}
	s.stat = make([]VarStatus, N)
	for j := range N {
		s.stat[j] = VarStatus(1 + r.IntN(3)) // not Basic
	}
	for _, j := range r.Perm(N)[:m] {
		s.stat[j] = Basic
		s.head = append(s.head, int32(j))
	}
	s.rho = make([]float64, m)
	for i := range m {
		if r.IntN(3) > 0 {
			s.rho[i] = someFloat(r)
		}
	}
	for i := range m {
		if r.IntN(5) > 0 {
			s.rowNZ = append(s.rowNZ, int32(i))
		}
	}
	s.alphaR, s.mark = make([]float64, N), make([]uint8, N)
	return s
}

// cloneRowState copies what the pivot row writes.
func cloneRowState(s *solver) *solver {
	c := *s
	c.alphaR, c.mark = slices.Clone(s.alphaR), slices.Clone(s.mark)
	return &c
}

// byMark, with the basics marked as pivotRow keeps them, lists and sums
// what the loops as first written do (reading s.stat, or marking the
// basics for the product only), bit for bit, and leaves the same marks
// besides the basics'; on random matrices, statuses and ρ.
func TestPivotRowSameAsPlain(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for round := range 20000 {
		s := randomPivotState(r)
		marked := round%2 == 1
		want := cloneRowState(s)
		wantTouch := make([]int32, len(s.alphaR))
		wnt, _ := pivotRowPlain(want, wantTouch, marked)

		touch := make([]int32, len(s.alphaR))
		row := rowScatter{rho: s.rho, rs: s.rs, rc: s.rc, rvr: s.rvr, n: s.n, alphaR: s.alphaR, mark: s.mark, touch: touch}
		setMarks(s.mark, s.head, markBasic)
		nt := row.byMark(s.rowNZ)
		for _, j := range s.head {
			if s.mark[j] != markBasic {
				t.Fatalf("round %d: basic %d's mark %d", round, j, s.mark[j])
			}
		}
		setMarks(s.mark, s.head, markNone)
		if nt != wnt || !slices.Equal(touch[:nt], wantTouch[:wnt]) ||
			!slices.Equal(bitsOf(s.alphaR), bitsOf(want.alphaR)) || !slices.Equal(s.mark, want.mark) {
			t.Fatalf("round %d (plain marked %v): list %v, plain %v\nalphaR %v\nplain  %v",
				round, marked, touch[:nt], wantTouch[:wnt], s.alphaR, want.alphaR)
		}
	}
}

// updateDuals (its loop in dualsAlong, q's entry cleared first) updates
// d, the weights, dOut and the basic costs as updateDualsPlain does, and
// clears the same entries and marks: on random pivot rows (zeros, signed
// zeros, q listed or not), reduced costs, weights and statuses, in both
// phases.
func TestUpdateDualsSameAsPlain(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	for round := range 20000 {
		N := 2 + r.IntN(150)
		s := &solver{d: make([]float64, N), w: make([]float64, N), stat: make([]VarStatus, N), c: make([]float64, N),
			alphaR: make([]float64, N), mark: make([]uint8, N), dOut: make([]uint64, (N+63)/64), prevCb: make([]float64, 4)}
		for j := range N {
			s.d[j] = someFloat(r)
			s.w[j] = math.Abs(someFloat(r)) + 1
			s.stat[j] = VarStatus(r.IntN(4))
			s.c[j] = someFloat(r)
		}
		for k := range s.prevCb {
			s.prevCb[k] = someFloat(r)
		}
		perm := r.Perm(N)
		out := perm[0] // basic: not in the pivot row
		for _, j := range perm[1 : 1+r.IntN(N)] {
			s.touch = append(s.touch, int32(j))
			s.alphaR[j] = someFloat(r)
			s.mark[j] = markListed
		}
		q := perm[1+r.IntN(N-1)]
		if len(s.touch) > 0 && r.IntN(4) > 0 {
			q = int(s.touch[r.IntN(len(s.touch))])
		}
		alphaRQ := someFloat(r)
		if alphaRQ == 0 {
			alphaRQ = 0.25
		}
		pos, phase1 := r.IntN(len(s.prevCb)), r.IntN(2) == 0
		want := *s
		want.d, want.w, want.alphaR, want.mark, want.dOut = slices.Clone(s.d), slices.Clone(s.w), slices.Clone(s.alphaR), slices.Clone(s.mark), slices.Clone(s.dOut)
		want.prevCb, want.touch = slices.Clone(s.prevCb), slices.Clone(s.touch)
		updateDualsPlain(&want, q, out, pos, alphaRQ, phase1)
		s.updateDuals(q, out, pos, alphaRQ, phase1)
		if !slices.Equal(bitsOf(s.d), bitsOf(want.d)) || !slices.Equal(bitsOf(s.w), bitsOf(want.w)) ||
			!slices.Equal(bitsOf(s.alphaR), bitsOf(want.alphaR)) || !slices.Equal(s.mark, want.mark) ||
			!slices.Equal(s.dOut, want.dOut) || !slices.Equal(bitsOf(s.prevCb), bitsOf(want.prevCb)) || len(s.touch) != 0 {
			t.Fatalf("round %d: q %d\nd %v\nplain %v\nw %v\nplain %v\ndOut %x, plain %x", round, q, s.d, want.d, s.w, want.w, s.dOut, want.dOut)
		}
	}
}

// solveNucleusPlain is solveNucleus as first written: each column's end
// read in the loop's test.
func solveNucleusPlain(f *factor, z []float64) {
	nd := len(z)
	lcS, lcI, lcV := f.lcS, f.lcI, f.lcV
	for c := 0; c < nd; c++ {
		if zc := z[c]; zc != 0 {
			for k := lcS[c]; k < lcS[c+1]; k++ {
				z[lcI[k]] -= lcV[k] * zc
			}
		}
	}
	ucS, ucI, ucV, diag := f.ucS, f.ucI, f.ucV, f.diag
	for a := nd - 1; a >= 0; a-- {
		za := z[a] / diag[a]
		z[a] = za
		if za != 0 {
			for k := ucS[a]; k < ucS[a+1]; k++ {
				z[ucI[k]] -= ucV[k] * za
			}
		}
	}
}

// solveNucleusTPlain is solveNucleusT as first written.
func solveNucleusTPlain(f *factor, z []float64) {
	nd := len(z)
	urS, urI, urV, diag := f.urS, f.urI, f.urV, f.diag
	for a := 0; a < nd; a++ {
		za := z[a] / diag[a]
		z[a] = za
		if za != 0 {
			for k := urS[a]; k < urS[a+1]; k++ {
				z[urI[k]] -= urV[k] * za
			}
		}
	}
	lrS, lrI, lrV := f.lrS, f.lrI, f.lrV
	for c := nd - 1; c >= 0; c-- {
		if zc := z[c]; zc != 0 {
			for k := lrS[c]; k < lrS[c+1]; k++ {
				z[lrI[k]] -= lrV[k] * zc
			}
		}
	}
}

// ftranPlain is ftran as first written: its sweeps inside it.
func ftranPlain(f *factor, b, x []float64) {
	for k := range x {
		x[k] = 0
	}
	offS, offI, offV, nf := f.offS, f.offI, f.offV, len(f.front)
	for k, pv := range f.back {
		xc := b[pv.row] / pv.val
		x[pv.pos] = xc
		if xc == 0 {
			continue
		}
		for t := offS[nf+k]; t < offS[nf+k+1]; t++ {
			b[offI[t]] -= offV[t] * xc
		}
	}
	if nd := f.nd; nd > 0 {
		z := f.work[:nd]
		for a := 0; a < nd; a++ {
			z[a] = b[f.nRows[a]]
		}
		solveNucleusPlain(f, z)
		kind := f.kind
		for a, p := range f.nCols {
			xc := z[a]
			x[p] = xc
			if xc == 0 {
				continue
			}
			rows, vals := f.colRows[p], f.colVals[p]
			vals = vals[:len(rows)]
			for k, i := range rows {
				if kind[i] == rowFront {
					b[i] -= vals[k] * xc
				}
			}
		}
	}
	end := offS[len(f.front)]
	for k := len(f.front) - 1; k >= 0; k-- {
		pv := f.front[k]
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
	f.ftranEtas(x)
}

// btranPlain is btran as first written: its sweeps inside it.
func btranPlain(f *factor, d, y []float64) {
	f.btranEtas(d)
	for i := range y {
		y[i] = 0
	}
	offS, offI, offV, nf := f.offS, f.offI, f.offV, len(f.front)
	t := offS[0]
	for k, pv := range f.front {
		s := d[pv.pos]
		end := offS[k+1]
		for ; t < end; t++ {
			s -= offV[t] * y[offI[t]]
		}
		y[pv.row] = s / pv.val
	}
	nucleusTPlain(f, d, y)
	for k := len(f.back) - 1; k >= 0; k-- {
		pv := f.back[k]
		s := d[pv.pos]
		idx := offI[offS[nf+k]:offS[nf+k+1]]
		val := offV[offS[nf+k]:offS[nf+k+1]]
		val = val[:len(idx)]
		for t, i := range idx {
			s -= val[t] * y[i]
		}
		y[pv.row] = s / pv.val
	}
}

// nucleusTPlain is btran's and btranRest's step through the nucleus as
// first written: each nucleus column's entries in front rows taken from
// d, then the nucleus solved and its values stored by row.
func nucleusTPlain(f *factor, d, y []float64) {
	nd := f.nd
	if nd == 0 {
		return
	}
	z := f.work[:nd]
	kind := f.kind
	for a, p := range f.nCols {
		s := d[p]
		rows, vals := f.colRows[p], f.colVals[p]
		vals = vals[:len(rows)]
		for k, i := range rows {
			if kind[i] == rowFront {
				s -= vals[k] * y[i]
			}
		}
		z[a] = s
	}
	solveNucleusTPlain(f, z)
	for a, r := range f.nRows {
		y[r] = z[a]
	}
}

// btranRestPlain is btranRest as first written.
func btranRestPlain(f *factor, d, y []float64) {
	offS, offI, offV, nf := f.offS, f.offI, f.offV, len(f.front)
	nucleusTPlain(f, d, y)
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

// randomVector is a right-hand side of m entries with zeros of both
// signs, values that cancel, and random ones.
func randomVector(r *rand.Rand, m int) []float64 {
	v := make([]float64, m)
	for i := range v {
		if r.IntN(3) > 0 {
			v[i] = someFloat(r)
		}
	}
	return v
}

// ftran and btran solve as the plain ones do, bit for bit, the result
// and what they leave in the right-hand side they overwrite: on random
// bases of 1 to 60 rows (front, nucleus and back pivots), before and
// after random product-form updates.
func TestDenseSolvesSameAsPlain(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 26))
	var f factor
	nucleus, back := 0, 0
	check := func(name string, m int) {
		t.Helper()
		for range 3 {
			rhs := randomVector(r, m)
			b, bp, x, xp := slices.Clone(rhs), slices.Clone(rhs), make([]float64, m), make([]float64, m)
			f.ftran(b, x)
			ftranPlain(&f, bp, xp)
			if !slices.Equal(bitsOf(x), bitsOf(xp)) || !slices.Equal(bitsOf(b), bitsOf(bp)) {
				t.Fatalf("%s: ftran gives %v, plain %v", name, x, xp)
			}
			d, dp, y, yp := slices.Clone(rhs), slices.Clone(rhs), make([]float64, m), make([]float64, m)
			f.btran(d, y)
			btranPlain(&f, dp, yp)
			if !slices.Equal(bitsOf(y), bitsOf(yp)) || !slices.Equal(bitsOf(d), bitsOf(dp)) {
				t.Fatalf("%s: btran gives %v, plain %v", name, y, yp)
			}
			// btranRest after a sparse front sweep: y is any value at
			// the front rows, a zero of the pivot's sign (yZero) or not
			// at the back rows, +0 at the nucleus rows.
			y = randomVector(r, m)
			for i, k := range f.kind {
				if k == rowNucleus {
					y[i] = 0
				}
			}
			for _, pv := range f.back {
				if r.IntN(2) == 0 {
					y[pv.row] = 0 / pv.val
				}
			}
			d, dp, yp = slices.Clone(rhs), slices.Clone(rhs), slices.Clone(y)
			f.btranRest(d, y)
			btranRestPlain(&f, dp, yp)
			if !slices.Equal(bitsOf(y), bitsOf(yp)) {
				t.Fatalf("%s: btranRest gives %v, plain %v", name, y, yp)
			}
		}
	}
	for trial := range 20000 {
		m := 1 + r.IntN(60)
		colRows, colVals := randomBasis(r, m)
		if s, _ := f.factorize(m, colRows, colVals); len(s) > 0 {
			continue
		}
		if f.nd > 0 {
			nucleus++
		}
		if len(f.back) > 0 {
			back++
		}
		name := fmt.Sprintf("random basis %d (%d rows)", trial, m)
		check(name, m)
		for u := range r.IntN(6) {
			p := r.IntN(m)
			alpha := randomVector(r, m)
			if alpha[p] == 0 {
				alpha[p] = 1
			}
			var nz []int32
			for k, v := range alpha {
				if v != 0 {
					nz = append(nz, int32(k))
				}
			}
			f.update(p, alpha, nz)
			check(fmt.Sprintf("%s after %d updates", name, u+1), m)
		}
	}
	t.Logf("%d bases with a nucleus, %d with back pivots", nucleus, back)
	if nucleus < 1000 || back < 1000 {
		t.Fatalf("%d bases with a nucleus, %d with back pivots: the test wants many of each", nucleus, back)
	}
}

// reducedCostsPlain is reducedCosts' loop as first written, inside it,
// after the btran (y in s.y): one loop over every variable, testing
// phase1 and j < n per variable. It writes d and dOut into dd and out.
func reducedCostsPlain(s *solver, phase1 bool, dd []float64, out []uint64) {
	n, N := s.n, s.n+s.m
	stat, c, y := s.stat[:N], s.c[:N], s.y
	cs, ri, rv := s.cs[:n+1], s.ri, s.rv[:len(s.ri)]
	clear(out)
	for j := range N {
		if stat[j] == Basic {
			dd[j] = 0
			continue
		}
		d := 0.0
		if !phase1 {
			d = c[j]
		}
		if j < n {
			for t, end := int(cs[j]), int(cs[j+1]); t < end; t++ {
				d -= rv[t] * y[ri[t]]
			}
		} else {
			d += y[j-n]
		}
		dd[j] = d
		if mayPick(d, stat[j]) {
			out[j>>6] |= 1 << (uint(j) & 63)
		}
	}
}

// sameCostsAsPlain compares s.d and s.dOut, just computed by
// reducedCosts, with reducedCostsPlain's, bit for bit, counting the calls
// and the differences.
func sameCostsAsPlain(checked, differ *int) func(s *solver, phase1 bool) {
	return func(s *solver, phase1 bool) {
		N := s.n + s.m
		dd, out := make([]float64, N), make([]uint64, (N+63)/64)
		reducedCostsPlain(s, phase1, dd, out)
		*checked++
		if !slices.Equal(bitsOf(dd), bitsOf(s.d[:N])) || !slices.Equal(out, s.dOut[:len(out)]) {
			*differ++
		}
	}
}

// Every reducedCosts of the dumped and random LPs' solves (cold and
// warm, each method, phase 1 after the rows tighten) gives the reduced
// costs and the pickable list of the loop as first written, bit for bit.
func TestReducedCostsSameAsPlain(t *testing.T) {
	checked, differ := 0, 0
	checkCosts = sameCostsAsPlain(&checked, &differ)
	defer func() { checkCosts = nil }()
	solveVariety(t, func() int { return differ }, "reduced costs differ from the plain loop")
	if checked < 500 {
		t.Errorf("only %d reduced costs checked", checked)
	}
	t.Logf("%d reduced costs checked", checked)
}

// structuralCosts and slackCosts, as reducedCosts calls them, give
// reducedCostsPlain's d and dOut bit for bit on random column-wise
// matrices (empty columns among them), statuses, y with signed zeros and
// cancelling values, and costs, in both phases.
func TestReducedCostsRandomSameAsPlain(t *testing.T) {
	r := rand.New(rand.NewPCG(37, 38))
	for round := range 20000 {
		m, n := 1+r.IntN(30), 1+r.IntN(60)
		N := n + m
		s := &solver{m: m, n: n, cs: make([]int32, n+1), stat: make([]VarStatus, N), c: make([]float64, N),
			y: make([]float64, m), d: make([]float64, N), dOut: make([]uint64, (N+63)/64)}
		for j := range n {
			for i := range m {
				if r.IntN(4) == 0 {
					s.ri = append(s.ri, int32(i))
					s.rv = append(s.rv, someFloat(r))
				}
			}
			s.cs[j+1] = int32(len(s.ri))
		}
		for j := range N {
			s.stat[j] = VarStatus(r.IntN(4))
			s.c[j] = someFloat(r)
			s.d[j] = someFloat(r)
		}
		for i := range m {
			s.y[i] = someFloat(r)
		}
		for k := range s.dOut {
			s.dOut[k] = r.Uint64()
		}
		phase1 := r.IntN(2) == 0
		dd, out := make([]float64, N), make([]uint64, len(s.dOut))
		reducedCostsPlain(s, phase1, dd, out)
		s.costsFromY(phase1)
		if !slices.Equal(bitsOf(dd), bitsOf(s.d)) || !slices.Equal(out, s.dOut) {
			t.Fatalf("round %d (phase 1 %v):\nd     %v\nplain %v\ndOut %x, plain %x", round, phase1, s.d, dd, s.dOut, out)
		}
	}
}
