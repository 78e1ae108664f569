package app

import (
	"math/rand/v2"
	"testing"
)

// laneOut marks a bar shared exactly when some other bar of its row
// overlaps it, zero-length bars and equal starts included: checked
// against every pair on random rows.
func TestLaneOutSharedMatchesEveryPair(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for trial := 0; trial < 2000; trial++ {
		bars := make([]GanttBar, 1+rng.IntN(12))
		for i := range bars {
			start := float64(rng.IntN(20))
			bars[i] = GanttBar{Start: start, End: start + float64(rng.IntN(4)), K: i}
		}
		laneOut(bars)
		for i, b := range bars {
			want := false
			for j, o := range bars {
				if i != j && o.Start < b.End && b.Start < o.End {
					want = true
				}
			}
			if b.Shared != want {
				t.Fatalf("trial %d: bar [%g, %g) shared %t, want %t; row %+v", trial, b.Start, b.End, b.Shared, want, bars)
			}
		}
	}
}
