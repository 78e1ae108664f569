// Package sjf is shortest-job-first scheduling: among pending jobs the one
// with the shortest expected run time starts first, on exclusive,
// consolidated GPUs, and runs to completion.
package sjf

import (
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/workload"
)

// Params configure SJF.
type Params struct {
	Key      string `json:"key" enum:"duration,gpus,gpu_time" help:"what 'shortest' means: solo run time, GPU count, or GPUs × run time"`
	Backfill bool   `json:"backfill" help:"skip jobs that do not fit and start later ones"`
	BestFit  bool   `json:"best_fit,omitempty" help:"put a job that fits on one server on the fullest server that still fits"`
	policy.PlacementParams
}

// New returns an SJF policy.
func New(p Params) engine.Policy {
	key := func(s *engine.State, id workload.JobID) float64 { return policy.SoloDuration(s, id) }
	label := policy.TimeLabel("solo time")
	switch p.Key {
	case "gpus":
		key = func(s *engine.State, id workload.JobID) float64 { return float64(s.Job(id).GPUs) }
		label = policy.NumberLabel("GPUs")
	case "gpu_time":
		key = func(s *engine.State, id workload.JobID) float64 {
			return float64(s.Job(id).GPUs) * policy.SoloDuration(s, id)
		}
		label = policy.NumberLabel("GPU-seconds")
	}
	return &policy.QueueScheduler{Name: "SJF", Order: policy.Order{Key: key}, Label: label,
		Backfill: p.Backfill, BestFit: p.BestFit, Placement: p.Placement}
}

func init() {
	policy.Register(policy.Family[Params]{
		Name:  "sjf",
		Title: "SJF",
		Paper: "idealised baseline; as specified in SJF-BSBF, Luo et al. 2024, §4.2",
		Doc: "Shortest job first. It assumes the scheduler knows how long every job would run alone, and " +
			"starts the shortest pending job that fits, on its own GPUs, packed on as few servers as possible; " +
			"jobs then run to the end. Short jobs no longer wait behind long ones, which cuts the average " +
			"completion time, but a long job can wait for a very long time while short ones keep arriving.",
		Defaults: func() Params {
			return Params{Key: "duration", Backfill: true, PlacementParams: policy.DefaultPlacementParams()}
		},
		New: func(p Params) (engine.Policy, error) { return New(p), nil },
	})
}
