package experiment

import (
	"context"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/solver/lp"
)

// Simulator is implemented by policies whose runs the discrete engine
// cannot express, e.g. an ideal fluid allocation in which every job
// progresses at its time-averaged rate without holding whole GPUs. Such a
// policy simulates itself from the same configuration and returns the
// same kind of result.
type Simulator interface {
	Simulate(ctx context.Context, cfg engine.Config) (*engine.Result, error)
}

// LPSink receives every linear program a run's policy solves.
type LPSink func(r *Run, p *lp.Problem)

// simulate runs one configuration on the engine, or on the policy's own
// simulator, and wires the LP sink.
func simulate(ctx context.Context, r *Run, cfg engine.Config, sink LPSink) (*engine.Result, error) {
	if d, ok := cfg.Policy.(lp.Dumper); ok && sink != nil {
		d.DumpLPs(func(p *lp.Problem) { sink(r, p) })
	}
	if sim, ok := cfg.Policy.(Simulator); ok {
		res, err := sim.Simulate(ctx, cfg)
		if err == nil && res != nil && cfg.Paranoid {
			// The engine's invariants do not see such a run: check what
			// it recorded.
			err = engine.CheckRecords(cfg.Jobs, res)
		}
		return res, err
	}
	return engine.Run(ctx, cfg)
}
