package workload

import (
	"fmt"
	"math/rand/v2"

	"github.com/schedlab/schedlab/internal/hugepages"
	"github.com/schedlab/schedlab/sim/detmath"
	"github.com/schedlab/schedlab/sim/schema"
)

// PoissonParams describe a plain synthetic workload: Poisson arrivals, a
// GPU-count mix, a duration distribution and a model mix.
type PoissonParams struct {
	Jobs        int           `json:"jobs" min:"1" max:"1000000" help:"number of jobs"`
	JobsPerHour float64       `json:"jobs_per_hour" min:"0" max:"1e9" unit:"jobs/h" help:"Poisson arrival rate; 0 submits every job at time 0"`
	GPUMix      []ScaleShare  `json:"gpu_mix" help:"GPU-count mix"`
	Duration    DurationDist  `json:"duration" help:"solo run-time distribution"`
	Models      []ModelShare  `json:"models" help:"model mix"`
	IDPrefix    string        `json:"id_prefix,omitempty" help:"prefix of generated job ids"`
	Entities    []EntityShare `json:"entities,omitempty" help:"optional owners with their share of jobs"`
}

// DurationDist is a distribution of solo run times in seconds.
type DurationDist struct {
	Dist  string  `json:"dist" enum:"fixed,exponential,lognormal,uniform,loguniform" help:"distribution family"`
	MeanS float64 `json:"mean_s,omitempty" min:"0" max:"1e10" unit:"s" help:"mean (fixed, exponential, lognormal)"`
	Sigma float64 `json:"sigma,omitempty" min:"0" max:"10" help:"σ of the underlying normal (lognormal)"`
	MinS  float64 `json:"min_s,omitempty" min:"0" max:"1e10" unit:"s" help:"lower bound (uniform, loguniform) or floor (others)"`
	MaxS  float64 `json:"max_s,omitempty" min:"0" max:"1e10" unit:"s" help:"upper bound (uniform, loguniform) or cap (others); 0 means no cap"`
}

// ModelShare is one model of a model mix.
type ModelShare struct {
	Model     string  `json:"model" help:"model name"`
	Weight    float64 `json:"weight" min:"0" help:"relative frequency"`
	BatchSize int     `json:"batch_size,omitempty" min:"0" help:"per-GPU batch size of its jobs"`
	MemoryGB  float64 `json:"memory_gb,omitempty" min:"0" unit:"GB" help:"memory each of its jobs holds per GPU"`
}

// EntityShare is one owner of a job mix.
type EntityShare struct {
	Entity string  `json:"entity"`
	Weight float64 `json:"weight" min:"0"`
}

// DefaultPoissonParams returns a small single-model workload.
func DefaultPoissonParams() *PoissonParams {
	return &PoissonParams{
		Jobs: 100, JobsPerHour: 10,
		GPUMix:   []ScaleShare{{1, 1}},
		Duration: DurationDist{Dist: "exponential", MeanS: 3600},
		Models:   []ModelShare{{Model: "resnet50", Weight: 1}},
		IDPrefix: "j",
	}
}

// Check enforces the rules that span fields.
func (p *PoissonParams) Check() []schema.Problem {
	var ps []schema.Problem
	if len(p.GPUMix) == 0 || sumScale(p.GPUMix) <= 0 {
		ps = append(ps, schema.Problem{Path: "gpu_mix", Msg: "must list at least one GPU count with a positive weight"})
	}
	total := 0.0
	for _, m := range p.Models {
		total += m.Weight
	}
	if len(p.Models) == 0 || total <= 0 {
		ps = append(ps, schema.Problem{Path: "models", Msg: "must list at least one model with a positive weight"})
	}
	for i, m := range p.Models {
		if m.Model == "" {
			ps = append(ps, schema.Problem{Path: schema.Index("models", i) + ".model", Msg: "is required"})
		}
	}
	d := p.Duration
	need := func(field string, v float64) {
		if !(v > 0) {
			ps = append(ps, schema.Problem{Path: "duration." + field, Msg: fmt.Sprintf("must be positive for the %s distribution", d.Dist)})
		}
	}
	switch d.Dist {
	case "fixed", "exponential":
		need("mean_s", d.MeanS)
	case "lognormal":
		need("mean_s", d.MeanS)
		need("sigma", d.Sigma)
	case "uniform", "loguniform":
		need("max_s", d.MaxS)
		if d.Dist == "loguniform" {
			need("min_s", d.MinS)
		}
		if d.MaxS > 0 && d.MinS > d.MaxS {
			ps = append(ps, schema.Problem{Path: "duration.min_s", Msg: fmt.Sprintf("is above max_s (%v > %v)", d.MinS, d.MaxS)})
		}
	}
	return ps
}

// Draw samples one duration in seconds.
func (d DurationDist) Draw(r *rand.Rand) float64 {
	var x float64
	switch d.Dist {
	case "fixed":
		return d.MeanS
	case "exponential":
		x = detmath.ExpVariate(r) * d.MeanS
	case "lognormal":
		// mean = exp(mu + σ²/2)
		mu := detmath.Log(d.MeanS) - d.Sigma*d.Sigma/2
		x = detmath.Exp(mu + d.Sigma*detmath.NormVariate(r))
	case "uniform":
		return d.MinS + r.Float64()*(d.MaxS-d.MinS)
	case "loguniform":
		lo, hi := detmath.Log(d.MinS), detmath.Log(d.MaxS)
		return detmath.Exp(lo + r.Float64()*(hi-lo))
	}
	if d.MaxS > 0 {
		x = min(x, d.MaxS)
	}
	return max(x, d.MinS, 1) // a job runs for at least a second
}

type poissonGenerator struct{ p PoissonParams }

// JobCount is the number of jobs Generate makes.
func (g poissonGenerator) JobCount() (int64, string) { return int64(g.p.Jobs), "jobs" }

// AllAtZero implements Batcher: a rate of 0 submits every job at time 0.
func (g poissonGenerator) AllAtZero() (bool, string) {
	return g.p.JobsPerHour <= 0 || g.p.Jobs <= 1, "jobs_per_hour"
}

// NewPoisson returns the plain Poisson generator.
func NewPoisson(p PoissonParams) Generator { return poissonGenerator{p} }

func (g poissonGenerator) Generate(seed uint64) ([]Job, error) {
	p := g.p
	rArr, rDur, rGPU, rModel, rEnt := stream(seed, streamArrivals), stream(seed, streamDurations),
		stream(seed, streamGPUs), stream(seed, streamModels), stream(seed, streamPriority)
	arrive := newArrivals(rArr, p.JobsPerHour)
	gmix := make([]Weighted[int], len(p.GPUMix))
	for i, s := range p.GPUMix {
		gmix[i] = Weighted[int]{s.GPUs, s.Weight}
	}
	mmix := make([]Weighted[int], len(p.Models))
	for i, m := range p.Models {
		mmix[i] = Weighted[int]{i, m.Weight}
	}
	emix := make([]Weighted[string], len(p.Entities))
	for i, e := range p.Entities {
		emix[i] = Weighted[string]{e.Entity, e.Weight}
	}
	prefix := p.IDPrefix
	if prefix == "" {
		prefix = "j"
	}
	// Fields are written one by one into the zeroed jobs: assigning whole
	// Job values copied every field behind the collector's write barriers.
	// A million jobs are 150 MB written once: in huge pages where the
	// system offers them (see hugepages).
	jobs := hugepages.Make[Job](p.Jobs)
	for i := range jobs {
		j := &jobs[i]
		m := &p.Models[pick(rModel, mmix)]
		j.ArrivalS = roundTo(arrive.next(), 1e-3)
		j.Model, j.BatchSize, j.MemoryGB = m.Model, m.BatchSize, m.MemoryGB
		j.GPUs, j.DurationS = pick(rGPU, gmix), roundTo(p.Duration.Draw(rDur), 1e-3)
		if len(emix) > 0 {
			j.Entity = pick(rEnt, emix)
		}
	}
	numberNames(jobs, prefix, 1)
	return finalizeNumbered(jobs)
}

func init() {
	RegisterGenerator(GeneratorFamily[PoissonParams]{
		Name:     "poisson",
		Doc:      "Poisson arrivals with a GPU-count mix, a duration distribution and a model mix.",
		Defaults: func() PoissonParams { return *DefaultPoissonParams() },
		New:      func(p PoissonParams) (Generator, error) { return NewPoisson(p), nil },
	})
}
