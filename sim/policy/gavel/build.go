package gavel

import (
	"context"
	"fmt"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy/gavel/fluid"
	"github.com/schedlab/schedlab/sim/policy/gavel/mechanism"
	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/solver/lp"
)

// newMechanism configures the round mechanism for a policy: its common
// knobs, its title and its allocator, with lps the allocator's linear
// programs (nil if it solves none).
func newMechanism(p Common, title string, a plan.Allocator, lps lp.Dumper) *mechanism.Config {
	return &mechanism.Config{Title: title, Alloc: a, LPs: lps, Mode: p.Mode, RoundS: p.RoundS, ResetMinS: p.ResetMinS,
		TraceJobs: p.TraceJobs, Prices: p.priceList, Quirks: p.quirks(), MigrateMoves: p.MigrateMoves}
}

// ideal is a policy in mode "ideal": no rounds and no GPU placements;
// every active job progresses continuously at its time-averaged rate
// (spec 001 §3.5 and Figure 13), which the discrete engine cannot express,
// so package fluid simulates the run. The experiment runner hands such a
// run to Simulate (experiment.Simulator); the registry builds
// engine.Policy values, hence Options and a Decide that refuses the
// engine.
type ideal struct{ cfg *mechanism.Config }

// Options implements engine.Policy.
func (p *ideal) Options() engine.Options { return engine.Options{} }

// Decide implements engine.Policy; the fluid mode is run by Simulate.
func (p *ideal) Decide(*engine.State, []engine.Trigger) error {
	return fmt.Errorf("mode ideal is a fluid model with its own simulator; it runs through schedlab's experiments, not the discrete engine")
}

// DumpLPs implements lp.Dumper.
func (p *ideal) DumpLPs(sink func(*lp.Problem)) {
	if p.cfg.LPs != nil {
		p.cfg.LPs.DumpLPs(sink)
	}
}

// Simulate runs the fluid model (experiment.Simulator).
func (p *ideal) Simulate(ctx context.Context, cfg engine.Config) (*engine.Result, error) {
	done := ctx.Done()
	stop := func() bool {
		select {
		case <-done:
			return true
		default:
			return false
		}
	}
	for _, x := range []any{p.cfg.LPs, p.cfg.Alloc} {
		if st, ok := x.(interface{ StopWhen(func() bool) }); ok {
			st.StopWhen(stop)
		}
	}
	return fluid.Run(ctx, cfg, fluid.Options{Title: p.cfg.Title, Alloc: p.cfg.Alloc, ResetMinS: p.cfg.ResetMinS, SetPrices: p.cfg.SetPrices})
}

// quirks are the reference's quirks the mechanism reproduces: in
// ref-compat only.
func (p Common) quirks() mechanism.Quirks {
	if p.Mode != "ref-compat" {
		return mechanism.Quirks{}
	}
	return mechanism.Quirks{ResetAtZero: p.ResetAtZero, IntegerSteps: p.IntegerSteps, SplitSteps: p.SplitSteps, UnallocatedWait: p.UnallocatedWait,
		IdleUntilArrival: p.IdleUntilArrival}
}
