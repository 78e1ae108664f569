package lp

import (
	"math"
	"testing"
)

// Every hypersparse solve of the dumped LPs' solves, cold and warm (a
// changed objective, narrowed bounds), gives the full sweep's bits and
// lists every nonzero of its result.
func TestSparseSolvesSameAsFullSweep(t *testing.T) {
	verifySparse, sparseChecked, sparseMismatches = true, 0, 0
	defer func() { verifySparse = false }()
	for _, name := range []string{"gavel-small-13", "gavel-cost-71", "gavel-makespan-x300-12", "fig12-makespan-512-2", "fig12-ftf-512-1", "fig12-cost-512-1", "fig12-las-2048-1", "fig12-hierarchical-2048-1", "fig12-hierarchical-2048-5"} {
		p := readDumped(t, name)
		before := sparseMismatches
		// Cold, then warm with a changed objective (coldAndWarmSolves),
		// then warm from the optimal basis with every tenth column's
		// bounds narrowed (the dual method).
		if sol := coldAndWarmSolves(t, p)[0]; sol.Status == Optimal {
			q := p.Clone()
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
