package lp

import (
	"math"
	"testing"
)

// The dual method's leaving scores, kept from pivot to pivot for the
// positions each pivot changes, choose what scoring every position each
// pivot chooses: the same pivots and the same bits of every value, on the
// dumped LPs whose cold solves pivot in the dual method (bound flips,
// Devex resets and refactorisations among them).
func TestKeptLeavingScoresSameAsFullScan(t *testing.T) {
	for _, name := range []string{"gavel-small-13", "gavel-cost-71", "fig12-las-2048-1", "fig12-ftf-512-1", "fig12-hierarchical-2048-1", "fig12-cost-512-1"} {
		p := readDumped(t, name)
		kept, err := Solve(p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		rescoreAll = true
		full, err := Solve(p, Options{})
		rescoreAll = false
		if err != nil {
			t.Fatal(err)
		}
		if kept.Status != full.Status || kept.Iterations != full.Iterations || math.Float64bits(kept.Objective) != math.Float64bits(full.Objective) {
			t.Errorf("%s: kept scores give %v, full scans %v", name, kept, full)
			continue
		}
		for j := range kept.X {
			if math.Float64bits(kept.X[j]) != math.Float64bits(full.X[j]) {
				t.Errorf("%s: x[%d] = %v with kept scores, %v with full scans", name, j, kept.X[j], full.X[j])
				break
			}
		}
	}
}
