package sjfbco

import (
	"reflect"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

// Hand-computed checks of SJF-BCO's rules (spec 004 §2): the expected
// servers and GPUs are worked out in the comments.

// LBSGF sorts servers by their average accumulated time per GPU,
// Σ_g U_g / O_s: a 4-GPU server with U = 10 on every GPU (average 10,
// total 40) is busier than a 16-GPU one with U = 5 (average 5, total 80),
// so a 4-GPU job goes to the 16-GPU server.
func TestLBSGFSortsByAverageLoad(t *testing.T) {
	c := mustCluster(t, 4, 16)
	u := make([]float64, len(c.GPUs))
	for g := range u {
		u[g] = 5
		if c.GPUs[g].Server == 0 {
			u[g] = 10
		}
	}
	v := view{c: c, servers: 2, u: u, theta: 100, idle: func(cluster.GPUID) bool { return true }}
	if got := perf.Servers(c, v.lbsgf(4, 1, 1, false, false)); !reflect.DeepEqual(got, []cluster.ServerID{1}) {
		t.Errorf("servers %v, want the 16-GPU server (average 5 < 10)", got)
	}
}

// LBSGF's candidates are the shortest prefix of servers whose capacity
// reaches λ·G. Three idle-load servers of 4, 4 and 8 GPUs (all U = 0, so
// in index order), two of server 0's GPUs busy: a 4-GPU job with λ = 1
// looks at server 0 alone (4 ≥ 4), finds 2 idle GPUs and waits; with
// λ = 2 the prefix is servers 0 and 1 (8 ≥ 8) and it takes server 0's two
// idle GPUs and server 1's first two.
func TestLBSGFPrefixByHand(t *testing.T) {
	c := mustCluster(t, 4, 4, 8)
	busy := map[cluster.GPUID]bool{0: true, 1: true}
	v := view{c: c, servers: 3, u: make([]float64, len(c.GPUs)), theta: 100, idle: func(g cluster.GPUID) bool { return !busy[g] }}
	if got := v.lbsgf(4, 1, 1, false, false); got != nil {
		t.Errorf("λ = 1: %v, want none (server 0 alone has 2 idle GPUs)", got)
	}
	if got, want := v.lbsgf(4, 1, 2, false, false), []cluster.GPUID{2, 3, 4, 5}; !slices.Equal(got, want) {
		t.Errorf("λ = 2: %v, want %v", got, want)
	}
}

// A job adds ρ̂/u to each of its GPUs' U: 100 slots with u = 2 is 50, and
// a GPU at U = 60 under θ = 100 can take it (110 would not fit with ρ̂·u).
func TestLoadIsEstimateOverU(t *testing.T) {
	r := rule{u: 2}
	j := &workload.Job{GPUs: 1, DurationS: 100}
	if got := r.load(j); got != 50 {
		t.Errorf("load %v, want 100/2 = 50", got)
	}
	c := mustCluster(t, 1)
	v := view{c: c, servers: 1, u: []float64{40}, idle: func(cluster.GPUID) bool { return true }}
	r.theta, r.kind, r.kappa = 100, "sjf-bco", 1
	if got, alg := r.place(&v, j, nil); len(got) != 1 || alg != ruleFAFFP {
		t.Errorf("U 40 + 50 ≤ 100: placed %v by %s, want GPU 0 by FA-FFP", got, alg)
	}
}

// A job of exactly κ GPUs is small (FA-FFP), one more is large (LBSGF).
func TestKappaSplitsAtTheJobSize(t *testing.T) {
	c := mustCluster(t, 8)
	v := view{c: c, servers: 1, u: make([]float64, 8), idle: func(cluster.GPUID) bool { return true }}
	r := rule{kind: "sjf-bco", kappa: 4, lambda: 1, u: 1, theta: 100}
	for _, c := range []struct {
		gpus int
		want string
	}{{3, ruleFAFFP}, {4, ruleFAFFP}, {5, ruleLBSGF}} {
		if _, alg := r.place(&v, &workload.Job{GPUs: c.gpus, DurationS: 10}, nil); alg != c.want {
			t.Errorf("%d GPUs with κ = 4: %s, want %s", c.gpus, alg, c.want)
		}
	}
}

// Algorithm 1's order: GPUs non-decreasing, ties by index.
func TestSJFOrderByHand(t *testing.T) {
	jobs := []workload.Job{{GPUs: 4}, {GPUs: 1}, {GPUs: 2}, {GPUs: 1}, {GPUs: 32}, {GPUs: 2}}
	if got, want := sjfOrder(jobs), []workload.JobID{1, 3, 2, 5, 0, 4}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
	// Largest first: GPUs non-increasing, ties by index; SJF-BCO takes it
	// only when asked, the baselines keep the input order by default.
	if got, want := jobOrder(jobs, "sjf-bco", "largest"), []workload.JobID{4, 0, 2, 5, 1, 3}; !slices.Equal(got, want) {
		t.Errorf("largest first %v, want %v", got, want)
	}
	if got, want := jobOrder(jobs, "sjf-bco", "input"), []workload.JobID{1, 3, 2, 5, 0, 4}; !slices.Equal(got, want) {
		t.Errorf("SJF-BCO by default %v, want %v", got, want)
	}
	if got, want := jobOrder(jobs, "ff", "input"), []workload.JobID{0, 1, 2, 3, 4, 5}; !slices.Equal(got, want) {
		t.Errorf("FF by default %v, want %v", got, want)
	}
}

// Among κ values with the same makespan the first is kept (the literal
// loop's strict improvement): on one 4-GPU server, two 2-GPU jobs land
// the same way whether FA-FFP (κ = 2) or LBSGF (κ = 1) places them, so
// both trials take as long and κ = 1 is reported. Neither job is split:
// the longer runs ⌊1/τ0⌋ = ⌊4000/150⌋ = 26 iterations per slot (floor
// progress) and ends at 4000/26 slots.
func TestKappaTieKeepsTheFirst(t *testing.T) {
	c := mustCluster(t, 4)
	jobs := []workload.Job{{ID: 0, GPUs: 2, DurationS: 100, Iterations: 4000}, {ID: 1, GPUs: 2, DurationS: 150, Iterations: 4000}}
	m := model("mild")
	if err := m.Prepare(c, jobs); err != nil {
		t.Fatal(err)
	}
	p := planner{t: newTrial(c, 1, jobs, m), order: sjfOrder(jobs), horizon: 1200, literal: true}
	r := rule{kind: "sjf-bco", lambda: 1, u: 1}
	trials := 0
	mk, k := p.best(r, []int{1, 2}, 1200, &trials)
	if k != 1 || trials != 2 || mk != 4000.0/26 {
		t.Errorf("makespan %v at κ = %d after %d trials; want 4000/26 at κ = 1 after 2", mk, k, trials)
	}
}
