package gavel_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/experiment"
)

// In mode ideal (the fluid model) a job that can never fit the cluster (8
// GPUs of one type on a cluster with 4 of each) is reported unschedulable,
// with the engine's reason, under every policy, and the others finish: it
// was "finished" under LAS and makespan and left the run "stuck" under
// FIFO and SJF.
func TestIdealReportsUnschedulableJobs(t *testing.T) {
	policies := []string{"gavel-las", "gavel-makespan", "gavel-fifo", "gavel-sjf", "gavel-ftf", "gavel-max-throughput", "gavel-min-cost", "gavel-gandiva", "gavel-isolated"}
	var ps []string
	for _, p := range policies {
		ps = append(ps, fmt.Sprintf(`{"name": %q, "params": {"mode": "ideal", "reset_min_s": 0}}`, p))
	}
	ps = append(ps, `{"name": "gavel-las", "label": "agnostic", "params": {"mode": "ideal", "aware": false, "reset_min_s": 0}}`)
	sc := parse(t, `{"name": "never-fits",
	 "cluster": {"servers": [{"count": 1, "gpus": 4, "gpu_type": "V100"}, {"count": 1, "gpus": 4, "gpu_type": "K80"}]},
	 "workload": {"jobs": [
	   {"id": "a", "arrival_s": 0, "model": "ResNet-50", "batch_size": 64, "gpus": 1, "duration_s": 3600},
	   {"id": "huge", "arrival_s": 10, "model": "ResNet-50", "batch_size": 64, "gpus": 8, "duration_s": 3600},
	   {"id": "b", "arrival_s": 20, "model": "ResNet-18", "batch_size": 32, "gpus": 2, "duration_s": 3600}]},
	 "perf": {"model": "throughput"},
	 "policies": [`+strings.Join(ps, ",")+`]}`)
	rep, err := experiment.Execute(context.Background(), sc, experiment.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Runs {
		if r.Err != nil {
			t.Errorf("%s: %v", r.Policy, r.Err)
			continue
		}
		for _, j := range r.Result.Jobs {
			want := engine.Finished
			if j.Name == "huge" {
				want = engine.Unschedulable
			}
			if j.Status != want {
				t.Errorf("%s: job %s is %v, want %v", r.Policy, j.Name, j.Status, want)
			}
			if j.Name == "huge" && (!strings.Contains(j.Reason, "8 GPUs") || j.GPUSeconds != 0 || j.FirstStartS >= 0) {
				t.Errorf("%s: unschedulable job: reason %q, %v GPU-seconds, first start %v", r.Policy, j.Reason, j.GPUSeconds, j.FirstStartS)
			}
		}
	}
}

// No job starts before it arrives in mode ideal: a job starting on
// arrival was given the start t − dt, computed after t had moved on to
// the next event, dt later; when the arrival is small beside that event's
// time the subtraction rounds, and the start came up to 2.3e-13 s before
// the arrival (a negative queuing time). Arrivals here grow fourfold, so
// the next event is always more than twice as far from 0 as the arrival.
func TestIdealNoStartBeforeArrival(t *testing.T) {
	var jobs []string
	for i := 0; i < 14; i++ {
		jobs = append(jobs, fmt.Sprintf(`{"id": "j%d", "arrival_s": %.17g, "model": "ResNet-18", "batch_size": 32, "gpus": 1, "duration_s": %.17g}`,
			i, 0.1/3*math.Pow(4, float64(i))+float64(i)/7, 1e7/3+float64(i)/11))
	}
	sc := parse(t, `{"name": "arrivals",
	 "cluster": {"servers": [{"count": 2, "gpus": 1, "gpu_type": "V100"}, {"count": 2, "gpus": 1, "gpu_type": "K80"}]},
	 "workload": {"jobs": [`+strings.Join(jobs, ",")+`]},
	 "perf": {"model": "throughput"},
	 "policies": [{"name": "gavel-las", "params": {"mode": "ideal", "reset_min_s": 0}},
	              {"name": "gavel-fifo", "params": {"mode": "ideal", "reset_min_s": 0}}]}`)
	rep, err := experiment.Execute(context.Background(), sc, experiment.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Runs {
		if r.Err != nil {
			t.Fatalf("%s: %v", r.Policy, r.Err)
		}
		for _, j := range r.Result.Jobs {
			if j.FirstStartS < j.ArrivalS || j.QueueS < 0 {
				t.Errorf("%s: job %s arrives at %.17g, starts at %.17g (queue %g s)", r.Policy, j.Name, j.ArrivalS, j.FirstStartS, j.QueueS)
			}
		}
	}
}
