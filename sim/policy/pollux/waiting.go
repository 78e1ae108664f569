package pollux

import (
	"slices"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/workload"
)

// ranWaiting lists the waiting jobs that ran before (every Pollux
// preemption files one), and finds the first k waiting jobs in Pollux's order without
// reading the whole queue, for max_waiting. The waiting jobs that never
// ran have all received nothing (attained service 0), so among themselves
// they come in arrival order, which is the engine's own pending order (job
// ids follow arrival); the few that ran and were preempted are listed
// here and sorted at each round (a waiting job's attained service does not
// change). first merges the two streams and stops after k.
type ranWaiting struct {
	ids []workload.JobID // waiting jobs that have run (and stale entries of jobs started since)
	in  []bool           // per job: listed in ids
	buf []*active        // scratch: the listed jobs still waiting, in order
}

// file lists job id, which has just been preempted and waits again.
func (r *ranWaiting) file(s *engine.State, id workload.JobID) {
	if len(r.in) != s.NumJobs() {
		r.in = make([]bool, s.NumJobs())
	}
	if !r.in[id] {
		r.in[id] = true
		r.ids = append(r.ids, id)
	}
}

// first calls add on the first k waiting jobs in Pollux's order (see
// active.before), in that order.
func (r *ranWaiting) first(s *engine.State, k int, add func(workload.JobID) bool) {
	// The listed jobs still waiting, sorted; those that started since are
	// dropped (they are running, or done).
	r.buf = r.buf[:0]
	r.each(s, func(id workload.JobID) {
		r.buf = append(r.buf, &active{id: id, attained: s.Info(id).AttainedGPU, arrival: s.Job(id).ArrivalS})
	})
	slices.SortFunc(r.buf, func(x, y *active) int {
		if x.before(y) {
			return -1
		}
		return 1 // ids differ, so never equal
	})
	taken, b := 0, 0
	emit := func(id workload.JobID) bool {
		add(id)
		taken++
		return taken < k
	}
	s.EachPending(func(id workload.JobID) bool {
		if r.listed(id) {
			return true // it comes from r.buf
		}
		next := &active{id: id, attained: s.Info(id).AttainedGPU, arrival: s.Job(id).ArrivalS} // never ran: 0
		for b < len(r.buf) && r.buf[b].before(next) {
			if !emit(r.buf[b].id) {
				return false
			}
			b++
		}
		return emit(id)
	})
	for ; b < len(r.buf) && taken < k; b++ {
		emit(r.buf[b].id)
	}
}

// each calls fn on the listed jobs still waiting, in the order they were
// listed, and forgets those that started since (they are running, or done).
func (r *ranWaiting) each(s *engine.State, fn func(workload.JobID)) {
	live := r.ids[:0]
	for _, id := range r.ids {
		if s.Status(id) != engine.Pending {
			r.in[id] = false
			continue
		}
		live = append(live, id)
		fn(id)
	}
	r.ids = live
}

func (r *ranWaiting) listed(id workload.JobID) bool { return int(id) < len(r.in) && r.in[id] }
