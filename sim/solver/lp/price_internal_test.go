package lp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// Every price of the dumped LPs' solves (cold by the dual method, then
// the primal; primal alone; warm from the optimum with a changed
// objective, primal and dual; warm after the rows tighten, where phase 1
// runs) finds every reduced cost outside the dual tolerance listed in
// dOut, as kept by reducedCosts, costsChanged, updateDuals and the
// perturbation's rebuild.
func TestPriceListCoversOutside(t *testing.T) {
	verifyDOut, dOutChecked, dOutMisses = true, 0, 0
	defer func() { verifyDOut = false }()
	solveVariety(t, func() int { return dOutMisses }, "reduced costs outside the tolerance were not listed")
	if dOutChecked < 5000 {
		t.Errorf("only %d prices checked", dOutChecked)
	}
}

// basicCosts's kept path, after a phase-2 step, gives the full pass's
// phase, "changed" and basic costs (bit for bit) in every solve of
// solveVariety.
func TestBasicCostsKeptAsFullPass(t *testing.T) {
	verifyKept, keptChecked, keptMismatches = true, 0, 0
	defer func() { verifyKept = false }()
	solveVariety(t, func() int { return keptMismatches }, "kept basic costs differ from the full pass")
	if keptChecked < 5000 {
		t.Errorf("only %d kept basic costs checked", keptChecked)
	}
}

// solveVariety solves dumped and random LPs cold and warm, each method,
// with phase 1 after rows move, and reports a failure whenever count
// grows over one LP's solves.
func solveVariety(t *testing.T, count func() int, what string) {
	for _, name := range []string{"gavel-small-13", "gavel-cost-71", "gavel-makespan-x300-12", "fig12-makespan-512-2", "fig12-ftf-512-1", "fig12-cost-512-1", "fig12-las-2048-1", "fig12-hierarchical-2048-5"} {
		p := readDumped(t, name)
		before := count()
		if sol := coldAndWarmSolves(t, p)[0]; sol.Status == Optimal {
			// The rows tighten: phase 1 from the optimal basis.
			r := p.Clone()
			for i := 0; i < r.NumRows(); i++ {
				if lo, hi := r.RowBounds(i); !math.IsInf(hi, 1) && hi > 0 {
					r.SetRowBounds(i, lo, math.Max(lo, hi*0.99))
				}
			}
			for _, o := range []Options{{Warm: sol.Basis, Primal: true}, {Warm: sol.Basis}} {
				if _, err := Solve(r, o); err != nil {
					t.Fatal(err)
				}
			}
		}
		if n := count() - before; n > 0 {
			t.Errorf("%s: %d %s", name, n, what)
		}
	}
	// Small random LPs warm-started after their rows move far: phase 1
	// with basics turning feasible one by one (costsChanged).
	r := rand.New(rand.NewPCG(7, 8))
	for round := range 400 {
		before := count()
		n, m := 4+r.IntN(12), 3+r.IntN(8)
		p := New("random")
		for j := range n {
			p.AddCol(fmt.Sprint("x", j), 0, float64(1+r.IntN(4)), r.NormFloat64())
		}
		for i := range m {
			p.AddRow(fmt.Sprint("r", i), -float64(r.IntN(3)), float64(r.IntN(5)))
			for j := range n {
				if r.IntN(3) == 0 {
					p.Set(i, j, float64(r.IntN(7)-3))
				}
			}
		}
		sol, err := Solve(p, Options{Primal: true})
		if err != nil {
			t.Fatal(err)
		}
		for i := range m {
			lo := float64(r.IntN(9) - 4)
			p.SetRowBounds(i, lo, lo+float64(r.IntN(3)))
		}
		if _, err := Solve(p, Options{Warm: sol.Basis, Primal: true}); err != nil {
			t.Fatal(err)
		}
		if n := count() - before; n > 0 {
			t.Errorf("random LP %d: %d %s", round, n, what)
		}
	}
}

// basicCostsKept answers as the full pass after random steps: from a
// state the full pass found feasible, x_B changes at random listed
// positions (within, at and beyond the bounds by the tolerance), and a
// pivot or none puts a new variable at one of them with prevCb written
// there as updateDuals would, or not.
func TestBasicCostsKeptAfterStep(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	nz := math.Copysign(0, -1)
	offs := []float64{0, primalTol, -primalTol, 2 * primalTol, -2 * primalTol, 1, -1}
	cs := []float64{0, nz, 1, -1, 0.5}
	for round := range 20000 {
		m := 1 + r.IntN(12)
		N := m + 1 + r.IntN(12)
		s := &solver{x: make([]float64, N), lo: make([]float64, N), hi: make([]float64, N), c: make([]float64, N), head: make([]int32, m), cb: make([]float64, m), prevCb: make([]float64, m)}
		perm := r.Perm(N)
		for k, j := range perm[:m] {
			s.head[k] = int32(j)
		}
		for j := range N {
			s.lo[j], s.hi[j] = 0, float64(r.IntN(3))
			if r.IntN(5) == 0 {
				s.hi[j] = math.Inf(1)
			}
			s.x[j] = s.lo[j] + (s.hi[j]-s.lo[j])*r.Float64()
			if math.IsInf(s.x[j], 0) {
				s.x[j] = r.Float64()
			}
			s.c[j] = cs[r.IntN(len(cs))]
		}
		if p1, _, _ := s.basicCosts(false); p1 || !s.bcKept {
			t.Fatalf("round %d: a feasible basis gives phase 1 or is not kept", round)
		}
		copy(s.prevCb, s.cb) // as the iteration's reduced costs leave it
		s.alphaNZ = s.alphaNZ[:0]
		for k := range m {
			if r.IntN(3) == 0 {
				s.alphaNZ = append(s.alphaNZ, int32(k))
				j := s.head[k]
				switch r.IntN(3) {
				case 0:
					s.x[j] = s.lo[j] + offs[r.IntN(len(offs))]
				case 1:
					if !math.IsInf(s.hi[j], 1) {
						s.x[j] = s.hi[j] + offs[r.IntN(len(offs))]
					}
				}
			}
		}
		s.bcLeave = -1
		if len(s.alphaNZ) > 0 && r.IntN(4) != 0 {
			leave := int(s.alphaNZ[r.IntN(len(s.alphaNZ))])
			q := perm[m+r.IntN(N-m)]
			s.head[leave] = int32(q)
			if r.IntN(2) == 0 {
				s.prevCb[leave] = s.c[q]
			}
			s.bcLeave = leave
		}
		w := &solver{x: s.x, lo: s.lo, hi: s.hi, c: s.c, head: s.head, cb: slices.Clone(s.cb), prevCb: s.prevCb}
		wp, wc, _ := w.basicCosts(false)
		p1, c1, _ := s.basicCosts(false)
		if p1 != wp || c1 != wc || !sameBits(s.cb, w.cb) {
			t.Fatalf("round %d: kept gives phase 1 %v, changed %v, cb %v; the full pass %v, %v, %v", round, p1, c1, s.cb, wp, wc, w.cb)
		}
	}
}
