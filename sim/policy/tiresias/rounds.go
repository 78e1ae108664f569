package tiresias

import (
	"fmt"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/workload"
)

// RoundsParams configure tiresias-rounds, the Tiresias baseline of the
// Tesserae paper as the Blox framework runs it: least attained service
// without queues, in rounds.
type RoundsParams struct {
	Order    string  `json:"order" enum:"las,fifo" help:"who runs first. las (2D-LAS): least attained GPU-seconds (GPUs × time run) first, arrival breaks ties. fifo: arrival order"`
	RoundS   float64 `json:"round_s" min:"1" max:"86400" unit:"s" help:"scheduling round (the Tesserae paper: 360 s)"`
	RestartS float64 `json:"restart_s" min:"0" max:"86400" unit:"s" help:"seconds of no progress charged when a preempted job starts again"`
	BestFit  bool    `json:"best_fit" help:"put a job that fits on one server on the fullest server that still holds it (Blox's placer); off: the first (strict) or the emptiest (consolidated)"`
	policy.PlacementParams
}

// DefaultRoundsParams are the Tesserae paper's Tiresias: 2D-LAS in 6-minute
// rounds, 30 s restarts, Blox's consolidated placer (a job on one server,
// the fullest that holds it, or on whole free servers).
func DefaultRoundsParams() RoundsParams {
	return RoundsParams{Order: "las", RoundS: 360, RestartS: 30, BestFit: true, PlacementParams: policy.PlacementParams{Placement: "strict"}}
}

// NewRounds returns a tiresias-rounds policy.
func NewRounds(p RoundsParams) (engine.Policy, error) {
	key := func(s *engine.State, id workload.JobID) (float64, error) { return s.Info(id).AttainedGPU, nil }
	label := policy.TimeLabel("attained GPU-time")
	switch p.Order {
	case "fifo":
		key = func(s *engine.State, id workload.JobID) (float64, error) { return s.Job(id).ArrivalS, nil }
		label = policy.TimeLabel("arrived at")
	case "las":
	default:
		return nil, fmt.Errorf("order: must be one of las, fifo, got %q", p.Order)
	}
	return &policy.PriorityScheduler{
		Name: "Tiresias", Priority: key, Label: label, RoundS: p.RoundS, RestartS: p.RestartS,
		Placement: p.Placement, BestFit: p.BestFit,
		// A waiting job's attained service and arrival do not change.
		KeepPendingKeys: true,
	}, nil
}

func init() {
	policy.Register(policy.Family[RoundsParams]{
		Name:  "tiresias-rounds",
		Title: "Tiresias (rounds)",
		Paper: "Gu et al. (NSDI 2019) as the baseline of Bian et al., Tesserae (arXiv 2508.04953, 2025), run in the Blox framework",
		Doc: "Least attained service first, in rounds, as the Tesserae paper's Tiresias baseline: every 6 minutes the jobs " +
			"that have held the fewest GPU-seconds get the GPUs, the others are preempted (each restart costs 30 s). A job " +
			"that keeps running keeps its GPUs, as Blox never moves a running job; a job that starts goes on one server " +
			"(the fullest that holds it) or on whole free servers, or waits. No GPU sharing.",
		Defaults: DefaultRoundsParams,
		New:      NewRounds,
	})
}
