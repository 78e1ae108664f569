package srgt

import (
	"context"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/experiment/conformance"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/workload"
)

func run(t *testing.T, gpus int, jobs []workload.Job) []engine.JobRecord {
	t.Helper()
	c, err := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{{Count: 1, GPUs: gpus, GPUType: "V100"}}})
	if err != nil {
		t.Fatal(err)
	}
	jobs, err = workload.Finalize(jobs)
	if err != nil {
		t.Fatal(err)
	}
	m := perf.NewConstant(perf.ConstantParams{})
	if err := m.Prepare(c, jobs); err != nil {
		t.Fatal(err)
	}
	p, err := policy.New("example-srgt")
	if err != nil {
		t.Fatal(err)
	}
	res, err := engine.Run(context.Background(), engine.Config{Cluster: c, Jobs: jobs, Perf: m, Policy: p, Paranoid: true})
	if err != nil {
		t.Fatal(err)
	}
	return res.Jobs
}

// By hand, one GPU: A (1,000 s) starts at 0; B (300 s) arrives at 100,
// when A has 900 GPU-seconds left, and preempts it; B ends at 400; A
// restarts, pays its 30 s and ends at 430 + 900 = 1330.
func TestShortestPreempts(t *testing.T) {
	js := run(t, 1, []workload.Job{
		{Name: "A", GPUs: 1, DurationS: 1000, Model: "m"},
		{Name: "B", GPUs: 1, DurationS: 300, Model: "m", ArrivalS: 100},
	})
	if a, b := js[0], js[1]; a.Preemptions != 1 || a.FinishS != 1330 || b.FirstStartS != 100 || b.FinishS != 400 {
		t.Errorf("A preempted %d times, ends %v; B runs %v–%v", a.Preemptions, a.FinishS, b.FirstStartS, b.FinishS)
	}
}

// GPU time, not time: on two GPUs, A (2 GPUs × 200 s = 400 GPU-s) waits
// for B (1 GPU × 300 s), which a shortest-remaining-time rule would not
// put first; A runs 300–500.
func TestGPUTimeNotTime(t *testing.T) {
	js := run(t, 2, []workload.Job{
		{Name: "A", GPUs: 2, DurationS: 200, Model: "m"},
		{Name: "B", GPUs: 1, DurationS: 300, Model: "m"},
	})
	if a, b := js[0], js[1]; a.FirstStartS != 300 || a.FinishS != 500 || b.FirstStartS != 0 {
		t.Errorf("A runs %v–%v, B starts at %v", a.FirstStartS, a.FinishS, b.FirstStartS)
	}
}

// The conformance check runs it on every perf model and generator.
func TestConforms(t *testing.T) {
	rep := conformance.Suite{Settings: conformance.Settings, Seeds: []uint64{1, 2, 3, 4, 5, 6, 7, 8, 20}}.Check(context.Background(), "example-srgt")
	for _, p := range rep.Problems {
		t.Error(p)
	}
	if rep.Ran == 0 {
		t.Error("no case ran")
	}
}
