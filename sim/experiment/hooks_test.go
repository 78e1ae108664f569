package experiment

import (
	"context"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/workload"
)

// fakeSim is a policy with its own simulator that records one job as
// starting at start and finishing 100 s later.
type fakeSim struct{ start float64 }

func (fakeSim) Options() engine.Options                      { return engine.Options{} }
func (fakeSim) Decide(*engine.State, []engine.Trigger) error { return nil }
func (p fakeSim) Simulate(context.Context, engine.Config) (*engine.Result, error) {
	return &engine.Result{Jobs: []engine.JobRecord{{Job: 0, Name: "a", Status: engine.Finished,
		ArrivalS: 10, FirstStartS: p.start, FinishS: p.start + 100}}}, nil
}

// A run of a policy with its own simulator bypasses the engine's
// invariants; in paranoid mode its records are checked instead, with no
// tolerance on starting before the arrival.
func TestParanoidChecksRecordsOfOwnSimulators(t *testing.T) {
	jobs := []workload.Job{{Name: "a", ArrivalS: 10, GPUs: 1, Model: "m", DurationS: 100}}
	early := 10 - 2.3e-13
	for _, tc := range []struct {
		start    float64
		paranoid bool
		want     string
	}{
		{early, true, "job a started at t=9.99999999999977, before its arrival at t=10"},
		{early, false, ""},
		{10, true, ""},
	} {
		_, err := simulate(context.Background(), &Run{}, engine.Config{Jobs: jobs, Policy: fakeSim{tc.start}, Paranoid: tc.paranoid}, nil)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("start %v, paranoid %v: got %v, want %q", tc.start, tc.paranoid, err, tc.want)
		}
	}
}
