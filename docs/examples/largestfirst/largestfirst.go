// Package largestfirst starts the waiting job that asks for the most GPUs
// first, so that large jobs are not starved by a stream of small ones;
// smaller jobs backfill the GPUs a large one cannot use. It is the
// queue-scheduler example of docs/policies.md.
package largestfirst

import (
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/workload"
)

// Params configure the policy: only where jobs go.
type Params struct {
	policy.PlacementParams
}

func gpus(s *engine.State, id workload.JobID) float64 { return float64(s.Job(id).GPUs) }

func init() {
	policy.Register(policy.Family[Params]{
		Name: "example-largest-first", Title: "Largest first", Paper: "docs/policies.md",
		Doc:      "The waiting job that asks for the most GPUs starts first; smaller ones fill the gaps.",
		Defaults: func() Params { return Params{PlacementParams: policy.DefaultPlacementParams()} },
		New: func(p Params) (engine.Policy, error) {
			return &policy.QueueScheduler{Name: "Largest first", Order: policy.Order{Key: gpus, LargestFirst: true},
				Label: policy.NumberLabel("GPUs"), Backfill: true, Placement: p.Placement}, nil
		},
	})
}
