package workload

import (
	"fmt"
	"math"

	"github.com/schedlab/schedlab/sim/schema"
)

// The SJF-BCO paper's offline batch (spec 004 §4.1–§4.2): 160 ring-all-
// reduce jobs scaled from Microsoft's Philly trace, all present at time 0.
// Time is in slots (one slot is one second here). Each job gets an
// estimated run time ρ̂ (its duration_s), a contention-free per-iteration
// time τ0 and F iterations with ρ̂ = τ0·F, so that the ring_allreduce perf
// model runs it at τ0 when nothing slows it down.

// SizeCount is how many jobs ask for one GPU count.
type SizeCount struct {
	GPUs  int `json:"gpus" min:"1" max:"4096" help:"GPUs (workers) of each of these jobs"`
	Count int `json:"count" min:"0" max:"1000000" help:"how many jobs ask for that many GPUs"`
}

// SJFBCOParams describe the batch.
type SJFBCOParams struct {
	Sizes    []SizeCount `json:"sizes" help:"job-size mix as exact counts; default the paper's 80×1, 14×2, 26×4, 30×8, 8×16, 2×32 GPUs (644 GPUs in all)"`
	RhoMin   float64     `json:"rho_min" min:"0.001" max:"1e9" unit:"slots" help:"smallest estimated run time ρ̂ = τ0·F (the paper's 50)"`
	RhoMax   float64     `json:"rho_max" min:"0.001" max:"1e9" unit:"slots" help:"largest estimated run time (the paper's 300)"`
	TauMin   float64     `json:"tau_min" min:"0.000001" max:"1000" unit:"slots" help:"smallest contention-free iteration time τ0 (the paper's 0.01)"`
	TauMax   float64     `json:"tau_max" min:"0.000001" max:"1000" unit:"slots" help:"largest contention-free iteration time (the paper's 0.05)"`
	FMin     int         `json:"f_min" min:"1" max:"1000000000" help:"fewest iterations F (the paper's 1000, after Yu et al., TNSE 2021)"`
	FMax     int         `json:"f_max" min:"1" max:"1000000000" help:"most iterations (the paper's 6000)"`
	PerHour  float64     `json:"jobs_per_hour,omitempty" min:"0" max:"1e9" unit:"jobs/h" help:"Poisson arrival rate in the shuffled input order; 0, the paper's, submits the whole batch at time 0 (the SJF-BCO policies plan only such a batch)"`
	Sampling string      `json:"sampling" enum:"rho_first,rejection" help:"rho_first (the default): ρ̂ ~ U[rho_min, rho_max], then τ0 uniform within what keeps F in range, F = round(ρ̂/τ0); rejection: τ0 ~ U[tau_min, tau_max] and F ~ U{f_min..f_max} until τ0·F lies in [rho_min, rho_max]"`
}

// DefaultSJFBCOParams returns the paper's batch (spec 004 §4.1).
func DefaultSJFBCOParams() *SJFBCOParams {
	return &SJFBCOParams{
		Sizes:  []SizeCount{{1, 80}, {2, 14}, {4, 26}, {8, 30}, {16, 8}, {32, 2}},
		RhoMin: 50, RhoMax: 300, TauMin: 0.01, TauMax: 0.05, FMin: 1000, FMax: 6000, Sampling: "rho_first",
	}
}

// Check enforces the rules that span fields: ordered ranges that can all
// hold at once.
func (p *SJFBCOParams) Check() []schema.Problem {
	var ps []schema.Problem
	add := func(path, format string, args ...any) {
		ps = append(ps, schema.Problem{Path: path, Msg: fmt.Sprintf(format, args...)})
	}
	if p.jobs() == 0 {
		add("sizes", "must ask for at least one job")
	}
	if p.RhoMax < p.RhoMin {
		add("rho_max", "must be at least rho_min (%g), got %g", p.RhoMin, p.RhoMax)
	}
	if p.TauMax < p.TauMin {
		add("tau_max", "must be at least tau_min (%g), got %g", p.TauMin, p.TauMax)
	}
	if p.FMax < p.FMin {
		add("f_max", "must be at least f_min (%d), got %d", p.FMin, p.FMax)
	}
	if len(ps) == 0 && (p.TauMin*float64(p.FMin) > p.RhoMax || p.TauMax*float64(p.FMax) < p.RhoMin) {
		add("rho_min", "no τ0 in [%g, %g] and F in [%d, %d] gives τ0·F in [%g, %g]", p.TauMin, p.TauMax, p.FMin, p.FMax, p.RhoMin, p.RhoMax)
	}
	return ps
}

func (p *SJFBCOParams) jobs() int {
	n := 0
	for _, s := range p.Sizes {
		n += s.Count
	}
	return n
}

type sjfbcoGen struct{ p SJFBCOParams }

// JobCount is the sum of the size counts.
func (g sjfbcoGen) JobCount() (int64, string) { return int64(g.p.jobs()), "the counts of sizes" }

// AllAtZero implements Batcher.
func (g sjfbcoGen) AllAtZero() (bool, string) {
	return g.p.PerHour <= 0 || g.p.jobs() <= 1, "jobs_per_hour"
}

// Generate draws ρ̂, τ0 and F for each job in size order, then shuffles the
// jobs (the trace's "input order", which the baselines follow).
func (g sjfbcoGen) Generate(seed uint64) ([]Job, error) {
	p := g.p
	rDur, rOrder := stream(seed, streamDurations), stream(seed, streamGPUs)
	var jobs []Job
	for _, s := range p.Sizes {
		for range s.Count {
			tau, f := p.draw(rDur)
			jobs = append(jobs, Job{Model: "rar", GPUs: s.GPUs, Iterations: float64(f), DurationS: tau * float64(f)})
		}
	}
	rOrder.Shuffle(len(jobs), func(a, b int) { jobs[a], jobs[b] = jobs[b], jobs[a] })
	arrivals := poissonArrivals(stream(seed, streamArrivals), len(jobs), p.PerHour) // all 0 at rate 0
	for i := range jobs {
		jobs[i].Name = fmt.Sprintf("j%03d-g%d", i, jobs[i].GPUs)
		jobs[i].ArrivalS = arrivals[i]
	}
	return Finalize(jobs)
}

// draw returns one job's τ0 and F.
func (p *SJFBCOParams) draw(r interface{ Float64() float64 }) (tau float64, f int) {
	if p.Sampling == "rejection" {
		for range 1_000_000 {
			tau = p.TauMin + r.Float64()*(p.TauMax-p.TauMin)
			f = p.FMin + int(r.Float64()*float64(p.FMax-p.FMin+1))
			if rho := tau * float64(f); rho >= p.RhoMin && rho <= p.RhoMax {
				return tau, f
			}
		}
		// Check guarantees some pairs qualify; a vanishing share of them
		// ends here, on the range's closest corner.
		return p.TauMin, p.FMin
	}
	rho := p.RhoMin + r.Float64()*(p.RhoMax-p.RhoMin)
	lo, hi := max(p.TauMin, rho/float64(p.FMax)), min(p.TauMax, rho/float64(p.FMin))
	if hi < lo { // ρ̂ outside what the τ and F ranges reach: clamp to the nearest
		hi = lo
	}
	tau = lo + r.Float64()*(hi-lo)
	f = max(p.FMin, min(p.FMax, int(math.Round(rho/tau))))
	return tau, f
}

func init() {
	RegisterGenerator(GeneratorFamily[SJFBCOParams]{
		Name: "sjf-bco",
		Doc: "The SJF-BCO paper's offline batch: 160 ring-all-reduce jobs at time 0 with the Philly-scaled size mix " +
			"(80×1, 14×2, 26×4, 30×8, 8×16, 2×32 GPUs), iterations F in [1000, 6000], iteration times τ0 in [0.01, 0.05] " +
			"slots and run times ρ̂ = τ0·F in [50, 300] slots, in a shuffled input order.",
		Defaults: func() SJFBCOParams { return *DefaultSJFBCOParams() },
		New:      func(p SJFBCOParams) (Generator, error) { return sjfbcoGen{p}, nil },
	})
}
