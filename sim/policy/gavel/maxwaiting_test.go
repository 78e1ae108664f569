package gavel_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/scenario"
)

// waitingScenario: 30 jobs of 1 or 2 GPUs arriving every 200 s on 4 GPUs
// of two types, so that the queue grows to tens; params are the policy's.
func waitingScenario(t *testing.T, policy, params string) *scenario.Scenario {
	t.Helper()
	models := []string{`"ResNet-50", "batch_size": 64`, `"A3C", "batch_size": 4`, `"LM", "batch_size": 20`, `"CycleGAN", "batch_size": 1`}
	var jobs []string
	for i := 0; i < 30; i++ {
		model, gpus := models[i%len(models)], 1
		if i%3 == 2 {
			model, gpus = models[0], 2
		}
		jobs = append(jobs, fmt.Sprintf(`{"id": "j%02d", "arrival_s": %d, "model": %s, "gpus": %d, "duration_s": %d}`,
			i, 200*i, model, gpus, 3000+(i*7919)%9000))
	}
	return parse(t, `{"name": "waiting",
	 "cluster": {"servers": [{"count": 1, "gpus": 2, "gpu_type": "V100"}, {"count": 1, "gpus": 2, "gpu_type": "K80"}]},
	 "workload": {"jobs": [`+strings.Join(jobs, ",")+`]},
	 "perf": {"model": "throughput"},
	 "policies": [{"name": "`+policy+`", "params": {`+params+`}}]}`)
}

func runWaiting(t *testing.T, policy, params string) *experiment.Run {
	t.Helper()
	rep, err := experiment.Execute(context.Background(), waitingScenario(t, policy, params), experiment.Options{Paranoid: true})
	if err != nil || rep.Runs[0].Err != nil {
		t.Fatalf("%s {%s}: %v %v", policy, params, err, rep.Runs[0].Err)
	}
	return rep.Runs[0]
}

// A max_waiting the queue never reaches gives the exact run (records,
// intervals and decision log); a small one changes it, so the comparison
// shows something.
func TestMaxWaitingAboveTheQueueChangesNothing(t *testing.T) {
	for _, p := range []string{"gavel-fifo", "gavel-sjf", "gavel-ftf", "gavel-makespan", "gavel-max-throughput", "gavel-min-cost"} {
		exact := runWaiting(t, p, "").Result
		big := runWaiting(t, p, `"max_waiting": 30`).Result
		if !reflect.DeepEqual(exact.Jobs, big.Jobs) || !reflect.DeepEqual(exact.Intervals, big.Intervals) || !reflect.DeepEqual(exact.Log, big.Log) {
			t.Errorf("%s: max_waiting 30 with 30 jobs changed the run", p)
		}
		if cut := runWaiting(t, p, `"max_waiting": 1`).Result; reflect.DeepEqual(exact.Jobs, cut.Jobs) {
			t.Errorf("%s: max_waiting 1 changed nothing, so the comparison above shows little", p)
		}
	}
}

// A negative max_waiting is refused, naming the parameter.
func TestMaxWaitingNegative(t *testing.T) {
	for _, p := range []string{"gavel-fifo", "gavel-sjf", "gavel-ftf", "gavel-makespan", "gavel-max-throughput", "gavel-min-cost"} {
		_, err := scenario.Parse([]byte(`{"name": "bad", "cluster": {"servers": [{"count": 1, "gpus": 1, "gpu_type": "V100"}]},
		 "workload": {"jobs": [{"id": "a", "arrival_s": 0, "model": "A3C", "batch_size": 4, "gpus": 1, "duration_s": 100}]},
		 "perf": {"model": "throughput"}, "policies": [{"name": "` + p + `", "params": {"max_waiting": -1}}]}`))
		if err == nil || !strings.Contains(err.Error(), "policies[0].params.max_waiting: must be at least 0, got -1") {
			t.Errorf("%s, max_waiting -1: %v", p, err)
		}
	}
}
