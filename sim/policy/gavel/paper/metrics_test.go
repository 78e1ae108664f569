package paper

import (
	"math"
	"testing"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/metrics"
	"github.com/schedlab/schedlab/sim/workload"
)

// ftf_rho divides each job's JCT by its JCT in the isolated policy's run
// of the same trace (spec 001 §5.6); without that run it is undefined.
func TestFTFRhoAgainstTheIsolatedRun(t *testing.T) {
	rec := func(job int32, arrival, finish float64) engine.JobRecord {
		return engine.JobRecord{Job: workload.JobID(job), Status: engine.Finished, ArrivalS: arrival, FinishS: finish}
	}
	ours := []engine.JobRecord{rec(0, 0, 300), rec(1, 100, 300)}
	iso := &engine.Result{Jobs: []engine.JobRecord{rec(0, 0, 200), rec(1, 100, 500)}}
	var def metrics.Def
	for _, d := range Metrics() {
		if d.Name == "ftf_rho" {
			def = d
		}
	}
	if def.Fn == nil {
		t.Fatal("no metric ftf_rho")
	}
	c := metrics.Context{Selected: ours, Result: &engine.Result{Jobs: ours},
		Peers: []metrics.Peer{{Label: "LAS", Name: "gavel-las", Jobs: ours}, {Label: "Isolated", Name: "gavel-isolated", Jobs: iso.Jobs}}}
	if got, want := def.Fn(c), (300.0/200+200.0/400)/2; math.Abs(got-want) > 1e-12 {
		t.Errorf("ρ = %g, want %g", got, want)
	}
	c.Peers = c.Peers[:1]
	if got := def.Fn(c); !math.IsNaN(got) {
		t.Errorf("ρ without an isolated run = %g, want NaN", got)
	}
}
