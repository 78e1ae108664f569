package policy_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/workload"
)

// runOnGPUs runs jobs under p on one server of n GPUs, every invariant
// checked, the whole decision log kept.
func runOnGPUs(t *testing.T, n int, jobs []workload.Job, p engine.Policy) (*engine.Result, error) {
	t.Helper()
	return runChecked(t, n, jobs, p, true)
}

// runChecked is runOnGPUs with the engine's check of every invariant
// after each instant (Paranoid) on or off.
func runChecked(t *testing.T, n int, jobs []workload.Job, p engine.Policy, paranoid bool) (*engine.Result, error) {
	t.Helper()
	c, err := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{{Count: max(n/4, 1), GPUs: min(n, 4), GPUType: "V100"}}})
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
	return engine.Run(context.Background(), engine.Config{Cluster: c, Jobs: jobs, Perf: m, Policy: p, Paranoid: paranoid, MaxLogEntries: 1 << 30})
}

// byDuration is a priority: the job's length (shortest first).
func byDuration(s *engine.State, id workload.JobID) (float64, error) { return s.Job(id).DurationS, nil }

// leastAttained is a priority: GPU-seconds held so far (LAS).
func leastAttained(s *engine.State, id workload.JobID) (float64, error) {
	return s.Info(id).AttainedGPU, nil
}

// An error of the priority ends the run, naming the policy and the job,
// the way a policy script's runtime error must surface.
func TestPriorityErrorEndsTheRun(t *testing.T) {
	boom := errors.New("division by zero in priority()")
	p := &policy.PriorityScheduler{Name: "Mine", Priority: func(s *engine.State, id workload.JobID) (float64, error) {
		if s.Job(id).Name == "B" {
			return 0, boom
		}
		return 1, nil
	}}
	_, err := runOnGPUs(t, 1, []workload.Job{
		{Name: "A", GPUs: 1, DurationS: 100, Model: "m"},
		{Name: "B", GPUs: 1, DurationS: 100, Model: "m", ArrivalS: 10},
	}, p)
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "Mine: the priority of job B: division by zero") {
		t.Errorf("error %v", err)
	}
	nan := &policy.PriorityScheduler{Name: "Mine", Priority: func(*engine.State, workload.JobID) (float64, error) { return math.NaN(), nil }}
	if _, err := runOnGPUs(t, 1, []workload.Job{{Name: "A", GPUs: 1, DurationS: 1, Model: "m"}}, nan); err == nil || !strings.Contains(err.Error(), "the priority of job A is not a number") {
		t.Errorf("NaN: %v", err)
	}
}

// Event-driven shortest job first with preemption, by hand on one GPU: A
// (1,000 s) runs from 0; B (300 s) arrives at 100 and preempts it, with
// the default log entries; B ends at 400; A restarts after 20 s and ends
// at 420 + 900 = 1320. With NoPreempt, B waits for A's end at 1000.
func TestPreemptionAndLog(t *testing.T) {
	jobs := []workload.Job{
		{Name: "A", GPUs: 1, DurationS: 1000, Model: "m"},
		{Name: "B", GPUs: 1, DurationS: 300, Model: "m", ArrivalS: 100},
	}
	res, err := runOnGPUs(t, 1, jobs, &policy.PriorityScheduler{Name: "SJF", Priority: byDuration, RestartS: 20, Label: policy.TimeLabel("length")})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := res.Jobs[0], res.Jobs[1]; a.FinishS != 1320 || a.Preemptions != 1 || b.FirstStartS != 100 || b.FinishS != 400 {
		t.Errorf("A ends %v (preempted %d); B %v–%v", a.FinishS, a.Preemptions, b.FirstStartS, b.FinishS)
	}
	var log []string
	for i := range res.Log {
		log = append(log, fmt.Sprintf("%g %s", res.Log[i].TimeS, res.Log[i].Msg()))
	}
	want := []string{"0 SJF: started A on GPU s0/g0; length 16.7 min", "100 SJF: preempted A; length 16.7 min",
		"100 SJF: started B on GPU s0/g0; length 5.0 min", "400 SJF: started A on GPU s0/g0; length 16.7 min"}
	if !reflect.DeepEqual(log, want) {
		t.Errorf("log\n%q\nwant\n%q", log, want)
	}
	res, err = runOnGPUs(t, 1, jobs, &policy.PriorityScheduler{Name: "SJF", Priority: byDuration, NoPreempt: true})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := res.Jobs[0], res.Jobs[1]; a.FinishS != 1000 || a.Preemptions != 0 || b.FirstStartS != 1000 {
		t.Errorf("no preemption: A ends %v (preempted %d); B starts %v", a.FinishS, a.Preemptions, b.FirstStartS)
	}
}

// Backfilling, by hand on two GPUs, non-preemptive, 60 s rounds, shortest
// first: H (1 GPU, 500 s) starts alone at the round of 60. At 120 one GPU
// is free; L (2 GPUs, 40 s) is first and does not fit. With backfilling S
// (1 GPU, 50 s) takes the free GPU at 120; without, S waits behind L. H
// ends at 560; at 600 L takes both GPUs (600–640); S, without
// backfilling, starts at the round of 660.
func TestBackfillAndHeadOfLine(t *testing.T) {
	jobs := []workload.Job{
		{Name: "H", GPUs: 1, DurationS: 500, Model: "m"},
		{Name: "L", GPUs: 2, DurationS: 40, Model: "m", ArrivalS: 70},
		{Name: "S", GPUs: 1, DurationS: 50, Model: "m", ArrivalS: 80},
	}
	for _, tc := range []struct {
		noBackfill bool
		sStart     float64
	}{{false, 120}, {true, 660}} {
		res, err := runOnGPUs(t, 2, jobs, &policy.PriorityScheduler{Name: "P", Priority: byDuration, NoPreempt: true, RoundS: 60, NoBackfill: tc.noBackfill})
		if err != nil {
			t.Fatal(err)
		}
		h, l, s := res.Jobs[0], res.Jobs[1], res.Jobs[2]
		if h.FirstStartS != 60 || l.FirstStartS != 600 || s.FirstStartS != tc.sStart {
			t.Errorf("no backfill %v: H starts %v, L %v, S %v (want %v)", tc.noBackfill, h.FirstStartS, l.FirstStartS, s.FirstStartS, tc.sStart)
		}
	}
}

// Keeping the waiting jobs' keys (KeepPendingKeys) decides exactly as
// asking every job at every decision, for least attained service, on an
// overloaded random workload, in rounds and event-driven.
func TestKeptKeysMatchFullOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	var jobs []workload.Job
	at := 0.0
	for i := range 300 {
		at += 40 * r.ExpFloat64()
		jobs = append(jobs, workload.Job{Name: fmt.Sprintf("j%d", i), Model: "m", ArrivalS: at,
			GPUs: []int{1, 1, 2, 4}[r.IntN(4)], DurationS: 60 + 1800*r.ExpFloat64()})
	}
	for _, round := range []float64{0, 120} {
		var got [2]*engine.Result
		for i, keep := range []bool{true, false} {
			res, err := runOnGPUs(t, 8, jobs, &policy.PriorityScheduler{Name: "LAS", Priority: leastAttained, RoundS: round, RestartS: 10, KeepPendingKeys: keep})
			if err != nil {
				t.Fatal(err)
			}
			got[i] = res
		}
		if !reflect.DeepEqual(got[0].Jobs, got[1].Jobs) || !reflect.DeepEqual(got[0].Intervals, got[1].Intervals) || !engine.SameLog(got[0].Log, got[1].Log) {
			t.Errorf("round %v: kept keys decide differently", round)
		}
		pre := 0
		for _, j := range got[0].Jobs {
			pre += j.Preemptions
		}
		if pre < 50 {
			t.Errorf("round %v: only %d preemptions, the comparison shows little", round, pre)
		}
	}
}

// queues is a priority in the manner of Tiresias: the number of
// thresholds (GPU-seconds) a job's attained service has passed, with
// until, the time before which a running job's queue cannot change.
type queues []float64

func (q queues) key(s *engine.State, id workload.JobID) (float64, error) {
	a, k := s.Info(id).AttainedGPU, 0
	for k < len(q) && a >= q[k] {
		k++
	}
	return float64(k), nil
}

func (q queues) until(s *engine.State, id workload.JobID) float64 {
	info := s.Info(id)
	for _, th := range q {
		if left := th - info.AttainedGPU; left > 0 {
			at := s.Now() + left/float64(len(info.GPUs))
			return at - 1e-9*(at+th) - 1e-9
		}
	}
	return math.Inf(1)
}

// Keeping the running jobs in order (RunningKeyUntil) decides exactly as
// keeping only the waiting ones and as asking every job at every
// decision, with queues of attained service on an overloaded random
// workload: in rounds and event-driven, with and without preemption and
// backfilling, on consolidated and strict placement; and most decisions
// are made by the waiting jobs alone, some by the full order.
//
// Its event-driven variants decide at about 140,000 instants each, so the
// engine checks every invariant only under the kept order, the code this
// test is about; the two orders it is compared with are the scheduler's
// plain paths. Under -race it is skipped: it runs on one goroutine, where
// the race detector can find nothing, and took 385 s there.
func TestKeptRunningOrderMatchesFullOrder(t *testing.T) {
	if raceDetector {
		t.Skip("one goroutine: nothing for the race detector to find")
	}
	// the kept order drops its stale rechecks at every few pushes, and
	// the dead entries of its running jobs at every few removals, so that
	// dropping them is seen to change no decision
	defer policy.CompactRechecksFrom(2)()
	r := rand.New(rand.NewPCG(5, 7))
	var jobs []workload.Job
	at := 0.0
	for i := range 400 {
		at += 30 * r.ExpFloat64()
		jobs = append(jobs, workload.Job{Name: fmt.Sprintf("j%d", i), Model: "m", ArrivalS: at,
			GPUs: []int{1, 1, 1, 2, 4, 8}[r.IntN(6)], DurationS: 60 + 1800*r.ExpFloat64()})
	}
	q := queues{600, 3600, 4 * 3600}
	type variant struct {
		round                 float64
		noPreempt, noBackfill bool
		placement             string
	}
	var variants []variant
	for _, round := range []float64{0, 60} {
		for _, pre := range []bool{false, true} {
			for _, bf := range []bool{false, true} {
				variants = append(variants, variant{round, pre, bf, "consolidated"})
			}
		}
		variants = append(variants, variant{round, false, false, "strict"})
	}
	for _, v := range variants {
		name := fmt.Sprintf("round %v, no preempt %v, no backfill %v, %s", v.round, v.noPreempt, v.noBackfill, v.placement)
		mk := func(keepPending, keepRunning bool) *policy.PriorityScheduler {
			p := &policy.PriorityScheduler{Name: "Q", Priority: q.key, RoundS: v.round, RestartS: 10,
				NoPreempt: v.noPreempt, NoBackfill: v.noBackfill, Placement: v.placement, KeepPendingKeys: keepPending}
			if keepRunning {
				p.RunningKeyUntil = q.until
			}
			if v.round == 0 {
				p.Wake = func(s *engine.State) float64 { return s.Now() + 600 }
			}
			return p
		}
		kept := mk(true, true)
		var got [3]*engine.Result
		for i, p := range []*policy.PriorityScheduler{kept, mk(true, false), mk(false, false)} {
			res, err := runChecked(t, 16, jobs, p, i == 0)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			got[i] = res
		}
		for i := 1; i < 3; i++ {
			if !reflect.DeepEqual(got[0].Jobs, got[i].Jobs) || !reflect.DeepEqual(got[0].Intervals, got[i].Intervals) || !engine.SameLog(got[0].Log, got[i].Log) {
				t.Errorf("%s: the kept running order decides differently from %s", name, []string{"", "kept waiting jobs", "the full order"}[i])
			}
		}
		fast, full := kept.Decisions()
		if rechecks, dead := kept.Compactions(); rechecks == 0 || dead == 0 {
			t.Errorf("%s: the stale rechecks were dropped %d times, the running order's dead entries %d times", name, rechecks, dead)
		}
		pre := 0
		for _, j := range got[0].Jobs {
			pre += j.Preemptions
		}
		t.Logf("%s: %d decisions by the waiting jobs, %d by the full order, %d preemptions", name, fast, full, pre)
		if fast < 2*full || (!v.noPreempt && (full == 0 || pre < 20)) {
			t.Errorf("%s: %d decisions by the waiting jobs, %d by the full order, %d preemptions: the comparison shows little", name, fast, full, pre)
		}
	}
}
