package engine

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/sim/workload"
)

// inOrder says what slices.IsSortedFunc with cmpInterval says of one
// GPU's run, on runs with ties of start, out-of-order jobs and NaN.
func TestInOrderAsIsSortedFunc(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	starts := []float64{0, 1, 1, 2, 3, math.NaN()}
	agree, sorted := 0, 0
	for range 20000 {
		run := make([]Interval, r.IntN(5))
		for i := range run {
			run[i] = Interval{GPU: 3, Job: workload.JobID(r.IntN(3)), StartS: starts[r.IntN(len(starts))]}
		}
		want := slices.IsSortedFunc(run, cmpInterval)
		if got := inOrder(run); got != want {
			t.Fatalf("%v: inOrder %v, IsSortedFunc %v", run, got, want)
		}
		agree++
		if want {
			sorted++
		}
	}
	if sorted == 0 || sorted == agree {
		t.Fatalf("%d of %d runs in order: the cases do not cover both answers", sorted, agree)
	}
}
