package lp

import (
	"math"
	"testing"
)

// TestPivotRowWaysSameBits solves the dumped LPs, cold and warm, with
// pivotRow always marking the basics and never marking them: the same
// iterations, statuses, bases and solution bits either way.
func TestPivotRowWaysSameBits(t *testing.T) {
	defer func(v int) { markBasicsAbove = v }(markBasicsAbove)
	for _, name := range []string{"gavel-small-13", "gavel-cost-71", "gavel-makespan-x300-12", "fig12-makespan-512-2", "fig12-ftf-512-1", "fig12-cost-512-1", "fig12-las-2048-1"} {
		p := readDumped(t, name)
		var sols [2][]*Solution
		for way, above := range []int{0, math.MaxInt32} {
			markBasicsAbove = above
			sols[way] = coldAndWarmSolves(t, p)
		}
		sameSolves(t, name, "marking the basics", "reading their status", sols[0], sols[1])
	}
}
