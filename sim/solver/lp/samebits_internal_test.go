package lp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// withinDualTol must answer as math.Abs(d) <= dualTol does, on the
// boundary, the signed zeros, the infinities, NaNs and random values.
func TestWithinDualTolAsAbs(t *testing.T) {
	if math.Float64bits(dualTol) != dualTolBits {
		t.Fatalf("dualTolBits is %#x, math.Float64bits(dualTol) %#x", uint64(dualTolBits), math.Float64bits(dualTol))
	}
	vals := []float64{0, math.Copysign(0, -1), dualTol, -dualTol,
		math.Nextafter(dualTol, 1), math.Nextafter(dualTol, 0),
		-math.Nextafter(dualTol, 1), -math.Nextafter(dualTol, 0),
		math.Inf(1), math.Inf(-1), math.NaN(), -math.NaN(),
		math.Float64frombits(0x7ff0000000000001), math.Float64frombits(0xfff8000000000001),
		math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, math.MaxFloat64, -math.MaxFloat64}
	r := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		vals = append(vals, math.Float64frombits(r.Uint64()), (r.Float64()-0.5)*4e-9)
	}
	for _, v := range vals {
		if got, want := withinDualTol(v), math.Abs(v) <= dualTol; got != want {
			t.Fatalf("withinDualTol(%v) (bits %#x) = %v, math.Abs gives %v", v, math.Float64bits(v), got, want)
		}
	}
}

// priceStraight is price as first written: one loop over every variable
// with every test at its turn.
func priceStraight(s *solver) (int, float64) {
	best, q, dir := 0.0, -1, 0.0
	for j, d := range s.d {
		if math.Abs(d) <= dualTol {
			continue
		}
		st := s.stat[j]
		if st == Basic || s.lo[j] == s.hi[j] {
			continue
		}
		var dj float64
		switch {
		case (st == AtLower || st == AtZero) && d < -dualTol:
			dj = 1
		case (st == AtUpper || st == AtZero) && d > dualTol:
			dj = -1
		default:
			continue
		}
		if s.bland {
			return j, dj
		}
		if score := d * d / s.w[j]; score > best {
			best, q, dir = score, j, dj
		}
	}
	return q, dir
}

// price picks what priceStraight picks on random reduced costs (ties,
// NaNs, values at the tolerance), statuses, fixed variables and weights,
// with and without Bland's rule.
func TestPriceSameAsStraight(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	ds := []float64{0, dualTol, -dualTol, 2e-9, -2e-9, 1, -1, 0.5, -0.5, math.NaN(), math.Inf(1), math.Inf(-1)}
	for round := range 20000 {
		n := 1 + r.IntN(40)
		s := &solver{d: make([]float64, n), stat: make([]VarStatus, n), lo: make([]float64, n), hi: make([]float64, n), w: make([]float64, n)}
		s.bland = round%5 == 0
		for j := range n {
			s.d[j] = ds[r.IntN(len(ds))]
			if r.IntN(3) == 0 {
				s.d[j] = r.NormFloat64()
			}
			s.stat[j] = VarStatus(r.IntN(4))
			s.lo[j], s.hi[j] = 0, float64(r.IntN(3))
			s.w[j] = float64(1 + r.IntN(3))
		}
		q, dir := s.price()
		wq, wdir := priceStraight(s)
		if q != wq || dir != wdir {
			t.Fatalf("round %d: price gives %d, %v; the straight loop %d, %v\nd %v\nstat %v\nhi %v", round, q, dir, wq, wdir, s.d, s.stat, s.hi)
		}
	}
}

// clamp answers as math.Min(math.Max(v, lo), hi) for every v and every
// pair of bounds a Problem may hold (check's: no NaN, lo < +Inf, hi > −Inf).
func TestClampAsMath(t *testing.T) {
	nz := math.Copysign(0, -1)
	vs := []float64{0, nz, 1, -1, 2.5, math.Inf(1), math.Inf(-1), math.NaN(), math.SmallestNonzeroFloat64, math.MaxFloat64}
	los := []float64{math.Inf(-1), 0, nz, -1, 1, 2.5, -math.MaxFloat64}
	his := []float64{math.Inf(1), 0, nz, -1, 1, 2.5, math.MaxFloat64}
	for _, v := range vs {
		for _, lo := range los {
			for _, hi := range his {
				got, want := clamp(v, lo, hi), math.Min(math.Max(v, lo), hi)
				if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
					t.Errorf("clamp(%v, %v, %v) = %v, math gives %v", v, lo, hi, got, want)
				}
			}
		}
	}
}

// basicCosts fills the basic costs, and answers phase 1 and "changed"
// (where it compared), after either phase, as run first did: infeasibility() > 0 for the phase, phase 2's costs
// copied after it, and !equal(cb, prevCb) for changed. Random basics
// inside, at and beyond their bounds by the tolerance, infinite bounds,
// signed zeros in the costs and prevCb equal or not.
func TestBasicCostsAsInfeasibility(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	nz := math.Copysign(0, -1)
	offs := []float64{0, primalTol, -primalTol, 2 * primalTol, -2 * primalTol, 1, -1}
	cs := []float64{0, nz, 1, -1, 0.5}
	for round := range 20000 {
		m := 1 + r.IntN(12)
		N := m + r.IntN(12)
		s := &solver{x: make([]float64, N), lo: make([]float64, N), hi: make([]float64, N), c: make([]float64, N), head: make([]int32, m), cb: make([]float64, m), prevCb: make([]float64, m)}
		for k, j := range r.Perm(N)[:m] {
			s.head[k] = int32(j)
		}
		for j := range N {
			s.lo[j], s.hi[j] = 0, float64(r.IntN(3))
			switch r.IntN(5) {
			case 0:
				s.lo[j] = math.Inf(-1)
			case 1:
				s.hi[j] = math.Inf(1)
			}
			switch r.IntN(3) {
			case 0:
				s.x[j] = s.lo[j] + offs[r.IntN(len(offs))]
			case 1:
				s.x[j] = s.hi[j] + offs[r.IntN(len(offs))]
			}
			if math.IsInf(s.x[j], 0) || round%4 == 0 {
				s.x[j] = r.Float64()
			}
			s.c[j] = cs[r.IntN(len(cs))]
		}
		for k, j := range s.head {
			s.prevCb[k] = s.c[j]
			if r.IntN(4*m) == 0 {
				s.prevCb[k] = cs[r.IntN(len(cs))]
			}
			s.cb[k] = float64(r.IntN(3)) // what the last iteration left
		}
		w := &solver{x: s.x, lo: s.lo, hi: s.hi, c: s.c, head: s.head, cb: slices.Clone(s.cb), prevCb: s.prevCb}
		wantPhase1 := w.infeasibility() > 0
		if !wantPhase1 {
			for k, j := range w.head {
				w.cb[k] = w.c[j]
			}
		}
		wantChanged := !equal(w.cb, w.prevCb)
		was1 := round%3 == 0
		phase1, changed, compared := s.basicCosts(was1)
		if !compared {
			changed = !equal(s.cb, s.prevCb)
		}
		if phase1 != wantPhase1 || changed != wantChanged || compared != (!was1 && !phase1) {
			t.Fatalf("round %d: basicCosts(%v) gives phase 1 %v, changed %v, compared %v; run as first written %v, %v", round, was1, phase1, changed, compared, wantPhase1, wantChanged)
		}
		for k := range s.cb {
			if math.Float64bits(s.cb[k]) != math.Float64bits(w.cb[k]) {
				t.Fatalf("round %d: cb[%d] = %v, run as first written %v", round, k, s.cb[k], w.cb[k])
			}
		}
	}
}

// atBound answers as nonbasicAt's switch first written with math.IsInf,
// for every wanted status and bounds finite, infinite, zero and NaN.
func TestAtBoundAsIsInf(t *testing.T) {
	straight := func(want VarStatus, lo, hi float64) (VarStatus, float64) {
		switch {
		case want == AtUpper && !math.IsInf(hi, 1):
			return AtUpper, hi
		case !math.IsInf(lo, -1):
			return AtLower, lo
		case !math.IsInf(hi, 1):
			return AtUpper, hi
		}
		return AtZero, 0
	}
	bs := []float64{math.Inf(-1), math.Inf(1), 0, math.Copysign(0, -1), 1, -1, math.MaxFloat64, -math.MaxFloat64, math.NaN()}
	for want := range VarStatus(5) {
		for _, lo := range bs {
			for _, hi := range bs {
				st, v := atBound(want, lo, hi)
				wst, wv := straight(want, lo, hi)
				if st != wst || math.Float64bits(v) != math.Float64bits(wv) {
					t.Errorf("atBound(%v, %v, %v) = %v, %v; with math.IsInf %v, %v", want, lo, hi, st, v, wst, wv)
				}
			}
		}
	}
}

// TestCheckAsTestByTest: check and checkRows refuse the objectives and
// bounds, and word the refusals, as the tests one by one do (NaN, ±Inf,
// lo > hi, lo = +Inf, hi = −Inf), on every combination of the values
// around them.
func TestCheckAsTestByTest(t *testing.T) {
	vs := []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat64, -math.MaxFloat64, 0, math.Copysign(0, -1), 1, -1}
	byTest := func(obj, lo, hi float64, name string) string {
		bad := math.IsNaN
		switch {
		case bad(obj) || math.IsInf(obj, 0):
			return fmt.Sprintf("lp: column %s has objective %v", name, obj)
		case bad(lo) || bad(hi) || lo > hi || math.IsInf(lo, 1) || math.IsInf(hi, -1):
			return fmt.Sprintf("lp: column %s has bounds [%v, %v]", name, lo, hi)
		}
		return ""
	}
	errText := func(err error) string {
		if err == nil {
			return ""
		}
		return err.Error()
	}
	for _, obj := range vs {
		for _, lo := range vs {
			for _, hi := range vs {
				p := New("check")
				p.AddCol("x", lo, hi, obj)
				if got, want := errText(p.check(false)), byTest(obj, lo, hi, "x"); got != want {
					t.Errorf("column obj %v [%v, %v]: %q, want %q", obj, lo, hi, got, want)
				}
				q := New("rows")
				q.AddRow("r", lo, hi)
				want := byTest(0, lo, hi, "r")
				if want != "" {
					want = fmt.Sprintf("lp: row r has bounds [%v, %v]", lo, hi)
				}
				if got := errText(q.checkRows()); got != want {
					t.Errorf("row [%v, %v]: %q, want %q", lo, hi, got, want)
				}
			}
		}
	}
}
