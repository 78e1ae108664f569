// Package ojpp implements the OJPP paper (Li et al., "Interference-aware
// opportunistic job placement for shared distributed deep learning
// clusters", JPDC 2023; spec 002): data-parallel workers share GPUs under
// an opportunistic memory model (base γ plus room for one peak δ) with a
// bound τ̄ on the probability that two peaks collide, a bound θ̄ on the
// worst interference on a GPU and a bound θ′ on the spread of one job's
// workers' slowdowns. Greedy (Algorithm 1) and the Heuristic (Algorithm
// 3, "OJPP") place jobs with Placement (Algorithm 2); the baselines of the
// paper's Table 4 are the same routine with fewer constraints; OJPAP
// (Algorithm 4) moves workers away from the most interfered GPUs online.
// The policies need the memshare perf model (sim/perf/memshare.go).
package ojpp

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

// Params are the knobs of every OJPP policy; each registered name presets
// them to one algorithm of the paper's Table 4.
type Params struct {
	TauMax      float64 `json:"tau_max" min:"0" max:"1" help:"τ̄: the most a GPU's collision probability (two memory peaks at once) may be"`
	ThetaMax    float64 `json:"theta_max" min:"0" max:"100" help:"θ̄: the most the worst slowdown on a GPU may be (0.2 = 20% slower)"`
	ThetaBal    float64 `json:"theta_bal" min:"0" max:"100" help:"θ′: the most the slowdowns of one job's workers may differ (worker balance)"`
	Collision   bool    `json:"collision" help:"enforce τ̄ (Eq. 5)"`
	Interfere   bool    `json:"interference" help:"enforce θ̄ (Eq. 7)"`
	Balance     bool    `json:"balance" help:"enforce θ′ (Eq. 8)"`
	Order       string  `json:"order" enum:"bfd,gregarious" help:"job order: best-fit decreasing (α, then peak memory, then workers) or gregarious (least collision-prone first, Algorithm 3)"`
	Select      string  `json:"select" enum:"min-theta,best-fit" help:"device for each worker: the lowest potential interference, or the tightest fit"`
	Memory      string  `json:"memory" enum:"opportunistic,average,peak" help:"memory a GPU must hold: bases plus one peak (Eq. 3), bases only, or every peak"`
	StrictBal   bool    `json:"balance_strict,omitempty" help:"Algorithm 2 literally (line 11, min(v_i) = 0): a job that does not fit on the GPUs in use is placed again with every worker within θ′ of a worker alone on a new GPU, i.e. slowdown ≤ θ′ (ambiguity A8); off: only the spread among the workers placed counts"`
	Separate    bool    `json:"separate_gpus,omitempty" help:"put a job's workers on distinct GPUs (anti-affinity, as the paper's Fig. 9 variant)"`
	Dedicated   bool    `json:"dedicated,omitempty" help:"one GPU per worker, no sharing (the paper's reference for saved GPUs)"`
	Belief      string  `json:"belief" enum:"true,noisy,linear,knn,svr,tree,best" help:"interference matrix the policy plans with: the true one; the true one plus noise of mean absolute error ε; or predicted from a measured share of its cells by ridge regression, k-NN, linear ε-SVR, a regression tree, or whichever of the four has the lowest leave-one-out error (the paper's AIP)"`
	SVRC        float64 `json:"svr_c,omitempty" min:"0" max:"1e6" help:"C of the ε-SVR prediction: the larger, the less its weights are shrunk (default 1)"`
	SVREps      float64 `json:"svr_epsilon,omitempty" min:"0" max:"10" help:"ε of the ε-SVR prediction: errors smaller than this cost nothing (default 0.01)"`
	TreeDepth   int     `json:"tree_depth,omitempty" min:"1" max:"20" help:"most splits on a path of the regression-tree prediction (default 4)"`
	TreeLeaf    int     `json:"tree_min_leaf,omitempty" min:"1" max:"100" help:"fewest measured cells a leaf of the regression tree keeps (default 2)"`
	MeasuredSh  float64 `json:"measured_share,omitempty" min:"0" max:"1" help:"share of the matrix's off-diagonal cells measured to train the prediction (the diagonal always is)"`
	PredictAll  bool    `json:"predict_all,omitempty" help:"use predictions for the measured cells too (the paper's Fig. 11 predicts the whole matrix)"`
	Noise       float64 `json:"noise,omitempty" min:"0" max:"10" help:"ε of the noisy belief"`
	NoiseSeed   uint64  `json:"noise_seed,omitempty" help:"seed of the noisy belief's draws (added to the run's seed)"`
	NoiseRel    bool    `json:"noise_relative,omitempty" help:"noise relative to each cell instead of absolute"`
	Adjust      string  `json:"adjust" enum:"off,ewma,periodic,watch" help:"online adjustment (OJPAP): never, when a GPU's smoothed interference passes θ̄, or every period; watch: trigger as ewma but move nothing (the control that shows how interference falls by itself)"`
	AdjRetry    bool    `json:"adjust_retry,omitempty" help:"OJPAP: when a GPU's cheapest worker cannot move, try its next-cheapest job's (a variant of this simulator; the paper moves only the cheapest)"`
	AdjBalance  bool    `json:"adjust_balance" help:"OJPAP keeps the balance bound θ′ when it moves a worker (Definition 3: every OJPP constraint); off: a worker may leave its siblings for a quieter GPU"`
	TickS       float64 `json:"tick_s,omitempty" min:"1" max:"1e6" unit:"s" help:"how often interference is observed"`
	EwmaA       float64 `json:"ewma_a,omitempty" min:"0" max:"1" help:"a of Eq. 18: weight of the past in the smoothed interference"`
	Cooldown    int     `json:"cooldown_ticks,omitempty" min:"0" max:"1000000" help:"ticks after an adjustment before the next"`
	PeriodTicks int     `json:"period_ticks,omitempty" min:"1" max:"1000000" help:"ticks between periodic adjustments"`
	MigBudgetS  float64 `json:"mig_budget_s,omitempty" min:"0" max:"1e10" unit:"s" help:"c̄: the most migration downtime one adjustment may spend (Eq. 19)"`
	IdleTargets bool    `json:"idle_targets,omitempty" help:"an adjustment may move workers onto idle GPUs"`
	MaxWaiting  int     `json:"max_waiting,omitempty" min:"0" max:"1000000" help:"an approximation for very long queues, off when 0 (the default, as in the paper): if above 0, each decision orders and places only this many waiting jobs, the first to arrive; the others wait for a later decision. A decision then costs about the same whatever the queue's length, instead of growing with it (a whole trace on a full cluster queues thousands of jobs)"`
}

func (p Params) config() Config {
	return Config{TauMax: p.TauMax, ThetaMax: p.ThetaMax, ThetaBal: p.ThetaBal, Tau: p.Collision, Theta: p.Interfere, Bal: p.Balance, StrictBal: p.StrictBal,
		Order: p.Order, Select: p.Select, Memory: p.Memory, Separate: p.Separate, Dedicated: p.Dedicated}
}

// defaults is OJPP with the paper's default thresholds (τ̄, θ̄, θ′) =
// (0.1, 0.2, 0.1) (§5.2), the spec's regressors (§4.2) and its online
// settings (§1.5, §3.5).
func defaults() Params {
	return Params{TauMax: 0.1, ThetaMax: 0.2, ThetaBal: 0.1, Collision: true, Interfere: true, Balance: true,
		Order: "gregarious", Select: "min-theta", Memory: "opportunistic", Belief: "true", Adjust: "off",
		MeasuredSh: 0.5, SVRC: 1, SVREps: 0.01, TreeDepth: 4, TreeLeaf: 2, TickS: 60, EwmaA: 0.8, Cooldown: 10, PeriodTicks: 30, MigBudgetS: 60, IdleTargets: true, AdjBalance: true}
}

// Policy places each pending job's workers with the configured algorithm
// when it arrives (all at once for the paper's static queues), and leaves
// a job that finds no idle GPU waiting until one is freed.
type Policy struct {
	p      Params
	truth  *perf.MemShare
	belief *perf.MemShare
	online *online
	// lastSnap is the placement of the last snapshot (see snapshot).
	lastSnap string
	// pl is the planner of the last decision, kept so that the next one
	// clears it instead of making one anew (see planFrom).
	pl *planner
	// settled: the last decision's placement pass started no job, and no
	// job has arrived, started, moved or finished since (the counts are
	// those of that moment). A pass is a function of the placement and the
	// waiting jobs, so a decision woken only by the clock (OJPAP's ticks,
	// every minute) would start none either, and skips it.
	settled   bool
	settledAt [3]int // pending, running and finished jobs when settled
	passes    int    // placement passes run (for the tests)
	noSkip    bool   // run every pass (the tests' reference)
	// q is the waiting jobs by kind, kept across decisions (see queue).
	q *queue
	// fullWalk walks the whole queue job by job (the tests' reference
	// for the lazy walk); fullWalks counts the passes that did.
	fullWalk  bool
	fullWalks int
}

// New builds a policy from its parameters.
func New(p Params) *Policy { return &Policy{p: p} }

// Options implements engine.Policy: workers of one job may share a GPU.
func (o *Policy) Options() engine.Options {
	return engine.Options{MaxJobsPerGPU: 64, SameJobColocation: true}
}

// init finds the memshare model and builds the believed one.
func (o *Policy) init(s *engine.State) error {
	ms, ok := perf.As[*perf.MemShare](s.Perf())
	if !ok {
		return fmt.Errorf("the OJPP policies need the memshare perf model (perf.model: \"memshare\")")
	}
	o.truth, o.belief = ms, ms
	seed := o.p.NoiseSeed + s.Rand().Uint64()
	switch o.p.Belief {
	case "noisy":
		o.belief = ms.WithMatrix(perf.NoisyMatrix(ms.Matrix(), o.p.Noise, o.p.NoiseRel, seed))
	case "linear", "knn", "svr", "tree", "best":
		types := make([]workload.MemShareType, ms.NumTypes())
		for i := range types {
			types[i] = ms.Type(i)
		}
		m, rep, err := perf.PredictMatrix(ms.Matrix(), types, perf.PredictOptions{Model: o.p.Belief, Measured: o.p.MeasuredSh, PredictAll: o.p.PredictAll, Seed: seed,
			SVR: perf.SVROptions{C: o.p.SVRC, Epsilon: o.p.SVREps}, Tree: perf.TreeOptions{MaxDepth: o.p.TreeDepth, MinLeaf: o.p.TreeLeaf}})
		if err != nil {
			return err
		}
		o.belief = ms.WithMatrix(m)
		if s.Recording() {
			s.Log(-1, "interference predicted by %s from %d measured cells: leave-one-out error linear %.3f, k-NN %.3f, SVR %.3f, tree %.3f; error against the true matrix %.3f (%.3f on the cells not measured)",
				rep.Chosen, rep.Measured, rep.LinearLOO, rep.KNNLOO, rep.SVRLOO, rep.TreeLOO, rep.MAE, rep.MAEUnseen)
			s.Record("ojpp/belief_loo", -1, looOf(rep))
		}
	}
	if o.belief != ms && s.Recording() {
		s.Record("ojpp/belief_mae", -1, matrixMAE(o.belief.Matrix(), ms.Matrix()))
	}
	if o.p.Adjust != "off" {
		n := len(s.Cluster().GPUs)
		o.online = &online{ewma: make([]float64, n), seen: make([]bool, n), arrived: make([]float64, n)}
		for g := range o.online.arrived {
			o.online.arrived[g] = -1
		}
	}
	return nil
}

// planFrom builds the planner over the engine's current placement. The
// jobs' parameters never change, so they are read once, and each decision
// clears the last one's planner (the devices and the jobs it placed)
// instead of making one anew: a decision then costs the cluster and the
// jobs in it, not every job of the run (a trace holds tens of thousands).
// The planner it returns is valid until the next call.
func (o *Policy) planFrom(s *engine.State) *planner {
	if o.pl == nil || len(o.pl.info) != s.NumJobs() {
		jobs := make([]workload.Job, s.NumJobs())
		for i := range jobs {
			jobs[i] = *s.Job(workload.JobID(i))
		}
		o.pl = newPlanner(o.belief, o.p.config(), jobs, len(s.Cluster().GPUs))
	} else {
		o.pl.clear()
	}
	pl := o.pl
	for g := range pl.dev {
		for _, j := range s.JobsOn(cluster.GPUID(g)) {
			pl.dev[g].w = append(pl.dev[g].w, j)
			pl.placed(j, g)
		}
		pl.refresh(g)
	}
	return pl
}

// Decide implements engine.Policy.
func (o *Policy) Decide(s *engine.State, triggers []engine.Trigger) error {
	if o.truth == nil {
		if err := o.init(s); err != nil {
			return err
		}
	}
	pl := o.planFrom(s)
	if o.q == nil {
		o.q = newQueue(pl)
	}
	o.q.sync(s, pl, triggers)
	counts := [3]int{s.NumPending(), s.NumRunning(), s.NumFinished()}
	if o.noSkip || !o.settled || counts != o.settledAt || !clockOnly(triggers) {
		o.passes++
		started, err := o.place(s, pl)
		if err != nil {
			return err
		}
		o.settled, o.settledAt = !started, counts
	}
	if o.online != nil {
		if err := o.tick(s, pl); err != nil {
			return err
		}
	}
	return o.snapshot(s)
}

// clockOnly reports whether a decision was woken by wake-ups alone.
func clockOnly(triggers []engine.Trigger) bool {
	for _, t := range triggers {
		if t.Kind != engine.WakeUp {
			return false
		}
	}
	return true
}

// place starts the waiting jobs the algorithm finds room for, in its
// order, and reports whether it started any.
//
// A job of a kind (type, workers, compute) that found no room since the
// last start is not tried: a failed placement leaves the planner as it
// was, and the planner sees only a job's kind, so it would find no room
// either. That spares a long queue a try on every GPU for each of its
// jobs, and the lazy walk (see queue) spares it the visit too.
func (o *Policy) place(s *engine.State, pl *planner) (bool, error) {
	if !o.fullWalk && (o.p.MaxWaiting <= 0 || s.NumPending() <= o.p.MaxWaiting) {
		if w, ok := newWalk(o.q, pl); ok {
			return o.placeLazy(s, pl, w)
		}
	}
	o.fullWalks++
	started := false
	var failed []jobInfo // the kinds that found no room since the last start
	for _, j := range pl.order(o.waiting(s)) {
		if slices.Contains(failed, pl.info[j]) {
			continue
		}
		devs, forced := pl.placeJob(j)
		if devs == nil {
			failed = append(failed, pl.info[j])
			continue // no idle GPU left: it waits for a departure
		}
		failed = failed[:0]
		if err := o.start(s, pl, j, devs, forced); err != nil {
			return started, err
		}
		started = true
	}
	return started, nil
}

// placeLazy is place's pass over the whole queue, walked by w.
func (o *Policy) placeLazy(s *engine.State, pl *planner, w *walk) (bool, error) {
	started := false
	for {
		r, k, ok := w.next()
		if !ok {
			return started, nil
		}
		j := pl.byRank[r]
		devs, forced := pl.placeJob(j)
		if devs == nil {
			w.fail(k)
			continue
		}
		if err := o.start(s, pl, j, devs, forced); err != nil {
			return started, err
		}
		started = true
		w.started(k)
	}
}

// start starts job j on devices devs, as the planner placed it, and takes
// it out of the queue.
func (o *Policy) start(s *engine.State, pl *planner, j workload.JobID, devs []int, forced bool) error {
	gpus := make([]cluster.GPUID, len(devs))
	for i, d := range devs {
		gpus[i] = cluster.GPUID(d)
	}
	if err := s.Start(j, gpus, engine.ActionOptions{}); err != nil {
		return fmt.Errorf("ojpp: %w", err)
	}
	o.q.remove(j, pl.bfdRank[j])
	if o.online != nil {
		o.online.arrive(s.Now(), devs...)
	}
	if s.Recording() {
		s.Log(j, "placed %s: %s%s", workers(len(devs)), pl.describe(devs), forcedNote(forced))
	}
	return nil
}

// waiting returns the pending jobs a decision places, in arrival order:
// all of them, or with max_waiting the first that many.
func (o *Policy) waiting(s *engine.State) []workload.JobID {
	if o.p.MaxWaiting <= 0 || s.NumPending() <= o.p.MaxWaiting {
		return s.Pending()
	}
	out := make([]workload.JobID, 0, o.p.MaxWaiting)
	s.EachPending(func(id workload.JobID) bool {
		out = append(out, id)
		return len(out) < o.p.MaxWaiting
	})
	return out
}

// looOf is the leave-one-out error of the model that filled the matrix.
func looOf(r perf.PredictReport) float64 {
	switch r.Chosen {
	case "knn":
		return r.KNNLOO
	case "svr":
		return r.SVRLOO
	case "tree":
		return r.TreeLOO
	}
	return r.LinearLOO
}

// matrixMAE is the mean absolute difference of two matrices.
func matrixMAE(a, b [][]float64) float64 {
	sum, n := 0.0, 0
	for i := range a {
		for k := range a[i] {
			sum += math.Abs(a[i][k] - b[i][k])
			n++
		}
	}
	return sum / float64(n)
}

func forcedNote(forced bool) string {
	if forced {
		return "; a new GPU broke the job's balance (forced)"
	}
	return ""
}

// describe says, for each GPU a job's workers went to, how many and what
// the GPU now looks like to the planner: workers, memory M_k, collision
// probability τ and worst believed slowdown θ.
func (p *planner) describe(devs []int) string {
	var parts []string
	for i, d := range devs {
		if lastIndexInt(devs[:i], d) >= 0 {
			continue
		}
		ws := p.dev[d].w
		parts = append(parts, fmt.Sprintf("%d on GPU %d (now %s, memory %.2f, τ %.3f, θ %.2f)",
			countInt(devs, d), d, workers(len(ws)), p.memory(ws), p.tau(ws), p.theta(d)))
	}
	return strings.Join(parts, "; ")
}

func workers(n int) string {
	if n == 1 {
		return "1 worker"
	}
	return fmt.Sprintf("%d workers", n)
}

func countInt(list []int, v int) int {
	n := 0
	for _, x := range list {
		if x == v {
			n++
		}
	}
	return n
}
