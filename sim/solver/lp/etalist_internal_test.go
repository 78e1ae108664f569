package lp

import (
	"math"
	"testing"
)

// TestEtaListWaysSameBits solves the dumped LPs, cold and warm, with
// ftranSparse always listing every position once the product-form
// updates hold an entry, and never: the same iterations, statuses, bases
// and solution bits either way, and every sparse solve the full sweep's
// bits with every nonzero listed.
func TestEtaListWaysSameBits(t *testing.T) {
	defer func(v int) { etaListAbove = v }(etaListAbove)
	verifySparse, sparseChecked, sparseMismatches = true, 0, 0
	defer func() { verifySparse = false }()
	for _, name := range []string{"gavel-small-13", "gavel-cost-71", "gavel-makespan-x300-12", "fig12-makespan-512-2", "fig12-ftf-512-1", "fig12-cost-512-1"} {
		p := readDumped(t, name)
		var sols [2][]*Solution
		for way, above := range []int{0, math.MaxInt32} {
			etaListAbove = above
			before := sparseMismatches
			sols[way] = coldAndWarmSolves(t, p)
			if n := sparseMismatches - before; n > 0 {
				t.Errorf("%s, limit %d: %d sparse solves differ from the full sweep", name, above, n)
			}
		}
		sameSolves(t, name, "listing every position", "marking", sols[0], sols[1])
	}
}
