package perf

import (
	"fmt"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/detmath"
	"github.com/schedlab/schedlab/sim/schema"
	"github.com/schedlab/schedlab/sim/workload"
)

// RAR is the ring-all-reduce contention model of the SJF-BCO paper (spec
// 004 §1.4–§1.5, in the calibrated form of §4.2). Time is counted in slots
// of one second. A job's contention-free, single-server per-iteration time
// is τ0 = duration_s / iterations (its ρ̂ = τ0·F is duration_s). A job whose
// workers sit on one server runs at τ0; a job split over n ≥ 2 servers runs
// at
//
//	τ = τ0 + β·τ0 · [ f(α, k) − 1/R + ξ2·(n − 1) ],  k = max(1, ξ1·p)
//
// where p is its contention count (eq. 6): the largest number, over the
// servers it uses, of split jobs (itself included) with workers there.
// This is eq. 8 with b_e = 1, b_i = R·b_e, the contention-free
// inter-server exchange E = β·τ0 (which fixes the gradient size m), the
// per-server overhead ξ2·E, and the reduction, forward and backward passes
// lumped into the compute time c = τ0 − E/R − ξ2·E.
//
// The model is immutable after New, so one instance may serve runs in
// parallel.
type RAR struct {
	p RARParams
}

// RARParams configure the ring-all-reduce contention model.
type RARParams struct {
	Preset   string  `json:"preset" enum:"mild,contended,custom" help:"named parameter set (docs/sjf-bco.md; ξ1 = ξ2 = 0.5 and R = 10 in both; the paper gives none of these values): mild (β = 0.03, α = 0.2) is the paper-faithful reading, contention and overhead within 15 % of a job's run time for every policy; contended (β = 0.15, α = 0.5), our choice for Figs. 4–6, makes a bad placement cost about 25 %; custom takes beta, alpha, xi1, xi2 and r from their fields"`
	Beta     float64 `json:"beta" min:"0" max:"10" help:"β: a job's contention-free inter-server exchange time as a fraction of τ0 (not given by the paper). Used with preset custom"`
	Alpha    float64 `json:"alpha" min:"0" max:"100" help:"α: degradation slope of f(α,k) = k + α(k−1); 0 is ideal fair sharing (the paper's example form; its value is not given). Used with preset custom"`
	Xi1      float64 `json:"xi1" min:"0.000001" max:"1" help:"ξ1: effective share of contending split jobs that transmit at once, k = ξ1·p (eq. 7; the paper sets ξ1 = ξ2 without a value). Used with preset custom"`
	Xi2      float64 `json:"xi2" min:"0" max:"1" help:"ξ2: overhead per extra server, in units of the job's contention-free exchange time E (our reading; the paper gives no value). Used with preset custom"`
	R        float64 `json:"r" min:"1" max:"10000" help:"R = b_i / b_e, intra- over inter-server bandwidth (NVLink against Ethernet; 10 by our choice, the paper gives none). Used with preset custom"`
	Shape    string  `json:"shape" enum:"linear,ideal,power" help:"degradation factor f: linear k + α(k−1) (the paper's example), ideal k (fair sharing), power k^(1+α); each has f(1) = 1 and grows with k)"`
	NoClampK bool    `json:"no_clamp_k,omitempty" help:"use k = ξ1·p even below 1, so a lone split job gets more than b_e (ambiguity A1; the default clamps k at 1)"`
	Progress string  `json:"progress" enum:"floor,exact" help:"floor: a job does ⌊1/τ⌋ iterations per slot (eq. 9; 1/τ when that is 0, ambiguity A13); exact: 1/τ. Completions are not rounded up to slot ends (the engine's time is continuous)"`
}

// RAR presets of spec 004 §4.2: name -> (β, α); both use ξ1 = ξ2 = 0.5
// and R = 10.
var rarPresets = map[string][2]float64{"mild": {0.03, 0.2}, "contended": {0.15, 0.5}}

// DefaultRARParams returns the contended preset, the spec's recommendation
// for the figures.
func DefaultRARParams() *RARParams {
	return &RARParams{Preset: "contended", Beta: 0.15, Alpha: 0.5, Xi1: 0.5, Xi2: 0.5, R: 10, Shape: "linear", Progress: "floor"}
}

// Resolved returns the parameters with the preset's values filled in.
func (p RARParams) Resolved() RARParams {
	if v, ok := rarPresets[p.Preset]; ok {
		p.Beta, p.Alpha, p.Xi1, p.Xi2, p.R = v[0], v[1], 0.5, 0.5, 10
	}
	return p
}

// Check refuses a preset combined with hand-set values: a field other than
// its default or the preset's own value would silently be ignored.
func (p *RARParams) Check() []schema.Problem {
	if p.Preset == "custom" || p.Preset == "" {
		return nil
	}
	var ps []schema.Problem
	d, r := DefaultRARParams(), p.Resolved()
	for _, f := range []struct {
		name         string
		got, def, pv float64
	}{{"beta", p.Beta, d.Beta, r.Beta}, {"alpha", p.Alpha, d.Alpha, r.Alpha}, {"xi1", p.Xi1, d.Xi1, r.Xi1}, {"xi2", p.Xi2, d.Xi2, r.Xi2}, {"r", p.R, d.R, r.R}} {
		if f.got != f.def && f.got != f.pv {
			ps = append(ps, schema.Problem{Path: f.name, Msg: fmt.Sprintf("is fixed to %g by preset %q, got %g; set preset to custom to choose it", f.pv, p.Preset, f.got)})
		}
	}
	return ps
}

// NewRAR builds the model from checked parameters.
func NewRAR(p RARParams) *RAR { return &RAR{p: p.Resolved()} }

// Params returns the resolved parameters.
func (m *RAR) Params() RARParams { return m.p }

// F is the degradation factor f(α, k).
func (m *RAR) F(k float64) float64 {
	switch m.p.Shape {
	case "ideal":
		return k
	case "power":
		return detmath.Pow(k, 1+m.p.Alpha)
	}
	return k + m.p.Alpha*(k-1)
}

// Tau0 is job j's contention-free single-server iteration time in slots.
func Tau0(j *workload.Job) float64 { return j.DurationS / j.Iterations }

// IterSplit is one iteration of a job split into its parts, in seconds
// (slots): what a learner reads to see where a ring's time goes.
type IterSplit struct {
	Compute    float64 `json:"compute_s"`                 // reduction, forward and backward passes
	Intra      float64 `json:"intra_server_s"`            // exchange inside one server, at b_i
	Inter      float64 `json:"inter_server_s"`            // exchange across servers at b_e, uncontended
	Contention float64 `json:"contention_s"`              // what sharing b_e with other split rings adds
	Overhead   float64 `json:"overhead_s"`                // per-server overhead ξ2
	Rounding   float64 `json:"slot_rounding_s,omitempty"` // progress in whole iterations per slot (floor mode)
	// Interference is what co-location slowdowns on top of the model add
	// (a Composite's factors, e.g. a scenario's perf.interference).
	Interference float64 `json:"interference_s,omitempty"`
}

// Total is the time of one iteration, the sum of the parts.
func (x IterSplit) Total() float64 {
	return x.Compute + x.Intra + x.Inter + x.Contention + x.Overhead + x.Rounding + x.Interference
}

// AddScaled adds w times y to x.
func (x *IterSplit) AddScaled(y IterSplit, w float64) {
	x.Compute += w * y.Compute
	x.Intra += w * y.Intra
	x.Inter += w * y.Inter
	x.Contention += w * y.Contention
	x.Overhead += w * y.Overhead
	x.Rounding += w * y.Rounding
	x.Interference += w * y.Interference
}

// Splitter is implemented by models that can split a job's iteration time
// into its parts; the engine then records each job's mean split. The parts
// add up to the iteration time at the model's rate, 1/Rate.
type Splitter interface {
	IterSplit(s State, id workload.JobID) IterSplit
}

// IterSplit implements Splitter: eq. 8's parts at the job's placement,
// plus what floor progress rounds away (1/φ − τ).
func (m *RAR) IterSplit(s State, id workload.JobID) IterSplit {
	n, p := Contention(s, id)
	x := m.Split(s.Job(id), n, p)
	tau := x.Total()
	if r := m.Speed(tau); r != 1/tau {
		x.Rounding = 1/r - tau
	}
	return x
}

// Split is eq. 8 in the calibrated form for job j on n servers with
// contention count p: compute c, the exchange at b_i (one server) or at
// b_e (E) plus what contention adds (E·(f−1)), and the overhead ξ2·E·n.
// A one-GPU job exchanges nothing and runs at τ0 wherever it is.
func (m *RAR) Split(j *workload.Job, n, p int) IterSplit {
	t0 := Tau0(j)
	e := m.p.Beta * t0
	over := m.p.Xi2 * e
	if j.GPUs <= 1 {
		return IterSplit{Compute: t0 - over, Overhead: over}
	}
	x := IterSplit{Compute: t0 - e/m.p.R - over}
	if n <= 1 {
		x.Intra, x.Overhead = e/m.p.R, over
		return x
	}
	k := m.p.Xi1 * float64(p)
	if !m.p.NoClampK {
		k = max(1, k)
	}
	x.Inter = e
	x.Contention = e * (m.F(k) - 1)
	x.Overhead = over * float64(n)
	return x
}

// Speed is iterations per slot at iteration time tau: ⌊1/τ⌋ in floor mode
// (1/τ when that is below one), 1/τ in exact mode.
func (m *RAR) Speed(tau float64) float64 {
	r := 1 / tau
	if m.p.Progress == "floor" && r >= 1 {
		return float64(int64(r))
	}
	return r
}

// Rate implements Model.
func (m *RAR) Rate(s State, id workload.JobID) float64 {
	n, p := Contention(s, id)
	return m.Speed(m.Split(s.Job(id), n, p).Total())
}

// Coupling implements Model: a job's count depends on the split jobs
// that share one of its servers.
func (m *RAR) Coupling() Coupling { return SharedServer }

// Prepare checks that every job gives what τ0 needs and that the compute
// part c = τ0 − E/R − ξ2·E stays non-negative.
func (m *RAR) Prepare(_ *cluster.Cluster, jobs []workload.Job) error {
	for i := range jobs {
		j := &jobs[i]
		if !(j.DurationS > 0) || !(j.Iterations > 0) {
			return fmt.Errorf("job %s: the ring_allreduce perf model needs duration_s (ρ̂, in slots) and iterations (F)", j.Name)
		}
		if c := m.Split(j, 1, 0).Compute; c < 0 {
			return fmt.Errorf("job %s: β = %g leaves a negative compute time (%g slots) in τ0 = %g; lower beta or xi2", j.Name, m.p.Beta, c, Tau0(j))
		}
	}
	return nil
}

// Servers returns the servers job id's workers sit on, in ascending order.
func Servers(c *cluster.Cluster, gpus []cluster.GPUID) []cluster.ServerID {
	var out []cluster.ServerID
	for _, g := range gpus {
		srv := c.GPUs[g].Server
		i := 0
		for i < len(out) && out[i] < srv {
			i++
		}
		if i == len(out) || out[i] != srv {
			out = append(out, 0)
			copy(out[i+1:], out[i:])
			out[i] = srv
		}
	}
	return out
}

// Contention returns how many servers job id spans (n) and its contention
// count p of eq. 6: 0 when it sits on one server, else the most split
// jobs, itself included, on any of its servers.
func Contention(s State, id workload.JobID) (n, p int) {
	c := s.Cluster()
	mine := Servers(c, s.Placement(id).GPUs)
	if len(mine) <= 1 {
		return len(mine), 0
	}
	var buf [16]workload.JobID
	seen := buf[:0]
	for _, srv := range mine {
		seen = seen[:0]
		count := 0
		sv := &c.Servers[srv]
		for k := range sv.NumGPUs {
			for _, j := range s.JobsOn(sv.FirstGPU + cluster.GPUID(k)) {
				if containsJob(seen, j) {
					continue
				}
				seen = append(seen, j)
				if spansServers(c, s.Placement(j).GPUs) {
					count++
				}
			}
		}
		p = max(p, count)
	}
	return len(mine), p
}

// OnServer reports whether any of gpus lies on server srv.
func OnServer(c *cluster.Cluster, gpus []cluster.GPUID, srv cluster.ServerID) bool {
	for _, g := range gpus {
		if c.GPUs[g].Server == srv {
			return true
		}
	}
	return false
}

// spansServers reports whether gpus lie on more than one server.
func spansServers(c *cluster.Cluster, gpus []cluster.GPUID) bool {
	for _, g := range gpus[min(1, len(gpus)):] {
		if c.GPUs[g].Server != c.GPUs[gpus[0]].Server {
			return true
		}
	}
	return false
}

// Eq8 is the paper's per-iteration time (eq. 8) from physical quantities,
// for teaching and as the reference the calibrated form derives from.
type Eq8 struct {
	M, W          float64 // gradient size m_j, workers w_j
	Be, Bi, C     float64 // inter-/intra-server bandwidth, reduction speed
	DeltaF, Batch float64 // forward time per sample Δ^f, mini-batch M_j
	DeltaB        float64 // backward time per iteration Δ^b
	Xi1, Xi2      float64
	Alpha         float64
}

// Tau is eq. 8 on n servers with contention count p, f linear and k not
// clamped (the physical mode follows the formula, ambiguity A3: a
// single-server job pays ξ2 too).
func (q Eq8) Tau(n, p int) float64 {
	b := q.Bi
	if n > 1 {
		k := q.Xi1 * float64(p)
		b = q.Be / (k + q.Alpha*(k-1))
	}
	share := (q.W - 1) / q.W
	return 2*q.M*share/b + q.M*share/q.C + q.Xi2*float64(n) + q.DeltaF*q.Batch + q.DeltaB
}

func init() {
	Register(Family[RARParams]{
		Name: "ring_allreduce",
		Doc: "The SJF-BCO paper's ring-all-reduce model: a job on one server runs at its contention-free " +
			"iteration time τ0; a job split over several servers exchanges its gradients at the inter-server " +
			"bandwidth divided by f(α,k), k growing with the split jobs sharing its busiest server, and pays " +
			"an overhead per server (the SJF-BCO paper's model, with the calibration of docs/sjf-bco.md).",
		Defaults: func() RARParams { return *DefaultRARParams() },
		New: func(p RARParams, _ *cluster.Cluster) (Model, error) {
			return NewRAR(p), nil
		},
	})
}
