package tesserae

import (
	"math"
	"testing"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/metrics"
	"github.com/schedlab/schedlab/sim/workload"
)

// Hand-computed ρ: A (0 → 200 s) and B (0 → 100 s), 1 GPU and 100 s
// alone each. On 1 GPU, A saw 1.5 jobs on average (300 job-seconds over
// 200 s), so its fair JCT is 150 s and ρ = 4/3; B saw 2, fair 200 s,
// ρ = 1/2. On 2 GPUs a 1/n̄ share is at least one GPU for both: fair =
// solo, ρ = 2 and 1.
func TestFairRhos(t *testing.T) {
	recs := []engine.JobRecord{
		{Job: 0, Status: engine.Finished, ArrivalS: 0, FinishS: 200, SoloS: 100},
		{Job: 1, Status: engine.Finished, ArrivalS: 0, FinishS: 100, SoloS: 100},
	}
	jobs := []workload.Job{{ID: 0, GPUs: 1}, {ID: 1, GPUs: 1}}
	for _, c := range []struct {
		gpus int
		want []float64
	}{{1, []float64{4.0 / 3, 0.5}}, {2, []float64{2, 1}}} {
		ctx := metrics.Context{Selected: recs, Result: &engine.Result{Jobs: recs}, Jobs: jobs, NumGPUs: c.gpus}
		got := FairRhos(ctx)
		for i := range c.want {
			if len(got) != len(c.want) || math.Abs(got[i]-c.want[i]) > 1e-9 {
				t.Fatalf("%d GPUs: ρ = %v, want %v", c.gpus, got, c.want)
			}
		}
		if m := rhoStat(1)(ctx); m != max(c.want[0], c.want[1]) {
			t.Fatalf("%d GPUs: worst ρ %v, want %v", c.gpus, m, max(c.want[0], c.want[1]))
		}
	}
}
