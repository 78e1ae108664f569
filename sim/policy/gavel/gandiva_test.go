package gavel_test

import (
	"context"
	"testing"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/experiment"
)

// Gandiva pairs random jobs of one size when they ask for more GPUs than
// there are; Gavel's pair tables measure pairs of 1-GPU jobs only, so two
// 4-GPU jobs paired get a target of 0 on every type. The reference's
// mechanism still runs them on idle GPUs (ref-compat), but where only
// positive targets run (clean, ideal) they got nothing, and every
// recompute paired them again: here three 4-GPU jobs on 4 V100s, one
// pair and one job alone; after the lone job finished the pair waited on
// the idle cluster until the run ended in a "stuck" error. Now in those
// modes a pair is formed only when it would be kept, and every job ends.
func TestGandivaCleanAndIdealNeverPairWhatCannotRun(t *testing.T) {
	sc := parse(t, `{"name": "gandiva-4-gpu-pairs",
	 "cluster": {"servers": [{"count": 1, "gpus": 4, "gpu_type": "V100"}]},
	 "workload": {"jobs": [
	   {"id": "a", "arrival_s": 0, "model": "ResNet-18", "batch_size": 32, "gpus": 4, "duration_s": 3600},
	   {"id": "b", "arrival_s": 0, "model": "ResNet-18", "batch_size": 32, "gpus": 4, "duration_s": 5400},
	   {"id": "c", "arrival_s": 0, "model": "ResNet-50", "batch_size": 64, "gpus": 4, "duration_s": 7200}]},
	 "perf": {"model": "throughput"},
	 "policies": [{"name": "gavel-gandiva", "label": "clean", "params": {"mode": "clean"}},
	              {"name": "gavel-gandiva", "label": "ideal", "params": {"mode": "ideal"}},
	              {"name": "gavel-gandiva", "label": "ref-compat"}],
	 "seeds": [1, 2, 3]}`)
	rep, err := experiment.Execute(context.Background(), sc, experiment.Options{Paranoid: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Runs {
		if r.Err != nil {
			t.Errorf("%s seed %d: %v", r.Policy, r.Seed, r.Err)
			continue
		}
		for _, j := range r.Result.Jobs {
			if j.Status != engine.Finished || j.GPUSeconds <= 0 {
				t.Errorf("%s seed %d: job %s is %v after %v GPU-seconds", r.Policy, r.Seed, j.Name, j.Status, j.GPUSeconds)
			}
		}
	}
}
