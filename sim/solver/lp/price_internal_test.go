package lp

import (
	"fmt"
	"math"
	"math/rand/v2"
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

// solveVariety solves dumped and random LPs cold and warm, each method,
// with phase 1 after rows move, and reports a failure whenever count
// grows over one LP's solves.
func solveVariety(t *testing.T, count func() int, what string) {
	for _, name := range []string{"gavel-small-13", "gavel-cost-71", "gavel-makespan-x300-12", "fig12-makespan-512-2", "fig12-ftf-512-1", "fig12-cost-512-1", "fig12-las-2048-1", "fig12-hierarchical-2048-5"} {
		p := readDumped(t, name)
		before := count()
		var sol *Solution
		var err error
		for _, o := range []Options{{Primal: true}, {}} {
			if sol, err = Solve(p, o); err != nil {
				t.Fatal(err)
			}
		}
		if sol.Status == Optimal {
			q := p.Clone()
			for j := 0; j < q.NumCols(); j += 7 {
				q.SetObj(j, q.Obj(j)/2)
			}
			r := p.Clone()
			for i := 0; i < r.NumRows(); i++ {
				if lo, hi := r.RowBounds(i); !math.IsInf(hi, 1) && hi > 0 {
					r.SetRowBounds(i, lo, math.Max(lo, hi*0.99))
				}
			}
			for _, c := range []struct {
				p *Problem
				o Options
			}{{q, Options{Warm: sol.Basis}}, {q, Options{Warm: sol.Basis, Dual: true}}, {r, Options{Warm: sol.Basis, Primal: true}}, {r, Options{Warm: sol.Basis}}} {
				if _, err := Solve(c.p, c.o); err != nil {
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
