package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/sim/internal/minheap"
	"github.com/schedlab/schedlab/sim/workload"
)

// TestEventQueueSameAsMinheap: the engine's event queue is the generic
// heap written out for events, so every sequence of pushes, pops and
// in-place removals followed by Init must leave both in the same state,
// slot for slot (equal keys with different versions included, whose
// order only the heap's shape decides).
func TestEventQueueSameAsMinheap(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	for run := range 200 {
		var q eventQueue
		var h minheap.Heap[event]
		for op := range 2000 {
			switch k := r.IntN(10); {
			case k < 6 || h.Len() == 0:
				e := mkEvent(float64(r.IntN(50)), EventKind(r.IntN(5)), workload.JobID(r.IntN(9)-1), uint32(op))
				q.Push(e)
				h.Push(e)
			case k < 9:
				if a, b := q.Pop(), h.Pop(); a != b {
					t.Fatalf("run %d, op %d: popped %v, want %v", run, op, a, b)
				}
			default:
				// drop every event of one job in place, as compaction does
				job := workload.JobID(r.IntN(9) - 1)
				qa, ha := q[:0], h[:0]
				for i := range q {
					if q[i].job() != job {
						qa, ha = append(qa, q[i]), append(ha, h[i])
					}
				}
				q, h = qa, ha
				q.Init()
				h.Init()
			}
			if q.Len() != h.Len() || (q.Len() > 0 && q.Top() != h.Top()) {
				t.Fatalf("run %d, op %d: queues differ", run, op)
			}
			for i := range q {
				if q[i] != h[i] {
					t.Fatalf("run %d, op %d: slot %d holds %v, want %v", run, op, i, q[i], h[i])
				}
			}
		}
	}
}

// TestEventKey: an event's kind and job come back out of its key, and
// its order is (time, kind, job), wake-ups' job -1 included.
func TestEventKey(t *testing.T) {
	jobs := []workload.JobID{-1, 0, 1, 2, 1 << 20, 1<<31 - 1}
	for k := range numKinds {
		for i, j := range jobs {
			e := mkEvent(3, k, j, 7)
			if e.kind() != k || e.job() != j || e.ver != 7 {
				t.Fatalf("mkEvent(3, %v, %d, 7) gives kind %v, job %d, version %d", k, j, e.kind(), e.job(), e.ver)
			}
			if i > 0 && !mkEvent(3, k, jobs[i-1], 0).Less(e) {
				t.Fatalf("job %d does not come before job %d", jobs[i-1], j)
			}
			if k > 0 && !mkEvent(3, k-1, 1<<31-1, 0).Less(e) || !mkEvent(2, WakeUp, 1<<31-1, 0).Less(e) {
				t.Fatalf("the order of %v, job %d is not by time, then kind", k, j)
			}
		}
	}
}
