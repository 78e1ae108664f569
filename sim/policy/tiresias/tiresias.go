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
	"fmt"
	"math"
	"sort"

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
func New(p Params) engine.Policy { return &tiresias{p: p} }

type tiresias struct {
	p Params
	// Per job: when it last stopped running and how long it ran then, for
	// the starvation guard.
	stoppedAt, lastRun []float64
	order              []entry
	lines              lines          // the queues as lines, for queue_order running-first
	pending            *pendingQueues // kept across rounds when a pending job's queue cannot change
	place              policy.Placement
	waits              policy.WaitNotes
	sortAll            bool // tests: sort every active job each round, as before pendingQueues
}

type entry struct {
	queue int
	id    workload.JobID
}

func (t *tiresias) Options() engine.Options {
	return engine.Options{MaxJobsPerGPU: 1, Subscribe: engine.Mask(engine.Arrival, engine.Completion, engine.WakeUp)}
}

func (t *tiresias) Decide(s *engine.State, triggers []engine.Trigger) error {
	if t.stoppedAt == nil {
		t.stoppedAt, t.lastRun = make([]float64, s.NumJobs()), make([]float64, s.NumJobs())
		p, err := policy.PlacementByName(t.p.Placement)
		if err != nil {
			return err
		}
		t.place = p
		if q := t.p.QueueOrder; q != "" && q != "arrival" && q != "running-first" {
			return fmt.Errorf("queue_order: must be one of arrival, running-first, got %q", q)
		}
		if t.p.QueueOrder != "running-first" && t.p.PromoteKnob == 0 && !t.sortAll {
			t.pending = &pendingQueues{}
			t.pending.init(s, len(t.p.ThresholdsGPUH)+1)
			s.EachPending(func(id workload.JobID) bool { t.pending.sync(t, s, id); return true })
		}
	} else if t.pending != nil {
		for _, tr := range triggers {
			if tr.Kind == engine.Arrival {
				t.pending.sync(t, s, tr.Job)
			}
		}
	}
	// In rounds, arrivals and completions only make sure a round is due.
	if t.p.RoundS == 0 || woken(triggers) {
		if err := t.schedule(s); err != nil {
			return err
		}
	}
	return t.wake(s)
}

func woken(triggers []engine.Trigger) bool {
	for _, tr := range triggers {
		if tr.Kind == engine.WakeUp {
			return true
		}
	}
	return false
}

// queueOf is the queue a job's attained service puts it in.
func (t *tiresias) queueOf(s *engine.State, id workload.JobID, info engine.JobInfo) int {
	if k := t.p.PromoteKnob; k > 0 && info.Status == engine.Pending && info.Starts > 0 &&
		s.Now()-t.stoppedAt[id] >= k*t.lastRun[id] {
		return 0
	}
	gpuH := info.AttainedGPU / 3600
	q := 0
	for q < len(t.p.ThresholdsGPUH) && gpuH >= t.p.ThresholdsGPUH[q] {
		q++
	}
	return q
}

// schedule picks the jobs to run this round and applies the difference.
func (t *tiresias) schedule(s *engine.State) error {
	if t.pending != nil {
		t.pending.order(t, s)
		if err := t.apply(s); err != nil {
			return err
		}
		for _, e := range t.order { // file the preempted, drop the started
			t.pending.sync(t, s, e.id)
		}
		return nil
	}
	t.order = t.order[:0]
	add := func(id workload.JobID) bool {
		t.order = append(t.order, entry{t.queueOf(s, id, s.Info(id)), id})
		return true
	}
	s.EachRunning(add)
	s.EachPending(add)
	if t.p.QueueOrder == "running-first" {
		t.lines.update(s, t.order, len(t.p.ThresholdsGPUH)+1)
		t.order = t.lines.walk(t.order[:0])
	} else {
		sort.Slice(t.order, func(a, b int) bool {
			if t.order[a].queue != t.order[b].queue {
				return t.order[a].queue < t.order[b].queue
			}
			return t.order[a].id < t.order[b].id // arrival order
		})
	}
	if err := t.apply(s); err != nil {
		return err
	}
	if t.p.QueueOrder == "running-first" {
		t.lines.runningFirst(s)
	}
	return nil
}

// apply runs the jobs of t.order that fit, in that order, and preempts
// the running jobs that do not.
func (t *tiresias) apply(s *engine.State) error {
	left := s.Cluster().NumGPUs()
	picked := make([]bool, len(t.order))
	for i, e := range t.order {
		if g := s.Job(e.id).GPUs; g <= left {
			picked[i] = true
			left -= g
		}
	}
	for i, e := range t.order { // preempt first, so the GPUs are free
		if !picked[i] && s.Status(e.id) == engine.Running {
			info := s.Info(e.id)
			t.stoppedAt[e.id], t.lastRun[e.id] = s.Now(), s.Now()-info.LastStart
			if err := s.Preempt(e.id); err != nil {
				return err
			}
			s.Log(e.id, "Tiresias: preempted %s (queue %d, %.2f GPU-hours attained)", s.Job(e.id).Name, e.queue, info.AttainedGPU/3600)
		}
	}
	for i, e := range t.order {
		if !picked[i] || s.Status(e.id) != engine.Pending {
			continue
		}
		job := s.Job(e.id)
		req := policy.RequestFor(s, e.id, false)
		gpus := t.place.Pick(s, req)
		if gpus == nil { // its GPUs are counted but not where it needs them: it waits for a later round
			t.waits.Note(s, e.id, "Tiresias", func() string { return t.place.WhyNot(s, req) })
			continue
		}
		t.waits.Clear(e.id)
		var o engine.ActionOptions // a first start costs what the engine charges every policy
		if s.Info(e.id).Starts > 0 {
			o = engine.ActionOptions{OverheadS: t.p.RestartS, NoOverhead: t.p.RestartS == 0}
		}
		if err := s.Start(e.id, gpus, o); err != nil {
			return err
		}
		s.Log(e.id, "Tiresias: started %s from queue %d", job.Name, e.queue)
	}
	return nil
}

// wake asks for the next decision: the next round, or (event-driven) the
// next moment a running job crosses a threshold.
func (t *tiresias) wake(s *engine.State) error {
	if s.NumPending()+s.NumRunning() == 0 {
		return nil
	}
	next := math.Inf(1)
	if t.p.RoundS > 0 {
		next = (math.Floor(s.Now()/t.p.RoundS) + 1) * t.p.RoundS
	} else if s.NumPending() > 0 {
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
	if math.IsInf(next, 1) || next <= s.Now() {
		return nil
	}
	return s.WakeAt(next)
}

func init() {
	policy.Register(policy.Family[Params]{
		Name:  "tiresias",
		Title: "Tiresias",
		Paper: "Gu et al., Tiresias: A GPU Cluster Manager for Distributed Deep Learning (NSDI 2019); as re-implemented in Pollux's simulator (spec 000 §4.3)",
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
