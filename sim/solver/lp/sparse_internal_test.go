package lp

import (
	"math"
	"testing"
)

// Every hypersparse solve of the dumped LPs' cold solves (dual method,
// then primal) and primal-only solves gives the full sweep's bits and
// lists every nonzero of its result.
func TestSparseSolvesSameAsFullSweep(t *testing.T) {
	verifySparse, sparseChecked, sparseMismatches = true, 0, 0
	defer func() { verifySparse = false }()
	for _, name := range []string{"gavel-small-13", "gavel-cost-71", "gavel-makespan-x300-12", "fig12-makespan-512-2", "fig12-ftf-512-1", "fig12-cost-512-1", "fig12-las-2048-1", "fig12-hierarchical-2048-1", "fig12-hierarchical-2048-5"} {
		p := readDumped(t, name)
		before := sparseMismatches
		var sol *Solution
		var err error
		for _, o := range []Options{{Primal: true}, {}} {
			if sol, err = Solve(p, o); err != nil {
				t.Fatal(err)
			}
		}
		// Warm: every tenth objective coefficient halved, from the
		// optimal basis (the primal method), and every tenth column's
		// bounds narrowed (the dual method).
		if sol.Status == Optimal {
			q := p.Clone()
			for j := 0; j < q.NumCols(); j += 10 {
				q.SetObj(j, q.Obj(j)/2)
			}
			if _, err := Solve(q, Options{Warm: sol.Basis}); err != nil {
				t.Fatal(err)
			}
			q = p.Clone()
			for j := 0; j < q.NumCols(); j += 10 {
				if lo, hi := q.ColBounds(j); hi-lo > 1 && !math.IsInf(hi, 1) {
					q.SetColBounds(j, lo, lo+(hi-lo)/2)
				}
			}
			if _, err := Solve(q, Options{Warm: sol.Basis, Dual: true}); err != nil {
				t.Fatal(err)
			}
		}
		if n := sparseMismatches - before; n > 0 {
			t.Errorf("%s: %d sparse solves differ from the full sweep", name, n)
		}
	}
	if sparseChecked < 5000 {
		t.Errorf("only %d sparse solves checked", sparseChecked)
	}
}
