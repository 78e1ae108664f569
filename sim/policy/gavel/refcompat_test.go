package gavel_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"testing"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/scenario"
)

// refJCTs are the per-job JCTs (seconds; -1 for a job the reference drops
// after 5 failed micro-tasks) of Gavel's own simulator (Scheduler.simulate
// of stanford-futuredata/gavel at c4fa400, policies fifo_perf and fifo,
// seed 0,
// 360 s rounds, cluster 36:36:36 with 4 GPUs per server) on the traces in
// testdata/ref-*.json, which come from Gavel's generator.
type refRun struct{ trace, policy string }

var refJCTs = map[refRun]map[int]float64{
	{"s0", "fifo_perf"}: {0: 3600.462, 1: 3786.784, 2: 3517.095, 3: 9546.284, 4: 7370.685, 5: 12303.335, 6: 11587.420, 7: 8884.249, 8: 5576.924, 9: 8668.751, 10: 16224.342, 11: 16217.749, 12: 11935.330, 13: 15973.009, 14: 12369.279, 15: 4461.183, 16: 5087.147, 17: 11976.185, 18: 16410.403, 19: 12189.103, 20: 8221.183, 21: 15724.243, 22: 7586.345, 23: 8546.074, 24: 3931.714, 25: 7678.457, 26: 3696.208, 27: 9144.867, 28: 12443.014, 29: 8152.026, 30: 3817.839, 31: 12771.181, 32: 4896.777, 33: 15761.647, 34: 15022.046, 35: 11011.104, 36: 10984.888, 37: 10965.055, 38: 15484.628, 39: -1, 40: 8897.025, 41: 7050.550, 42: 7830.458, 43: 14875.799, 44: 12949.914, 45: 15016.909, 46: 12085.828, 47: 14541.688, 48: -1, 49: 12477.185, 50: 14743.036, 51: 15058.028, 52: 8206.157, 53: 6128.810, 54: 7711.787, 55: 6568.501, 56: 15161.416, 57: 5578.031, 58: 5048.985, 59: 13615.417},
	{"s0", "fifo"}:      {0: 3600.462, 1: 3786.784, 2: 3691.314, 3: 11319.859, 4: 7371.343, 5: 12303.988, 6: 11588.073, 7: 8884.902, 8: 5577.577, 9: 9059.399, 10: 16224.995, 11: 16218.403, 12: 11935.983, 13: 15973.662, 14: 12369.932, 15: 4461.836, 16: 5087.800, 17: 11976.838, 18: 16411.056, 19: 12189.756, 20: 15753.065, 21: 15724.896, 22: 7586.998, 23: 8546.728, 24: 7971.297, 25: 7679.110, 26: 5579.668, 27: 9145.520, 28: 12443.667, 29: 8152.679, 30: 7336.847, 31: 12771.834, 32: 8856.631, 33: 15762.305, 34: 15022.703, 35: 11011.757, 36: 10985.541, 37: 10965.708, 38: 15757.749, 39: -1, 40: 16428.933, 41: 14871.551, 42: 7471.119, 43: 14516.459, 44: 12590.575, 45: 14657.569, 46: 11726.489, 47: 16342.347, 48: -1, 49: 12117.845, 50: 16543.676, 51: 16109.525, 52: 7846.818, 53: 11047.159, 54: 7352.461, 55: 12267.504, 56: 14802.546, 57: 11157.492, 58: 10824.805, 59: 14667.363},
	{"s1", "fifo_perf"}: {0: 7199.918, 1: 7315.946, 2: 10845.066, 3: 16546.014, 4: 5655.869, 5: 3853.866, 6: 15479.772, 7: 12931.675, 8: 8963.236, 9: 8031.642, 10: 16458.674, 11: 7409.324, 12: 15419.043, 13: 7654.077, 14: 9312.480, 15: 8028.619, 16: 16445.596, 17: 4468.732, 18: 4036.287, 19: 8864.017, 20: 3412.667, 21: 12459.427, 22: 5230.630, 23: 11805.392, 24: 6945.116, 25: 14543.500, 26: 14483.265, 27: 8870.394, 28: 15075.649, 29: 6968.759, 30: 11178.678, 31: 5745.370, 32: 5598.785, 33: 8484.320, 34: 15531.304, 35: 7209.305, 36: 6634.561, 37: 16288.469, 38: 10036.274, 39: 15533.226, 40: 7399.979, 41: 12440.535, 42: 13792.334, 43: 5491.084, 44: 9743.030, 45: 4653.007, 46: 10726.559, 47: 8835.590, 48: 11178.991, 49: 5519.975, 50: 8364.061, 51: 10340.432, 52: 10863.919, 53: 4811.080, 54: 3527.249, 55: 14602.421, 56: 15886.866, 57: 4945.699, 58: 11527.668, 59: 5296.944},
	{"s1", "fifo"}:      {0: 7199.918, 1: 7315.946, 2: 10845.066, 3: 16546.014, 4: 5655.869, 5: 3853.866, 6: 15479.772, 7: 12931.675, 8: 8963.236, 9: 8031.642, 10: 16458.676, 11: 15589.555, 12: 15419.046, 13: 7654.077, 14: 9312.480, 15: 8028.619, 16: 16445.599, 17: 4821.434, 18: 4036.290, 19: 9210.463, 20: 5295.483, 21: 12459.429, 22: 5230.633, 23: 11805.395, 24: 15023.089, 25: 14543.502, 26: 14483.268, 27: 15907.284, 28: 15075.652, 29: 7603.793, 30: 11178.681, 31: 5745.373, 32: 5598.788, 33: 8484.323, 34: 15531.307, 35: 7209.308, 36: 12769.786, 37: 16288.511, 38: 11094.366, 39: 15533.305, 40: 15318.323, 41: 12440.614, 42: 14485.294, 43: 9009.425, 44: 10801.200, 45: 4653.087, 46: 11679.174, 47: 8835.669, 48: 11179.071, 49: 5520.055, 50: 8364.140, 51: 11293.029, 52: 10864.045, 53: 5128.672, 54: 5506.884, 55: 15872.589, 56: 15886.993, 57: 4945.825, 58: 11527.795, 59: 5649.766},
}

// Aware and agnostic FIFO in ref-compat agree with the reference job for job: with a
// first recompute at t = 0 (s0) and without (s1), with whole-step
// micro-tasks and the multi-GPU jobs the reference drops.
func TestRefCompatMatchesReferenceFIFO(t *testing.T) {
	for run, want := range refJCTs {
		name := run.trace + "/" + run.policy
		doc, err := os.ReadFile("testdata/ref-" + run.trace + ".json")
		if err != nil {
			t.Fatal(err)
		}
		sc, err := scenario.Parse(doc)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := experiment.Execute(context.Background(), sc, experiment.Options{Paranoid: true})
		if err != nil {
			t.Fatal(err)
		}
		var res *engine.Result
		for _, r := range rep.Runs {
			if r.Err != nil {
				t.Fatalf("%s: %v", name, r.Err)
			}
			if r.Policy == run.policy {
				res = r.Result
			}
		}
		if res == nil {
			t.Fatalf("%s: no run of policy %s", name, run.policy)
		}
		dropped := map[int]bool{}
		for _, s := range res.Series {
			if s.Name == "gavel/dropped" {
				dropped[int(s.Job)] = true
			}
		}
		// Stopping a job at the end of its micro-task is a pause, not a
		// preemption: aware FIFO on a trace where the reference drops no
		// job preempts nothing.
		if run == (refRun{"s1", "fifo_perf"}) {
			for id, j := range res.Jobs {
				if j.Preemptions != 0 {
					t.Errorf("%s: job %d was preempted %d times", name, id, j.Preemptions)
				}
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

// startOf runs a one-policy scenario and returns each job's first start.
func startOf(t *testing.T, doc string) []float64 {
	t.Helper()
	sc := parse(t, doc)
	rep, err := experiment.Execute(context.Background(), sc, experiment.Options{Paranoid: true})
	if err != nil || rep.Runs[0].Err != nil {
		t.Fatal(err, rep.Runs[0].Err)
	}
	var out []float64
	for _, j := range rep.Runs[0].Result.Jobs {
		out = append(out, j.FirstStartS)
	}
	return out
}

// quirk_unallocated_wait: a job that arrives after the last recompute does
// not run on an idle GPU; it waits for the next recompute (at least
// reset_min_s after the one at t = 0).
func TestRefCompatUnallocatedJobWaits(t *testing.T) {
	doc := func(wait bool) string {
		return fmt.Sprintf(`{"name": "wait",
	 "cluster": {"servers": [{"count": 1, "gpus": 2, "gpu_type": "V100"}]},
	 "workload": {"jobs": [
	   {"id": "a", "arrival_s": 0, "model": "ResNet-50", "batch_size": 64, "gpus": 1, "duration_s": 20000},
	   {"id": "b", "arrival_s": 10, "model": "ResNet-50", "batch_size": 64, "gpus": 1, "duration_s": 20000}]},
	 "perf": {"model": "throughput"},
	 "policies": [{"name": "gavel-isolated", "params": {"quirk_reset_at_zero": false, "quirk_unallocated_wait": %v}}]}`, wait)
	}
	if got := startOf(t, doc(true))[1]; got < 1920 {
		t.Errorf("with the quirk, b starts at %.2f s, before the next recompute (≥ 1920 s)", got)
	}
	if got := startOf(t, doc(false))[1]; got > 400 {
		t.Errorf("without the quirk, b starts at %.2f s, not on the idle GPU in the second round", got)
	}
}

// quirk_idle_until_arrival: a round that runs nothing lasts until the next
// arrival, so b, which arrived after the recompute at t = 0, starts when c
// arrives at 3,000 s rather than at the first round after 1,920 s.
func TestRefCompatIdleRoundLastsUntilArrival(t *testing.T) {
	doc := func(idle bool) string {
		return fmt.Sprintf(`{"name": "idle",
	 "cluster": {"servers": [{"count": 1, "gpus": 1, "gpu_type": "V100"}]},
	 "workload": {"jobs": [
	   {"id": "a", "arrival_s": 0, "model": "ResNet-50", "batch_size": 64, "gpus": 1, "duration_s": 100},
	   {"id": "b", "arrival_s": 50, "model": "ResNet-50", "batch_size": 64, "gpus": 1, "duration_s": 100},
	   {"id": "c", "arrival_s": 3000, "model": "ResNet-50", "batch_size": 64, "gpus": 1, "duration_s": 100}]},
	 "perf": {"model": "throughput"},
	 "policies": [{"name": "gavel-fifo", "params": {"quirk_reset_at_zero": false, "quirk_idle_until_arrival": %v}}]}`, idle)
	}
	if got := startOf(t, doc(true))[1]; math.Abs(got-3000) > 1e-6 {
		t.Errorf("with the quirk, b starts at %.2f s, not when c arrives (3000 s)", got)
	}
	if got := startOf(t, doc(false))[1]; got < 1920 || got > 2500 {
		t.Errorf("without the quirk, b starts at %.2f s, not at the first round after 1920 s", got)
	}
}
