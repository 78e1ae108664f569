package policy_test

import (
	"context"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/policy/fifo"
	"github.com/schedlab/schedlab/sim/policy/sjf"
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

// An arrival to an empty queue takes Decide's short path (decideAlone)
// unless stories are asked for: runs with and without stories must
// agree job for job and entry for entry, on a busy cluster where
// arrivals wait, start at once, and are blocked by memory.
func TestQueueSchedulerAloneAgreesWithLoop(t *testing.T) {
	c, err := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{
		{Count: 3, GPUs: 4, GPUType: "V100", GPUMemoryGB: 16}, {Count: 2, GPUs: 8, GPUType: "K80", GPUMemoryGB: 12}}})
	if err != nil {
		t.Fatal(err)
	}
	gp := workload.DefaultPoissonParams()
	gp.Jobs, gp.JobsPerHour = 400, 22 // about 80% of the GPUs: arrivals mostly find the queue empty
	gp.Duration = workload.DurationDist{Dist: "exponential", MeanS: 1800, MinS: 60}
	gp.GPUMix = []workload.ScaleShare{{GPUs: 1, Weight: 0.6}, {GPUs: 2, Weight: 0.2}, {GPUs: 4, Weight: 0.15}, {GPUs: 8, Weight: 0.05}}
	jobs, err := workload.NewPoisson(*gp).Generate(3)
	if err != nil {
		t.Fatal(err)
	}
	for i := range jobs {
		jobs[i].MemoryGB = float64(4 * (i % 4)) // 12 GB jobs fit the K80s only when alone
	}
	m := perf.NewConstant(perf.ConstantParams{})
	if err := m.Prepare(c, jobs); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"fifo", "fifo-strict", "sjf"} {
		var runs [2]*engine.Result
		for k, stories := range []bool{false, true} {
			var p engine.Policy
			switch name {
			case "fifo":
				p = fifo.New(fifo.Params{Backfill: true})
			case "fifo-strict":
				p = fifo.New(fifo.Params{})
			case "sjf":
				p = sjf.New(sjf.Params{Key: "duration", Backfill: true})
			}
			res, err := engine.Run(context.Background(), engine.Config{Cluster: c, Jobs: jobs, Perf: m, Policy: p, Stories: stories, Paranoid: true})
			if err != nil {
				t.Fatal(err)
			}
			runs[k] = res
		}
		a, b := runs[0], runs[1]
		for i := range a.Jobs {
			if x, y := a.Jobs[i], b.Jobs[i]; x.FirstStartS != y.FirstStartS || x.FinishS != y.FinishS || x.Starts != y.Starts {
				t.Fatalf("%s: job %s starts at %v and ends at %v without stories, at %v and %v with them", name, x.Name, x.FirstStartS, x.FinishS, y.FirstStartS, y.FinishS)
			}
		}
		if len(a.Log) != len(b.Log) {
			t.Fatalf("%s: %d log entries without stories, %d with them", name, len(a.Log), len(b.Log))
		}
		for i := range a.Log {
			if x, y := a.Log[i].Msg(), b.Log[i].Msg(); x != y {
				t.Fatalf("%s: entry %d is %q without stories, %q with them", name, i, x, y)
			}
		}
	}
}
