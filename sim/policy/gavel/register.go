package gavel

import (
	"fmt"
	"strings"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/policy/gavel/alloc"
	"github.com/schedlab/schedlab/sim/policy/gavel/mechanism"
	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/schema"
)

// Common are the mechanism's knobs, shared by every Gavel policy.
type Common struct {
	RoundS    float64 `json:"round_s" min:"1" max:"86400" unit:"s" help:"round length: how long a lease lasts before the mechanism reconsiders it (Gavel: 6 minutes)"`
	Mode      string  `json:"mode" enum:"ref-compat,clean,ideal" help:"ref-compat: the reference simulator (per-type lists visited V100, P100, K80, shuffled each round for agnostic policies; idle GPUs also run entries whose target is 0, except under FIFO; and its quirks quirk_reset_at_zero, quirk_integer_steps, quirk_split_steps, quirk_unallocated_wait and quirk_idle_until_arrival, each on by default; agnostic FIFO's random type removal draws from schedlab's random stream, not Python's, so its choices match the reference only in aggregate); clean: one priority list, only entries with a positive target; ideal: no rounds, every job progresses at its time-averaged target rate (a fluid model)"`
	ResetMinS float64 `json:"reset_min_s" min:"0" unit:"s" help:"shortest time between two recomputations of the allocation after arrivals and completions (the reference simulator: 1,920 s; 0 recomputes at every event)"`
	Quirks
	MigrateMoves bool    `json:"migrate_moves,omitempty" help:"a job that keeps running in the next round but on other GPUs moves by a migration (charged the engine's migration_s and counted as one), as on a real cluster, instead of a preemption and a restart (the reference simulator's accounting; default)"`
	TraceJobs    int     `json:"trace_jobs" min:"0" max:"100000" help:"runs with at most this many jobs record each job's target share and received share of every GPU type (series gavel/x/TYPE and gavel/received/TYPE) and log every lease"`
	Prices       []Price `json:"prices,omitempty" help:"price of one GPU-hour of each type, for costs; default the reference's cloud prices (V100 0.74, P100 0.43, K80 0.135)"`
}

// Quirks are behaviours of the reference simulator that mode ref-compat
// reproduces (each on by default; ignored in the other modes), so that its
// runs agree with the reference job for job.
type Quirks struct {
	ResetAtZero      bool `json:"quirk_reset_at_zero" help:"ref-compat: the reference allows a recompute whenever its last one was at t = 0 (its last-reset time starts at 0), so a first recompute at t = 0 is followed by another at the next round that asks for one, before reset_min_s has passed"`
	IntegerSteps     bool `json:"quirk_integer_steps" help:"ref-compat: a job runs whole steps, int(throughput × round_s) per round, and stops when they are done; a round ends when its last micro-task does (slightly before round_s)"`
	UnallocatedWait  bool `json:"quirk_unallocated_wait" help:"ref-compat: a job that arrived after the last recompute has no row in the allocation; the reference counts it in a round's pick (its GPUs stay idle) but gives it no workers, so it waits for the next recompute"`
	IdleUntilArrival bool `json:"quirk_idle_until_arrival" help:"ref-compat: a round that runs nothing lasts until the next arrival rather than round_s; when no job is left to arrive, the reference forgets when it last recomputed, so a due recompute happens at once"`
	SplitSteps       bool `json:"quirk_split_steps" help:"ref-compat: a multi-GPU job's steps are split as steps // GPUs per worker, so a job with fewer steps left than GPUs fails its round without progress; after 5 failures in a row the reference drops it (schedlab then runs its last steps and records it in series gavel/dropped)"`
}

// Price is what one GPU-hour of a type costs.
type Price struct {
	GPUType    string  `json:"gpu_type" help:"GPU type"`
	USDPerHour float64 `json:"usd_per_hour" min:"0.000001" unit:"$/h" help:"price of one GPU-hour"`
}

var defaultPrices = map[string]float64{"V100": 0.74, "P100": 0.43, "K80": 0.135}

func defaultCommon() Common {
	return Common{RoundS: 360, Mode: "ref-compat", ResetMinS: 1920, TraceJobs: 200,
		Quirks: Quirks{ResetAtZero: true, IntegerSteps: true, SplitSteps: true, UnallocatedWait: true, IdleUntilArrival: true}}
}

// CheckGPUTypes refuses a cluster with a GPU type that has no price: every
// Gavel policy accounts for cost, so the run would fail at its first
// recompute (policy.GPUTypeChecker).
func (c *Common) CheckGPUTypes(types []string) (field, msg string) {
	var missing []string
	for _, t := range types {
		if _, err := c.priceList([]string{t}); err != nil {
			missing = append(missing, t)
		}
	}
	if len(missing) == 0 {
		return "", ""
	}
	return "prices", fmt.Sprintf("GPU type %s has no price (the defaults price only V100, P100 and K80, and every Gavel policy accounts for cost); add one, e.g. [{\"gpu_type\": %q, \"usd_per_hour\": 1.0}]",
		strings.Join(missing, ", "), missing[0])
}

func (c *Common) priceList(types []string) ([]float64, error) {
	out := make([]float64, len(types))
	for j, t := range types {
		v, ok := defaultPrices[strings.ToUpper(t)]
		for _, p := range c.Prices {
			if strings.EqualFold(p.GPUType, t) {
				v, ok = p.USDPerHour, true
			}
		}
		if !ok {
			return nil, fmt.Errorf("no price for GPU type %s: add it to the policy's prices", t)
		}
		out[j] = v
	}
	return out, nil
}

// LASParams configure max-min fairness, water filling and hierarchical
// fairness.
type LASParams struct {
	Common
	Aware         bool          `json:"aware" help:"plan with each job's measured throughput on each GPU type (Gavel); off treats all types alike (the LAS baseline)"`
	SpaceSharing  bool          `json:"space_sharing,omitempty" help:"let pairs of single-GPU jobs share a GPU when that raises their combined throughput (Gavel w/ SS)"`
	PairThreshold float64       `json:"pair_threshold" min:"0" max:"2" help:"keep only pairs whose normalised throughputs add up to more than this on a type (α+β ≤ 1 is never better than time slicing)"`
	WaterFilling  bool          `json:"water_filling,omitempty" help:"raise every job until it is bottlenecked instead of only the worst-off (Pareto-efficient); on with entities"`
	Entities      []plan.Entity `json:"entities,omitempty" help:"hierarchical fairness: entities with weights, each sharing among its jobs by fairness or FIFO"`
	TieBreak      bool          `json:"tie_break" help:"among max-min optima, take the one with the most total normalised throughput (off: whichever vertex the simplex finds)"`
}

// FTFParams configure finish-time fairness.
type FTFParams struct {
	Common
	Waiting
	Aware    bool `json:"aware" help:"plan with measured throughputs (Gavel); off plans as if every type ran the job at its V100 speed"`
	TieBreak bool `json:"tie_break" help:"among optima, take the one with the most total normalised throughput"`
	Pairs
}

// Waiting bounds the jobs an allocation plans over, for very long queues.
type Waiting struct {
	// MaxWaiting changes results when more jobs wait than it allows, so
	// it is off by default and in every built-in scenario.
	MaxWaiting int `json:"max_waiting,omitempty" min:"0" max:"1000000" help:"an approximation for very long queues, off when 0 (the default): if above 0, each new allocation plans for the running jobs and only this many waiting jobs, the first in arrival order (SJF: shortest first); the others wait for a later allocation"`
}

// Pairs configure space sharing in the per-job LPs.
type Pairs struct {
	SpaceSharing   bool    `json:"space_sharing,omitempty" help:"let pairs of single-GPU jobs share GPUs (needs aware)"`
	PairCandidates int     `json:"pair_candidates" min:"1" max:"1000" help:"with space sharing, each job considers its best this many partners (the LP grows with the square of the jobs otherwise)"`
	PairThreshold  float64 `json:"pair_threshold" min:"0" max:"2" help:"least α+β for a pair to be considered"`
}

func defaultPairs() Pairs { return Pairs{PairCandidates: 4, PairThreshold: 1} }

// FIFOParams configure FIFO and shortest job first.
type FIFOParams struct {
	Common
	Waiting
	Aware         bool    `json:"aware" help:"give each job its fastest type with room, rebuilt at every recompute (Gavel); off: a type at random, kept until the job finishes"`
	SpaceSharing  bool    `json:"space_sharing,omitempty" help:"pack queued jobs beside running ones when the pair's normalised throughput exceeds pack_threshold"`
	PackThreshold float64 `json:"pack_threshold" min:"0" max:"2" help:"least α+β for packing a queued job beside a running one"`
}

// MakespanParams configure minimum makespan.
type MakespanParams struct {
	Common
	Waiting
	Aware    bool `json:"aware" help:"plan with measured throughputs (Gavel); off plans as if every type ran the job at its V100 speed"`
	TieBreak bool `json:"tie_break" help:"among optima, take the one with the most total normalised throughput"`
	Pairs
}

// ThroughputParams configure maximum total throughput.
type ThroughputParams struct {
	Common
	Waiting
	Aware      bool `json:"aware" help:"plan with measured throughputs"`
	Normalized bool `json:"normalized,omitempty" help:"weigh each job's throughput by its best type's, so that models count alike (raw iterations/s otherwise, as the reference)"`
	Pairs
}

// CostParams configure minimum cost.
type CostParams struct {
	Common
	Waiting
	SLO       bool    `json:"slo,omitempty" help:"each job with a deadline must be able to meet it: thr ≥ remaining iterations ÷ time left (dropped if impossible)"`
	SLOMargin float64 `json:"slo_margin" min:"0" max:"0.9" help:"plan to finish this fraction of the time left (and one round) before the deadline, a margin for the rounds' imperfect delivery of the allocation"`
	Objective string  `json:"objective,omitempty" enum:",per-dollar,ratio" help:"per-dollar: maximise Σ throughput ÷ price (the reference; fills the cluster); ratio: total throughput ÷ total cost (the paper's form, without space sharing)"`
	Pairs
}

// AlloXParams configure AlloX.
type AlloXParams struct {
	Common
	Alpha   float64 `json:"alpha" min:"0" max:"1" help:"match only this oldest fraction of the waiting jobs (at least one per free GPU); 1 matches all"`
	MaxJobs int     `json:"max_jobs" min:"1" max:"1000" help:"of those, match at most this many, the shortest on their best GPU type (the matching costs jobs² × GPUs)"`
}

// Check implements schema.Checker.
func (p *Pairs) Check() []schema.Problem { return nil }

// Check implements schema.Checker.
func (p *FTFParams) Check() []schema.Problem { return needsAware(p.SpaceSharing, p.Aware) }

// Check implements schema.Checker.
func (p *ThroughputParams) Check() []schema.Problem { return needsAware(p.SpaceSharing, p.Aware) }

// Check implements schema.Checker.
func (p *MakespanParams) Check() []schema.Problem { return needsAware(p.SpaceSharing, p.Aware) }

// Check implements schema.Checker.
func (p *FIFOParams) Check() []schema.Problem { return needsAware(p.SpaceSharing, p.Aware) }

// Check implements schema.Checker.
func (p *CostParams) Check() []schema.Problem {
	if p.SpaceSharing && p.Objective == "ratio" {
		return []schema.Problem{{Path: "space_sharing", Msg: "the ratio objective has no space sharing; use objective per-dollar"}}
	}
	return nil
}

func needsAware(ss, aware bool) []schema.Problem {
	if ss && !aware {
		return []schema.Problem{{Path: "space_sharing", Msg: "space sharing plans with measured pair throughputs, so it needs aware"}}
	}
	return nil
}

// Check implements schema.Checker.
func (p *LASParams) Check() []schema.Problem {
	var ps []schema.Problem
	if p.SpaceSharing && !p.Aware {
		ps = append(ps, schema.Problem{Path: "space_sharing", Msg: "space sharing plans with measured pair throughputs, so it needs aware"})
	}
	seen := map[string]bool{}
	for i, e := range p.Entities {
		if e.Name == "" {
			ps = append(ps, schema.Problem{Path: schema.Index("entities", i) + ".name", Msg: "is required"})
		}
		if seen[e.Name] {
			ps = append(ps, schema.Problem{Path: schema.Index("entities", i) + ".name", Msg: fmt.Sprintf("%q is listed twice", e.Name)})
		}
		seen[e.Name] = true
	}
	return ps
}

func shuffleFor(aware bool) bool { return !aware }

// maxJobGPUs are the policies that schedule only small jobs, so that the
// scenario validator refuses larger ones before a run fails on them.
var maxJobGPUs = map[string]int{"gavel-allox": 1}

func register[P any](name, title, doc string, defaults func() P, build func(P) (*mechanism.Config, error)) {
	policy.Register(policy.Family[P]{
		Name: name, Title: title, Paper: "Gavel: Narayanan et al., OSDI 2020", Doc: doc,
		Defaults: defaults, MaxJobGPUs: maxJobGPUs[name],
		New: func(p P) (engine.Policy, error) {
			m, err := build(p)
			if err != nil {
				return nil, err
			}
			if m.Mode == "ideal" {
				return &ideal{m}, nil
			}
			return mechanism.New(*m), nil
		},
	})
}

const mechanismDoc = " The allocation is turned into 6-minute leases by Gavel's round-based mechanism: each round, jobs are ranked by target share ÷ share received and placed greedily, keeping their GPUs when they can (mode ref-compat reproduces the reference simulator, clean ranks one list and runs only positive targets, ideal is the fluid limit)."

func init() {
	register("gavel-las", "Gavel LAS",
		"Max-min fairness (least attained service), weighted by job weight: the worst-off job's throughput, relative to an equal share of every GPU, is as high as possible. "+
			"Aware, it counts a K80 hour and a V100 hour by what they do for each job; agnostic, all GPU types look alike: every job's throughput is taken as 1 on every type, even where it cannot run, so the plan says only how much time each job gets. "+
			"Agnostic, mode ref-compat (and ideal) takes a central optimum, as the reference's interior-point solver returns: each job's total share at the centre of the optimal ones, spread over all types in proportion to their GPUs (time on a type where the job cannot run is lost, as in the reference); "+
			"mode clean takes the same totals and spreads each as evenly as fits over the types the job can run on (in proportion to their GPUs, else maximising the least fraction of that even share any job gets). With water filling every job is raised until bottlenecked; "+
			"with entities, the cluster is shared fairly between entities, and within each by fairness or FIFO (hierarchical policies)."+mechanismDoc,
		func() LASParams {
			return LASParams{Common: defaultCommon(), Aware: true, PairThreshold: 1, TieBreak: true}
		},
		func(p LASParams) (*mechanism.Config, error) {
			run := &alloc.LPs{}
			a := &alloc.Fair{Aware: p.Aware, SpaceSharing: p.SpaceSharing, WaterFilling: p.WaterFilling, TieBreak: p.TieBreak, Clean: p.Mode == "clean", PairThreshold: p.PairThreshold, Entities: p.Entities, LPs: run}
			m := newMechanism(p.Common, "LAS", a, run)
			m.Shuffle, m.SpaceSharing, m.Entities = shuffleFor(p.Aware), p.SpaceSharing, p.Entities
			return m, nil
		})
	register("gavel-ftf", "Gavel FTF",
		"Finish-time fairness (Themis): minimise the largest ratio of a job's expected finish time to the time it would take with 1/n of the cluster, by bisection over LPs."+mechanismDoc,
		func() FTFParams {
			return FTFParams{Common: defaultCommon(), Aware: true, TieBreak: true, Pairs: defaultPairs()}
		},
		func(p FTFParams) (*mechanism.Config, error) {
			run := &alloc.LPs{}
			a := &alloc.PerJob{Objective: "ftf", Aware: p.Aware, TieBreak: p.TieBreak, LPs: run,
				SpaceSharing: p.SpaceSharing, PairCandidates: p.PairCandidates, PairThreshold: p.PairThreshold}
			m := newMechanism(p.Common, "FTF", a, run)
			m.MaxWaiting = p.MaxWaiting
			m.Shuffle, m.SpaceSharing = shuffleFor(p.Aware), p.SpaceSharing
			return m, nil
		})
	register("gavel-fifo", "Gavel FIFO",
		"First in, first out over GPU types: aware, each job in arrival order takes its fastest type with room; agnostic, a type at random, kept until it finishes. "+
			"FIFO never runs a job whose target share is 0."+mechanismDoc,
		func() FIFOParams { return FIFOParams{Common: defaultCommon(), Aware: true, PackThreshold: 1.5} },
		func(p FIFOParams) (*mechanism.Config, error) {
			a := &alloc.FIFO{Aware: p.Aware, SpaceSharing: p.SpaceSharing, RefCompat: p.Mode != "clean", PackThreshold: p.PackThreshold}
			m := newMechanism(p.Common, "FIFO", a, nil)
			m.MaxWaiting = p.MaxWaiting
			m.Shuffle, m.SpaceSharing, m.FIFO = shuffleFor(p.Aware), p.SpaceSharing, true
			return m, nil
		})
	register("gavel-sjf", "Gavel SJF",
		"Shortest job first over GPU types: like aware FIFO, with the queue ordered by remaining time on the job's fastest type (schedlab's reading of the paper's non-convex SJF objective)."+mechanismDoc,
		func() FIFOParams { return FIFOParams{Common: defaultCommon(), Aware: true, PackThreshold: 1.5} },
		func(p FIFOParams) (*mechanism.Config, error) {
			a := &alloc.FIFO{Aware: true, SJF: true, SpaceSharing: p.SpaceSharing, PackThreshold: p.PackThreshold}
			m := newMechanism(p.Common, "SJF", a, nil)
			m.MaxWaiting, m.WaitingKey = p.MaxWaiting, alloc.SJFKey
			m.SpaceSharing, m.FIFO = p.SpaceSharing, true
			return m, nil
		})
	register("gavel-makespan", "Gavel makespan",
		"Minimise the makespan: the largest remaining duration over the active jobs, solved as one LP (maximise z with thr(m,X) ≥ N_m·z)."+mechanismDoc,
		func() MakespanParams {
			return MakespanParams{Common: defaultCommon(), Aware: true, TieBreak: true, Pairs: defaultPairs()}
		},
		func(p MakespanParams) (*mechanism.Config, error) {
			run := &alloc.LPs{}
			a := &alloc.PerJob{Objective: "makespan", Aware: p.Aware, SpaceSharing: p.SpaceSharing, TieBreak: p.TieBreak, PairCandidates: p.PairCandidates, PairThreshold: p.PairThreshold, LPs: run}
			m := newMechanism(p.Common, "makespan", a, run)
			m.MaxWaiting = p.MaxWaiting
			m.Shuffle, m.SpaceSharing = shuffleFor(p.Aware), p.SpaceSharing
			return m, nil
		})
	register("gavel-max-throughput", "Gavel max throughput",
		"Maximise the total effective throughput of the cluster (the cost experiment's baseline)."+mechanismDoc,
		func() ThroughputParams {
			return ThroughputParams{Common: defaultCommon(), Aware: true, Pairs: defaultPairs()}
		},
		func(p ThroughputParams) (*mechanism.Config, error) {
			run := &alloc.LPs{}
			a := &alloc.PerJob{Objective: "throughput", Aware: p.Aware, Normalized: p.Normalized, LPs: run,
				SpaceSharing: p.SpaceSharing, PairCandidates: p.PairCandidates, PairThreshold: p.PairThreshold}
			m := newMechanism(p.Common, "max throughput", a, run)
			m.MaxWaiting = p.MaxWaiting
			m.Shuffle, m.SpaceSharing = shuffleFor(p.Aware), p.SpaceSharing
			return m, nil
		})
	register("gavel-min-cost", "Gavel min cost",
		"Minimise cost: maximise throughput per dollar, optionally keeping every job able to meet its deadline (SLO)."+mechanismDoc,
		func() CostParams {
			return CostParams{Common: defaultCommon(), Objective: "per-dollar", Pairs: defaultPairs()}
		},
		func(p CostParams) (*mechanism.Config, error) {
			run := &alloc.LPs{}
			a := &alloc.PerJob{Objective: "cost", Aware: true, SLO: p.SLO, SLOMargin: p.SLOMargin, RoundS: p.RoundS, Ratio: p.Objective == "ratio", LPs: run,
				SpaceSharing: p.SpaceSharing, PairCandidates: p.PairCandidates, PairThreshold: p.PairThreshold}
			m := newMechanism(p.Common, "min cost", a, run)
			m.MaxWaiting = p.MaxWaiting
			m.SpaceSharing = p.SpaceSharing
			m.SetPrices = func(types []string) error {
				pr, err := p.priceList(types)
				a.Prices = pr
				return err
			}
			return m, nil
		})
	register("gavel-gandiva", "Gandiva SS",
		"LAS with Gandiva-style packing (a baseline): when jobs ask for more GPUs than there are, random jobs of the same size are paired on shared GPUs, and time is split equally; pairs that do badly are split (the reference pairs blindly and splits them at its next recomputation; modes clean and ideal never form such a pair, since its jobs would get no time until then)."+mechanismDoc,
		func() struct{ Common } { return struct{ Common }{defaultCommon()} },
		func(p struct{ Common }) (*mechanism.Config, error) {
			// The reference's blind pairing relies on its idle GPUs
			// running entries whose target is 0 (ref-compat).
			m := newMechanism(p.Common, "Gandiva", &alloc.Gandiva{OnlyKept: p.Mode != "ref-compat"}, nil)
			m.SpaceSharing = true
			return m, nil
		})
	register("gavel-allox", "AlloX",
		"AlloX (a baseline, single-GPU jobs): jobs keep their GPU until they finish; waiting jobs are matched to positions in the GPUs' queues by a min-cost assignment that favours short jobs on fast GPUs."+mechanismDoc,
		func() AlloXParams { return AlloXParams{Common: defaultCommon(), Alpha: 1, MaxJobs: 64} },
		func(p AlloXParams) (*mechanism.Config, error) {
			return newMechanism(p.Common, "AlloX", &alloc.AlloX{MaxJobs: p.MaxJobs, Alpha: p.Alpha}, nil), nil
		})
	register("gavel-isolated", "Isolated",
		"Isolated (a baseline): each of the M active jobs gets 1/M of every GPU type, heterogeneity-agnostic."+mechanismDoc,
		func() struct{ Common } { return struct{ Common }{defaultCommon()} },
		func(p struct{ Common }) (*mechanism.Config, error) {
			m := newMechanism(p.Common, "isolated", alloc.Isolated{}, nil)
			m.Shuffle = true
			return m, nil
		})
}
