package sjfbco

import (
	"math"
	"testing"

	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

// Theorem 5's terms worked out by hand for a tiny cluster and three jobs.
//
// Model: β = 0.2, α = 0.5 (f(k) = k + 0.5(k−1)), ξ1 = ξ2 = 0.5, R = 10.
// Servers of 4, 2 and 2 GPUs: 3 servers, 8 GPUs, at most 4 on one.
// Jobs (G, F, ρ̂): A (4, 100, 50), B (2, 160, 40), C (1, 60, 30).
//
// A: τ0 = 0.5, E = β·τ0 = 0.1, overhead ξ2·E = 0.05, compute
// c = 0.5 − E/R − 0.05 = 0.44. Fastest: one server, 0.5 (two servers with
// k = 1 would take 0.44 + 0.1 + 0 + 2·0.05 = 0.64). Slowest: 3 servers
// (min(G, 3)), p = 4 (a full 4-GPU server of rings), k = 2, f = 2.5:
// 0.44 + 0.1 + 0.1·1.5 + 3·0.05 = 0.84, so φ_A = 0.84/0.5 = 1.68.
// B: τ0 = 0.25, E = 0.05, overhead 0.025, c = 0.22; slowest on 2 servers:
// 0.22 + 0.05 + 0.075 + 2·0.025 = 0.395, φ_B = 1.58. C: one GPU, φ_C = 1.
// φ = 1.68 in exact progress; in floor progress (whole iterations per
// slot) A does ⌊1/0.5⌋ = 2 against ⌊1/0.84⌋ = 1, so φ = 2.
// n_g = 4. Lower bound: longest ρ̂ = 50 against GPU-work 4·50 + 2·40 +
// 1·30 = 310 over 8 GPUs = 38.75, so 50.
// Run times 60, 40, 30: l = min(50/60, 40/40, 30/30) = 5/6. With u = 1.5
// the bound is 4 · 1.68 · 1.5 / (5/6) = 12.096 (exact), 4·2·1.8 = 14.4
// (floor).
func TestTheorem5ByHand(t *testing.T) {
	jobs := []workload.Job{
		{Name: "A", GPUs: 4, Iterations: 100, DurationS: 50},
		{Name: "B", GPUs: 2, Iterations: 160, DurationS: 40},
		{Name: "C", GPUs: 1, Iterations: 60, DurationS: 30},
	}
	runS := []float64{60, 40, 30}
	for _, tc := range []struct {
		progress   string
		phi, bound float64
	}{{"exact", 1.68, 12.096}, {"floor", 2, 14.4}} {
		m := handModel(tc.progress)
		got := theorem5Terms(m, jobs, runS, 3, 8, 4, 1.5)
		if got.NG != 4 || !near(got.Phi, tc.phi) || !near(got.L, 5.0/6) || got.U != 1.5 || !near(got.Lower, 50) || !near(got.Bound(), tc.bound) {
			t.Errorf("%s: got %+v, bound %v; want n_g 4, φ %v, l 5/6, u 1.5, lower bound 50, bound %v", tc.progress, got, got.Bound(), tc.phi, tc.bound)
		}
	}

	// A fourth job D (4, 120, 60) makes the GPU-work term the larger:
	// 310 + 4·60 = 550 over 8 GPUs = 68.75 > the longest ρ̂, 60. It ran
	// 75, so l = min(5/6, 60/75 = 0.8) = 0.8: bound 4·1.68·1.5/0.8 = 12.6.
	jobs = append(jobs, workload.Job{Name: "D", GPUs: 4, Iterations: 120, DurationS: 60})
	got := theorem5Terms(handModel("exact"), jobs, append(runS, 75), 3, 8, 4, 1.5)
	if !near(got.Lower, 68.75) || !near(got.L, 0.8) || !near(got.Bound(), 12.6) {
		t.Errorf("with D: got %+v, bound %v; want lower bound 68.75, l 0.8, bound 12.6", got, got.Bound())
	}
}

func handModel(progress string) *perf.RAR {
	return perf.NewRAR(perf.RARParams{Preset: "custom", Beta: 0.2, Alpha: 0.5, Xi1: 0.5, Xi2: 0.5, R: 10, Shape: "linear", Progress: progress})
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// A run records what the metrics read: Theorem 5's bound from the hand
// values above (φ = 1.68, n_g = 4, u = 1 here) and l from the run's own
// run times, and the makespan over the lower bound of 50; the share of
// the bound is their quotient and stays at most 1. The baselines record
// neither.
func TestTheorem5Recorded(t *testing.T) {
	c := mustCluster(t, 4, 2, 2)
	jobs := []workload.Job{
		{Name: "A", GPUs: 4, Iterations: 100, DurationS: 50},
		{Name: "B", GPUs: 2, Iterations: 160, DurationS: 40},
		{Name: "C", GPUs: 1, Iterations: 60, DurationS: 30},
	}
	p := *DefaultParams()
	p.Horizon = 1000
	res := runPolicy(t, c, handModel("exact"), append([]workload.Job(nil), jobs...), New("sjf-bco", p), 1)
	l := 1.0
	for _, r := range res.Jobs {
		l = min(l, jobs[r.Job].DurationS/r.RunS)
	}
	last := func(name string) float64 {
		s := res.FindSeries(name, -1)
		if s == nil || len(s.V) == 0 {
			t.Fatalf("no series %s", name)
		}
		return s.V[len(s.V)-1]
	}
	if b, want := last(seriesTheorem5), 4*1.68/l; !near(b, want) {
		t.Errorf("bound %v, want 4 × 1.68 × 1 / %v = %v", b, l, want)
	}
	if r, want := last(seriesOverLower), makespan(res)/50; !near(r, want) || !(r >= 1) {
		t.Errorf("makespan over lower bound %v, want %v / 50 = %v", r, makespan(res), want)
	}
	if last(seriesOverLower) > last(seriesTheorem5) {
		t.Errorf("the bound fails: %v > %v", last(seriesOverLower), last(seriesTheorem5))
	}
	res = runPolicy(t, c, handModel("exact"), append([]workload.Job(nil), jobs...), New("ff", p), 1)
	if res.FindSeries(seriesTheorem5, -1) != nil || res.FindSeries(seriesOverLower, -1) != nil {
		t.Errorf("FF records Theorem 5's series")
	}
}
