package fifo

import (
	"context"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/workload"
)

func run(t *testing.T, p Params, jobs []workload.Job) *engine.Result {
	t.Helper()
	c, err := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{{Count: 2, GPUs: 4, GPUType: "V100"}}})
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
	res, err := engine.Run(context.Background(), engine.Config{Cluster: c, Jobs: jobs, Perf: m, Policy: New(p), Paranoid: true})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Two 3-GPU jobs leave one free GPU on each of two 4-GPU servers. A
// 2-GPU job arriving at 10 s starts at once across both servers under
// consolidated placement (JCT 500 s); under strict placement it waits for
// A's server to empty at 1000 s (JCT 1490 s), and the log says why.
func TestStrictPlacementWaitsForFragmentation(t *testing.T) {
	jobs := []workload.Job{
		{Name: "A", GPUs: 3, DurationS: 1000, Model: "m"},
		{Name: "B", GPUs: 3, DurationS: 2000, Model: "m"},
		{Name: "C", GPUs: 2, DurationS: 500, Model: "m", ArrivalS: 10},
	}
	cons := run(t, Params{Backfill: true}, jobs)
	if c := cons.Jobs[2]; c.FirstStartS != 10 || c.FinishS != 510 {
		t.Errorf("consolidated: C ran %v–%v, want 10–510", c.FirstStartS, c.FinishS)
	}
	strict := run(t, Params{Backfill: true, PlacementParams: policy.PlacementParams{Placement: "strict"}}, jobs)
	if c := strict.Jobs[2]; c.FirstStartS != 1000 || c.FinishS != 1500 {
		t.Errorf("strict: C ran %v–%v, want 1000–1500", c.FirstStartS, c.FinishS)
	}
	want := "FIFO: C waits: 2 GPUs free but no server has 2 (at most 1 on one)"
	found := false
	for _, d := range strict.Log {
		found = found || (d.TimeS == 10 && strings.HasPrefix(d.Msg(), want))
	}
	if !found {
		t.Errorf("no %q at 10 s in the log: %v", want, strict.Log)
	}
}

// An unknown placement stops the run with an error naming the field.
func TestUnknownPlacement(t *testing.T) {
	c, _ := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{{Count: 1, GPUs: 1, GPUType: "V100"}}})
	jobs, _ := workload.Finalize([]workload.Job{{Name: "A", GPUs: 1, DurationS: 10, Model: "m"}})
	m := perf.NewConstant(perf.ConstantParams{})
	if err := m.Prepare(c, jobs); err != nil {
		t.Fatal(err)
	}
	_, err := engine.Run(context.Background(), engine.Config{Cluster: c, Jobs: jobs, Perf: m,
		Policy: New(Params{PlacementParams: policy.PlacementParams{Placement: "spread"}})})
	if err == nil || !strings.Contains(err.Error(), `placement: must be one of consolidated, strict, got "spread"`) {
		t.Errorf("error %v", err)
	}
}
