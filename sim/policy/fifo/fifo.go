// Package fifo is first-in-first-out scheduling: jobs start in arrival
// order on exclusive, consolidated GPUs and run to completion.
package fifo

import (
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/workload"
)

// Params configure FIFO.
type Params struct {
	Backfill bool `json:"backfill" help:"let later jobs start when the oldest one does not fit (the default); off gives strict head-of-line blocking"`
	BestFit  bool `json:"best_fit,omitempty" help:"put a job that fits on one server on the fullest server that still fits, instead of the emptiest (consolidated) or the first in order (strict)"`
	// Preempt is how the SJF-BSBF authors' testbed scheduler runs FIFO
	// (their published code, not the paper's text): the oldest jobs take
	// GPUs from younger running ones.
	Preempt  bool    `json:"preempt,omitempty" help:"the SJF-BSBF authors' own scheduler code: at every arrival and completion the oldest jobs that fit run, preempting younger running jobs (not the paper's text, whose FIFO never preempts)"`
	RestartS float64 `json:"restart_s,omitempty" min:"0" max:"1e6" unit:"s" help:"with preempt: time without progress when a preempted job restarts (0: it resumes at once)"`
	policy.PlacementParams
}

// New returns a FIFO policy.
func New(p Params) engine.Policy {
	arrival := func(s *engine.State, id workload.JobID) float64 { return s.Job(id).ArrivalS }
	if p.Preempt {
		return &policy.PriorityScheduler{
			Name:     "FIFO",
			Priority: func(s *engine.State, id workload.JobID) (float64, error) { return arrival(s, id), nil },
			Label:    policy.TimeLabel("arrived at"),
			RestartS: p.RestartS, NoBackfill: !p.Backfill, Placement: p.Placement, BestFit: p.BestFit,
		}
	}
	return &policy.QueueScheduler{
		Name:     "FIFO",
		Order:    policy.Order{Key: arrival},
		Label:    policy.TimeLabel("arrived at"),
		Backfill: p.Backfill, BestFit: p.BestFit, Placement: p.Placement,
	}
}

func init() {
	policy.Register(policy.Family[Params]{
		Name:  "fifo",
		Title: "FIFO",
		Paper: "baseline (YARN, Kubernetes); as specified in SJF-BSBF, Luo et al. 2024, §4.1",
		Doc: "First in, first out. Jobs start in the order they arrive, each on its own GPUs " +
			"(no sharing), all of its GPUs at once, packed on as few servers as possible, and run to the end " +
			"without preemption. With backfilling a small job may overtake a large one that does not fit yet; " +
			"without it one large job can block everyone behind it (head-of-line blocking).",
		Defaults: func() Params { return Params{Backfill: true, PlacementParams: policy.DefaultPlacementParams()} },
		New:      func(p Params) (engine.Policy, error) { return New(p), nil },
	})
}
