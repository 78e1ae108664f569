package sjfbco

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/metrics"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy/policytest"
	"github.com/schedlab/schedlab/sim/workload"
)

// paperCaps are 20 server capacities drawn from {4, 8, 16, 32}, as the
// scenarios use.
var paperCaps = []int{4, 4, 16, 8, 16, 32, 32, 4, 16, 32, 16, 8, 16, 32, 16, 8, 32, 32, 16, 32}

// mustCluster is one server of V100s per capacity.
func mustCluster(t testing.TB, caps ...int) *cluster.Cluster {
	t.Helper()
	var groups []cluster.ServerGroup
	for _, c := range caps {
		groups = append(groups, cluster.ServerGroup{Count: 1, GPUs: c, GPUType: "V100"})
	}
	return policytest.Cluster(t, cluster.Spec{Servers: groups})
}

// batch is the paper's 160-job batch for a seed.
func batch(t testing.TB, seed uint64) []workload.Job {
	t.Helper()
	k, _ := workload.LookupGenerator("sjf-bco")
	g, err := k.New(k.NewParams())
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := g.Generate(seed)
	if err != nil {
		t.Fatal(err)
	}
	return jobs
}

func model(preset string) *perf.RAR {
	p := perf.DefaultRARParams()
	p.Preset = preset
	return perf.NewRAR(*p)
}

func runPolicy(t testing.TB, c *cluster.Cluster, m perf.Model, jobs []workload.Job, p engine.Policy, seed uint64) *engine.Result {
	t.Helper()
	return policytest.Run(t, c, m, p, jobs, policytest.Seed(seed)).Result
}

func makespan(res *engine.Result) float64 {
	m := 0.0
	for _, r := range res.Jobs {
		m = max(m, r.FinishS)
	}
	return m
}

// The engine replays the plan: its makespan is the chosen trial's to the
// last bit, every job starts once on all its GPUs and never moves (gang,
// non-preemptive), and every GPU's assigned load stays within θ̃_u (spec
// 004 §6 tests 6, 7 and 9).
func TestEngineReplaysThePlan(t *testing.T) {
	c := mustCluster(t, paperCaps...)
	for _, preset := range []string{"contended", "mild"} {
		for _, kind := range []string{"sjf-bco", "ff", "ls"} {
			jobs := batch(t, 3)
			p := New(kind, *DefaultParams())
			res := runPolicy(t, c, model(preset), jobs, p, 1)
			if got := makespan(res); got != p.pl.makespan || !p.pl.feasible {
				t.Errorf("%s/%s: engine makespan %v, plan %v (feasible %v)", preset, kind, got, p.pl.makespan, p.pl.feasible)
			}
			for _, r := range res.Jobs {
				if r.Starts != 1 || r.Preemptions != 0 || r.Migrations != 0 || r.Status != engine.Finished {
					t.Fatalf("%s/%s: job %s started %d times, %d preemptions, %d migrations, %v", preset, kind, r.Name, r.Starts, r.Preemptions, r.Migrations, r.Status)
				}
			}
			for g, u := range p.u {
				if u > p.pl.rule.theta {
					t.Fatalf("%s/%s: GPU %d has U = %v above θ̃ = %v", preset, kind, g, u, p.pl.rule.theta)
				}
			}
		}
	}
}

// The bisection moves left exactly when a θ improves on every earlier
// one, the improvements strictly decrease, θ̃ is the last improving θ
// and the interval halves each step (spec 004 §2.2).
func TestBisectionMonotone(t *testing.T) {
	c := mustCluster(t, paperCaps...)
	jobs := batch(t, 5)
	m := model("contended")
	if err := m.Prepare(c, jobs); err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"sjf-bco", "ls", "ff"} {
		pl := planFor(c, len(c.Servers), jobs, jobOrder(jobs, kind, "input"), m, kind, *DefaultParams())
		best, lo, hi := 1200.0, 1.0, 1200.0
		var last step
		for i, s := range pl.steps {
			if s.theta < lo || s.theta > hi || s.theta != math.Floor((lo+hi)/2) {
				t.Fatalf("%s: step %d θ = %v outside [%v, %v] or not its midpoint", kind, i, s.theta, lo, hi)
			}
			if s.improved != (s.makespan < best) {
				t.Fatalf("%s: step %d improved=%v with makespan %v against best %v", kind, i, s.improved, s.makespan, best)
			}
			if s.improved {
				best, hi, last = s.makespan, s.theta-1, s
			} else {
				lo = s.theta + 1
			}
		}
		if len(pl.steps) > 11 {
			t.Errorf("%s: %d bisection steps for T = 1200, want at most ⌈log2 1200⌉ + 1 = 11", kind, len(pl.steps))
		}
		if pl.rule.theta != last.theta || pl.makespan != best || pl.rule.kappa != last.kappa {
			t.Errorf("%s: plan θ=%v κ=%d m=%v, last improvement θ=%v κ=%d m=%v", kind, pl.rule.theta, pl.rule.kappa, pl.makespan, last.theta, last.kappa, best)
		}
	}
}

// Spec 004 §6 test 8: a cap below the average load makes every trial
// infeasible; the policy then runs without the cap and says so.
func TestInfeasibleBelowAverageLoad(t *testing.T) {
	c := mustCluster(t, paperCaps...)
	jobs := batch(t, 1)
	m := model("contended")
	if err := m.Prepare(c, jobs); err != nil {
		t.Fatal(err)
	}
	work, n := 0.0, float64(len(c.GPUs))
	for _, j := range jobs {
		work += float64(j.GPUs) * j.DurationS
	}
	tr := newTrial(c, len(c.Servers), jobs, m)
	for _, k := range []int{1, 4, 32} {
		r := rule{kind: "sjf-bco", kappa: k, lambda: 1, u: 1, theta: math.Floor(work/n) - 1}
		if res := tr.run(&r, sjfOrder(jobs), 1200, true, false, nil); res.feasible {
			t.Errorf("κ=%d: θ below Σ G·ρ̂ / N is feasible", k)
		}
	}
	// A horizon no schedule meets: no plan, the engine still runs all.
	p := DefaultParams()
	p.Horizon = math.Floor(work/n) - 1
	pol := New("sjf-bco", *p)
	res := runPolicy(t, c, m, batch(t, 1), pol, 1)
	if pol.pl.feasible || !strings.Contains(res.Log[0].Msg(), "no θ_u ≤ T") {
		t.Errorf("feasible %v, log %q", pol.pl.feasible, res.Log[0].Msg())
	}
	if got := makespan(res); got != pol.pl.makespan {
		t.Errorf("uncapped: engine %v, plan %v", got, pol.pl.makespan)
	}
}

// Spec 004 §6 test 10: κ at the distinct sizes and κ = 1..32 give the
// same makespan and κ.
func TestKappaDedupe(t *testing.T) {
	c := mustCluster(t, paperCaps...)
	jobs := batch(t, 2)
	m := model("contended")
	if err := m.Prepare(c, jobs); err != nil {
		t.Fatal(err)
	}
	p := DefaultParams()
	a := planFor(c, len(c.Servers), jobs, sjfOrder(jobs), m, "sjf-bco", *p)
	p.KappaLoop = "literal"
	b := planFor(c, len(c.Servers), jobs, sjfOrder(jobs), m, "sjf-bco", *p)
	if a.makespan != b.makespan || a.rule.kappa != b.rule.kappa || a.rule.theta != b.rule.theta {
		t.Errorf("distinct: m=%v κ=%d θ=%v; literal: m=%v κ=%d θ=%v", a.makespan, a.rule.kappa, a.rule.theta, b.makespan, b.rule.kappa, b.rule.theta)
	}
	if b.trials <= a.trials {
		t.Errorf("literal loop ran %d trials, distinct %d", b.trials, a.trials)
	}
}

// Spec 004 §6 test 11: LS in SJF order is SJF-BCO's trial at κ = n_g.
func TestLSIsSJFBCOAtLargestKappa(t *testing.T) {
	c := mustCluster(t, paperCaps...)
	jobs := batch(t, 4)
	m := model("contended")
	if err := m.Prepare(c, jobs); err != nil {
		t.Fatal(err)
	}
	tr := newTrial(c, len(c.Servers), jobs, m)
	for _, theta := range []float64{600, 900, 1200} {
		a := tr.run(&rule{kind: "sjf-bco", kappa: 32, lambda: 1, u: 1, theta: theta}, sjfOrder(jobs), 1200, false, true, nil)
		b := tr.run(&rule{kind: "ls", lambda: 1, u: 1, theta: theta}, sjfOrder(jobs), 1200, false, true, nil)
		if a.makespan != b.makespan || len(a.starts) != len(b.starts) {
			t.Fatalf("θ=%v: SJF-BCO κ=32 %v, LS %v", theta, a.makespan, b.makespan)
		}
		for i := range a.starts {
			if a.starts[i].t != b.starts[i].t || !reflect.DeepEqual(a.starts[i].gpus, b.starts[i].gpus) {
				t.Fatalf("θ=%v: start %d differs", theta, i)
			}
		}
	}
}

// Spec 004 §6 test 5: LBSGF on caps [4, 8, 16, 32] with U = 0.
func TestLBSGFSelection(t *testing.T) {
	c := mustCluster(t, 4, 8, 16, 32)
	v := view{c: c, servers: 4, u: make([]float64, len(c.GPUs)), theta: 100, idle: func(cluster.GPUID) bool { return true }}
	got := perf.Servers(c, v.lbsgf(8, 1, 1, false, false))
	if !reflect.DeepEqual(got, []cluster.ServerID{0, 1}) {
		t.Errorf("λ=1: servers %v, want s1 and s2", got)
	}
	if g := v.lbsgf(8, 1, 1, false, false); c.GPUs[g[3]].Server != 0 || c.GPUs[g[4]].Server != 1 {
		t.Errorf("λ=1: want 4 GPUs on s1, then s2: %v", g)
	}
	// λ = 8: the prefix must reach 64 GPUs; all four servers (60) are
	// candidates, still least busy first, so the job takes s1 then s2.
	v.u[0] = 50 // s1's average U is now 12.5: it goes last
	got = perf.Servers(c, v.lbsgf(8, 1, 8, false, false))
	if !reflect.DeepEqual(got, []cluster.ServerID{1}) {
		t.Errorf("λ=8 with s1 busy: servers %v, want s2 alone", got)
	}
	// The cap: a GPU with U + ρ̂/u > θ is never chosen.
	v.u[0] = 0
	for g := range 4 {
		v.u[g] = 99.5
	}
	if g := v.lbsgf(8, 1, 1, false, false); g != nil && c.GPUs[g[0]].Server == 0 {
		t.Errorf("a GPU over the cap was chosen: %v", g)
	}
}

// Spec 004 §6 test 12: the same seed gives the same runs, RAND included.
func TestDeterministic(t *testing.T) {
	c := mustCluster(t, paperCaps...)
	for _, kind := range []string{"sjf-bco", "rand"} {
		a := runPolicy(t, c, model("contended"), batch(t, 6), New(kind, *DefaultParams()), 9)
		b := runPolicy(t, c, model("contended"), batch(t, 6), New(kind, *DefaultParams()), 9)
		if !reflect.DeepEqual(a.Jobs, b.Jobs) || !reflect.DeepEqual(a.Log, b.Log) {
			t.Errorf("%s: two runs of one seed differ", kind)
		}
		if kind == "rand" {
			d := runPolicy(t, c, model("contended"), batch(t, 6), New(kind, *DefaultParams()), 10)
			if reflect.DeepEqual(a.Jobs, d.Jobs) {
				t.Errorf("rand: seeds 9 and 10 place alike")
			}
		}
	}
}

// Spec 004 §6 test 7 on a small case: max_servers keeps every job on the
// first servers, and the engine's invariants hold throughout.
func TestMaxServers(t *testing.T) {
	c := mustCluster(t, paperCaps...)
	p := DefaultParams()
	p.MaxServers, p.Horizon = 10, 1500
	for _, kind := range []string{"sjf-bco", "ff", "ls", "rand"} {
		pol := New(kind, *p)
		res := runPolicy(t, c, model("contended"), batch(t, 1), pol, 1)
		last := c.Servers[9].FirstGPU + cluster.GPUID(c.Servers[9].NumGPUs)
		for _, iv := range res.Intervals {
			if iv.GPU >= last {
				t.Fatalf("%s: job %d ran on GPU %d beyond the first 10 servers", kind, iv.Job, iv.GPU)
			}
		}
	}
}

// Each job record carries the servers it ran on and its mean iteration
// split; the parts add up to its run time over its iterations, a job on
// one server has no inter-server or contention part, and a model without
// splits leaves both empty.
func TestJobRecordsSplitIterations(t *testing.T) {
	c := mustCluster(t, paperCaps...)
	for _, progress := range []string{"floor", "exact"} {
		p := perf.DefaultRARParams()
		p.Progress = progress
		res := runPolicy(t, c, perf.NewRAR(*p), batch(t, 2), New("ls", *DefaultParams()), 1)
		split := 0
		for i, r := range res.Jobs {
			x := res.Splits[i]
			if x.Split == nil || len(x.Servers) == 0 {
				t.Fatalf("%s: job %s has no split or servers", progress, r.Name)
			}
			if got := x.Split.Total() * r.Iterations; math.Abs(got-r.RunS) > 1e-9*r.RunS {
				t.Fatalf("%s: job %s: mean iteration × iterations = %v, run time %v", progress, r.Name, got, r.RunS)
			}
			if len(x.Servers) == 1 && (x.Split.Inter != 0 || x.Split.Contention != 0) {
				t.Fatalf("%s: job %s on one server has inter-server parts %+v", progress, r.Name, *x.Split)
			}
			if len(x.Servers) > 1 {
				split++
				if x.Split.Inter == 0 || x.Split.Intra != 0 {
					t.Fatalf("%s: split job %s: %+v", progress, r.Name, *x.Split)
				}
			}
			if progress == "exact" && x.Split.Rounding != 0 {
				t.Fatalf("exact progress rounds: %+v", *x.Split)
			}
		}
		if split == 0 {
			t.Errorf("%s: LS split no job over servers", progress)
		}
	}
	jobs := batch(t, 2)
	res := runPolicy(t, c, perf.NewConstant(perf.ConstantParams{}), jobs, New("ls", *DefaultParams()), 1)
	if res.Splits != nil {
		t.Errorf("constant model: splits %v", res.Splits)
	}
}

// Spec 004 §3 on display: the lower bound, the achieved makespan and
// Lemma 3's bound n_g·max U come in that order, Theorem 5's ratio is
// logged, and the per-server split-job counts end at zero.
func TestTheoryAndSeries(t *testing.T) {
	c := mustCluster(t, paperCaps...)
	pol := New("sjf-bco", *DefaultParams())
	res := runPolicy(t, c, model("contended"), batch(t, 3), pol, 1)
	one := func(name string) float64 {
		s := res.FindSeries(name, -1)
		if s == nil || len(s.V) != 1 {
			t.Fatalf("series %s: %v", name, s)
		}
		return s.V[0]
	}
	lower, lemma3, m := one("sjfbco/lower_bound"), one("sjfbco/lemma3_bound"), makespan(res)
	if !(lower <= m && m <= lemma3) {
		t.Errorf("lower bound %v, makespan %v, Lemma 3 bound %v", lower, m, lemma3)
	}
	if one("sjfbco/feasible") != 1 || one("sjfbco/trials") != float64(pol.pl.trials) || pol.pl.trials != 66 {
		t.Errorf("feasible %v, trials %v (plan %d, want 6 κ × 11 θ)", one("sjfbco/feasible"), one("sjfbco/trials"), pol.pl.trials)
	}
	if r := one("sjfbco/theorem5_ratio"); !(r >= 32) {
		t.Errorf("Theorem 5 ratio %v below n_g = 32", r)
	}
	if !strings.Contains(res.Log[len(res.Log)-1].Msg(), "Theorem 5") {
		t.Errorf("last log entry: %q", res.Log[len(res.Log)-1].Msg())
	}
	for i := range c.Servers {
		name := "sjfbco/split_jobs/server" + string(rune('0'+i/10)) + string(rune('0'+i%10))
		if s := res.FindSeries(name, -1); s != nil && s.V[len(s.V)-1] != 0 {
			t.Errorf("%s ends at %v", name, s.V[len(s.V)-1])
		}
	}
}

// The realized extra share (spec 004 §4.3) is 0 when every job runs at
// τ0 exactly, and grows with the contended preset's stronger penalty.
func TestExtraShare(t *testing.T) {
	c := mustCluster(t, paperCaps...)
	exact := func(preset string) float64 {
		p := perf.DefaultRARParams()
		p.Preset, p.Progress = preset, "exact"
		jobs := batch(t, 3)
		res := runPolicy(t, c, perf.NewRAR(*p), jobs, New("ls", *DefaultParams()), 1)
		return ExtraShare(metrics.Context{Selected: res.Jobs, Result: res, Jobs: jobs})
	}
	mild, contended := exact("mild"), exact("contended")
	if !(mild > 0 && contended > mild) {
		t.Errorf("extra share: mild %v, contended %v", mild, contended)
	}
	jobs := batch(t, 3)
	res := runPolicy(t, c, perf.NewConstant(perf.ConstantParams{}), jobs, New("ls", *DefaultParams()), 1)
	if got := ExtraShare(metrics.Context{Selected: res.Jobs, Jobs: jobs}); math.Abs(got) > 1e-12 {
		t.Errorf("constant model: extra share %v, want 0", got)
	}
}

// leastU keeps the n smallest U in one pass; it must equal the stable
// sort by U of the eligible GPUs (ties by index), on random loads with
// many ties.
func TestLeastUIsTheStableSortPrefix(t *testing.T) {
	c := mustCluster(t, paperCaps...)
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		u := make([]float64, len(c.GPUs))
		idle := make([]bool, len(c.GPUs))
		for g := range u {
			u[g] = float64(r.IntN(5)) * 50
			idle[g] = r.IntN(3) > 0
		}
		v := view{c: c, servers: len(c.Servers), u: u, theta: 150, idle: func(g cluster.GPUID) bool { return idle[g] }}
		n := []int{1, 2, 4, 8, 16, 32}[trial%6]
		var want []cluster.GPUID
		for g := range cluster.GPUID(len(u)) {
			if v.eligible(g, 40) {
				want = append(want, g)
			}
		}
		slices.SortStableFunc(want, func(a, b cluster.GPUID) int { return cmpF(u[a], u[b]) })
		if len(want) < n {
			want = nil
		} else {
			want = want[:n]
		}
		if got := v.leastU(n, 40); !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d, n=%d: got %v, want %v", trial, n, got, want)
		}
	}
}

// Spec 004 §6 test 5's variants and FA-FFP's best fit (§2.3, §2.4).
func TestPlacementVariants(t *testing.T) {
	c := mustCluster(t, 4, 8, 16, 32)
	fresh := func() *view {
		return &view{c: c, servers: 4, u: make([]float64, len(c.GPUs)), theta: 100, idle: func(cluster.GPUID) bool { return true }}
	}
	v := fresh()
	if got := perf.Servers(c, v.lbsgf(8, 1, 1, true, false)); !reflect.DeepEqual(got, []cluster.ServerID{3}) {
		t.Errorf("capacity tie: servers %v, want s4 alone", got)
	}
	// list against least_u: on servers of 4 and 8 GPUs, s1 (U 3, 3, 0, 0;
	// average 1.5) comes before s2 (all 2). A 6-GPU job takes all of s1
	// then two of s2 from the list, but only s1's two unloaded GPUs and
	// four of s2 by least U.
	c2 := mustCluster(t, 4, 8)
	w := &view{c: c2, servers: 2, u: []float64{3, 3, 0, 0, 2, 2, 2, 2, 2, 2, 2, 2}, theta: 100, idle: func(cluster.GPUID) bool { return true }}
	onS1 := func(gpus []cluster.GPUID) (n int) {
		for _, g := range gpus {
			if c2.GPUs[g].Server == 0 {
				n++
			}
		}
		return n
	}
	if got := onS1(w.lbsgf(6, 1, 1, false, false)); got != 4 {
		t.Errorf("list pick: %d GPUs on s1, want 4", got)
	}
	if got := onS1(w.lbsgf(6, 1, 1, false, true)); got != 2 {
		t.Errorf("least_u pick: %d GPUs on s1, want 2", got)
	}
	v = fresh()
	for _, bf := range []struct {
		n    int
		want []cluster.ServerID
	}{{4, []cluster.ServerID{0}}, {8, []cluster.ServerID{1}}, {10, []cluster.ServerID{2}}, {40, []cluster.ServerID{2, 3}}} {
		if got := perf.Servers(c, v.bestFit(bf.n, 1)); !reflect.DeepEqual(got, bf.want) {
			t.Errorf("best fit of %d GPUs: servers %v, want %v", bf.n, got, bf.want)
		}
	}
	p := DefaultParams()
	p.LambdaByGPUs = []SizeLambda{{GPUs: 8, Lambda: 8}}
	r := p.baseRule("sjf-bco")
	if r.lambdaFor(&workload.Job{GPUs: 8}) != 8 || r.lambdaFor(&workload.Job{GPUs: 4}) != 1 {
		t.Errorf("λ_j: %v", r.lambdaOf)
	}
	p.LambdaByGPUs = append(p.LambdaByGPUs, SizeLambda{GPUs: 8, Lambda: 2})
	if ps := p.Check(); len(ps) != 1 || ps[0].Path != "lambda_by_gpus[1].gpus" {
		t.Errorf("duplicate size: %v", ps)
	}
}

// The feasibility variant of the bisection moves left exactly when the
// best trial at θ finishes by T, and its plan is the last such θ.
func TestBisectionFeasibilityVariant(t *testing.T) {
	c := mustCluster(t, paperCaps...)
	jobs := batch(t, 5)
	m := model("contended")
	if err := m.Prepare(c, jobs); err != nil {
		t.Fatal(err)
	}
	p := DefaultParams()
	p.Bisection = "feasibility"
	pl := planFor(c, len(c.Servers), jobs, sjfOrder(jobs), m, "sjf-bco", *p)
	lo, hi := 1.0, 1200.0
	for _, s := range pl.steps {
		if s.theta != math.Floor((lo+hi)/2) {
			t.Fatalf("θ %v is not the midpoint of [%v, %v]", s.theta, lo, hi)
		}
		if s.makespan < 1200 {
			hi = s.theta - 1
		} else {
			lo = s.theta + 1
		}
	}
	if !pl.feasible || pl.makespan >= 1200 {
		t.Errorf("plan %+v", pl)
	}
}

// Bad inputs end in a clear error or a logged exclusion, never a hang: a
// job larger than the cluster is left out (the engine reports it), a job
// larger than the servers in use is an error, and so is an arrival after
// time 0 (the algorithms plan an offline batch).
func TestBadBatches(t *testing.T) {
	c := mustCluster(t, 4, 8, 16, 32)
	small := func(n int) []workload.Job {
		var jobs []workload.Job
		for i := range n {
			jobs = append(jobs, workload.Job{ID: workload.JobID(i), Name: string(rune('a' + i)), GPUs: 1 << (i % 4), DurationS: 50 + float64(i), Iterations: 2000})
		}
		return jobs
	}
	jobs := append(small(6), workload.Job{ID: 6, Name: "huge", GPUs: 64, DurationS: 100, Iterations: 4000})
	pol := New("sjf-bco", *DefaultParams())
	res := runPolicy(t, c, model("contended"), jobs, pol, 1)
	if res.Jobs[6].Status != engine.Unschedulable || res.Jobs[5].Status != engine.Finished {
		t.Errorf("statuses %v, %v", res.Jobs[6].Status, res.Jobs[5].Status)
	}
	run := func(jobs []workload.Job, p *Params) error {
		m := model("contended")
		if err := m.Prepare(c, jobs); err != nil {
			t.Fatal(err)
		}
		_, err := engine.Run(context.Background(), engine.Config{Cluster: c, Jobs: jobs, Perf: m, Policy: New("ls", *p), Seed: 1})
		return err
	}
	p := DefaultParams()
	p.MaxServers = 2 // 12 GPUs: the 16- and 32-GPU jobs cannot fit
	if err := run(append(small(4), workload.Job{ID: 4, Name: "big", GPUs: 16, DurationS: 100, Iterations: 4000}), p); err == nil || !strings.Contains(err.Error(), "does not fit the 2 servers in use") {
		t.Errorf("job over the servers in use: %v", err)
	}
	late := small(3)
	late[2].ArrivalS = 10
	if err := run(late, DefaultParams()); err == nil || !strings.Contains(err.Error(), "offline batch") {
		t.Errorf("late arrival: %v", err)
	}
}

// FF's teaching spread puts four 4-GPU jobs on 4 servers × 4 GPUs one
// worker per server each, so every ring meets the other three (p = 4).
func TestSpread(t *testing.T) {
	c := mustCluster(t, 4, 4, 4, 4)
	var jobs []workload.Job
	for i := range 4 {
		jobs = append(jobs, workload.Job{ID: workload.JobID(i), Name: string(rune('a' + i)), GPUs: 4, DurationS: 295, Iterations: 10000})
	}
	m := perf.DefaultRARParams()
	m.Progress = "exact"
	p := DefaultParams()
	p.Spread = true
	res := runPolicy(t, c, perf.NewRAR(*m), jobs, New("ff", *p), 1)
	for i, sp := range res.Splits {
		if len(sp.Servers) != 4 || sp.Split.Contention == 0 {
			t.Errorf("job %d: servers %v, split %+v", i, sp.Servers, *sp.Split)
		}
	}
	packed := runPolicy(t, c, perf.NewRAR(*m), jobs, New("ff", *DefaultParams()), 1)
	if !(makespan(packed) < makespan(res)) || math.Abs(makespan(packed)-295) > 1e-9 {
		t.Errorf("packed %v, spread %v", makespan(packed), makespan(res))
	}
}

// RAND takes θ = T without a trial. On a batch whose load no schedule
// keeps within T (the Philly log, 430 days of work per GPU against
// T = 1200 slots), the paper's trial is infeasible as soon as the head
// job fits under the cap nowhere and nothing runs: from then on RAND
// starts jobs without the cap, as the other policies do when no θ ≤ T is
// feasible. Lifting the cap for that one job only ran the rest of the
// batch one job at a time (the Philly log stopped at the engine's limit
// of ten simulated years).
func TestRandDropsAnInfeasibleCap(t *testing.T) {
	c := mustCluster(t, 2)
	var jobs []workload.Job
	for i := range 6 {
		jobs = append(jobs, workload.Job{ID: workload.JobID(i), Name: string(rune('a' + i)), GPUs: 1, DurationS: 100, Iterations: 4000})
	}
	m := perf.DefaultRARParams()
	m.Progress = "exact"
	p := DefaultParams()
	p.Horizon = 150 // one job of ρ̂ = 100 per GPU fits under it, a second does not
	pol := New("rand", *p)
	res := runPolicy(t, c, perf.NewRAR(*m), jobs, pol, 1)
	// Two GPUs, six jobs of 100 s each: three rounds of two.
	if got := makespan(res); math.Abs(got-300) > 1e-6 {
		t.Errorf("makespan %v, want 300 (two jobs at a time)", got)
	}
	if pol.pl.feasible || !math.IsInf(pol.pl.rule.theta, 1) {
		t.Errorf("feasible %v, θ %v after the cap proved too small", pol.pl.feasible, pol.pl.rule.theta)
	}
	said := 0
	for _, l := range res.Log {
		if strings.Contains(l.Msg(), "from now on jobs start without the cap") {
			said++
		}
	}
	if said != 1 {
		t.Errorf("the log says %d times that the cap is lifted, want once", said)
	}
}
