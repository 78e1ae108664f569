package engine

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/sim/workload"
)

// TestEventQueueOrder: under every sequence of pushes, pops and in-place
// removals followed by Init, the event queue keeps the heap order on time
// and pops the events it was given, each at the earliest time left (ties
// in any order: collect sorts an instant's events itself). The reference
// is a plain list scanned for its minimum.
func TestEventQueueOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	for run := range 200 {
		var q eventQueue
		var ref []event
		for op := range 2000 {
			switch k := r.IntN(10); {
			case k < 6 || len(ref) == 0:
				e := mkEvent(float64(r.IntN(50)), EventKind(r.IntN(5)), workload.JobID(r.IntN(9)-1), uint32(op))
				q.Push(e)
				ref = append(ref, e)
			case k < 9:
				e := q.Pop()
				i := slices.Index(ref, e)
				if i < 0 {
					t.Fatalf("run %d, op %d: popped %v, which was not queued", run, op, e)
				}
				for _, f := range ref {
					if f.t < e.t {
						t.Fatalf("run %d, op %d: popped an event at t=%v before one at t=%v", run, op, e.t, f.t)
					}
				}
				ref = slices.Delete(ref, i, i+1)
			default:
				// drop every event of one job in place, as compaction does
				job := workload.JobID(r.IntN(9) - 1)
				q = slices.DeleteFunc(q, func(e event) bool { return e.job() == job })
				q.Init()
				ref = slices.DeleteFunc(ref, func(e event) bool { return e.job() == job })
			}
			if q.Len() != len(ref) {
				t.Fatalf("run %d, op %d: %d events queued, want %d", run, op, q.Len(), len(ref))
			}
			for i := 1; i < len(q); i++ {
				if q[i].t < q[(i-1)/4].t {
					t.Fatalf("run %d, op %d: slot %d (t=%v) is before its parent (t=%v)", run, op, i, q[i].t, q[(i-1)/4].t)
				}
			}
		}
	}
}

// TestEventKey: an event's kind, job and version come back out of its
// key, and its order is (time, kind, job), wake-ups' job -1 included,
// whatever the versions.
func TestEventKey(t *testing.T) {
	jobs := []workload.JobID{-1, 0, 1, 2, 1 << 20, maxJobs - 1}
	for k := range numKinds {
		for i, j := range jobs {
			for _, v := range []uint32{0, 7, 1<<32 - 1} {
				if e := mkEvent(3, k, j, v); e.kind() != k || e.job() != j || e.ver() != v {
					t.Fatalf("mkEvent(3, %v, %d, %d) gives kind %v, job %d, version %d", k, j, v, e.kind(), e.job(), e.ver())
				}
			}
			e := mkEvent(3, k, j, 7)
			if i > 0 && !mkEvent(3, k, jobs[i-1], 1<<32-1).Less(e) {
				t.Fatalf("job %d does not come before job %d", jobs[i-1], j)
			}
			if k > 0 && !mkEvent(3, k-1, maxJobs-1, 1<<32-1).Less(e) || !mkEvent(2, WakeUp, maxJobs-1, 1<<32-1).Less(e) {
				t.Fatalf("the order of %v, job %d is not by time, then kind", k, j)
			}
		}
	}
}
