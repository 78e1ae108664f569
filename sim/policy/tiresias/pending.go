package tiresias

import (
	"slices"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/workload"
)

// pendingQueues keep the pending jobs of each queue in arrival order from
// round to round, for queue_order arrival without the starvation guard.
// A pending job's attained service does not change, so neither does its
// queue: a round then sorts only the running jobs and walks the pending
// ones until the GPUs are spoken for, instead of sorting every active job
// (which made a round O(n log n) in a queue of tens of thousands).
type pendingQueues struct {
	sets []policy.IDSet // per queue, its pending jobs
	in   []int8         // per job: the queue whose set holds it, -1 for none
	run  []entry        // scratch: the running jobs of a round
}

func (p *pendingQueues) init(s *engine.State, queues int) {
	p.sets = make([]policy.IDSet, queues)
	for q := range p.sets {
		p.sets[q] = policy.NewIDSet(s.NumJobs())
	}
	p.in = make([]int8, s.NumJobs())
	for i := range p.in {
		p.in[i] = -1
	}
}

// sync files job id under the queue it is in now if it is pending, and
// takes it out if it is not.
func (p *pendingQueues) sync(t *tiresias, s *engine.State, id workload.JobID) {
	q := int8(-1)
	if info := s.Info(id); info.Status == engine.Pending {
		q = int8(t.queueOf(s, id, info))
	}
	if old := p.in[id]; old != q {
		if old >= 0 {
			p.sets[old].Remove(int(id))
		}
		if q >= 0 {
			p.sets[q].Add(int(id))
		}
		p.in[id] = q
	}
}

// order fills t.order with the jobs a round considers, in the order of
// the full sort by (queue, arrival): every running job, and the pending
// ones up to the point where the GPUs are all picked. The pending jobs
// left out would be neither picked nor preempted, so apply does the same
// with this prefix as with the whole list.
func (p *pendingQueues) order(t *tiresias, s *engine.State) {
	p.run = p.run[:0]
	s.EachRunning(func(id workload.JobID) bool {
		p.run = append(p.run, entry{t.queueOf(s, id, s.Info(id)), id})
		return true
	})
	slices.SortFunc(p.run, func(a, b entry) int {
		if a.queue != b.queue {
			return a.queue - b.queue
		}
		return int(a.id) - int(b.id)
	})
	t.order = t.order[:0]
	left := s.Cluster().NumGPUs()
	visit := func(e entry) {
		if g := s.Job(e.id).GPUs; g <= left {
			left -= g
		}
		t.order = append(t.order, e)
	}
	r := 0
	for q := range p.sets {
		if left > 0 {
			p.sets[q].Each(func(i int) bool {
				id := workload.JobID(i)
				for r < len(p.run) && p.run[r].queue == q && p.run[r].id < id {
					visit(p.run[r])
					r++
				}
				visit(entry{q, id})
				return left > 0
			})
		}
		for r < len(p.run) && p.run[r].queue == q {
			visit(p.run[r])
			r++
		}
	}
}
