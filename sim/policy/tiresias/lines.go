package tiresias

import (
	"sort"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/workload"
)

// lines are the queues as Tiresias' own simulator keeps them (run_sim.py,
// dlas_sim_jobs), for queue_order running-first: each queue is a line in
// which a job keeps its place from round to round. A job that arrives or
// changes queue joins the end of its new queue; after every round the
// waiting jobs of each queue move behind its running ones, keeping their
// order. The round then walks the lines instead of sorting by arrival.
type lines struct {
	q  [][]workload.JobID // per queue, in line order
	at []int32            // per job: the queue whose line holds it, -1 for none
}

// update brings the lines in step with the active jobs and the queues
// their attained service puts them in; it sorts active by job ID.
func (l *lines) update(s *engine.State, active []entry, queues int) {
	if l.q == nil {
		l.q = make([][]workload.JobID, queues)
		l.at = make([]int32, s.NumJobs())
		for i := range l.at {
			l.at[i] = -1
		}
	}
	// Newcomers and jobs whose queue changed join the end of their queue
	// in arrival order, as Tiresias walks its runnable jobs.
	sort.Slice(active, func(a, b int) bool { return active[a].id < active[b].id })
	for _, e := range active {
		if l.at[e.id] != int32(e.queue) {
			l.at[e.id] = int32(e.queue)
			l.q[e.queue] = append(l.q[e.queue], e.id)
		}
	}
	// Drop finished jobs, and the old places of jobs that moved.
	for qi := range l.q {
		keep := l.q[qi][:0]
		for _, id := range l.q[qi] {
			if st := s.Status(id); l.at[id] == int32(qi) && (st == engine.Running || st == engine.Pending) {
				keep = append(keep, id)
			}
		}
		l.q[qi] = keep
	}
}

// walk appends the jobs of every line, top queue first, to out.
func (l *lines) walk(out []entry) []entry {
	for qi, line := range l.q {
		for _, id := range line {
			out = append(out, entry{qi, id})
		}
	}
	return out
}

// runningFirst moves the waiting jobs of each line behind its running
// ones, keeping the order within each group.
func (l *lines) runningFirst(s *engine.State) {
	var waiting []workload.JobID
	for qi, line := range l.q {
		waiting = waiting[:0]
		keep := line[:0]
		for _, id := range line {
			if s.Status(id) == engine.Running {
				keep = append(keep, id)
			} else {
				waiting = append(waiting, id)
			}
		}
		l.q[qi] = append(keep, waiting...)
	}
}
