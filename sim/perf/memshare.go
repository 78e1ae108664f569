package perf

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/detmath"
	"github.com/schedlab/schedlab/sim/schema"
	"github.com/schedlab/schedlab/sim/workload"
)

// The memshare model is the OJPP paper's (Li et al., JPDC 2023; spec 002
// §1.3–§1.6): data-parallel workers share GPUs; each holds a base memory γ
// plus, with probability p, an extra δ; co-located workers slow each other
// down by an asymmetric pairwise matrix; and when two peaks coincide (a
// memory collision) the peaking worker pays a penalty κ.

// CollisionProb is τ of Eq. 4: the probability that at least two of
// independent Bernoulli(p_w) peaks are present at once, by the stable O(n)
// recurrence of spec 002 §1.3 (P0: no peak, P1: exactly one).
func CollisionProb(ps []float64) float64 {
	p0, p1 := 1.0, 0.0
	for _, p := range ps {
		p0, p1 = CollisionStep(p0, p1, p)
	}
	return CollisionOf(p0, p1)
}

// CollisionStep is one peak's step of CollisionProb's recurrence: the
// probabilities of no peak (p0) and of exactly one (p1) after one more
// Bernoulli(p). A planner that tries one more worker on a GPU continues
// the GPU's recurrence with it, to the same bits as CollisionProb over the
// whole list.
func CollisionStep(p0, p1, p float64) (float64, float64) {
	return p0 * (1 - p), p1*(1-p) + p0*p
}

// CollisionOf is τ from the recurrence's state (see CollisionStep).
func CollisionOf(p0, p1 float64) float64 { return max(0, 1-p0-p1) }

// OpportunisticMemory is the left side of Eq. 3: every base plus room for
// the single largest extra.
func OpportunisticMemory(gammas, deltas []float64) float64 {
	sum, peak := 0.0, 0.0
	for i, g := range gammas {
		sum += g
		peak = max(peak, deltas[i])
	}
	return sum + peak
}

// Compose combines the pairwise slowdowns a worker suffers from each of
// its co-runners (spec 002 §1.4, ambiguity A3): "sum" (the default) adds
// them, "max" keeps the worst, "product" compounds them, Π(1+x) − 1.
func Compose(rule string, xs []float64) float64 {
	r := 0.0
	switch rule {
	case "max":
		for _, x := range xs {
			r = max(r, x)
		}
	case "product":
		f := 1.0
		for _, x := range xs {
			f *= 1 + x
		}
		r = f - 1
	default:
		for _, x := range xs {
			r += x
		}
	}
	return r
}

// MemShareParams configure the memshare model. The defaults are spec 002
// §5.2's library and matrix with its ground-truth settings (κ = 1, sum,
// sync with σ = 0.1).
type MemShareParams struct {
	Types        MemShareTypes `json:"types" help:"the job-type library: α, γ, δ, p, solo time and migration cost of each type; jobs name a type as their model"`
	Models       []string      `json:"models" help:"row and column labels of the interference matrix"`
	Matrix       [][]float64   `json:"matrix" help:"extra run time of a worker of the row type per co-located worker of the column type (0.18 = 18% slower)"`
	Compose      string        `json:"compose" enum:"sum,max,product" help:"how the slowdowns from several co-runners combine"`
	Kappa        float64       `json:"kappa" min:"0" max:"100" help:"slowdown while a worker's peak collides with another's (κ; 1 doubles its step time)"`
	Aggregate    string        `json:"aggregate" enum:"sync,async" help:"a job's slowdown from its workers': sync = slowest plus σ·(ω−1)·spread (stragglers), async = mean"`
	SigmaSync    float64       `json:"sigma_sync" min:"0" max:"10" help:"σ_sync, the synchronisation cost per worker of the spread of slowdowns"`
	GPUMemoryGB  float64       `json:"gpu_memory_gb" min:"0.001" max:"1e6" unit:"GB" help:"memory of the GPU the fractions γ, δ are of (the paper's 11 GB)"`
	Collision    string        `json:"collision" enum:"paper,capacity" help:"when colliding peaks cost κ: whenever two peak at once (paper), or only when the peaks present overflow the GPU (capacity)"`
	SyncSiblings bool          `json:"sync_siblings,omitempty" help:"a job's workers on one GPU peak together, as one worker with the sum of their extras (ambiguity A2); off: independently"`
	Drift        Drift         `json:"drift,omitempty" help:"heavy phases in which a job interferes more with its neighbours (a knob of this simulator; the paper gives no model); off when delta is 0"`
	Spike        Spike         `json:"spike,omitempty" help:"start-up spikes: extra interference observed on a GPU just after a worker starts or arrives there (the paper names job start-up as a cause of short peaks); off when size is 0"`
	// DrawSeed, when not 0, replaces the values the paper does not publish
	// by a draw around them (see Draw): the robustness of a result to the
	// placeholders.
	DrawSeed  uint64  `json:"draw_seed,omitempty" help:"0: the table as given; otherwise a seed: every matrix cell and every type's α, γ, δ, p the OJPP paper does not publish is multiplied by a lognormal factor of median 1 (σ draw_sigma in log space), drawn from this seed"`
	DrawSigma float64 `json:"draw_sigma,omitempty" min:"0" max:"5" help:"σ in log space of the draw around unpublished values (0.2 when draw_seed is set and this is 0)"`
}

// Spike is the start-up transient of spec 002 §5.5 (spike_k(t) = ψ for
// two ticks after a worker starts or arrives on GPU k): the paper says
// some violations "are instantaneous and then back to the normal level
// due to the abnormal use of some resources (e.g., startup of jobs)"
// (§3.5, why OJPAP smooths with an EWMA) but gives no size or length, so
// the spec's ψ = 0.3 for 2 one-minute ticks is the suggested setting. It
// is added to the interference a scheduler observes (ObservedInterference
// via SpikeAt), not to the jobs' progress: a transient of 0.3 for two
// minutes costs a job at most 0.6 minutes per arrival.
type Spike struct {
	Size      float64 `json:"size,omitempty" min:"0" max:"100" help:"ψ: extra slowdown observed on a GPU right after a worker starts or arrives there (default 0.3, our choice)"`
	DurationS float64 `json:"duration_s,omitempty" min:"0" max:"1e8" unit:"s" help:"how long the spike lasts (default two 1-minute ticks, 120 s)"`
}

// Drift makes interference fluctuate at run time (spec 002 §5.5): time is
// cut into phases of PhaseS seconds and in each a job is heavy, with
// probability 1 − exp(−RatePerHour·PhaseS/3600) drawn from (Seed, job,
// phase), so that the damage it does to its neighbours is multiplied by
// 1 + Delta. A slotted form of the spec's Poisson phases, stateless so
// that concurrent runs can share the model.
type Drift struct {
	Delta       float64 `json:"delta,omitempty" min:"0" max:"100" help:"extra interference a job causes while heavy (Δ; 1 doubles it)"`
	PhaseS      float64 `json:"phase_s,omitempty" min:"1" max:"1e8" unit:"s" help:"length of a phase"`
	RatePerHour float64 `json:"rate_per_hour,omitempty" min:"0" max:"1000" help:"heavy phases a job starts per hour"`
	Seed        uint64  `json:"seed,omitempty" help:"seed of the phases"`
}

// MemShareTypes is a type library. One given in a scenario replaces the
// default whole, row by row.
type MemShareTypes []workload.MemShareType

// UnmarshalJSON decodes into a fresh table, so that rows never inherit
// values from the default at the same position.
func (t *MemShareTypes) UnmarshalJSON(data []byte) error {
	var rows []workload.MemShareType
	if err := json.Unmarshal(data, &rows); err != nil {
		return err
	}
	*t = rows
	return nil
}

// DefaultMemShareParams returns spec 002 §5.2's library and matrix.
func DefaultMemShareParams() *MemShareParams {
	m := make([][]float64, len(workload.OJPPMatrix))
	for i, row := range workload.OJPPMatrix {
		m[i] = append([]float64(nil), row...)
	}
	return &MemShareParams{
		Types:  append(MemShareTypes(nil), workload.OJPPTypes...),
		Models: append([]string(nil), workload.OJPPMatrixModels...),
		Matrix: m, Compose: "sum", Kappa: 1, Aggregate: "sync", SigmaSync: 0.1, GPUMemoryGB: 11, Collision: "paper",
		// Drift stays off (delta 0); the phase length is set so that a
		// scenario giving other params without drift still validates.
		Drift: Drift{PhaseS: 1800},
	}
}

// Check enforces the rules that span fields.
func (p *MemShareParams) Check() []schema.Problem {
	var ps []schema.Problem
	add := func(path, format string, args ...any) {
		ps = append(ps, schema.Problem{Path: path, Msg: fmt.Sprintf(format, args...)})
	}
	seen := map[string]bool{}
	for i, t := range p.Types {
		path := schema.Index("types", i)
		switch {
		case t.Name == "":
			add(path+".name", "must not be empty")
		case seen[t.Name]:
			add(path+".name", "%q is listed twice", t.Name)
		}
		seen[t.Name] = true
		if t.Gamma+t.Delta > 1+1e-9 {
			add(path, "γ + δ = %g is more than one GPU's memory; a worker at its peak must fit a GPU alone", t.Gamma+t.Delta)
		}
	}
	if len(p.Matrix) != len(p.Models) {
		add("matrix", "has %d rows but there are %d models", len(p.Matrix), len(p.Models))
		return ps
	}
	for i, row := range p.Matrix {
		if len(row) != len(p.Models) {
			add(schema.Index("matrix", i), "has %d values but there are %d models", len(row), len(p.Models))
			continue
		}
		for k, v := range row {
			if !(v >= 0 && v <= 100) {
				add(schema.Index(schema.Index("matrix", i), k), "must be a slowdown between 0 and 100, got %v", v)
			}
		}
	}
	for i, m := range p.Models {
		if !seen[m] {
			add(schema.Index("models", i), "%q is not a type of the library (types)", m)
		}
	}
	return ps
}

// Published values of the OJPP paper, which a draw keeps: three matrix
// cells (§1 and Fig. 1: ResNet next to VGG19, VGG19 next to ResNet, LeNet
// next to LSTM; row the victim, column the co-runner) and the one memory
// tuple it prints, Fig. 2's ResNet.
var (
	ojppPublishedCells = [][2]string{{"ResNet", "VGG19"}, {"VGG19", "ResNet"}, {"LeNet", "LSTM"}}
	ojppPublishedTypes = []string{"ResNet-Fig2"}
)

// defaultDrawSigma is the σ of the draw when DrawSigma is 0: fixed before
// any draw was run, not chosen on results.
const defaultDrawSigma = 0.2

// Draw returns p with every value the OJPP paper does not publish
// multiplied by exp(σ·Z), Z standard normal, one independent Z per value
// drawn from DrawSeed: the matrix cells row by row, then each type's α,
// γ, δ and p in library order. The paper's published cells and tuple are
// kept. A drawn fraction is capped at one GPU, and δ at 1 − γ so that a
// worker at its peak still fits a GPU alone.
func (p MemShareParams) Draw() MemShareParams {
	sigma := p.DrawSigma
	if sigma == 0 {
		sigma = defaultDrawSigma
	}
	r := rand.New(rand.NewPCG(p.DrawSeed, 0x6f6a7070)) // "ojpp"
	factor := func() float64 { return detmath.Exp(sigma * detmath.NormVariate(r)) }
	published := func(row, col string) bool {
		for _, c := range ojppPublishedCells {
			if c[0] == row && c[1] == col {
				return true
			}
		}
		return false
	}
	matrix := make([][]float64, len(p.Matrix))
	for i, row := range p.Matrix {
		matrix[i] = make([]float64, len(row))
		for k, v := range row {
			f := factor() // drawn for every cell, so a kept cell shifts no other
			if i < len(p.Models) && k < len(p.Models) && published(p.Models[i], p.Models[k]) {
				f = 1
			}
			matrix[i][k] = v * f
		}
	}
	types := append(MemShareTypes(nil), p.Types...)
	for i := range types {
		t := &types[i]
		fa, fg, fd, fp := factor(), factor(), factor(), factor()
		if slices.Contains(ojppPublishedTypes, t.Name) {
			continue
		}
		t.Alpha = math.Min(1, t.Alpha*fa)
		t.Gamma = math.Min(1, t.Gamma*fg)
		t.Delta = math.Min(1-t.Gamma, t.Delta*fd)
		t.P = math.Min(1, t.P*fp)
	}
	p.Matrix, p.Types = matrix, types
	return p
}

// MemShare is the memshare model. A policy may hold a copy with another
// matrix (WithMatrix): the matrix it believes.
type MemShare struct {
	p      MemShareParams
	index  map[string]int
	matrix [][]float64 // by type index; pairs outside the scenario's matrix are 0
}

// NewMemShare builds the model from checked parameters.
func NewMemShare(p MemShareParams) (*MemShare, error) {
	if ps := p.Check(); len(ps) > 0 {
		return nil, fmt.Errorf("%s: %s", ps[0].Path, ps[0].Msg)
	}
	if p.DrawSeed != 0 {
		p = p.Draw()
	}
	m := &MemShare{p: p, index: map[string]int{}}
	for i, t := range p.Types {
		m.index[t.Name] = i
	}
	m.matrix = make([][]float64, len(p.Types))
	for i := range m.matrix {
		m.matrix[i] = make([]float64, len(p.Types))
	}
	for r, a := range p.Models {
		for c, b := range p.Models {
			m.matrix[m.index[a]][m.index[b]] = p.Matrix[r][c]
		}
	}
	return m, nil
}

// WithMatrix returns a copy of m that uses matrix (by type index, as
// Matrix returns it) for the pairwise slowdowns: a believed model.
func (m *MemShare) WithMatrix(matrix [][]float64) *MemShare {
	c := *m
	c.matrix = matrix
	return &c
}

// Matrix returns a copy of the pairwise matrix by type index.
func (m *MemShare) Matrix() [][]float64 {
	out := make([][]float64, len(m.matrix))
	for i, row := range m.matrix {
		out[i] = append([]float64(nil), row...)
	}
	return out
}

// NumTypes is the size of the library.
func (m *MemShare) NumTypes() int { return len(m.p.Types) }

// Type returns type i of the library.
func (m *MemShare) Type(i int) workload.MemShareType { return m.p.Types[i] }

// TypeIndex returns the library index of a model name.
func (m *MemShare) TypeIndex(model string) (int, bool) {
	i, ok := m.index[model]
	return i, ok
}

// Params returns the model's settings.
func (m *MemShare) Params() MemShareParams { return m.p }

// Pair is the slowdown of a worker of type a next to one of type b.
func (m *MemShare) Pair(a, b int) float64 { return m.matrix[a][b] }

// Interference is the matrix part of a worker's slowdown (ŝ of spec 002
// §1.4): its pairwise slowdowns from each co-runner, composed.
func (m *MemShare) Interference(me int, co []int) float64 {
	return m.interferenceScaled(me, co, nil)
}

// interferenceScaled is Interference with each co-runner's cell times
// scale[i] (its drift; nil for none).
func (m *MemShare) interferenceScaled(me int, co []int, scale []float64) float64 {
	var buf [16]float64
	xs := buf[:0]
	for i, u := range co {
		x := m.matrix[me][u]
		if scale != nil {
			x *= scale[i]
		}
		xs = append(xs, x)
	}
	return Compose(m.p.Compose, xs)
}

// drifting reports whether the model's interference changes with time.
func (m *MemShare) drifting() bool { return m.p.Drift.Delta > 0 && m.p.Drift.PhaseS > 0 }

// DriftOf is the factor on the interference job j causes at time t: 1 + Δ
// in its heavy phases, else 1.
func (m *MemShare) DriftOf(j workload.JobID, t float64) float64 {
	if !m.drifting() {
		return 1
	}
	d := m.p.Drift
	k := uint64(max(0, t) / d.PhaseS)
	r := rand.New(rand.NewPCG(d.Seed^0xd21f7, uint64(j)<<32^k))
	if r.Float64() < 1-detmath.Exp(-d.RatePerHour*d.PhaseS/3600) {
		return 1 + d.Delta
	}
	return 1
}

// SpikeAt is the start-up spike a GPU shows at time now when a worker last
// started or arrived on it at arrivedS (negative: never).
func (m *MemShare) SpikeAt(now, arrivedS float64) float64 {
	sp := m.p.Spike
	if sp.Size <= 0 || arrivedS < 0 || now < arrivedS || now-arrivedS >= sp.DurationS {
		return 0
	}
	return sp.Size
}

// NextChange implements Timed: with drift, rates may change at every phase
// boundary.
func (m *MemShare) NextChange(_ State, _ workload.JobID, now float64) float64 {
	if !m.drifting() {
		return math.Inf(1)
	}
	return (math.Floor(now/m.p.Drift.PhaseS) + 1) * m.p.Drift.PhaseS
}

// clock is what a State offers when it knows the time (the engine's does).
type clock interface{ Now() float64 }

// ObservedInterference is the matrix part of the slowdown a worker of job
// id suffers now beside the workers of jobs co (one entry per worker),
// drift included: what a scheduler would measure.
func (m *MemShare) ObservedInterference(s State, id workload.JobID, co []workload.JobID) float64 {
	var tbuf [16]int
	var fbuf [16]float64
	types, scale := tbuf[:0], fbuf[:0]
	now := 0.0
	if c, ok := s.(clock); ok {
		now = c.Now()
	}
	for _, u := range co {
		types = append(types, m.typeOf(s.Job(u)))
		scale = append(scale, m.DriftOf(u, now))
	}
	return m.interferenceScaled(m.typeOf(s.Job(id)), types, scale)
}

// WorkerSlowdown is the ground-truth slowdown s_w of a worker of type me
// sharing its GPU with workers of types co, each of another job (spec 002
// §1.6): the matrix part plus the expected collision penalty.
func (m *MemShare) WorkerSlowdown(me int, co []int) float64 {
	self := Peak{Job: -1, P: m.p.Types[me].P, Delta: m.p.Types[me].Delta}
	gsum := m.p.Types[me].Gamma
	units := make([]Peak, len(co))
	for i, u := range co {
		units[i] = Peak{Job: workload.JobID(-2 - i), P: m.p.Types[u].P, Delta: m.p.Types[u].Delta}
		gsum += m.p.Types[u].Gamma
	}
	return m.Interference(me, co) + m.collision(self, units, gsum)
}

// JobSlowdown aggregates a job's worker slowdowns (spec 002 §1.6): sync is
// the slowest worker plus σ·(ω−1)·(max−min), async the mean.
func (m *MemShare) JobSlowdown(ws []float64) float64 {
	if len(ws) == 0 {
		return 0
	}
	lo, hi, sum := ws[0], ws[0], 0.0
	for _, w := range ws {
		lo, hi, sum = min(lo, w), max(hi, w), sum+w
	}
	if m.p.Aggregate == "async" {
		return sum / float64(len(ws))
	}
	return hi + m.p.SigmaSync*float64(len(ws)-1)*(hi-lo)
}

// typeOf is the library index of a job's type; Prepare has checked it.
func (m *MemShare) typeOf(j *workload.Job) int { return m.index[j.Model] }

// Prepare completes each job from its type: solo time, compute α and one
// iteration per second of solo time. A job of a type the library lacks is
// an error.
func (m *MemShare) Prepare(_ *cluster.Cluster, jobs []workload.Job) error {
	for i := range jobs {
		j := &jobs[i]
		k, ok := m.index[j.Model]
		if !ok {
			return fmt.Errorf("job %s: model %q is not a type of the memshare library (perf.params.types)", j.Name, j.Model)
		}
		t := m.p.Types[k]
		if j.DurationS == 0 {
			j.DurationS = t.TSoloS
		}
		if !(j.DurationS > 0) {
			return fmt.Errorf("job %s: type %s has no solo time; give duration_s or t_solo_s", j.Name, t.Name)
		}
		if j.Compute == 0 {
			j.Compute = t.Alpha
		}
		if j.Iterations == 0 {
			j.Iterations = j.DurationS
		}
	}
	return nil
}

// MemoryGB implements MemoryModel: a worker always holds its base γ. The
// engine's memory invariant is thus Σγ ≤ capacity; Eq. 3 (room for one
// peak on top) is the placement's constraint, and peaks that collide
// cost run time (CollisionPenalty), not a crash.
func (m *MemShare) MemoryGB(j *workload.Job, _ int) float64 {
	k, ok := m.index[j.Model]
	if !ok {
		return j.MemoryGB
	}
	return m.p.Types[k].Gamma * m.p.GPUMemoryGB
}

// Rate implements Model: the solo rate over 1 + the job's slowdown, each
// worker (one per entry of its placement) slowed by whoever shares its GPU,
// its own siblings included.
func (m *MemShare) Rate(s State, id workload.JobID) float64 {
	j := s.Job(id)
	base := j.Iterations / j.DurationS
	var wbuf [16]float64
	ws := wbuf[:0]
	for _, g := range s.Placement(id).GPUs {
		ws = append(ws, m.slowdownOn(s, id, s.JobsOn(g)))
	}
	return base / (1 + m.JobSlowdown(ws))
}

// slowdownOn is s_w of one worker of job id among the workers on its GPU
// (residents, one entry per worker, the worker itself included).
func (m *MemShare) slowdownOn(s State, id workload.JobID, residents []workload.JobID) float64 {
	inter, coll := m.slowdownParts(s, id, residents, nil)
	return inter + coll
}

// Blame is one co-runner's share of a worker's interference: the matrix
// cell of the worker's type against the co-runner's, times the co-runner's
// drift, before the cells are composed.
type Blame struct {
	Job  workload.JobID
	Cell float64
}

// WorkerBreakdown splits the slowdown s_w of one worker of job id among
// residents (as Rate sees it: one entry per worker, itself included) into
// its matrix part, its expected collision penalty and each co-runner's
// cell, so that a view shows the very numbers the run used.
func (m *MemShare) WorkerBreakdown(s State, id workload.JobID, residents []workload.JobID) (interference, collision float64, from []Blame) {
	interference, collision = m.slowdownParts(s, id, residents, func(r workload.JobID, x float64) {
		from = append(from, Blame{Job: r, Cell: x})
	})
	return interference, collision, from
}

// slowdownParts is s_w in two parts, the composed interference and the
// collision penalty; blame, when set, sees each co-runner's scaled cell.
func (m *MemShare) slowdownParts(s State, id workload.JobID, residents []workload.JobID, blame func(workload.JobID, float64)) (float64, float64) {
	me := m.typeOf(s.Job(id))
	var cbuf [16]int
	var ubuf [16]Peak
	var fbuf [16]float64
	co, units, scale := cbuf[:0], ubuf[:0], fbuf[:0]
	self := Peak{P: m.p.Types[me].P, Delta: m.p.Types[me].Delta}
	gsum, skipped := 0.0, false
	now := 0.0
	if c, ok := s.(clock); ok && m.drifting() {
		now = c.Now()
	}
	for _, r := range residents {
		t := m.typeOf(s.Job(r))
		gsum += m.p.Types[t].Gamma
		if r == id && !skipped {
			skipped = true // the worker itself
			continue
		}
		co = append(co, t)
		scale = append(scale, m.DriftOf(r, now))
		if blame != nil {
			blame(r, m.matrix[me][t]*scale[len(scale)-1])
		}
		switch {
		case m.p.SyncSiblings && r == id:
			self.Delta += m.p.Types[t].Delta // peaks with the worker
		case m.p.SyncSiblings && firstUnit(units, r) >= 0:
			units[firstUnit(units, r)].Delta += m.p.Types[t].Delta
		default:
			units = append(units, Peak{Job: r, P: m.p.Types[t].P, Delta: m.p.Types[t].Delta})
		}
	}
	return m.interferenceScaled(me, co, scale), m.collision(self, units, gsum)
}

// Peak is a unit that peaks as one: a worker, or with synchronous
// siblings all of one job's workers on a GPU (their extras summed).
type Peak struct {
	Job   workload.JobID
	P     float64
	Delta float64
}

func firstUnit(units []Peak, j workload.JobID) int {
	for i, u := range units {
		if u.Job == j {
			return i
		}
	}
	return -1
}

// collision is the expected collision penalty of a worker peaking as self
// beside the other peak units of its GPU, whose bases sum to gsum: κ ·
// p_self · Pr[a collision]. In paper mode any other peak is a collision;
// in capacity mode only peaks that take the GPU over its memory (the
// subsets of the others are enumerated; beyond 16 units, paper mode).
func (m *MemShare) collision(self Peak, others []Peak, gsum float64) float64 {
	if m.p.Collision != "capacity" || len(others) > 16 {
		none := 1.0
		for _, u := range others {
			none *= 1 - u.P
		}
		return m.p.Kappa * self.P * (1 - none)
	}
	over := 0.0
	for mask := range 1 << len(others) {
		pr, mem := 1.0, gsum+self.Delta
		for i, u := range others {
			if mask&(1<<i) != 0 {
				pr *= u.P
				mem += u.Delta
			} else {
				pr *= 1 - u.P
			}
		}
		if mem > 1+1e-9 {
			over += pr
		}
	}
	return m.p.Kappa * self.P * over
}

// Coupling implements Model.
func (m *MemShare) Coupling() Coupling { return SharedGPU }

// NoisyMatrix is the "noisy oracle" believed matrix of spec 002 §4.2:
// each cell plus e ~ U(−2ε, 2ε) (times the cell when relative), floored at
// 0, so that the mean absolute error is about ε. Deterministic per seed.
func NoisyMatrix(truth [][]float64, eps float64, relative bool, seed uint64) [][]float64 {
	r := rand.New(rand.NewPCG(seed, 0x0a1b))
	out := make([][]float64, len(truth))
	for i, row := range truth {
		out[i] = make([]float64, len(row))
		for k, v := range row {
			e := (r.Float64()*4 - 2) * eps
			if relative {
				e *= v
			}
			out[i][k] = max(0, v+e)
		}
	}
	return out
}

func init() {
	Register(Family[MemShareParams]{
		Name: "memshare",
		Doc: "The OJPP paper's opportunistic memory sharing: workers hold a base memory γ plus an extra δ with " +
			"probability p; co-located workers slow each other by an asymmetric pairwise matrix, and colliding " +
			"peaks cost κ; a job runs at its solo speed over 1 + the slowdown of its workers.",
		Defaults: func() MemShareParams { return *DefaultMemShareParams() },
		New: func(p MemShareParams, _ *cluster.Cluster) (Model, error) {
			return NewMemShare(p)
		},
	})
}
