package ojpp

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/metrics"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

// Hand-computed checks of the planner's constraints and orders (spec 002
// §3.0–§3.5) on the default library (spec 002 §5.2):
//
//	type     α     γ     δ     p
//	LeNet    0.15  0.08  0.16  0.30
//	CNN      0.15  0.08  0.12  0.05
//	LSTM     0.20  0.12  0.20  0.30
//	AlexNet  0.25  0.15  0.20  0.05
//	VGG19    0.35  0.25  0.25  0.10
//	ResNet   0.30  0.25  0.35  0.20
//
// Every expected number is worked out in the comments from this table and
// the interference matrix, never by the planner's own functions.

// onDevice returns a planner for jobs (one worker of each model, unless
// given as "model×n") with the listed jobs already on device 0.
func onDevice(t *testing.T, m *perf.MemShare, cfg Config, models []string, placed ...int) *planner {
	t.Helper()
	var spec []any
	for _, mdl := range models {
		spec = append(spec, mdl, 1)
	}
	jobs := mkJobs(t, m, spec...)
	pl := newPlanner(m, cfg, jobs, 8)
	for _, j := range placed {
		pl.add(workload.JobID(j), 0)
	}
	return pl
}

func cfgOf(t *testing.T, name string, edit func(*Params)) Config {
	p := preset(t, name)
	if edit != nil {
		edit(&p)
	}
	return p.config()
}

// Eq. 3 under each memory model, with no other constraint (Best-fit).
func TestMemoryModelsByHand(t *testing.T) {
	m := memshare(t)
	bf := func(mem string) Config { return cfgOf(t, "ojpp-best-fit", func(p *Params) { p.Memory = mem }) }
	for _, c := range []struct {
		name     string
		cfg      Config
		models   []string
		placed   []int
		add      int
		fail     string
		residual float64
	}{
		// VGG19 + VGG19 hold Σγ 0.5 + max δ 0.25; a ResNet adds γ 0.25 and
		// the largest extra, 0.35: 0.75 + 0.35 = 1.10 > 1 (compute 1.0 fits).
		{"the newcomer's extra is the peak", bf("opportunistic"), []string{"VGG19", "VGG19", "ResNet"}, []int{0, 1}, 2, failMemory, 0},
		// ResNet + VGG19: 0.5 + 0.35; a LeNet: 0.58 + max(0.35, 0.25,
		// 0.16) = 0.93 fits (two peaks summed would be 1.09). Compute 0.80.
		// Slack (1 − 0.80) + (1 − 0.93) = 0.27.
		{"one peak, not two", bf("opportunistic"), []string{"ResNet", "VGG19", "LeNet"}, []int{0, 1}, 2, okFit, 0.27},
		// Peak model Σ(γ + δ): CNN 0.20 + LeNet 0.24 = 0.44; AlexNet adds
		// 0.35: 0.79 (slack 0.45 + 0.21 = 0.66); ResNet would add 0.60: 1.04.
		{"peak model fits", bf("peak"), []string{"CNN", "LeNet", "AlexNet"}, []int{0, 1}, 2, okFit, 0.66},
		{"peak model full", bf("peak"), []string{"CNN", "LeNet", "ResNet"}, []int{0, 1}, 2, failMemory, 0},
		// Average model Σγ: ResNet, VGG19 and CNN hold 0.25 + 0.25 + 0.08;
		// a second CNN makes 0.66 (slack (1 − 0.95) + (1 − 0.66) = 0.39),
		// where Eq. 3 would add the ResNet's extra: 1.01 > 1.
		{"average model", bf("average"), []string{"ResNet", "VGG19", "CNN", "CNN"}, []int{0, 1, 2}, 3, okFit, 0.39},
		{"opportunistic on the same", bf("opportunistic"), []string{"ResNet", "VGG19", "CNN", "CNN"}, []int{0, 1, 2}, 3, failMemory, 0},
	} {
		pl := onDevice(t, m, c.cfg, c.models, c.placed...)
		pr := pl.try(workload.JobID(c.add), 0)
		if pr.fail == failCompute && c.fail != failCompute {
			t.Errorf("%s: refused for compute", c.name)
			continue
		}
		if pr.fail != c.fail || (c.fail == okFit && math.Abs(pr.residual-c.residual) > 1e-12) {
			t.Errorf("%s: fail %q, residual %.4f; want %q, %.4f", c.name, pr.fail, pr.residual, c.fail, c.residual)
		}
	}
}

// M_k of a list of workers, as Algorithm 4 reads it: two LeNet workers
// and a CNN hold Σγ 0.24 + the one largest extra 0.16 = 0.40.
func TestMemoryOfAListByHand(t *testing.T) {
	m := memshare(t)
	pl := onDevice(t, m, cfgOf(t, "ojpp", nil), []string{"LeNet", "CNN"})
	if got := pl.memory([]workload.JobID{0, 0, 1}); math.Abs(got-0.40) > 1e-12 {
		t.Errorf("M(LeNet, LeNet, CNN) = %v, want 0.08·2 + 0.08 + 0.16 = 0.40", got)
	}
	if got := pl.available(0); got != 1 {
		t.Errorf("an empty device has %v available, want 1", got)
	}
}

// τ over the device with the newcomer: LeNet + LSTM (p 0.3 each) give
// 0.09 ≤ τ̄ = 0.1; a second LeNet makes three: 1 − 0.7³ − 3·0.3·0.7² =
// 1 − 0.343 − 0.441 = 0.216 > 0.1.
func TestCollisionBoundIncludesTheNewcomer(t *testing.T) {
	m := memshare(t)
	pl := onDevice(t, m, cfgOf(t, "ojpp-c-greedy", nil), []string{"LeNet", "LSTM", "LeNet"}, 0, 1)
	if pr := pl.try(2, 0); pr.fail != failTau {
		t.Errorf("third p = 0.3 worker: fail %q, want %q (τ = 0.216)", pr.fail, failTau)
	}
	if got := pl.tau([]workload.JobID{0, 1, 2}); math.Abs(got-0.216) > 1e-12 {
		t.Errorf("τ of three p = 0.3 workers %v, want 0.216", got)
	}
}

// The device's θ is the worst slowdown of all its workers, old ones
// included: a CNN beside a ResNet suffers 0.11, but the ResNet then
// suffers 0.37 > θ̄. Three workers compose additively: beside a LeNet and
// a CNN, an AlexNet suffers 0.18 + 0.07 = 0.25, the CNN 0.13 + 0.09, the
// LeNet 0.06 + 0.12: θ = 0.25 > 0.2.
func TestThetaIsTheWorstOfAllWorkers(t *testing.T) {
	m := memshare(t)
	pl := onDevice(t, m, cfgOf(t, "ojpp-i-greedy", nil), []string{"ResNet", "CNN"}, 0)
	if pr := pl.try(1, 0); pr.fail != failTheta || math.Abs(pr.theta-0.37) > 1e-12 {
		t.Errorf("CNN beside ResNet: fail %q, θ %v; want %q, 0.37 (the ResNet's)", pr.fail, pr.theta, failTheta)
	}
	pl = onDevice(t, m, cfgOf(t, "ojpp-i-greedy", nil), []string{"LeNet", "CNN", "AlexNet"}, 0, 1)
	if pr := pl.try(2, 0); pr.fail != failTheta || math.Abs(pr.theta-0.25) > 1e-12 {
		t.Errorf("AlexNet beside LeNet and CNN: fail %q, θ %v; want %q, 0.25", pr.fail, pr.theta, failTheta)
	}
}

// Eq. 8 against θ′, not θ̄: a LeNet job's first worker runs alone
// (slowdown 0) on device 1; its second beside an AlexNet would suffer
// 0.12, a spread of 0.12 > θ′ = 0.1 although below θ̄ = 0.2; beside a CNN
// 0.06 is fine.
func TestBalanceUsesThetaPrime(t *testing.T) {
	m := memshare(t)
	jobs := mkJobs(t, m, "AlexNet", 1, "CNN", 1, "LeNet", 2)
	pl := newPlanner(m, cfgOf(t, "ojpp-b-greedy", nil), jobs, 4)
	pl.add(0, 0)
	pl.add(1, 1)
	pl.add(2, 2)
	if pr := pl.try(2, 0); pr.fail != failBal {
		t.Errorf("LeNet sibling beside AlexNet: fail %q, want %q (spread 0.12 > θ′ 0.1)", pr.fail, failBal)
	}
	if pr := pl.try(2, 1); pr.fail != okFit {
		t.Errorf("LeNet sibling beside CNN: fail %q, want none (spread 0.06)", pr.fail)
	}
}

// BFD (spec 002 §3.0): α descending, then peak γ + δ descending, then ω
// descending, then job id. VGG19 (α 0.35) first; three ResNets (α 0.3) by
// ω then id; LeNet before CNN (same α and γ, peak 0.24 > 0.20) although
// CNN has the lower id.
func TestBFDOrderByHand(t *testing.T) {
	m := memshare(t)
	jobs := mkJobs(t, m, "CNN", 1, "ResNet", 1, "LeNet", 1, "ResNet", 3, "VGG19", 1, "ResNet", 1)
	pl := newPlanner(m, cfgOf(t, "ojpp-greedy", nil), jobs, 1)
	got := pl.order([]workload.JobID{0, 1, 2, 3, 4, 5})
	if want := []workload.JobID{4, 3, 1, 5, 2, 0}; !slices.Equal(got, want) {
		t.Errorf("BFD order %v, want %v (VGG19, ResNet×3, ResNet, ResNet, LeNet, CNN)", got, want)
	}
}

// Gregariousness τ(i, Q) = p_i · max over the other queued jobs of p_q:
// a ResNet (p 0.2) and a CNN (p 0.05) both get 0.2·0.05 = 0.01, and BFD
// breaks the tie (ResNet, α 0.3, first). Ordering by p_i alone, or
// pairing the largest p with itself (0.04), would put the CNN first.
func TestGregariousTieByHand(t *testing.T) {
	m := memshare(t)
	jobs := mkJobs(t, m, "CNN", 1, "ResNet", 1)
	pl := newPlanner(m, cfgOf(t, "ojpp", nil), jobs, 1)
	if got := pl.order([]workload.JobID{0, 1}); !slices.Equal(got, []workload.JobID{1, 0}) {
		t.Errorf("order %v, want [1 0]: ResNet and CNN tie at 0.01, BFD puts ResNet first", got)
	}
	// With a LeNet (p 0.3) queued too: CNN 0.05·0.3 = 0.015, ResNet
	// 0.2·0.3 = 0.06, LeNet 0.3·0.2 = 0.06: CNN first; then ResNet and
	// LeNet tie at 0.06 and BFD puts ResNet first.
	jobs = mkJobs(t, m, "LeNet", 1, "CNN", 1, "ResNet", 1)
	pl = newPlanner(m, cfgOf(t, "ojpp", nil), jobs, 1)
	if got := pl.order([]workload.JobID{0, 1, 2}); !slices.Equal(got, []workload.JobID{1, 2, 0}) {
		t.Errorf("order %v, want [1 2 0] (CNN, ResNet, LeNet)", got)
	}
}

// Algorithm 4 takes the ⌈|A|/2⌉ most interfered devices, and the budget
// bounds the sum of one round's migration costs (Eq. 19). Devices 0 and 1
// each hold a ResNet beside a VGG19 (θ 1.22), device 2 a CNN (θ 0): the
// two hot devices are in the queue (⌈3/2⌉ = 2), each ResNet (12 s) moves
// to an idle GPU. With a budget of 20 s only the first move fits
// (12 + 12 > 20).
func TestAdjustQueueAndBudgetByHand(t *testing.T) {
	m := memshare(t)
	jobs := mkJobs(t, m, "ResNet", 1, "VGG19", 1, "ResNet", 1, "VGG19", 1, "CNN", 1)
	setup := func() *planner {
		pl := newPlanner(m, cfgOf(t, "ojpap", nil), jobs, 6)
		pl.add(0, 0)
		pl.add(1, 0)
		pl.add(2, 1)
		pl.add(3, 1)
		pl.add(4, 2)
		return pl
	}
	moves := setup().adjust(60, true, false, true, nil)
	if len(moves) != 2 || moves[0].job != 0 || moves[1].job != 2 || moves[0].cost+moves[1].cost != 24 {
		t.Errorf("budget 60: moves %+v, want ResNet 0 and ResNet 2 (12 s each)", moves)
	}
	if moves := setup().adjust(20, true, false, true, nil); len(moves) != 1 || moves[0].job != 0 {
		t.Errorf("budget 20: moves %+v, want only the first ResNet", moves)
	}
}

// A move must lower the worse of the source's and the target's θ below
// the source's θ before it. With a matrix where only a ResNet beside a
// LeNet suffers (1.0), a device holding ResNet, LeNet and CNN has θ = 1;
// its cheapest worker is the CNN (5 s, lower id than the LeNet), and
// moving it to an idle GPU leaves the source at 1: no move.
func TestAdjustNeedsTheSourceToImprove(t *testing.T) {
	p := *perf.DefaultMemShareParams()
	p.Matrix = make([][]float64, len(p.Models))
	for i := range p.Matrix {
		p.Matrix[i] = make([]float64, len(p.Models))
	}
	p.Matrix[slices.Index(p.Models, "ResNet")][slices.Index(p.Models, "LeNet")] = 1
	m, err := perf.NewMemShare(p)
	if err != nil {
		t.Fatal(err)
	}
	jobs := mkJobs(t, m, "ResNet", 1, "CNN", 1, "LeNet", 1)
	pl := newPlanner(m, cfgOf(t, "ojpap", func(q *Params) { q.ThetaMax = 2 }), jobs, 4)
	for j := range 3 {
		pl.add(workload.JobID(j), 0)
	}
	if pl.theta(0) != 1 || pl.cheapest(0) != 1 {
		t.Fatalf("θ_0 %v, cheapest %d; want 1 and the CNN (1)", pl.theta(0), pl.cheapest(0))
	}
	if moves := pl.adjust(60, true, false, true, nil); len(moves) != 0 {
		t.Errorf("moves %+v, want none: moving the CNN leaves the source at θ = 1", moves)
	}
}

// Table 5's and Fig. 8's metrics from records by hand: two jobs of 100 s
// and 200 s alone that took 150 s and 300 s: D = 450/300 − 1 = 0.5,
// guaranteed performance 1/1.5; they had 2 and 4 workers on at most 2
// busy GPUs: 1 − 2/6 = 2/3 saved.
func TestTable5MetricsByHand(t *testing.T) {
	recs := []engine.JobRecord{
		{Job: 0, Status: engine.Finished, ArrivalS: 0, FinishS: 150, SoloS: 100, GPUs: 2},
		{Job: 1, Status: engine.Finished, ArrivalS: 10, FinishS: 310, SoloS: 200, GPUs: 4},
	}
	res := &engine.Result{Jobs: recs, Utilization: []engine.UtilPoint{{TimeS: 0, BusyGPUs: 1}, {TimeS: 10, BusyGPUs: 2}, {TimeS: 150, BusyGPUs: 1}}}
	c := metrics.Context{Selected: recs, Result: res}
	for _, x := range []struct {
		name string
		fn   func(metrics.Context) float64
		want float64
	}{{"degradation", degradation, 0.5}, {"gpus_used", gpusUsed, 2}, {"gpu_reduction", gpuReduction, 2.0 / 3}, {"mean_slowdown", meanSlowdown, 0.5}} {
		if got := x.fn(c); math.Abs(got-x.want) > 1e-12 {
			t.Errorf("%s = %v, want %v", x.name, got, x.want)
		}
	}
	d, err := metrics.Lookup("guaranteed_perf")
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Fn(c); math.Abs(got-1/1.5) > 1e-12 {
		t.Errorf("guaranteed_perf = %v, want 1/1.5", got)
	}
}

// Eq. 18 in the engine: OJPAP (watching only) smooths each GPU's observed
// θ as θ̃_t = a·θ̃_{t−1} + (1 − a)·θ_t with a = 0.8, starting from the
// first observation. An AlexNet and a CNN share the one GPU from time 0
// (the CNN suffers 0.09, the AlexNet 0.07); a start-up spike of 0.3 lasts
// 120 s. Ticks every 60 s observe 0.39, then 0.09, 0.09: the smoothed
// values are 0.39, 0.8·0.39 + 0.2·0.09 = 0.33, 0.8·0.33 + 0.2·0.09 =
// 0.282.
func TestEWMAInTheEngine(t *testing.T) {
	mp := *perf.DefaultMemShareParams()
	mp.Spike = perf.Spike{Size: 0.3, DurationS: 120}
	m, err := perf.NewMemShare(mp)
	if err != nil {
		t.Fatal(err)
	}
	c, err := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{{Count: 1, GPUs: 1, GPUType: "1080Ti", GPUMemoryGB: 11}}})
	if err != nil {
		t.Fatal(err)
	}
	jobs := mkJobs(t, m, "AlexNet", 1, "CNN", 1)
	p := preset(t, "ojpap")
	p.Adjust = "watch"
	res, err := engine.Run(context.Background(), engine.Config{Cluster: c, Jobs: jobs, Perf: m, Policy: New(p), Paranoid: true})
	if err != nil {
		t.Fatal(err)
	}
	raw, smooth := res.FindSeries("ojpp/max_theta", -1), res.FindSeries("ojpp/max_ewma", -1)
	if raw == nil || smooth == nil || len(smooth.V) < 3 {
		t.Fatalf("series %v, %v", raw, smooth)
	}
	for i, want := range []float64{0.39, 0.09, 0.09} {
		if math.Abs(raw.V[i]-want) > 1e-12 {
			t.Errorf("tick %d: observed θ %v, want %v", i+1, raw.V[i], want)
		}
	}
	for i, want := range []float64{0.39, 0.33, 0.282} {
		if math.Abs(smooth.V[i]-want) > 1e-12 {
			t.Errorf("tick %d: smoothed θ %v, want %v", i+1, smooth.V[i], want)
		}
	}
}
