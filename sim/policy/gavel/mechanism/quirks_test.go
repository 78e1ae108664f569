package mechanism

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/sim/workload"
)

// TestSortStops: sortStops orders by time and keeps every (time, job)
// pair, on random lists with many equal times, against the library sort.
func TestSortStops(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	byTimeThenJob := func(a, b stop) int { return cmp.Or(cmp.Compare(a.t, b.t), cmp.Compare(a.id, b.id)) }
	for n := range 400 {
		st := make([]stop, n%200)
		distinct := 1 + r.IntN(60)
		for i := range st {
			st[i] = stop{t: 1000 + float64(r.IntN(distinct))*0.37, id: workload.JobID(r.IntN(500))}
		}
		if n%7 == 0 {
			slices.SortFunc(st, func(a, b stop) int { return cmp.Compare(b.t, a.t) }) // descending input
		}
		want := slices.Clone(st)
		slices.SortFunc(want, byTimeThenJob)
		sortStops(st)
		if !slices.IsSortedFunc(st, func(a, b stop) int { return cmp.Compare(a.t, b.t) }) {
			t.Fatalf("list %d: not in time order: %v", n, st)
		}
		slices.SortFunc(st, byTimeThenJob)
		if !slices.Equal(st, want) {
			t.Fatalf("list %d: pairs lost or changed", n)
		}
	}
}
