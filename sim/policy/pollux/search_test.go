package pollux

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

// Three jobs, two GPUs, costs given by hand. Leaving a job without GPUs
// costs 1/ε = 1000; the job left out is the one whose first GPU saves the
// least (C: 1000 − 5), and C's 2-GPU option (cost 1) is not worth leaving
// two jobs at 1000.
func TestSolveThreeJobsTwoGPUs(t *testing.T) {
	jobs := []options{
		{count: []int{0, 1, 2}, cost: []float64{1000, 4, 2.5}},
		{count: []int{0, 1}, cost: []float64{1000, 3}},
		{count: []int{0, 1, 2}, cost: []float64{1000, 5, 1}},
	}
	if got, want := solve(jobs, 2), []int{1, 1, 0}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	// With a third GPU everyone gets one, and with four C takes two
	// (1 + 4 + 3 = 8 against A on two: 2.5 + 3 + 5 = 10.5).
	if got, want := solve(jobs, 3), []int{1, 1, 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("3 GPUs: got %v, want %v", got, want)
	}
	if got, want := solve(jobs, 4), []int{1, 1, 2}; !reflect.DeepEqual(got, want) {
		t.Errorf("4 GPUs: got %v, want %v", got, want)
	}
}

// The dynamic program finds the same optimum as trying every combination,
// never uses more GPUs than exist, and keeps a job's current count among
// equally good ones.
func TestSolveMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		nJobs, n := 1+rng.IntN(4), rng.IntN(7)
		jobs := make([]options, nJobs)
		for i := range jobs {
			k := 1 + rng.IntN(4)
			for a := range k {
				c := 1000.0
				if a > 0 {
					c = 1 + float64(rng.IntN(20)) // integers make ties common
				}
				jobs[i].count = append(jobs[i].count, a)
				jobs[i].cost = append(jobs[i].cost, c)
			}
		}
		got := solve(jobs, n)
		used, cost := 0, 0.0
		for i, a := range got {
			used += a
			cost += jobs[i].cost[slicesIndex(jobs[i].count, a)]
		}
		if used > n {
			t.Fatalf("trial %d: uses %d of %d GPUs", trial, used, n)
		}
		if best := brute(jobs, n, 0); math.Abs(cost-best) > 1e-9 {
			t.Fatalf("trial %d: cost %v, best %v (%v)", trial, cost, best, got)
		}
	}
}

func slicesIndex(xs []int, x int) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

func brute(jobs []options, n, i int) float64 {
	if i == len(jobs) {
		return 0
	}
	best := math.Inf(1)
	for k, a := range jobs[i].count {
		if a <= n {
			best = min(best, jobs[i].cost[k]+brute(jobs, n-a, i+1))
		}
	}
	return best
}

// Pruning keeps 0, the current count and the counts that beat every
// smaller one; a pinned job keeps only its current count.
func TestPrune(t *testing.T) {
	costs := []float64{1000, 4, 4, 3, 3.5, 2} // a = 0..5
	f := func(a int) float64 { return costs[a] }
	o := prune(2, f, 5, false)
	if want := []int{2, 0, 1, 3, 5}; !reflect.DeepEqual(o.count, want) {
		t.Errorf("counts %v, want %v", o.count, want)
	}
	if o := prune(2, f, 3, false); !reflect.DeepEqual(o.count, []int{2, 0, 1, 3}) {
		t.Errorf("limit 3: counts %v", o.count)
	}
	if o := prune(2, f, 5, true); !reflect.DeepEqual(o.count, []int{2}) {
		t.Errorf("pinned: counts %v", o.count)
	}
}

// The artifact's restart factor, by hand.
func TestRestartFactor(t *testing.T) {
	for _, c := range []struct {
		age      float64
		restarts int
		want     float64
	}{
		{60, 0, 60.0 / 90}, {30, 0, 0.5}, {0, 0, 0}, {300, 2, 240.0 / 330}, {90, 3, 0}, {90, 5, 0},
	} {
		if got := factor(c.age, c.restarts, 30); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("factor(%v, %d, 30) = %v, want %v", c.age, c.restarts, got, c.want)
		}
	}
	if got := factor(0, 0, 0); got != 1 {
		t.Errorf("no delay, no age: %v, want 1", got)
	}
}

func runOn(t *testing.T, spec cluster.Spec, p Params, jobs []workload.Job) *engine.Result {
	t.Helper()
	res, _, _ := runSpec(t, spec, p, jobs, engine.Budgets{MaxEvents: 200_000})
	return res
}

// Three identical one-GPU jobs on one server of two GPUs. At the first
// round (t = 60) each can only have 0 or 1 GPU (it has never run), and its
// restart factor is age/(age + 30): 2/3 for a and b, which arrived at 0,
// and 1/2 for c, which arrived at 30. Both GPUs cannot save more than two
// jobs' 1/ε, and they save most on the jobs with the larger factor, so c
// waits. At later rounds a and b keep their GPU (no restart penalty), and
// c starts at the first round after one of them finishes.
func TestThreeJobsTwoGPUsWhoWaits(t *testing.T) {
	spec := cluster.Spec{Servers: []cluster.ServerGroup{{Count: 1, GPUs: 2, GPUType: "2080Ti", GPUMemoryGB: 11}}}
	jobs := []workload.Job{
		{Name: "a", Model: "deepspeech2", GPUs: 1, DurationS: 600},
		{Name: "b", Model: "deepspeech2", GPUs: 1, DurationS: 600},
		{Name: "c", Model: "deepspeech2", GPUs: 1, DurationS: 600, ArrivalS: 30},
	}
	res := runOn(t, spec, DefaultParams(), jobs)
	a, b, c := res.Jobs[0], res.Jobs[1], res.Jobs[2]
	if a.FirstStartS != 60 || b.FirstStartS != 60 {
		t.Errorf("a and b start at %v and %v, want 60", a.FirstStartS, b.FirstStartS)
	}
	if a.Starts != 1 || b.Starts != 1 || a.Preemptions+b.Preemptions != 0 {
		t.Errorf("a or b was moved: starts %d, %d, preemptions %d, %d", a.Starts, b.Starts, a.Preemptions, b.Preemptions)
	}
	first := min(a.FinishS, b.FinishS)
	if want := (math.Floor(first/60) + 1) * 60; c.FirstStartS != want {
		t.Errorf("c starts at %v, want %v (the round after the first finish at %v)", c.FirstStartS, want, first)
	}
}

// Seeded random workloads: the policy never gives more GPUs than exist
// (the engine's paranoid invariants), every job finishes, and the same
// input gives the same result.
func TestRandomWorkloadsDeterministic(t *testing.T) {
	models := []string{"bert", "cifar10", "deepspeech2", "imagenet", "ncf", "yolov3"}
	spec := cluster.Spec{Servers: []cluster.ServerGroup{{Count: 3, GPUs: 4, GPUType: "2080Ti", GPUMemoryGB: 11}}}
	for seed := range uint64(4) {
		rng := rand.New(rand.NewPCG(seed, 7))
		var jobs []workload.Job
		for i := range 25 {
			jobs = append(jobs, workload.Job{Name: string(rune('a' + i)), Model: models[rng.IntN(len(models))],
				GPUs: 1 << rng.IntN(4), DurationS: float64(300 + rng.IntN(3000)), ArrivalS: float64(rng.IntN(4000))})
		}
		res := runOn(t, spec, DefaultParams(), jobs)
		for _, j := range res.Jobs {
			if j.Status != engine.Finished {
				t.Fatalf("seed %d: %s is %s", seed, j.Name, j.Status)
			}
		}
		if again := runOn(t, spec, DefaultParams(), jobs); !reflect.DeepEqual(res.Jobs, again.Jobs) {
			t.Fatalf("seed %d: two runs differ", seed)
		}
	}
}

// The restart penalty holds a job back from growing until the gain is worth
// it. A lone CIFAR10 job on a 4-GPU server with a 300 s restart delay may
// grow from 1 to 2 GPUs when its 2-GPU speedup, discounted by
// age/(age + 300), beats its 1-GPU speedup: at the first round with
// age > 300·q/(1 − q), q = r1/r2, and not before its first start at 60
// is 300 s old (a restart in progress completes). Without the penalty it
// grows as soon as that is over, at 420.
func TestRestartPenaltyDelaysGrowth(t *testing.T) {
	spec := cluster.Spec{Servers: []cluster.ServerGroup{{Count: 1, GPUs: 4, GPUType: "2080Ti", GPUMemoryGB: 11}}}
	jobs := []workload.Job{{Name: "a", Model: "cifar10", GPUs: 1, DurationS: 7200}}
	firstGrowth := func(p Params) float64 {
		res := runOn(t, spec, p, jobs)
		for _, d := range res.Log {
			if strings.Contains(d.Msg(), "grows from 1 to 2") {
				return d.TimeS
			}
		}
		t.Fatal("the job never grew")
		return 0
	}
	p := DefaultParams()
	p.RestartS = 300
	c, _ := cluster.New(spec)
	m, _ := perf.NewAnalytic(*perf.DefaultAnalyticParams(), c)
	job := workload.Job{Model: "cifar10", GPUs: 1, BatchSize: 128}
	q := perf.AdaptiveSoloRate(m, c, &job, []cluster.GPUID{0}) / perf.AdaptiveSoloRate(m, c, &job, []cluster.GPUID{0, 1})
	want := max(420, (math.Floor(300*q/(1-q)/60)+1)*60)
	if got := firstGrowth(p); got != want {
		t.Errorf("with the penalty it grows at %v, want %v (q = %.3f)", got, want, q)
	}
	p.RestartPenalty = false
	if got := firstGrowth(p); got != 420 {
		t.Errorf("without the penalty it grows at %v, want 420", got)
	}
}

// Issue 10: with round_s ≤ restart_s, a policy that changes a job's
// allocation at every round restarts it before the last restart is over,
// and no job ever progresses (the first version never finished 8 jobs on
// 4 GPUs in 23 simulated days). Now a job keeps its GPUs until its restart
// is over, so no two changes of a job are closer than restart_s, and every
// job finishes well within the event budget, with the restart penalty on
// or off.
func TestRoundNotLongerThanRestartFinishes(t *testing.T) {
	spec := cluster.Spec{Servers: []cluster.ServerGroup{{Count: 1, GPUs: 4, GPUType: "2080Ti", GPUMemoryGB: 11}}}
	models := []string{"cifar10", "bert", "imagenet", "ncf", "deepspeech2", "yolov3", "cifar10", "bert"}
	var jobs []workload.Job
	for i, m := range models {
		jobs = append(jobs, workload.Job{Name: fmt.Sprintf("j%d", i+1), Model: m, GPUs: 1 + i%3, DurationS: float64(300 + 100*i), ArrivalS: float64(10 * i)})
	}
	for _, c := range []struct {
		round, restart float64
		penalty        bool
	}{{30, 30, true}, {10, 30, true}, {60, 60, true}, {30, 30, false}, {10, 30, false}} {
		p := DefaultParams()
		p.RoundS, p.RestartS, p.RestartPenalty = c.round, c.restart, c.penalty
		res := runOn(t, spec, p, jobs)
		last := map[workload.JobID]float64{}
		for _, d := range res.Log {
			if !strings.HasPrefix(d.Msg(), "Pollux: ") || strings.Contains(d.Msg(), "gives up") {
				continue
			}
			if t0, ok := last[d.Job]; ok && d.TimeS-t0 <= c.restart {
				t.Errorf("%+v: job %d changed at %v and again at %v", c, d.Job, t0, d.TimeS)
			}
			last[d.Job] = d.TimeS
		}
		for _, j := range res.Jobs {
			if j.Status != engine.Finished {
				t.Errorf("%+v: %s is %s", c, j.Name, j.Status)
			}
		}
	}
}

// Issue 10: on a cluster of 8 GB and 32 GB GPUs, a BERT job's whole batch
// (9.6 GB at 12 samples) does not fit an 8 GB GPU. Pollux used to put it
// there anyway and the run failed ("GPU 3 has 8 GB free but the job needs
// 9.6 GB"). Now it runs such a job on small GPUs with a micro-batch that
// fits (accumulating the rest), prefers GPUs that hold its whole batch,
// and every job finishes with the engine's memory invariants checked.
func TestMixedGPUMemory(t *testing.T) {
	spec := cluster.Spec{Servers: []cluster.ServerGroup{
		{Count: 1, GPUs: 4, GPUType: "small", GPUMemoryGB: 8},
		{Count: 1, GPUs: 4, GPUType: "big", GPUMemoryGB: 32},
	}}
	var jobs []workload.Job
	for i := range 6 {
		jobs = append(jobs, workload.Job{Name: fmt.Sprintf("bert%d", i), Model: "bert", GPUs: 1, DurationS: 1200, ArrivalS: float64(5 * i)})
	}
	jobs = append(jobs, workload.Job{Name: "ds2", Model: "deepspeech2", GPUs: 2, BatchSize: 30, DurationS: 900, ArrivalS: 20})
	res := runOn(t, spec, DefaultParams(), jobs)
	onSmall := 0
	for _, iv := range res.Intervals {
		if iv.GPU < 4 && iv.EndS > iv.StartS {
			onSmall++
		}
	}
	for _, j := range res.Jobs {
		if j.Status != engine.Finished {
			t.Errorf("%s is %s", j.Name, j.Status)
		}
	}
	if onSmall == 0 {
		t.Error("no job ever ran on the 8 GB GPUs although 7 jobs share 8 GPUs")
	}
}

// subBatch picks the largest micro-batch that fits the smallest GPU.
func TestSubBatchFitsSmallestGPU(t *testing.T) {
	spec := cluster.Spec{Servers: []cluster.ServerGroup{
		{Count: 1, GPUs: 1, GPUType: "small", GPUMemoryGB: 8},
		{Count: 1, GPUs: 1, GPUType: "big", GPUMemoryGB: 32},
	}}
	c, _ := cluster.New(spec)
	m, _ := perf.NewAnalytic(*perf.DefaultAnalyticParams(), c)
	jobs, _ := workload.Finalize([]workload.Job{{Name: "a", Model: "bert", GPUs: 1, DurationS: 60}})
	if err := m.Prepare(c, jobs); err != nil {
		t.Fatal(err)
	}
	var got [3]int
	probe := &probePolicy{f: func(s *engine.State) {
		got = [3]int{subBatch(s, 0, []cluster.GPUID{1}), subBatch(s, 0, []cluster.GPUID{0}), subBatch(s, 0, []cluster.GPUID{0, 1})}
	}}
	if _, err := engine.Run(context.Background(), engine.Config{Cluster: c, Jobs: jobs, Perf: m, Policy: probe}); err != nil {
		t.Fatal(err)
	}
	// BERT: 1.8 GB + 0.65 GB per sample; 8 GB holds 9 samples (7.65 GB).
	if want := [3]int{12, 9, 9}; got != want {
		t.Errorf("sub-batches on 32 GB, 8 GB, both: %v, want %v", got, want)
	}
}

// probePolicy calls f at the first decision and then runs the job on GPU 1.
type probePolicy struct{ f func(s *engine.State) }

func (p *probePolicy) Options() engine.Options { return engine.Options{Elastic: true} }

func (p *probePolicy) Decide(s *engine.State, _ []engine.Trigger) error {
	if s.NumPending() == 0 {
		return nil
	}
	p.f(s)
	return s.Start(0, []cluster.GPUID{1}, engine.ActionOptions{})
}
