package gavel_test

import (
	"context"
	"math"
	"os"
	"testing"

	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/scenario"
)

// refJCTs are the per-job JCTs (seconds; -1 for a job the reference drops
// after 5 failed micro-tasks) of Gavel's own simulator (Scheduler.simulate
// of stanford-futuredata/gavel at c4fa400, policy fifo_perf, seed 0,
// 360 s rounds, cluster 36:36:36 with 4 GPUs per server) on the traces in
// testdata/ref-*.json, which come from Gavel's generator.
var refJCTs = map[string]map[int]float64{
	"s0": {0: 3600.462, 1: 3786.784, 2: 3517.095, 3: 9546.284, 4: 7370.685, 5: 12303.335, 6: 11587.420, 7: 8884.249, 8: 5576.924, 9: 8668.751, 10: 16224.342, 11: 16217.749, 12: 11935.330, 13: 15973.009, 14: 12369.279, 15: 4461.183, 16: 5087.147, 17: 11976.185, 18: 16410.403, 19: 12189.103, 20: 8221.183, 21: 15724.243, 22: 7586.345, 23: 8546.074, 24: 3931.714, 25: 7678.457, 26: 3696.208, 27: 9144.867, 28: 12443.014, 29: 8152.026, 30: 3817.839, 31: 12771.181, 32: 4896.777, 33: 15761.647, 34: 15022.046, 35: 11011.104, 36: 10984.888, 37: 10965.055, 38: 15484.628, 39: -1, 40: 8897.025, 41: 7050.550, 42: 7830.458, 43: 14875.799, 44: 12949.914, 45: 15016.909, 46: 12085.828, 47: 14541.688, 48: -1, 49: 12477.185, 50: 14743.036, 51: 15058.028, 52: 8206.157, 53: 6128.810, 54: 7711.787, 55: 6568.501, 56: 15161.416, 57: 5578.031, 58: 5048.985, 59: 13615.417},
	"s1": {0: 7199.918, 1: 7315.946, 2: 10845.066, 3: 16546.014, 4: 5655.869, 5: 3853.866, 6: 15479.772, 7: 12931.675, 8: 8963.236, 9: 8031.642, 10: 16458.674, 11: 7409.324, 12: 15419.043, 13: 7654.077, 14: 9312.480, 15: 8028.619, 16: 16445.596, 17: 4468.732, 18: 4036.287, 19: 8864.017, 20: 3412.667, 21: 12459.427, 22: 5230.630, 23: 11805.392, 24: 6945.116, 25: 14543.500, 26: 14483.265, 27: 8870.394, 28: 15075.649, 29: 6968.759, 30: 11178.678, 31: 5745.370, 32: 5598.785, 33: 8484.320, 34: 15531.304, 35: 7209.305, 36: 6634.561, 37: 16288.469, 38: 10036.274, 39: 15533.226, 40: 7399.979, 41: 12440.535, 42: 13792.334, 43: 5491.084, 44: 9743.030, 45: 4653.007, 46: 10726.559, 47: 8835.590, 48: 11178.991, 49: 5519.975, 50: 8364.061, 51: 10340.432, 52: 10863.919, 53: 4811.080, 54: 3527.249, 55: 14602.421, 56: 15886.866, 57: 4945.699, 58: 11527.668, 59: 5296.944},
}

// Aware FIFO in ref-compat agrees with the reference job for job: with a
// first recompute at t = 0 (s0) and without (s1), with whole-step
// micro-tasks and the multi-GPU jobs the reference drops.
func TestRefCompatMatchesReferenceFIFO(t *testing.T) {
	for name, want := range refJCTs {
		doc, err := os.ReadFile("testdata/ref-" + name + ".json")
		if err != nil {
			t.Fatal(err)
		}
		sc, err := scenario.Parse(doc)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := experiment.Execute(context.Background(), sc, experiment.Options{Paranoid: true})
		if err != nil || rep.Runs[0].Err != nil {
			t.Fatal(err, rep.Runs[0].Err)
		}
		res := rep.Runs[0].Result
		dropped := map[int]bool{}
		for _, s := range res.Series {
			if s.Name == "gavel/dropped" {
				dropped[int(s.Job)] = true
			}
		}
		for id, ref := range want {
			j := res.Jobs[id]
			if ref < 0 {
				if !dropped[id] {
					t.Errorf("%s: job %d: the reference drops it; schedlab did not record it in gavel/dropped", name, id)
				}
				continue
			}
			if got := j.FinishS - j.ArrivalS; math.Abs(got-ref) > 0.01 {
				t.Errorf("%s: job %d: JCT %.3f s, the reference's %.3f s", name, id, got, ref)
			}
		}
	}
}
