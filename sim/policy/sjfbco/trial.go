package sjfbco

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

// rule is one way of placing jobs: which algorithm places a job of a given
// size, under which cap θ_u. It is what a trial runs and what the engine
// policy follows once the plan has chosen θ and κ.
type rule struct {
	kind     string          // "sjf-bco", "ff", "ls" or "rand"
	kappa    int             // sjf-bco: jobs of at most κ GPUs use FA-FFP, larger ones LBSGF
	lambda   float64         // LBSGF's λ
	lambdaOf map[int]float64 // λ_j by job size, where it differs from lambda
	theta    float64         // θ_u; +Inf for none
	u        float64         // the estimate's upper ratio u: a job adds ρ̂/u to U

	bestFit, capacityTie, pickLeastU bool // the spec's variants of FA-FFP and LBSGF
	spread                           bool // FF takes GPUs round-robin over servers (teaching)
}

// lambdaFor is λ_j of job j.
func (r *rule) lambdaFor(j *workload.Job) float64 {
	if l, ok := r.lambdaOf[j.GPUs]; ok {
		return l
	}
	return r.lambda
}

// load is what job j adds to each of its GPUs' U.
func (r *rule) load(j *workload.Job) float64 { return j.DurationS / r.u }

// place picks job j's GPUs under the rule, or nil when it must wait, and
// names the algorithm that placed it.
func (r *rule) place(v *view, j *workload.Job, rng *rand.Rand) ([]cluster.GPUID, string) {
	v.theta = r.theta
	w := r.load(j)
	switch r.kind {
	case "ff":
		if r.spread {
			return v.spread(j.GPUs, w), ruleFF + " (spread)"
		}
		return v.firstFit(j.GPUs, w), ruleFF
	case "ls":
		return v.leastU(j.GPUs, w), ruleLS
	case "rand":
		return v.random(j.GPUs, w, rng), ruleRAND
	}
	if j.GPUs <= r.kappa {
		if r.bestFit {
			return v.bestFit(j.GPUs, w), ruleFAFFP
		}
		return v.leastU(j.GPUs, w), ruleFAFFP
	}
	return v.lbsgf(j.GPUs, w, r.lambdaFor(j), r.capacityTie, r.pickLeastU), ruleLBSGF
}

// trial is one full simulation of a rule from time 0 with fresh state
// (spec 004 §1.8): jobs start in a strict order, each as soon as the rule
// places it, and progress at the perf model's rates. Its arithmetic
// mirrors the engine's (rates settle and change only for the jobs a
// placement change affects, by the model's coupling; a completion fires at
// now + remaining/rate), so the engine replays a trial's times exactly.
type trial struct {
	c    *cluster.Cluster
	jobs []workload.Job
	m    perf.Model
	v    view
	stop func() bool // asked at every completion: give up when true

	occ      []workload.JobID // job on each GPU, -1 when idle
	at       [][]cluster.GPUID
	running  []bool
	nRunning int
	// runList holds the running jobs in ascending ID order, so that an
	// event costs the running jobs (at most one per GPU), not all jobs: a
	// whole trace is tens of thousands of jobs.
	runList   []workload.JobID
	done      []workload.JobID // scratch: the jobs completing at one instant
	remaining []float64
	rate      []float64
	last      []float64
	comp      []float64
	dirty     []bool
	dirtyList []workload.JobID
	now       float64
}

// trialResult is what a trial achieved.
type trialResult struct {
	makespan float64
	feasible bool // every job placed, none stuck, all done by the horizon
	starts   []start
}

// start is one job's placement in a trial.
type start struct {
	job  workload.JobID
	t    float64
	gpus []cluster.GPUID
	alg  string
}

func newTrial(c *cluster.Cluster, servers int, jobs []workload.Job, m perf.Model) *trial {
	n, ng := len(jobs), len(c.GPUs)
	t := &trial{c: c, jobs: jobs, m: m,
		occ: make([]workload.JobID, ng), at: make([][]cluster.GPUID, n), running: make([]bool, n),
		remaining: make([]float64, n), rate: make([]float64, n), last: make([]float64, n),
		comp: make([]float64, n), dirty: make([]bool, n)}
	t.v = view{c: c, servers: servers, u: make([]float64, ng), idle: func(g cluster.GPUID) bool { return t.occ[g] < 0 }}
	return t
}

// perf.State, for the model's rates.
func (t *trial) Cluster() *cluster.Cluster                  { return t.c }
func (t *trial) Job(id workload.JobID) *workload.Job        { return &t.jobs[id] }
func (t *trial) Placement(id workload.JobID) perf.Placement { return perf.Placement{GPUs: t.at[id]} }
func (t *trial) JobsOn(g cluster.GPUID) []workload.JobID {
	if t.occ[g] < 0 {
		return nil
	}
	return t.occ[g : g+1]
}

func (t *trial) reset() {
	for g := range t.occ {
		t.occ[g] = -1
		t.v.u[g] = 0
	}
	for i := range t.jobs {
		t.at[i], t.running[i], t.rate[i], t.last[i], t.dirty[i] = nil, false, 0, 0, false
		t.remaining[i] = t.jobs[i].Iterations
	}
	t.nRunning, t.now, t.dirtyList, t.runList = 0, 0, t.dirtyList[:0], t.runList[:0]
}

// run simulates rule r over the jobs in order; a trial that passes the
// horizon stops there (when stopAtHorizon) and is infeasible. keep asks
// for the list of starts.
func (t *trial) run(r *rule, order []workload.JobID, horizon float64, stopAtHorizon, keep bool, rng *rand.Rand) trialResult {
	t.reset()
	var res trialResult
	next := 0
	for {
		if t.stop != nil && t.stop() {
			res.makespan = math.Inf(1) // given up: the run was stopped
			return res
		}
		for next < len(order) {
			id := order[next]
			gpus, alg := r.place(&t.v, &t.jobs[id], rng)
			if gpus == nil {
				break
			}
			t.start(id, gpus, r.load(&t.jobs[id]))
			if keep {
				res.starts = append(res.starts, start{job: id, t: t.now, gpus: gpus, alg: alg})
			}
			next++
		}
		if next < len(order) && t.nRunning == 0 {
			res.makespan = math.Inf(1) // stuck: the head can never be placed
			return res
		}
		t.recompute()
		if t.nRunning == 0 {
			break
		}
		t.now = t.nextCompletion()
		if stopAtHorizon && t.now > horizon {
			res.makespan = t.now
			return res
		}
		// Completions at this instant, by job ID. A finish changes no
		// other job's completion time until recompute, so they can be
		// listed first.
		t.done = t.done[:0]
		for _, id := range t.runList {
			if t.comp[id] == t.now {
				t.done = append(t.done, id)
			}
		}
		for _, id := range t.done {
			t.finish(id)
		}
	}
	res.makespan = t.now
	res.feasible = t.now <= horizon
	return res
}

func (t *trial) nextCompletion() float64 {
	best := math.Inf(1)
	for _, id := range t.runList {
		if t.comp[id] < best {
			best = t.comp[id]
		}
	}
	return best
}

func (t *trial) start(id workload.JobID, gpus []cluster.GPUID, w float64) {
	t.settle(id)
	t.at[id] = gpus
	for _, g := range gpus {
		t.occ[g] = id
		t.v.u[g] += w
	}
	t.running[id] = true
	t.nRunning++
	i, _ := slices.BinarySearch(t.runList, id)
	t.runList = slices.Insert(t.runList, i, id)
	t.last[id] = t.now
	t.markAffected(id)
}

func (t *trial) finish(id workload.JobID) {
	t.settle(id)
	t.markAffected(id)
	for _, g := range t.at[id] {
		t.occ[g] = -1
	}
	t.at[id] = nil
	t.running[id] = false
	t.nRunning--
	if i, ok := slices.BinarySearch(t.runList, id); ok {
		t.runList = slices.Delete(t.runList, i, i+1)
	}
	t.rate[id] = 0
}

// settle advances job id's progress to now at its current rate.
func (t *trial) settle(id workload.JobID) {
	if dt := t.now - t.last[id]; t.running[id] && dt > 0 {
		t.remaining[id] -= min(t.rate[id]*dt, t.remaining[id])
	}
	t.last[id] = t.now
}

func (t *trial) markDirty(id workload.JobID) {
	if !t.dirty[id] {
		t.dirty[id] = true
		t.dirtyList = append(t.dirtyList, id)
	}
}

func (t *trial) settleDirty(id workload.JobID) {
	if !t.dirty[id] {
		t.settle(id)
		t.markDirty(id)
	}
}

// markAffected settles and marks job id and the jobs whose rates its
// placement may change, by the model's coupling, as the engine does.
func (t *trial) markAffected(id workload.JobID) {
	t.settle(id)
	t.markDirty(id)
	switch t.m.Coupling() {
	case perf.SharedGPU:
		for _, g := range t.at[id] {
			if r := t.occ[g]; r >= 0 {
				t.settleDirty(r)
			}
		}
	case perf.SharedServer:
		var seen []cluster.ServerID
		for _, g := range t.at[id] {
			srv := t.c.GPUs[g].Server
			if containsServer(seen, srv) {
				continue
			}
			seen = append(seen, srv)
			s := &t.c.Servers[srv]
			for k := range s.NumGPUs {
				if r := t.occ[s.FirstGPU+cluster.GPUID(k)]; r >= 0 {
					t.settleDirty(r)
				}
			}
		}
	case perf.Global:
		for _, r := range t.runList {
			t.settleDirty(r)
		}
	}
}

// recompute asks the model for the rates of the marked jobs.
func (t *trial) recompute() {
	for _, id := range t.dirtyList {
		t.dirty[id] = false
		if !t.running[id] {
			continue
		}
		r := t.m.Rate(t, id)
		if r == t.rate[id] {
			continue
		}
		t.rate[id] = r
		t.comp[id] = t.now + t.remaining[id]/r
	}
	t.dirtyList = t.dirtyList[:0]
}

func containsServer(list []cluster.ServerID, x cluster.ServerID) bool {
	for _, y := range list {
		if y == x {
			return true
		}
	}
	return false
}
