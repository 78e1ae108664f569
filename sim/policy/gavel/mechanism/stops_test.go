package mechanism

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/sim/workload"
)

// TestStopSorter: the sorter orders by time and keeps every (time, job)
// pair, against the library sort, on random lists with few or many
// distinct times (more than its table holds: the fallback), equal times
// far apart in the input, descending input, and one sorter reused from
// list to list as a round reuses it (its table must be empty again).
func TestStopSorter(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	byTimeThenJob := func(a, b stop) int { return cmp.Or(cmp.Compare(a.t, b.t), cmp.Compare(a.id, b.id)) }
	var o stopSorter
	for n := range 600 {
		st := make([]stop, n%300)
		distinct := 1 + r.IntN([]int{8, 40, 128, 400}[n%4])
		base := 1000 + 1e6*r.Float64()
		for i := range st {
			st[i] = stop{t: base + float64(r.IntN(distinct))*0.37, id: workload.JobID(r.IntN(500))}
		}
		if n%7 == 0 {
			slices.SortFunc(st, func(a, b stop) int { return cmp.Compare(b.t, a.t) }) // descending input
		}
		want := slices.Clone(st)
		slices.SortFunc(want, byTimeThenJob)
		o.sort(st)
		if !slices.IsSortedFunc(st, func(a, b stop) int { return cmp.Compare(a.t, b.t) }) {
			t.Fatalf("list %d (%d distinct times): not in time order: %v", n, distinct, st)
		}
		slices.SortFunc(st, byTimeThenJob)
		if !slices.Equal(st, want) {
			t.Fatalf("list %d (%d distinct times): pairs lost or changed", n, distinct)
		}
		if len(o.used) != 0 || o.slot != [stopSlots]int32{} {
			t.Fatalf("list %d: the table is not empty after the sort", n)
		}
	}
}
