package policy

import (
	"fmt"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

// RunsThere is the rate filter of a placement that shares GPUs: whether,
// under the policy's believed perf model, job id started on gpus with
// per-GPU batch subBatch (0: its own) would progress, and so would every
// job already on those GPUs. A model of measured throughputs has no rate
// for some pairs, or for jobs that share some of their GPUs but not all
// (Gavel's table); a start there would stop the run. It says which job
// would not progress.
func RunsThere(s *engine.State, id workload.JobID, gpus []cluster.GPUID, subBatch int) (bool, string) {
	w := &ifStarted{State: s, id: id, at: perf.Placement{GPUs: gpus, SubBatch: subBatch}}
	m := s.Perf()
	if r := m.Rate(w, id); !(r > 0) {
		return false, fmt.Sprintf("the perf model gives %s no rate there", s.Job(id).Name)
	}
	var seen []workload.JobID
	for _, g := range gpus {
		for _, x := range s.JobsOn(g) {
			if containsJob(seen, x) {
				continue
			}
			seen = append(seen, x)
			if r := m.Rate(w, x); !(r > 0) {
				return false, fmt.Sprintf("the perf model gives %s no rate beside %s", s.Job(x).Name, s.Job(id).Name)
			}
		}
	}
	return true, ""
}

// ifStarted is the engine's state as a perf model would see it with job
// id started at a placement: a what-if for RunsThere.
type ifStarted struct {
	*engine.State
	id workload.JobID
	at perf.Placement
}

func (w *ifStarted) Placement(id workload.JobID) perf.Placement {
	if id == w.id {
		return w.at
	}
	return w.State.Placement(id)
}

func (w *ifStarted) JobsOn(g cluster.GPUID) []workload.JobID {
	on := w.State.JobsOn(g)
	for _, x := range w.at.GPUs {
		if x == g {
			return append(on[:len(on):len(on)], w.id)
		}
	}
	return on
}

// NumJobsOn counts the jobs JobsOn lists (models may count without
// listing).
func (w *ifStarted) NumJobsOn(g cluster.GPUID) int { return len(w.JobsOn(g)) }
