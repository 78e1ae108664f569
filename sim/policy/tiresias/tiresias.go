// Package tiresias is Tiresias' discretized two-dimensional least attained
// service (2D-LAS) scheduler (Gu et al., NSDI'19), as Pollux's simulator
// re-implements it and the SJF-BSBF paper compares against it (spec 000
// §4.3). A job's attained service is its GPUs × time run; K queues split
// it at thresholds; every round the scheduler walks the queues, highest
// first and by arrival inside a queue (or, with queue_order running-first,
// in the order of Tiresias' own simulator: see lines), and runs each job
// whose GPUs fit in what is left, preempting the running jobs it no
// longer picks; the placement then chooses where the picked jobs run.
// Every restart costs a delay; preemption keeps the work done.
package tiresias

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/schema"
	"github.com/schedlab/schedlab/sim/workload"
)

// Params configure Tiresias. The defaults are Pollux's re-implementation
// (spec 000 §4.3 [ext]): two queues split at 16 GPU-hours, 60 s rounds, a
// 30 s restart delay, no starvation guard.
type Params struct {
	ThresholdsGPUH []float64 `json:"thresholds_gpu_h" help:"attained service (GPU-hours) at which a job drops to the next queue; K thresholds make K+1 queues"`
	RoundS         float64   `json:"round_s" min:"0" max:"86400" unit:"s" help:"scheduling round; 0 decides at every arrival, completion and threshold crossing instead"`
	RestartS       float64   `json:"restart_s" min:"0" max:"86400" unit:"s" help:"delay of no progress each time a preempted job starts again (checkpoint restore); a first start costs the engine's first_start_s, as for every policy"`
	PromoteKnob    float64   `json:"promote_knob,omitempty" min:"0" help:"starvation guard: a job waiting at least this many times its last run goes back to the top queue; 0 turns it off"`
	QueueOrder     string    `json:"queue_order" enum:"arrival,running-first" help:"the order inside one queue. arrival (Pollux's re-implementation): oldest first every round, so an older job that waits preempts a younger running job of its own queue. running-first (Tiresias' own simulator): each queue is a line that new and demoted jobs join at the end, and after every round the waiting jobs move behind the running ones, so a running job is never preempted by a waiting job of its queue (except one that has just dropped into it, which joins the end); fewer preemptions, but a job that got its GPUs keeps them ahead of older ones"`
	policy.PlacementParams
}

// Check enforces the rules that span fields.
func (p *Params) Check() []schema.Problem {
	var ps []schema.Problem
	for i, t := range p.ThresholdsGPUH {
		if !(t > 0) || (i > 0 && t <= p.ThresholdsGPUH[i-1]) {
			ps = append(ps, schema.Problem{Path: schema.Index("thresholds_gpu_h", i), Msg: fmt.Sprintf("thresholds must be positive and increasing, got %v", t)})
		}
	}
	return ps
}

// New returns a Tiresias policy.
func New(p Params) engine.Policy {
	return newScheduler(p, p.QueueOrder != "running-first" && p.PromoteKnob == 0)
}

// newScheduler builds Tiresias on the priority scheduler: a job's key is
// its queue; keep says the waiting jobs' keys are kept from decision to
// decision (they cannot change without the starvation guard, and the
// running-first lines order jobs by more than their key).
func newScheduler(p Params, keep bool) *policy.PriorityScheduler {
	t := &tiresias{p: p}
	ps := &policy.PriorityScheduler{
		Name: "Tiresias", Priority: t.priority, RoundS: p.RoundS, RestartS: p.RestartS,
		Label:     func(k float64) string { return fmt.Sprintf("queue %d", int(k)) }, // its key; the log has its own words
		Placement: p.Placement, KeepPendingKeys: keep,
		Preempting: t.preempting, LogStarted: t.logStarted, LogPreempted: t.logPreempted,
	}
	if keep {
		ps.RunningKeyUntil = t.keyUntil
	}
	if p.RoundS == 0 {
		ps.Wake = t.nextCrossing
	}
	if p.QueueOrder == "running-first" {
		ps.TieBreak, ps.Decided = t.lines.before, t.lines.runningFirst
	}
	return ps
}

type tiresias struct {
	p Params
	// Per job: when it last stopped running, how long it ran then (for
	// the starvation guard), and its attained GPU-seconds when it stopped.
	stoppedAt, lastRun, attained []float64
	lines                        lines // the queues as lines, for queue_order running-first
}

// priority is job id's queue; with running-first, a job that enters a
// queue joins the end of its line.
func (t *tiresias) priority(s *engine.State, id workload.JobID) (float64, error) {
	if t.stoppedAt == nil {
		if q := t.p.QueueOrder; q != "" && q != "arrival" && q != "running-first" {
			return 0, fmt.Errorf("queue_order: must be one of arrival, running-first, got %q", q)
		}
		n := s.NumJobs()
		t.stoppedAt, t.lastRun, t.attained = make([]float64, n), make([]float64, n), make([]float64, n)
	}
	q := t.queueOf(s, id)
	if t.p.QueueOrder == "running-first" {
		t.lines.join(s, id, q)
	}
	return float64(q), nil
}

// queueOf is the queue a job's attained service puts it in.
func (t *tiresias) queueOf(s *engine.State, id workload.JobID) int {
	if k := t.p.PromoteKnob; k > 0 {
		if info := s.Info(id); info.Status == engine.Pending && info.Starts > 0 && s.Now()-t.stoppedAt[id] >= k*t.lastRun[id] {
			return 0
		}
	}
	// the attained service alone, not the whole Info: asked of every job
	// that starts or waits
	gpuH := s.AttainedGPU(id) / 3600
	q := 0
	for q < len(t.p.ThresholdsGPUH) && gpuH >= t.p.ThresholdsGPUH[q] {
		q++
	}
	return q
}

func (t *tiresias) preempting(s *engine.State, id workload.JobID) {
	info := s.Info(id)
	t.stoppedAt[id], t.lastRun[id], t.attained[id] = s.Now(), s.Now()-info.LastStart, info.AttainedGPU
}

func (t *tiresias) logPreempted(s *engine.State, id workload.JobID, key float64) {
	if !s.Logging() { // counted as a dropped entry, without formatting it
		s.Log(id, "")
		return
	}
	s.LogNote(id, entryNote{}, engine.Note{Name: s.Job(id).Name, I: int32(key), X: t.attained[id] / 3600, J: 1})
}

func (t *tiresias) logStarted(s *engine.State, id workload.JobID, key float64) {
	if !s.Logging() {
		s.Log(id, "")
		return
	}
	s.LogNote(id, entryNote{}, engine.Note{Name: s.Job(id).Name, I: int32(key)})
}

// entryNote writes Tiresias' entries for a start (J 0) and a preemption
// (J 1) from a note holding the job's name, its queue (I) and, preempted,
// its attained GPU-hours (X): an entry formatted from arguments cost two
// allocations (the arguments' copy and the name boxed in an interface),
// 0.2 a job at a million jobs, for the 100,000 entries the log keeps.
type entryNote struct{}

func (entryNote) NoteText(_ workload.JobID, n *engine.Note) string {
	if n.J == 1 {
		return fmt.Sprintf("Tiresias: preempted %s (queue %d, %.2f GPU-hours attained)", n.Name, n.I, n.X)
	}
	return fmt.Sprintf("Tiresias: started %s from queue %d", n.Name, n.I)
}

// keyUntil is when a running job's queue may next change: when its
// attained service, growing by its GPUs each second, reaches the next
// threshold, less a margin far above the rounding of that sum, so that no
// decision that could see the new queue comes before it.
func (t *tiresias) keyUntil(s *engine.State, id workload.JobID) float64 {
	attained := s.AttainedGPU(id)
	for _, th := range t.p.ThresholdsGPUH {
		if left := th*3600 - attained; left > 0 {
			at := s.Now() + left/float64(len(s.GPUsOf(id)))
			return at - 1e-9*(math.Abs(at)+th*3600) - 1e-9
		}
	}
	return math.Inf(1)
}

// nextCrossing is, event-driven, the next moment a running job crosses a
// threshold while jobs wait.
func (t *tiresias) nextCrossing(s *engine.State) float64 {
	next := math.Inf(1)
	if s.NumPending() > 0 {
		s.EachRunning(func(id workload.JobID) bool {
			info := s.Info(id)
			for _, th := range t.p.ThresholdsGPUH {
				if left := th*3600 - info.AttainedGPU; left > 0 {
					next = min(next, s.Now()+left/float64(len(info.GPUs)))
					break
				}
			}
			return true
		})
	}
	return next
}

// lines are the queues as Tiresias' own simulator keeps them (run_sim.py,
// dlas_sim_jobs), for queue_order running-first: each queue is a line in
// which a job keeps its place from round to round. A job that arrives or
// changes queue joins the end of its new queue (the priority scheduler
// asks for keys in arrival order, as Tiresias walks its runnable jobs);
// after every round the waiting jobs of each queue move behind its
// running ones, keeping their order. Places are numbers that only grow,
// compared within a queue.
type lines struct {
	at   []int32 // per job: the queue whose line holds it, -1 for none
	pos  []int64 // per job: its place in that line
	next int64
	buf  []workload.JobID
}

func (l *lines) join(s *engine.State, id workload.JobID, q int) {
	if l.at == nil {
		l.at, l.pos = make([]int32, s.NumJobs()), make([]int64, s.NumJobs())
		for i := range l.at {
			l.at[i] = -1
		}
	}
	if l.at[id] != int32(q) {
		l.at[id], l.pos[id] = int32(q), l.next
		l.next++
	}
}

// before orders two jobs of one queue by their places in its line.
func (l *lines) before(a, b workload.JobID) bool { return l.pos[a] < l.pos[b] }

// runningFirst moves the waiting jobs of each line behind its running
// ones, keeping the order within each group.
func (l *lines) runningFirst(s *engine.State) {
	if l.at == nil {
		return
	}
	ids := l.buf[:0]
	add := func(id workload.JobID) bool {
		if l.at[id] >= 0 {
			ids = append(ids, id)
		}
		return true
	}
	s.EachRunning(add)
	s.EachPending(add)
	slices.SortFunc(ids, func(a, b workload.JobID) int {
		if l.at[a] != l.at[b] {
			return int(l.at[a] - l.at[b])
		}
		return cmp.Compare(l.pos[a], l.pos[b])
	})
	for i := 0; i < len(ids); {
		j := i
		for j < len(ids) && l.at[ids[j]] == l.at[ids[i]] {
			j++
		}
		for _, running := range []bool{true, false} {
			for _, id := range ids[i:j] {
				if (s.Status(id) == engine.Running) == running {
					l.pos[id] = l.next
					l.next++
				}
			}
		}
		i = j
	}
	l.buf = ids
}

func init() {
	policy.Register(policy.Family[Params]{
		Name:  "tiresias",
		Title: "Tiresias",
		Paper: "Gu et al., Tiresias: A GPU Cluster Manager for Distributed Deep Learning (NSDI 2019); as re-implemented in Pollux's simulator",
		Doc: "Least attained service first, without knowing job lengths. A job's service is the GPUs it holds times " +
			"the time it has run; once it passes a threshold (16 GPU-hours by default) it drops to a lower-priority " +
			"queue. Every round the scheduler runs jobs from the top queue down, oldest first, skipping those that do " +
			"not fit, and preempts running jobs it did not pick; each restart costs a delay. Short jobs finish early " +
			"without anyone predicting their length.",
		Defaults: func() Params {
			return Params{ThresholdsGPUH: []float64{16}, RoundS: 60, RestartS: 30, QueueOrder: "arrival",
				PlacementParams: policy.DefaultPlacementParams()}
		},
		New: func(p Params) (engine.Policy, error) { return New(p), nil },
	})
}
