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
	policy.PlacementParams
}

// New returns a FIFO policy.
func New(p Params) engine.Policy {
	return &policy.QueueScheduler{
		Name:     "FIFO",
		Order:    policy.Order{Key: func(s *engine.State, id workload.JobID) float64 { return s.Job(id).ArrivalS }},
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
