// Package srgt is shortest remaining GPU time first, as docs/policies.md shows.
package srgt

import (
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/workload"
)

// Params configure SRGT.
type Params struct {
	RestartS float64 `json:"restart_s" min:"0" max:"86400" unit:"s" help:"delay of each restart after a preemption"`
	policy.PlacementParams
}

// gpuTimeLeft is a job's GPUs times the seconds of work it has left alone.
func gpuTimeLeft(s *engine.State, id workload.JobID) (float64, error) {
	job := s.Job(id)
	return float64(job.GPUs) * policy.SoloDuration(s, id) * s.Remaining(id) / job.Iterations, nil
}

func init() {
	policy.Register(policy.Family[Params]{Name: "example-srgt", Title: "SRGT", Paper: "docs/policies.md",
		Doc:      "Shortest remaining GPU time first: a job with fewer GPU-seconds of work left preempts one with more.",
		Defaults: func() Params { return Params{RestartS: 30, PlacementParams: policy.DefaultPlacementParams()} },
		New: func(p Params) (engine.Policy, error) {
			return &policy.PriorityScheduler{Name: "SRGT", Priority: gpuTimeLeft, RestartS: p.RestartS, Placement: p.Placement}, nil
		}})
}
