// Package tesserae is Tesserae's placement (Bian et al., 2025; spec 003)
// on top of a scheduling order: every round the order (2D-LAS, FIFO or
// finish-time fairness)
// ranks the active jobs, an exclusive pass places as many as fit, each on
// one node when it fits there (best fit), on an abstract empty cluster;
// packing matches the placed jobs with waiting ones by maximum-weight
// bipartite matching on normalised pair throughput (subpackage pack); and
// the migration step renames the plan's nodes and GPUs so that as few
// running jobs as possible move (subpackage migrate). The engine charges
// every migration and restart its overhead.
package tesserae

import (
	"fmt"
	"slices"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/policy/tesserae/migrate"
	"github.com/schedlab/schedlab/sim/policy/tesserae/pack"
	"github.com/schedlab/schedlab/sim/schema"
	"github.com/schedlab/schedlab/sim/workload"
)

// Params configure the Tesserae family.
type Params struct {
	Order         string  `json:"order" enum:"las,fifo,ftf" help:"the scheduling order the placement serves. las (Tiresias' 2D-LAS): least attained GPU-seconds first, arrival breaks ties. fifo: arrival order. ftf (finish-time fairness, Themis-style, computed without sharing): the job whose time in the system plus remaining solo time is largest against its solo time goes first"`
	RoundS        float64 `json:"round_s" min:"1" max:"86400" unit:"s" help:"scheduling round (the paper: 360 s)"`
	Packing       string  `json:"packing" enum:"none,single,all" help:"GPU sharing by matching: none (the order's own exclusive placement), single (Tiresias (Single): only 1-GPU jobs share), all (Tesserae: jobs of any equal GPU count share)"`
	Objective     string  `json:"objective" enum:"combined,gain" help:"what packing maximises: combined, the sum of each pair's combined normalised throughput (the paper's wording), or gain, the sum of (combined − 1), the throughput a pair adds over its host alone"`
	MinCombined   float64 `json:"min_combined" min:"0" max:"2" help:"pairs whose combined normalised throughput is below this get no edge (0: the paper)"`
	Migration     string  `json:"migration" enum:"tesserae,guarded,flat,sticky,none" help:"how the fresh plan lands on the GPUs. tesserae: two-level node/GPU matching (Algorithm 2). guarded: tesserae, falling back to Gavel's rule when that moves fewer jobs and splits none. flat: one matching over all GPUs (Algorithm 5; can split a job over nodes). sticky: Gavel's rule, a job stays only where all its old GPUs are still free. none: the plan as built"`
	PackSolver    string  `json:"pack_solver" enum:"exact,hungarian,buckets" help:"how the packing matching is solved. exact: the job-level Hungarian's objective exactly (the largest total weight, then the earliest guests in priority order), found as a min-cost flow between model buckets in microseconds; among equal optima only which of several same-model hosts takes which guest can differ from hungarian. hungarian: the job-level Hungarian method of the paper (the reference; tens of milliseconds at 2,000 jobs, seconds in the browser at the paper's scale). buckets: the same maximum weight between model buckets without the priority tie-break, so other guests, pairs and migrations"`
	PairRates     string  `json:"pair_rates,omitempty" enum:",blox,perf" help:"where packing's pair throughputs come from. blox (default): the paper's pair table, Blox's measurements of six models (resnet50, vgg19, DCGAN, PointNet, Bert-Large, GPT2-Medium), keyed by model name, so jobs of other models never pack. perf [ours, for cross-paper comparisons]: from the scenario's perf model, each job's rate while a pair shares the same consolidated GPUs over its rate alone there (on the first GPU type where both run), for jobs keyed by model, batch size and GPU count; packs on any trace whose model knows pairs (noise and profile then do not apply)"`
	KeepPairs     bool    `json:"keep_pairs,omitempty" help:"[ours, a sensitivity of Fig. 11] before the packing matching, keep last round's pairs whose host is placed again and whose guest waits again, so that fewer guests change host (off: the paper's fresh matching every round)"`
	Noise         float64 `json:"noise,omitempty" min:"0" max:"1" help:"profiling noise ε (the paper's Fig. 16): the policy decides with the pair table multiplied entry by entry by a factor drawn uniformly from [1−ε, 1+ε] once per run; jobs still progress at the true rates (0: exact profiles)"`
	NoiseSeed     uint64  `json:"noise_seed,omitempty" help:"seed of the profiling noise draw and of the pairs matrix completion profiles"`
	Profile       string  `json:"profile,omitempty" enum:",oracle,linear,matrix-completion" help:"how the pair table the policy decides with is obtained (the paper's Fig. 18): oracle (every pair at every GPU count profiled; default), linear (only 1-GPU pairs profiled, scaled to k GPUs by Sia's linear model: normalised throughputs independent of k; language-model pairs, never run on 1 GPU, keep their measured best split, standing in for the paper's Bayesian strategy search), matrix-completion (a random profile_budget share of the pairs profiled per GPU count, the rest filled by a rank-1 fit, as Gavel and Quasar do)"`
	ProfileBudget float64 `json:"profile_budget,omitempty" min:"0" max:"1" help:"matrix-completion: the share of measured pairs profiled (default 0.5)"`
	MigrationS    float64 `json:"migration_s" min:"0" max:"86400" unit:"s" help:"seconds of no progress charged to a job each time it moves (the paper gives none; 30 s by default)"`
	// TimeDecisions records wall-clock times, which differ between runs
	// and machines, so it is off by default: every output stays a pure
	// function of the scenario and seed.
	TimeDecisions bool    `json:"time_decisions" help:"record each round's decision time, split into scheduling (order and exclusive pass), packing and migration, as series tesserae/decision_ms/scheduling, /packing and /migration (milliseconds of this machine's wall clock: the run's output then differs between runs and machines; off by default)"`
	RestartS      float64 `json:"restart_s" min:"0" max:"86400" unit:"s" help:"seconds of no progress charged when a preempted job starts again"`
	// MaxWaiting bounds a round's work on very long queues. It changes
	// decisions, so it is off by default and in every paper figure.
	MaxWaiting int `json:"max_waiting,omitempty" min:"0" max:"1000000" help:"an approximation for very long queues, off when 0 (the default, as in the paper): if above 0, each round places the running jobs and only this many waiting jobs, the first in the order, and offers only those to packing; the waiting jobs after them wait for a later round. A round then costs about the same whatever the queue's length, instead of growing with it"`
}

// DefaultParams are Tesserae-T (spec 003 §5.5).
func DefaultParams() Params {
	return Params{Order: "las", RoundS: 360, Packing: "all", Objective: "combined", Migration: "tesserae", PackSolver: "exact", MigrationS: 30, RestartS: 30}
}

func (p *Params) check() error {
	for _, c := range []struct{ field, v, allowed string }{
		{"order", p.Order, "las,fifo,ftf"}, {"packing", p.Packing, "none,single,all"},
		{"objective", p.Objective, "combined,gain"}, {"profile", p.Profile, ",oracle,linear,matrix-completion"}, {"pack_solver", p.PackSolver, "exact,hungarian,buckets"}, {"migration", p.Migration, "tesserae,guarded,flat,sticky,none"},
	} {
		if !slices.Contains(splitComma(c.allowed), c.v) {
			return fmt.Errorf("%s: must be one of %s, got %q", c.field, c.allowed, c.v)
		}
	}
	if p.PairRates != "" && p.PairRates != "blox" && p.PairRates != "perf" {
		return fmt.Errorf("pair_rates: must be blox or perf, got %q", p.PairRates)
	}
	if ps := p.Check(); len(ps) > 0 {
		return fmt.Errorf("%s: %s", ps[0].Path, ps[0].Msg)
	}
	if !(p.Noise >= 0 && p.Noise <= 1) {
		return fmt.Errorf("noise: must be between 0 and 1, got %v", p.Noise)
	}
	if !(p.RoundS > 0) {
		return fmt.Errorf("round_s: must be positive, got %v", p.RoundS)
	}
	if p.MaxWaiting < 0 {
		return fmt.Errorf("max_waiting: must be at least 0 (0: every waiting job), got %d", p.MaxWaiting)
	}
	return nil
}

// Check implements schema.Checker, so that a scenario's validation names
// the conflict at its JSON path: pair_rates perf replaces Blox's table,
// which noise and profile change.
func (p *Params) Check() []schema.Problem {
	if p.PairRates == "perf" && (p.Noise > 0 || (p.Profile != "" && p.Profile != "oracle")) {
		return []schema.Problem{{Path: "pair_rates", Msg: "perf takes pair rates from the perf model, so noise and profile (which change Blox's table) do not apply; drop them or use pair_rates blox"}}
	}
	return nil
}

func splitComma(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return out
}

// New returns a Tesserae policy.
func New(p Params) (engine.Policy, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	tab, err := pack.Blox()
	if err != nil {
		return nil, err
	}
	switch p.Profile {
	case "linear":
		tab = linear(tab)
	case "matrix-completion":
		b := p.ProfileBudget
		if b == 0 {
			b = 0.5
		}
		tab = completed(tab, b, p.NoiseSeed)
	}
	if p.Noise > 0 {
		tab = noisy(tab, p.Noise, p.NoiseSeed)
	}
	t := &placer{p: p, table: tab}
	if p.PairRates == "perf" {
		t.perf = newPerfRates()
	}
	return t, nil
}

type placer struct {
	p      Params
	table  *pack.Table
	perf   *perfRates // pair_rates perf; nil packs with table
	rounds int
	// The order across rounds (see kept); ref, when set, orders every
	// active job every round instead (the tests' reference).
	kept      kept
	preempted []workload.JobID // by the last round, for kept.sync
	ref       func(*engine.State) []workload.JobID
	rank      []int32 // per job: its index in this round's order
	packable  []int8  // per job: 0 unknown, 1 may have a packing edge, 2 never (see mayPack)
	packEvery bool    // tests: run the matching even when no waiting job may pack
	ftf       ftfOrder
	// Totals, for the decision log and tests.
	migrated, forced, fellBack, pairs int
	skipped                           int // rounds whose matching was skipped (see mayPack)
}

func (t *placer) Options() engine.Options {
	limit := 1
	if t.p.Packing != "none" {
		limit = 2
	}
	return engine.Options{MaxJobsPerGPU: limit, Subscribe: engine.Mask(engine.Arrival, engine.Completion, engine.WakeUp)}
}

func (t *placer) Decide(s *engine.State, triggers []engine.Trigger) error {
	woken := false
	for _, tr := range triggers {
		woken = woken || tr.Kind == engine.WakeUp
	}
	// Rounds tick at multiples of round_s; an idle cluster starts one at once.
	rounds := woken || s.NumRunning() == 0
	if rounds {
		if err := t.round(s); err != nil {
			return err
		}
	}
	if s.NumPending()+s.NumRunning() == 0 {
		return nil
	}
	next := (float64(int64(s.Now()/t.p.RoundS)) + 1) * t.p.RoundS
	if next <= s.Now() {
		next += t.p.RoundS
	}
	if !rounds && s.Telling() {
		for _, tr := range triggers {
			if tr.Kind == engine.Arrival && s.Status(tr.Job) == engine.Pending {
				s.TellRound(tr.Job, "Tesserae", t.p.RoundS, next)
			}
		}
	}
	return s.WakeAt(next)
}

// eachActive calls fn on the active jobs in the order's priority until fn
// returns false: from the jobs kept in order across rounds under las and
// fifo, by sorting them all under ftf, whose keys move with the clock
// (ftfOrder).
func (t *placer) eachActive(s *engine.State, fn func(workload.JobID) bool) {
	if t.ref != nil || t.p.Order == "ftf" {
		order := t.ref
		t.preempted = t.preempted[:0]
		if t.ref == nil {
			order = func(s *engine.State) []workload.JobID { return t.ftf.order(s, t.p.MaxWaiting) }
		}
		for _, id := range order(s) {
			if !fn(id) {
				return
			}
		}
		return
	}
	las := t.p.Order == "las"
	key := func(id workload.JobID) float64 { return s.Job(id).ArrivalS }
	if las {
		key = func(id workload.JobID) float64 { return s.Info(id).AttainedGPU }
	}
	var pre []workload.JobID
	if las {
		pre = t.preempted
	}
	t.kept.sync(s, pre, key)
	t.preempted = t.preempted[:0]
	t.kept.each(s, las, key, fn)
}

// ftfRho estimates a job's finish-time fairness ρ (Themis; spec 003
// §5.7 [ours]): its time in the system so far plus its remaining solo
// time, over its solo time. The isolated-fair time is solo time × the
// cluster's contention, a factor common to every job, so it drops out of
// the order: the job furthest behind its fair finish goes first.
func ftfRho(s *engine.State, id workload.JobID) float64 {
	solo := policy.SoloDuration(s, id)
	j := s.Job(id)
	if !(solo > 0) || !(j.Iterations > 0) {
		return 0
	}
	left := solo * s.Info(id).Remaining / j.Iterations
	return (s.Now() - j.ArrivalS + left) / solo
}

// shape is the cluster as an empty plan: servers as nodes, GPU types as
// node kinds.
func shape(c *cluster.Cluster) migrate.Plan {
	p := migrate.Plan{Nodes: make([][][]workload.JobID, len(c.Servers)), Kind: make([]string, len(c.Servers))}
	for i := range c.Servers {
		p.Nodes[i] = make([][]workload.JobID, c.Servers[i].NumGPUs)
		p.Kind[i] = c.GPUs[c.Servers[i].FirstGPU].Type
	}
	return p
}

// current is the engine's placement as a plan.
func current(s *engine.State) migrate.Plan {
	c := s.Cluster()
	p := shape(c)
	for i := range c.Servers {
		for g := range p.Nodes[i] {
			p.Nodes[i][g] = slices.Clone(s.JobsOn(c.Servers[i].FirstGPU + cluster.GPUID(g)))
		}
	}
	return p
}
