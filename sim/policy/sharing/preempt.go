package sharing

import (
	"sort"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/workload"
)

// The SJF-BSBF authors' published testbed scheduler runs SJF-FFS and
// SJF-BSBF preemptively unless told not to; only its no-preemption
// variants follow the paper's text. With the preempt knob both sharing
// policies decide as that code does, in the simulator's terms:
//
//   - At every arrival and completion the unfinished jobs are ordered by
//     what they have left: the key they are queued by (for the default
//     key, the solo run time) times the share of their iterations still
//     to run, ties by arrival. A job that never ran keeps its key, a
//     running job's shrinks as it runs, a waiting job's stays put.
//   - The waiting jobs are walked in that order, and each is tried as
//     without preemption: alone on free GPUs, else by sharing.
//   - A job that cannot start stops the running jobs ordered after it
//     (those with more left), one at a time, the one with the most left
//     first, and is tried again after each stop, until it starts. Stopped
//     jobs keep their progress, wait with what they have left, and are
//     tried again later in the same walk: they may start again at once,
//     elsewhere or sharing. A restart costs restart_s without progress.
//   - Jobs are stopped only when that can make room: with every running
//     job ordered after it stopped, enough GPUs of a type it runs on
//     would hold no job (or, when GPUs may be shared, fewer than C jobs).
//     If it still cannot start once all of them are stopped (the sharing
//     test or memory turns the GPUs down, or the placement finds them too
//     scattered), the stopped jobs go back at once onto the same GPUs
//     with the same batch and lose no time; the run still counts those
//     stops as preemptions. The authors' code would restart them later in
//     its walk and count nothing when they get the same GPUs back.
//
// Their code orders by the measured time left, which sharing slows; here
// it is the solo time left. It also spares jobs with at most 100
// iterations left; here every job ordered after the waiting one may be
// stopped.

// decidePreemptive is Decide with the preempt knob: the walk above.
func (sc *scheduler) decidePreemptive(s *engine.State) error {
	sc.scanGPUs(s)
	for i := 0; i < len(sc.queue); {
		q := sc.queue[i]
		started, err := sc.try(s, q.id)
		if err == nil && !started {
			started, err = sc.preemptFor(s, q)
		}
		if err != nil {
			return err
		}
		if !started {
			i++
			continue
		}
		sc.branch.started(q.id)
		sc.queue = append(sc.queue[:i], sc.queue[i+1:]...)
	}
	return nil
}

// leftKey is job id's place in the preemptive order: its queue key times
// the share of its iterations left.
func (sc *scheduler) leftKey(s *engine.State, id workload.JobID) float64 {
	k := sc.base[id]
	if it, left := s.Job(id).Iterations, s.Remaining(id); it > 0 && left < it {
		k *= left / it
	}
	return k
}

// longer lists the running jobs ordered after q, the one with the most
// left first.
func (sc *scheduler) longer(s *engine.State, q queued) []queued {
	var out []queued
	s.EachRunning(func(id workload.JobID) bool {
		r := queued{sc.leftKey(s, id), id, int32(s.Job(id).GPUs)}
		if q.before(r) {
			out = append(out, r)
		}
		return true
	})
	sort.Slice(out, func(a, b int) bool { return out[b].before(out[a]) })
	return out
}

// couldMakeRoom reports whether stopping every job of victims would leave
// enough GPUs for job id: of one type it runs on, holding no job, or,
// when GPUs may be shared, fewer than C jobs. It is a count, necessary
// for the job to start, not sufficient.
func (sc *scheduler) couldMakeRoom(s *engine.State, id workload.JobID, victims []queued) bool {
	if len(sc.stopping) < s.NumJobs() {
		sc.stopping = make([]bool, s.NumJobs())
	}
	for _, v := range victims {
		sc.stopping[v.id] = true
	}
	defer func() {
		for _, v := range victims {
			sc.stopping[v.id] = false
		}
	}()
	need, limit := s.Job(id).GPUs, max(sc.p.MaxJobsPerGPU, 1)
	c := s.Cluster()
	for _, t := range policy.RequestFor(s, id).Types() {
		free, shareable := 0, 0
		for g := range c.NumGPUs() {
			if t != "" && c.GPUs[g].Type != t {
				continue
			}
			n := 0
			for _, r := range s.JobsOn(cluster.GPUID(g)) {
				if !sc.stopping[r] {
					n++
				}
			}
			switch {
			case n == 0:
				free++
			case n < limit:
				shareable++
			}
		}
		if free >= need || (limit >= 2 && free+shareable >= need) {
			return true
		}
	}
	return false
}

// stopped is a job preemptFor stopped, with where it ran.
type stopped struct {
	id   workload.JobID
	gpus []cluster.GPUID
	sub  int
}

// preemptFor stops running jobs ordered after q, the one with the most
// left first, trying q again after each, until q starts; if it never
// does, the stopped jobs go back where they were.
func (sc *scheduler) preemptFor(s *engine.State, q queued) (bool, error) {
	victims := sc.longer(s, q)
	if len(victims) == 0 || !sc.couldMakeRoom(s, q.id, victims) {
		return false, nil
	}
	name := s.Job(q.id).Name
	var done []stopped
	for _, v := range victims {
		info := s.Info(v.id)
		done = append(done, stopped{v.id, append([]cluster.GPUID(nil), info.GPUs...), info.SubBatch})
		if err := s.Preempt(v.id); err != nil {
			return false, err
		}
		if s.Logging() {
			s.Log(v.id, "%s: preempted %s (%s of solo time left) to make room for %s (%s left)",
				sc.title, s.Job(v.id).Name, fmtS(v.key), name, fmtS(q.key))
		}
		sc.scanGPUs(s)
		started, err := sc.try(s, q.id)
		if err != nil {
			return false, err
		}
		if started {
			for _, d := range done { // they wait, and are tried later in this walk
				sc.push(queued{sc.leftKey(s, d.id), d.id, int32(s.Job(d.id).GPUs)})
			}
			return true, nil
		}
	}
	for i := len(done) - 1; i >= 0; i-- { // in vain: put them back as they were
		d := done[i]
		if err := s.Start(d.id, d.gpus, engine.ActionOptions{SubBatch: d.sub, NoOverhead: true}); err != nil {
			return false, err
		}
		if s.Logging() {
			s.Log(d.id, "%s: %s goes back onto its GPUs at once: %s cannot start even with the longer jobs stopped", sc.title, s.Job(d.id).Name, name)
		}
	}
	sc.scanGPUs(s)
	return false, nil
}

// startOptions are the options of a start: a restart after a preemption
// costs restart_s.
func (sc *scheduler) startOptions(s *engine.State, id workload.JobID) engine.ActionOptions {
	if !sc.p.Preempt || s.Info(id).Starts == 0 {
		return engine.ActionOptions{}
	}
	return engine.ActionOptions{OverheadS: sc.p.RestartS, NoOverhead: sc.p.RestartS == 0}
}

// leftOptions scales the solo times of job id's options to what it has
// left, for a job that ran before and was preempted.
func (sc *scheduler) leftOptions(s *engine.State, id workload.JobID, opts []Option) []Option {
	it, left := s.Job(id).Iterations, s.Remaining(id)
	if !sc.p.Preempt || it <= 0 || left >= it {
		return opts
	}
	out := append([]Option(nil), opts...)
	for i := range out {
		out[i].LNShare *= left / it
	}
	return out
}
