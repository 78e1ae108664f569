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
	// Preempt is how the SJF-BSBF authors' testbed scheduler runs SJF
	// (their published code, not the paper's text).
	Preempt  bool    `json:"preempt,omitempty" help:"the SJF-BSBF authors' own scheduler code: shortest remaining time first, at every arrival and completion the jobs with the least solo time left run, preempting others (not the paper's text, whose SJF never preempts)"`
	RestartS float64 `json:"restart_s,omitempty" min:"0" max:"1e6" unit:"s" help:"with preempt: time without progress when a preempted job restarts (0: it resumes at once)"`
	policy.PlacementParams
}

// New returns an SJF policy.
func New(p Params) engine.Policy {
	if p.Preempt {
		return newPreemptive(p)
	}
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

// newPreemptive is shortest remaining time first: the key is the solo
// time still to run, so a running job's key only falls and the order can
// change only at arrivals and completions, when PriorityScheduler decides.
func newPreemptive(p Params) engine.Policy {
	return &policy.PriorityScheduler{
		Name: "SJF",
		Priority: func(s *engine.State, id workload.JobID) (float64, error) {
			j := s.Job(id)
			if j.Iterations <= 0 {
				return policy.SoloDuration(s, id), nil
			}
			return policy.SoloDuration(s, id) * s.Remaining(id) / j.Iterations, nil
		},
		Label:    policy.TimeLabel("solo time left"),
		RestartS: p.RestartS, NoBackfill: !p.Backfill, Placement: p.Placement, BestFit: p.BestFit,
	}
}
