package api

import (
	"context"
	"encoding/json"
	"math"

	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/scenario"
)

// IsStudy reports whether a scenario runs as a study (a sweep, a paper's
// numbers or checks) rather than as one comparison of its policies.
func IsStudy(sc *scenario.Scenario) bool {
	return sc.Sweep != nil || sc.Reference != nil || len(sc.Checks) > 0
}

// RunOptions say how Execute runs a scenario.
type RunOptions struct {
	Seed     uint64 // one seed of a plain scenario; 0: its first seed
	Quick    bool   // a study's quick version
	Workers  int
	Paranoid bool
	Progress func(experiment.Progress)
	LPSink   experiment.LPSink
}

// Outcome is a scenario run as `schedlab run` runs it: a study, or a
// report of one seed.
type Outcome struct {
	Study  *experiment.Study
	Report *experiment.Report
	Seed   uint64
}

// Execute runs sc as `schedlab run` does: a study in full (or quick), or
// every policy of a plain scenario on one seed.
func Execute(ctx context.Context, sc *scenario.Scenario, o RunOptions) (*Outcome, error) {
	if IsStudy(sc) {
		st, err := experiment.RunStudy(ctx, sc, experiment.StudyOptions{Quick: o.Quick, Workers: o.Workers, Paranoid: o.Paranoid, Progress: o.Progress, LPSink: o.LPSink})
		return &Outcome{Study: st}, err
	}
	seed := o.Seed
	if seed == 0 {
		seed = sc.RunSeeds()[0]
	}
	rep, err := experiment.Execute(ctx, sc, experiment.Options{Seeds: []uint64{seed}, Workers: o.Workers, Paranoid: o.Paranoid, Progress: o.Progress, LPSink: o.LPSink})
	return &Outcome{Report: rep, Seed: seed}, err
}

// Output is the JSON form `schedlab run --format json` prints.
func (oc *Outcome) Output() any {
	if oc.Study != nil {
		return oc.Study.Output()
	}
	return oc.Report.Output(oc.Seed)
}

// Failed are the runs that stopped with an error.
func (oc *Outcome) Failed() []*experiment.Run {
	if oc.Report != nil {
		return oc.Report.Failed()
	}
	var out []*experiment.Run
	for _, p := range oc.Study.Points {
		out = append(out, p.Report.Failed()...)
	}
	return out
}

// MarshalJSON encodes v as the CLI prints it: indented by two spaces,
// with a final newline, so that an answer of the API and a file written
// by the CLI compare byte for byte.
func MarshalJSON(v any) ([]byte, error) {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// StudyForm is the scenario whose split plan (experiment.SplitPlan) is
// what RunStudy runs for sc: its quick variant in quick mode, otherwise
// sc without its quick version.
func StudyForm(sc *scenario.Scenario, quick bool) (*scenario.Scenario, error) {
	if quick && sc.Quick != nil {
		return sc.QuickVariant()
	}
	full := *sc
	full.Quick = nil
	return &full, nil
}

// PlanPoints are the sweep values of a study form: NaN alone without a
// sweep.
func PlanPoints(form *scenario.Scenario) (seeds []uint64, xs []float64) {
	return experiment.SplitPlan(form)
}

// isNaN is math.IsNaN; a sweep-less study's one point has x = NaN.
func isNaN(x float64) bool { return math.IsNaN(x) }
