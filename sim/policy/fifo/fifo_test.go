package fifo

import (
	"context"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/policy/policytest"
	"github.com/schedlab/schedlab/sim/workload"
)

// run runs FIFO on two servers of four V100s.
func run(t *testing.T, p Params, jobs []workload.Job) *policytest.Result {
	t.Helper()
	return policytest.Run(t, policytest.Servers(t, 2, 4, "V100", 0), nil, New(p), jobs)
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
	run(t, Params{Backfill: true}, jobs).WantRan("C", 10, 510)
	strict := run(t, Params{Backfill: true, PlacementParams: policy.PlacementParams{Placement: "strict"}}, jobs)
	strict.WantRan("C", 1000, 1500)
	strict.WantLog(10, "FIFO: C waits: 2 GPUs free but no server has 2 (at most 1 on one)")
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

// The SJF-BSBF authors' FIFO (preempt): on one 4-GPU server, A (2 GPUs)
// runs, B (4 GPUs) cannot start and C (2 GPUs) backfills. When A finishes
// at 100 s, the head of the queue, B, preempts the younger C and runs
// 100–600 s; C, which ran 2–100 s, resumes at 600 s with 102 s left and
// ends at 702 s. Without preemption C runs 2–202 s and B 202–702 s.
func TestPreemptForHeadOfQueue(t *testing.T) {
	jobs := []workload.Job{
		{Name: "A", GPUs: 2, DurationS: 100, Model: "m"},
		{Name: "B", GPUs: 4, DurationS: 500, Model: "m", ArrivalS: 1},
		{Name: "C", GPUs: 2, DurationS: 200, Model: "m", ArrivalS: 2},
	}
	one := func(p Params) *policytest.Result {
		return policytest.Run(t, policytest.Servers(t, 1, 4, "V100", 0), nil, New(p), jobs)
	}
	plain := one(Params{Backfill: true})
	plain.WantRan("C", 2, 202)
	plain.WantRan("B", 202, 702)
	pre := one(Params{Backfill: true, Preempt: true})
	pre.WantRan("B", 100, 600)
	pre.WantFinish("C", 702)
}
