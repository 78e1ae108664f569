package policy_test

import (
	"context"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/workload"
)

// The order is explicit: by duration, smallest or largest first. On one
// GPU, X runs 0–100 while P (10 s), Q (30 s) and R (20 s) arrive; they
// then run P, R, Q (smallest first) or Q, R, P (largest first). The label
// only formats the decision log.
func TestQueueSchedulerOrder(t *testing.T) {
	jobs := []workload.Job{
		{Name: "X", GPUs: 1, DurationS: 100, Model: "m"},
		{Name: "P", GPUs: 1, DurationS: 10, Model: "m", ArrivalS: 1},
		{Name: "Q", GPUs: 1, DurationS: 30, Model: "m", ArrivalS: 2},
		{Name: "R", GPUs: 1, DurationS: 20, Model: "m", ArrivalS: 3},
	}
	for _, tc := range []struct {
		largest bool
		finish  [3]float64 // P, Q, R
		log     string
	}{
		{false, [3]float64{110, 160, 130}, "SJF: started P on GPU s0/g0; took 10 s, waited 99 s"},
		{true, [3]float64{160, 130, 150}, "SJF: started Q on GPU s0/g0; took 30 s, waited 98 s"},
	} {
		p := &policy.QueueScheduler{
			Name:     "SJF",
			Order:    policy.Order{Key: func(s *engine.State, id workload.JobID) float64 { return s.Job(id).DurationS }, LargestFirst: tc.largest},
			Label:    policy.TimeLabel("took"),
			Backfill: true,
		}
		res := runPolicy(t, jobs, p)
		for i, want := range tc.finish {
			if got := res.Jobs[i+1].FinishS; got != want {
				t.Errorf("largest first %v: %s ends at %v, want %v", tc.largest, res.Jobs[i+1].Name, got, want)
			}
		}
		if got := res.Log[1].Msg(); got != tc.log {
			t.Errorf("largest first %v: log %q, want %q", tc.largest, got, tc.log)
		}
	}
}

func runPolicy(t *testing.T, jobs []workload.Job, p engine.Policy) *engine.Result {
	t.Helper()
	c, err := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{{Count: 1, GPUs: 1, GPUType: "V100"}}})
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
	res, err := engine.Run(context.Background(), engine.Config{Cluster: c, Jobs: jobs, Perf: m, Policy: p, Paranoid: true})
	if err != nil {
		t.Fatal(err)
	}
	return res
}
