package sharing

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/workload"
)

// Exclusive starts follow the placement knob. Two 3-GPU jobs leave one
// free GPU on each of two 4-GPU servers; C (2 GPUs, 500 s) arrives at 10
// s. With one job per GPU (no sharing) both policies are SJF: under
// consolidated placement C starts at once across the two servers, under
// strict placement it waits for A's server at 1000 s and the log says so.
func TestExclusiveStartsFollowPlacement(t *testing.T) {
	jobs := []workload.Job{
		{Name: "A", GPUs: 3, DurationS: 1000, Model: "m"},
		{Name: "B", GPUs: 3, DurationS: 2000, Model: "m"},
		{Name: "C", GPUs: 2, DurationS: 500, Model: "m", ArrivalS: 10},
	}
	for _, placement := range []string{"consolidated", "strict"} {
		pp := policy.PlacementParams{Placement: placement}
		ffs := DefaultFFSParams()
		ffs.MaxJobsPerGPU, ffs.PlacementParams = 1, pp
		bsbf := DefaultBSBFParams()
		bsbf.MaxJobsPerGPU, bsbf.PlacementParams = 1, pp
		for _, p := range []engine.Policy{NewFFS(ffs), NewBSBF(bsbf)} {
			res := run(t, mustCluster(t, 2, 4, 0), perf.NewConstant(perf.ConstantParams{}), jobs, p)
			name := p.(*scheduler).title
			start, waits := res.Jobs[2].FirstStartS, false
			for _, d := range res.Log {
				waits = waits || strings.Contains(d.Msg(), "C waits: 2 GPUs free but no server has 2")
			}
			if want := map[string]float64{"consolidated": 10, "strict": 1000}[placement]; start != want || waits != (placement == "strict") {
				t.Errorf("%s, %s: C starts at %v (want %v); logged a wait: %v", name, placement, start, want, waits)
			}
		}
	}
}
