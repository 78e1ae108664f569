// Package sjfbco is the SJF-BCO paper's scheduling of ring-all-reduce jobs
// under communication contention (Yu et al., MobiHoc 2022; spec 004):
// SJF-BCO with its bisection over the per-GPU load cap θ_u and its sweep
// over the size threshold κ (Algorithm 1), FA-FFP for small jobs
// (Algorithm 2), LBSGF with λ for large ones (Algorithm 3), and the
// baselines First-Fit, List-Scheduling and Random.
//
// Every policy here is offline, gang and non-preemptive: at time 0 it
// plans by running whole trials of the batch (each a small simulation
// with the engine's perf model and arithmetic), keeps the best θ_u and κ,
// logs the plan, and then follows that rule in the engine: jobs start in
// a strict order, each as soon as the rule finds it GPUs, and run to the
// end where they started.
package sjfbco

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/schema"
	"github.com/schedlab/schedlab/sim/story"
	"github.com/schedlab/schedlab/sim/workload"
)

// Params configure SJF-BCO and the baselines; each policy reads the
// fields that apply to it.
type Params struct {
	Horizon    float64 `json:"horizon" min:"1" max:"1e7" unit:"slots" help:"T, the scheduling horizon: the bisection searches θ_u in [1, T], and a trial not done by T counts as makespan T (the paper: 1200 for Figs. 4, 5 and 7, 1500 for Fig. 6)"`
	Kappa      int     `json:"kappa,omitempty" min:"0" max:"4096" help:"SJF-BCO: fix κ (jobs of at most κ GPUs use FA-FFP, larger ones LBSGF), as Fig. 5 does; 0 searches every κ (Algorithm 1)"`
	Lambda     float64 `json:"lambda" min:"1" max:"1000" help:"SJF-BCO: λ of LBSGF, candidate servers hold at least λ·G_j GPUs; larger means more fresh servers to pick from (the paper: 1; Fig. 7 sweeps 1, 2, 4, 8)"`
	U          float64 `json:"u" min:"0.001" max:"1000" help:"u, the upper ratio of the run-time estimate: a job adds ρ̂/u to each of its GPUs' load U (default 1; the paper gives none)"`
	Order      string  `json:"order,omitempty" enum:",input,sjf,largest" help:"the job order. FF, LS, RAND: input (the batch's shuffled order; the paper does not say), sjf (fewest GPUs first, as SJF-BCO) or largest (most GPUs first). SJF-BCO uses sjf, its Algorithm 1, unless this is largest (not in the paper: it shows how much of SJF-BCO's lead its order gives)"`
	Bisection  string  `json:"bisection,omitempty" enum:",improvement,feasibility" help:"move θ_u left when this θ improved on the best makespan so far (improvement, the paper's Algorithm 1) or when it was feasible (a reading the paper leaves open)"`
	KappaLoop  string  `json:"kappa_loop,omitempty" enum:",distinct,literal" help:"SJF-BCO: try κ only at the distinct job sizes (distinct, exact and faster) or at every κ from 1 to the largest job (literal)"`
	MaxServers int     `json:"max_servers,omitempty" min:"0" max:"100000" help:"use only the cluster's first n servers (0: all), so that a sweep over n keeps capacity nested as Fig. 6 asks"`
	// LambdaByGPUs gives λ_j per job size.
	LambdaByGPUs []SizeLambda `json:"lambda_by_gpus,omitempty" help:"SJF-BCO: λ_j for the jobs of a given size, instead of lambda (the paper allows a λ per job)"`
	FAFFP        string       `json:"faffp,omitempty" enum:",least_u,bestfit" help:"SJF-BCO: FA-FFP as the pseudo-code (least_u: the least-loaded idle GPUs anywhere, ties first-fit) or as the prose's fragment-aware packing (bestfit: the fullest server that still holds the job; the paper's two descriptions differ)"`
	LBSGFPick    string       `json:"lbsgf_pick,omitempty" enum:",list,least_u" help:"SJF-BCO: LBSGF takes the first G_j GPUs of its server-major list (list, the default: consolidated on the least busy servers) or the least-loaded among its candidates (least_u)"`
	LBSGFTie     string       `json:"lbsgf_tie,omitempty" enum:",index,capacity" help:"SJF-BCO: among servers of equal average load LBSGF prefers the lower index (index) or the larger server (capacity: fewer splits at the start)"`
	Spread       bool         `json:"spread,omitempty" help:"FF, for teaching (not in the paper): take GPUs round-robin over the servers, every ring as far apart as possible, as in the measurement the paper quotes from Wang et al. (one 4-GPU job alone 295 s, four spread ones 675 s each)"`
}

// Check refuses a job size given two λ_j.
func (p *Params) Check() []schema.Problem {
	var ps []schema.Problem
	seen := map[int]int{}
	for i, sl := range p.LambdaByGPUs {
		if k, dup := seen[sl.GPUs]; dup {
			ps = append(ps, schema.Problem{Path: schema.Index("lambda_by_gpus", i) + ".gpus", Msg: fmt.Sprintf("%d GPUs already has a λ in lambda_by_gpus[%d]", sl.GPUs, k)})
		}
		seen[sl.GPUs] = i
	}
	return ps
}

// SizeLambda is λ for the jobs of one size.
type SizeLambda struct {
	GPUs   int     `json:"gpus" min:"1" max:"4096" help:"job size in GPUs"`
	Lambda float64 `json:"lambda" min:"1" max:"1000" help:"λ_j of those jobs"`
}

// DefaultParams returns the paper's settings.
func DefaultParams() *Params {
	return &Params{Horizon: 1200, Lambda: 1, U: 1, Order: "input", Bisection: "improvement", KappaLoop: "distinct",
		FAFFP: "least_u", LBSGFPick: "list", LBSGFTie: "index"}
}

// Policy is one of the family's policies in the engine.
type Policy struct {
	kind  string // sjf-bco, ff, ls, rand
	title string
	p     Params

	pl    *plan
	order []workload.JobID
	next  int
	u     []float64
	v     view
	rng   *rand.Rand
	// splitJobs is the last recorded count of split jobs per server.
	splitJobs []int
}

// New returns the policy of the given kind ("sjf-bco", "ff", "ls" or
// "rand").
func New(kind string, p Params) *Policy {
	titles := map[string]string{"sjf-bco": "SJF-BCO", "ff": "FF", "ls": "LS", "rand": "RAND"}
	return &Policy{kind: kind, title: titles[kind], p: p}
}

// Options implements engine.Policy: exclusive GPUs, decisions at arrivals
// (all at time 0) and completions.
func (p *Policy) Options() engine.Options {
	// its bounds at the end read every job's run time (see theory)
	return engine.Options{MaxJobsPerGPU: 1, Subscribe: engine.Mask(engine.Arrival, engine.Completion), FinishedInfo: true}
}

// Decide implements engine.Policy.
func (p *Policy) Decide(s *engine.State, _ []engine.Trigger) error {
	if p.pl == nil {
		if err := p.makePlan(s); err != nil {
			return err
		}
	}
	p.v.idle = func(g cluster.GPUID) bool { return s.NumJobsOn(g) == 0 }
	for p.next < len(p.order) {
		id := p.order[p.next]
		job := s.Job(id)
		gpus, alg := p.pl.rule.place(&p.v, job, p.rng)
		if gpus == nil && s.NumRunning() == 0 {
			// The paper's trial is infeasible here (spec 004 §1.8 3c): it
			// returns no schedule, and the engine must run the batch
			// anyway. The cap gives way for the rest of the run, as it
			// does when the bisection finds no θ ≤ T: RAND, which runs no
			// trial and takes θ = T, learns only now that T is too short.
			// Lifting it for this one job alone would leave every later
			// job of load above what its GPUs have left waiting for an
			// empty cluster, so the batch would run one job at a time.
			theta := p.pl.rule.theta
			p.pl.rule.theta, p.pl.feasible = math.Inf(1), false
			gpus, alg = p.pl.rule.place(&p.v, job, p.rng)
			if gpus == nil {
				return fmt.Errorf("%s: job %s (%d GPUs) does not fit the %d servers in use", p.title, job.Name, job.GPUs, p.v.servers)
			}
			s.Log(id, "%s: %s cannot start under θ_u = %g and nothing runs, so no schedule keeps every GPU's load within it; from now on jobs start without the cap", p.title, job.Name, theta)
		}
		if gpus == nil {
			if s.Telling() {
				p.tellBlocked(s, id)
			}
			break // strict order: the head waits for a completion
		}
		if err := s.Start(id, gpus, engine.ActionOptions{}); err != nil {
			return err
		}
		w := p.pl.rule.load(job)
		for _, g := range gpus {
			p.u[g] += w
		}
		p.next++
		srv := perf.Servers(s.Cluster(), gpus)
		s.Log(id, "%s: started %s (%d GPUs, ρ̂ = %.1f) by %s on server(s) %v", p.title, job.Name, job.GPUs, job.DurationS, alg, srv)
	}
	p.recordSplitJobs(s)
	if s.NumFinished() == s.NumJobs() {
		p.theory(s)
	}
	return nil
}

// recordSplitJobs records, per server in use, how many split jobs (rings
// over several servers) have workers there, whenever that changes: the
// count that sets every ring's contention p_j (eq. 6), over time.
func (p *Policy) recordSplitJobs(s *engine.State) {
	if !s.Recording() {
		return
	}
	c := s.Cluster()
	if p.splitJobs == nil {
		p.splitJobs = make([]int, p.v.servers)
		for i := range p.splitJobs {
			p.splitJobs[i] = -1
		}
	}
	for i := range p.v.servers {
		n := 0
		for _, id := range s.Running() {
			if perf.OnServer(c, s.GPUsOf(id), cluster.ServerID(i)) && c.ServersSpanned(s.GPUsOf(id)) > 1 {
				n++
			}
		}
		if n != p.splitJobs[i] {
			p.splitJobs[i] = n
			s.Record(fmt.Sprintf("sjfbco/split_jobs/server%02d", i), -1, float64(n))
		}
	}
}

// makePlan checks the batch, runs the bisection (none for RAND) and logs
// the plan.
func (p *Policy) makePlan(s *engine.State) error {
	c := s.Cluster()
	jobs := make([]workload.Job, s.NumJobs())
	for i := range jobs {
		jobs[i] = *s.Job(workload.JobID(i))
		if jobs[i].ArrivalS != 0 {
			return fmt.Errorf("%s plans an offline batch: job %s arrives at t=%g, not 0", p.title, jobs[i].Name, jobs[i].ArrivalS)
		}
	}
	servers := len(c.Servers)
	if p.p.MaxServers > 0 {
		servers = min(servers, p.p.MaxServers)
	}
	p.order = jobOrder(jobs, p.kind, p.p.Order)
	p.order = slices.DeleteFunc(p.order, func(id workload.JobID) bool {
		if s.Status(id) == engine.Unschedulable { // the engine reported it; it never runs
			s.Log(id, "%s: %s can never run on this cluster and is left out of the plan", p.title, jobs[id].Name)
			return true
		}
		return false
	})
	p.rng = rand.New(rand.NewPCG(s.Rand().Uint64(), 0x5eed_bc0))
	p.u = make([]float64, len(c.GPUs))
	p.v = view{c: c, servers: servers, u: p.u}
	base := p.p.baseRule(p.kind)
	base.theta = p.p.Horizon
	if p.kind == "rand" { // θ = T, no bisection (spec 004 §2.5)
		p.pl = &plan{rule: base, feasible: true}
		s.Log(-1, "RAND: θ_u = T = %g, servers and GPUs in a seeded random order, no bisection", p.p.Horizon)
		return nil
	}
	// The bisection's trials simulate the whole batch, seconds for
	// thousands of jobs: they give up when the run is stopped.
	pl := planForUntil(c, servers, jobs, p.order, s.Perf(), p.kind, p.p, func() bool { return s.Interrupted() != nil })
	p.pl = &pl
	s.Log(-1, "%s", pl.describe(p.title))
	return nil
}

// baseRule is the rule of policy kind before the plan sets θ and κ.
func (p *Params) baseRule(kind string) rule {
	r := rule{kind: kind, lambda: p.Lambda, u: p.U, bestFit: p.FAFFP == "bestfit",
		capacityTie: p.LBSGFTie == "capacity", pickLeastU: p.LBSGFPick == "least_u", spread: p.Spread}
	for _, sl := range p.LambdaByGPUs {
		if r.lambdaOf == nil {
			r.lambdaOf = map[int]float64{}
		}
		r.lambdaOf[sl.GPUs] = sl.Lambda
	}
	return r
}

// jobOrder is the strict order policy kind starts jobs in: SJF-BCO's
// fewest GPUs first, the baselines' input order unless asked otherwise.
func jobOrder(jobs []workload.Job, kind, order string) []workload.JobID {
	switch {
	case order == "largest":
		return largestOrder(jobs)
	case kind == "sjf-bco" || order == "sjf":
		return sjfOrder(jobs)
	}
	return inputOrder(jobs)
}

// planFor runs the bisection of policy kind ("sjf-bco", "ff" or "ls") for
// jobs, started in order, on the first servers of c under model m.
func planFor(c *cluster.Cluster, servers int, jobs []workload.Job, order []workload.JobID, m perf.Model, kind string, p Params) plan {
	return planForUntil(c, servers, jobs, order, m, kind, p, nil)
}

// planForUntil is planFor whose trials give up, infeasible, once stop
// (when not nil) returns true; the plan is then of no use.
func planForUntil(c *cluster.Cluster, servers int, jobs []workload.Job, order []workload.JobID, m perf.Model, kind string, p Params, stop func() bool) plan {
	pr := planner{t: newTrial(c, servers, jobs, m), order: order, horizon: p.Horizon, literal: p.Bisection != "feasibility"}
	pr.t.stop = stop
	base := p.baseRule(kind)
	kappas := []int{0}
	if kind == "sjf-bco" {
		kappas = kappaClasses(jobs, p.KappaLoop == "literal")
		if p.Kappa > 0 {
			kappas = []int{p.Kappa}
		}
	}
	pl := pr.bisect(base, kappas)
	if kind == "sjf-bco" && len(kappas) > 1 {
		pr.byKappa(&pl, kappas)
	}
	return pl
}

// theory logs the paper's bounds beside the achieved makespan and records
// them as series: Lemma 3's T ≤ n_g·max_g U_g; a lower bound on the best
// possible makespan (theorem5Terms); and, for SJF-BCO, Theorem 5's bound
// n_g·φ·u/l with the makespan over the lower bound, which the bound
// limits.
func (p *Policy) theory(s *engine.State) {
	c := s.Cluster()
	jobs := make([]workload.Job, s.NumJobs())
	runS := make([]float64, len(jobs))
	for i := range jobs {
		jobs[i] = *s.Job(workload.JobID(i))
		runS[i] = s.Info(workload.JobID(i)).RunTime
	}
	gpus := int(p.v.gpuEnd())
	maxU := 0.0
	for _, x := range p.u[:gpus] {
		maxU = max(maxU, x)
	}
	maxPerServer := 0
	for i := range p.v.servers {
		maxPerServer = max(maxPerServer, c.Servers[i].NumGPUs)
	}
	m, rar := perf.As[*perf.RAR](s.Perf())
	if !rar { // the policy requires ring_allreduce; a stand-in keeps ρ̂ as the shortest run
		m = perf.NewRAR(perf.RARParams{Shape: "ideal", R: 1, Xi1: 1, Progress: "exact"})
	}
	t := theorem5Terms(m, jobs, runS, p.v.servers, gpus, maxPerServer, p.p.U)
	lemma3 := float64(t.NG) * maxU
	predicted := ""
	if p.kind != "rand" {
		predicted = fmt.Sprintf(" (plan predicted %.2f)", p.pl.makespan)
	}
	s.Log(-1, "%s done: makespan %.2f slots%s; lower bound on the best possible makespan max(longest job, GPU-work / GPUs) = %.2f; Lemma 3: makespan ≤ n_g·max U = %d × %.2f = %.2f",
		p.title, s.Now(), predicted, t.Lower, t.NG, maxU, lemma3)
	s.Record(seriesLowerBound, -1, t.Lower)
	s.Record("sjfbco/lemma3_bound", -1, lemma3)
	if rar && p.kind == "sjf-bco" {
		s.Log(-1, "Theorem 5: SJF-BCO's makespan is at most n_g·φ·u/l = %d × %.3f × %g / %.3f = %.1f times the best possible (φ: the worst slowdown a placement can cause a job; l: the smallest ρ̂/ρ of this run); here it is %.2f times the lower bound",
			t.NG, t.Phi, t.U, t.L, t.Bound(), s.Now()/t.Lower)
		s.Record(seriesTheorem5, -1, t.Bound())
		s.Record(seriesOverLower, -1, s.Now()/t.Lower)
	}
	if p.kind != "rand" {
		s.Record("sjfbco/planned_makespan", -1, p.pl.makespan)
		s.Record("sjfbco/trials", -1, float64(p.pl.trials))
		feasible := 0.0 // 0: no θ ≤ T finished by T, the paper's "makespan T"
		if p.pl.feasible {
			feasible = 1
		}
		s.Record("sjfbco/feasible", -1, feasible)
	}
	if !math.IsInf(p.pl.rule.theta, 1) { // no cap when no θ ≤ T was feasible
		s.Record("sjfbco/theta", -1, p.pl.rule.theta)
	}
	if p.kind == "sjf-bco" {
		s.Record("sjfbco/kappa", -1, float64(p.pl.rule.kappa))
	}
}

func init() {
	register := func(kind, name, title, doc string, maxGPUs int) {
		policy.Register(policy.Family[Params]{
			Name: name, Title: title,
			Paper:    "Yu, Ji, Rajan, Liu: On Scheduling Ring-All-Reduce Learning Jobs in Multi-Tenant GPU Clusters with Communication Contention, MobiHoc 2022",
			Doc:      doc,
			Defaults: func() Params { return *DefaultParams() },
			New:      func(p Params) (engine.Policy, error) { return New(kind, p), nil },
			// Its trials replay the ring_allreduce model's contention, and
			// it plans the whole batch once, when the run starts.
			Requires: policy.Requires{PerfModels: []string{"ring_allreduce"}, Batch: true},
		})
	}
	register("sjf-bco", "sjf-bco", "SJF-BCO",
		"Smallest job first with balanced contention and overhead, for a batch of ring-all-reduce jobs present at "+
			"time 0. It searches a cap θ on every GPU's assigned work by bisection and, for each θ, a size threshold κ: "+
			"jobs of at most κ GPUs are packed onto least-loaded GPUs of servers already in use (FA-FFP), larger ones "+
			"go to the least busy servers, consolidated (LBSGF), so that big rings avoid both contention and per-server "+
			"overhead. Each (θ, κ) is a whole simulated trial; the best makespan wins and the engine then runs it.", 0)
	register("ff", "sjfbco-ff", "FF",
		"First-Fit, the SJF-BCO paper's baseline: each job takes the first idle GPUs by server and GPU index whose "+
			"assigned work stays within a cap θ found by the same bisection as SJF-BCO. It packs jobs on few servers.", 0)
	register("ls", "sjfbco-ls", "LS",
		"List-Scheduling, the SJF-BCO paper's baseline: each job takes the idle GPUs with the least assigned work under "+
			"a bisected cap θ. It balances load across GPUs but may spread a ring over many servers.", 0)
	register("rand", "sjfbco-rand", "RAND",
		"Random placement, the SJF-BCO paper's baseline: servers in a seeded random order, idle GPUs shuffled within "+
			"each, the first G_j taken; the cap is the horizon T and there is no bisection.", 0)
}

// tellBlocked tells that job id, first in the order, cannot start and
// holds every job behind it: too few GPUs are free, or the placement
// rule accepts no set of them.
func (p *Policy) tellBlocked(s *engine.State, id workload.JobID) {
	n := story.Note{Job: id, Kind: story.Blocks, Other: -1, Need: s.Job(id).GPUs, Free: s.FreeGPUs()}
	if n.Free >= n.Need {
		n.Text = fmt.Sprintf("%s finds no set of free GPUs that keeps every server's communication load under its cap", p.title)
	}
	s.Tell(n)
}
