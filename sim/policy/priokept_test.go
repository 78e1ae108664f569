package policy

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/sim/workload"
)

// TestRunningOrderSearch: the running order's search, which has no
// branches, finds the first entry not before the one sought, as a plain
// scan does, on sorted lists with repeated keys and dead entries, for
// entries in the list and between its entries.
func TestRunningOrderSearch(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 7))
	for run := range 500 {
		n := r.IntN(40)
		var o runningOrder
		for i := range n {
			o.list = append(o.list, prioEntry{key: float64(r.IntN(4)), id: workload.JobID(i), gpus: int32(r.IntN(3) - 1)})
		}
		slices.SortFunc(o.list, func(a, b prioEntry) int {
			if a.Less(b) {
				return -1
			}
			return 1
		})
		for range 20 {
			e := prioEntry{key: float64(r.IntN(6)) - 1, id: workload.JobID(r.IntN(n + 2))}
			want := 0
			for want < n && o.list[want].Less(e) {
				want++
			}
			if got := o.search(e); got != want {
				t.Fatalf("run %d: search(%v) in %v = %d, want %d", run, e, o.list, got, want)
			}
		}
	}
}
