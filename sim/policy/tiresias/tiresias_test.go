package tiresias

import (
	"context"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

func runJobs(t *testing.T, p Params, jobs []workload.Job) *engine.Result {
	t.Helper()
	return runOn(t, 1, 2, p, jobs)
}

// runOn runs jobs on servers of gpus GPUs each.
func runOn(t *testing.T, servers, gpus int, p Params, jobs []workload.Job) *engine.Result {
	t.Helper()
	c, err := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{{Count: servers, GPUs: gpus, GPUType: "V100"}}})
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

// A long job drops to the low queue after 1 GPU-hour and is preempted at
// the next round by a newcomer, which runs to its end; the long job then
// resumes after its restart delay. By hand, with 60 s rounds: A starts at
// 60 (first round), reaches 1 GPU-hour at 1860, B arrives at 2000 and
// starts at 2040 preempting A (which has run 1980 of its 10000 s); B ends
// at 2540; A restarts at 2580 and, after 30 s, runs its last 8020 s.
func TestDemotionAndPreemption(t *testing.T) {
	res := runJobs(t, Params{ThresholdsGPUH: []float64{1}, RoundS: 60, RestartS: 30}, []workload.Job{
		{Name: "A", GPUs: 2, DurationS: 10000, Model: "m"},
		{Name: "B", GPUs: 2, DurationS: 500, Model: "m", ArrivalS: 2000},
	})
	a, b := res.Jobs[0], res.Jobs[1]
	if a.FirstStartS != 60 || a.Preemptions != 1 || a.Starts != 2 || a.FinishS != 2580+30+8020 {
		t.Errorf("A: start %v, preempted %d, starts %d, finish %v", a.FirstStartS, a.Preemptions, a.Starts, a.FinishS)
	}
	if b.FirstStartS != 2040 || b.FinishS != 2540 || b.Preemptions != 0 {
		t.Errorf("B: start %v finish %v preempted %d", b.FirstStartS, b.FinishS, b.Preemptions)
	}
	if a.WaitS != 60+(2580-2040) {
		t.Errorf("A held no GPUs for %v s", a.WaitS)
	}
}

// Event-driven (no rounds): jobs start on arrival, and a job that crosses
// the threshold while another waits is preempted right then.
func TestEventDriven(t *testing.T) {
	res := runJobs(t, Params{ThresholdsGPUH: []float64{1}, RestartS: 0}, []workload.Job{
		{Name: "A", GPUs: 2, DurationS: 5000, Model: "m"},
		{Name: "B", GPUs: 2, DurationS: 500, Model: "m", ArrivalS: 100},
		{Name: "C", GPUs: 2, DurationS: 5000, Model: "m", ArrivalS: 200},
	})
	a, b := res.Jobs[0], res.Jobs[1]
	// A starts at 0; B (queue 0, later) waits until A reaches 1 GPU-hour at
	// 1800 and drops to queue 1; B then runs 1800–2300.
	if a.FirstStartS != 0 || b.FirstStartS != 1800 || b.FinishS != 2300 {
		t.Errorf("A start %v; B %v–%v", a.FirstStartS, b.FirstStartS, b.FinishS)
	}
	for _, j := range res.Jobs {
		if j.Status != engine.Finished {
			t.Errorf("%s: %s", j.Name, j.Status)
		}
	}
}

func TestThresholdsMustIncrease(t *testing.T) {
	p := Params{ThresholdsGPUH: []float64{16, 4}}
	if ps := p.Check(); len(ps) != 1 || ps[0].Path != "thresholds_gpu_h[1]" {
		t.Errorf("problems %v", ps)
	}
}

// The two readings of a queue, event-driven on two GPUs, all jobs in the
// top queue: X (1 GPU, 1000 s) runs from 0; P (2 GPUs, 1000 s) arrives at
// 10 and does not fit; R (1 GPU, 3000 s) arrives at 20 and takes the free
// GPU. When X ends at 1000:
//   - arrival: P is older than R, so P runs and R is preempted (it has
//     run 980 s); P ends at 2000, R resumes and ends at 2000 + 2020 = 4020.
//   - running-first: R runs, so it stands before P in the line and keeps
//     its GPU; P waits for R's end at 3020 and ends at 4020.
func TestQueueOrders(t *testing.T) {
	jobs := []workload.Job{
		{Name: "X", GPUs: 1, DurationS: 1000, Model: "m"},
		{Name: "P", GPUs: 2, DurationS: 1000, Model: "m", ArrivalS: 10},
		{Name: "R", GPUs: 1, DurationS: 3000, Model: "m", ArrivalS: 20},
	}
	base := Params{ThresholdsGPUH: []float64{100}, RestartS: 0}
	arrival := base
	arrival.QueueOrder = "arrival"
	res := runJobs(t, arrival, jobs)
	p, r := res.Jobs[1], res.Jobs[2]
	if p.FirstStartS != 1000 || p.FinishS != 2000 || r.Preemptions != 1 || r.FinishS != 4020 {
		t.Errorf("arrival: P %v–%v; R preempted %d times, ends %v", p.FirstStartS, p.FinishS, r.Preemptions, r.FinishS)
	}
	first := base
	first.QueueOrder = "running-first"
	res = runJobs(t, first, jobs)
	p, r = res.Jobs[1], res.Jobs[2]
	if p.FirstStartS != 3020 || p.FinishS != 4020 || r.Preemptions != 0 || r.FinishS != 3020 {
		t.Errorf("running-first: P %v–%v; R preempted %d times, ends %v", p.FirstStartS, p.FinishS, r.Preemptions, r.FinishS)
	}
}

// In running-first order a job that drops into a queue joins its end,
// behind the jobs already waiting there, as in Tiresias' simulator. On
// two GPUs with a 1 GPU-hour threshold, 60 s rounds: A (2 GPUs) runs
// from 60 and drops to queue 1 at 1860; B (2 GPUs, arrived at 100) runs
// from 1860 and drops at 3660, behind A, which waits there: A takes the
// GPUs back and B is preempted in both orders.
func TestRunningFirstDemotedJoinsTheEnd(t *testing.T) {
	jobs := []workload.Job{
		{Name: "A", GPUs: 2, DurationS: 5000, Model: "m"},
		{Name: "B", GPUs: 2, DurationS: 5000, Model: "m", ArrivalS: 100},
	}
	for _, order := range []string{"arrival", "running-first"} {
		res := runJobs(t, Params{ThresholdsGPUH: []float64{1}, RoundS: 60, QueueOrder: order}, jobs)
		a, b := res.Jobs[0], res.Jobs[1]
		if a.Preemptions != 1 || b.Preemptions != 1 || b.FirstStartS != 1860 || a.FinishS != 3660+5000-1800 {
			t.Errorf("%s: A preempted %d, ends %v; B starts %v, preempted %d", order, a.Preemptions, a.FinishS, b.FirstStartS, b.Preemptions)
		}
	}
}

// Tiresias places the jobs it picks with its placement. Two 3-GPU jobs
// leave one free GPU on each of two 4-GPU servers; C (2 GPUs, 500 s,
// arriving at 10 s) is picked at once, as 2 GPUs are free. Consolidated
// placement starts it across the servers; strict placement cannot, so C
// waits, logged, until A's server empties at 1000 s.
func TestPlacement(t *testing.T) {
	jobs := []workload.Job{
		{Name: "A", GPUs: 3, DurationS: 1000, Model: "m"},
		{Name: "B", GPUs: 3, DurationS: 2000, Model: "m"},
		{Name: "C", GPUs: 2, DurationS: 500, Model: "m", ArrivalS: 10},
	}
	for _, tc := range []struct {
		placement string
		want      float64
	}{{"consolidated", 10}, {"strict", 1000}} {
		placement, want := tc.placement, tc.want
		p := Params{ThresholdsGPUH: []float64{100}}
		p.Placement = placement
		res := runOn(t, 2, 4, p, jobs)
		logged := false
		for _, d := range res.Log {
			logged = logged || (d.TimeS == 10 && strings.HasPrefix(d.Msg(), "Tiresias: C waits: 2 GPUs free but no server has 2"))
		}
		if c := res.Jobs[2]; c.FirstStartS != want || c.FinishS != want+500 || logged != (placement == "strict") {
			t.Errorf("%s: C ran %v–%v, want from %v; wait logged: %v", placement, c.FirstStartS, c.FinishS, want, logged)
		}
	}
}

// The log's entries for starts and preemptions (written from notes, not
// formatted from arguments) read as before: the run of
// TestDemotionAndPreemption, A preempted after 1980 s on 2 GPUs.
func TestStartAndPreemptEntries(t *testing.T) {
	res := runJobs(t, Params{ThresholdsGPUH: []float64{1}, RoundS: 60, RestartS: 30}, []workload.Job{
		{Name: "A", GPUs: 2, DurationS: 10000, Model: "m"},
		{Name: "B", GPUs: 2, DurationS: 500, Model: "m", ArrivalS: 2000},
	})
	var got []string
	for i := range res.Log {
		if m := res.Log[i].Msg(); strings.HasPrefix(m, "Tiresias: ") {
			got = append(got, m)
		}
	}
	want := []string{
		"Tiresias: started A from queue 0",
		"Tiresias: preempted A (queue 1, 1.10 GPU-hours attained)",
		"Tiresias: started B from queue 0",
		"Tiresias: started A from queue 1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
