package workload

import (
	"fmt"
	"math/rand/v2"

	"github.com/schedlab/schedlab/sim/detmath"
	"github.com/schedlab/schedlab/sim/schema"
)

// GavelParams are the knobs of Gavel's continuous job generator (spec 001
// §5.4). The defaults are the reference simulator's values.
type GavelParams struct {
	Jobs        int     `json:"jobs" min:"1" max:"1000000" help:"number of jobs"`
	JobsPerHour float64 `json:"jobs_per_hour" min:"0" max:"1e9" unit:"jobs/h" help:"Poisson arrival rate λ; 0 submits every job at time 0 (a static trace)"`
	MultiGPU    bool    `json:"multi_gpu,omitempty" help:"draw scale factors from the 70/10/15/5 mix instead of always 1 GPU"`

	ShortProb      float64    `json:"short_prob" min:"0" max:"1" help:"probability that a job is short"`
	ShortLog10Min  [2]float64 `json:"short_log10_min" help:"a short job runs 10^U(a,b) minutes"`
	LongLog10Min   [2]float64 `json:"long_log10_min" help:"a long job runs 10^U(a,b) minutes"`
	FixedDurationS float64    `json:"fixed_duration_s,omitempty" min:"0" max:"1e10" unit:"s" help:"if set, every job runs this long instead"`
	DurationHours  []float64  `json:"duration_hours,omitempty" help:"if given, each job runs a duration drawn uniformly from this list of hours (Gavel's static trace generator: 1, 2, 3, 4)"`

	ScaleFactors []ScaleShare `json:"scale_factors" help:"GPU-count mix used when multi_gpu is on"`

	HighPriorityFraction float64 `json:"high_priority_fraction,omitempty" min:"0" max:"1" help:"fraction of jobs with the high weight"`
	HighPriorityWeight   float64 `json:"high_priority_weight" min:"0" max:"1e6" help:"weight of high-priority jobs"`

	SLOFactors []float64 `json:"slo_factors,omitempty" help:"if given, each job's deadline is arrival + factor × duration, factor drawn uniformly from this list"`
	Models     []string  `json:"models,omitempty" help:"restrict to these job types (Gavel keys or model names); empty means the whole zoo"`
}

// ScaleShare is one entry of a GPU-count mix.
type ScaleShare struct {
	GPUs   int     `json:"gpus" min:"1" max:"4096"`
	Weight float64 `json:"weight" min:"0"`
}

// DefaultGavelParams returns the reference generator's settings.
func DefaultGavelParams() *GavelParams {
	return &GavelParams{
		Jobs: 1000, JobsPerHour: 5,
		ShortProb: 0.8, ShortLog10Min: [2]float64{1.5, 3}, LongLog10Min: [2]float64{3, 4},
		ScaleFactors:       []ScaleShare{{1, 0.70}, {2, 0.10}, {4, 0.15}, {8, 0.05}},
		HighPriorityWeight: 5,
	}
}

// Check enforces the rules that span fields.
func (p *GavelParams) Check() []schema.Problem {
	var ps []schema.Problem
	for _, r := range []struct {
		name string
		v    [2]float64
	}{{"short_log10_min", p.ShortLog10Min}, {"long_log10_min", p.LongLog10Min}} {
		if !(r.v[0] <= r.v[1]) {
			ps = append(ps, schema.Problem{Path: r.name, Msg: fmt.Sprintf("lower bound %v is above upper bound %v", r.v[0], r.v[1])})
		}
		for i, v := range r.v {
			if v < -3 || v > 8 {
				ps = append(ps, schema.Problem{Path: schema.Index(r.name, i), Msg: fmt.Sprintf("must be between -3 and 8 (10^8 minutes is 190 years), got %v", v)})
			}
		}
	}
	if p.MultiGPU {
		if len(p.ScaleFactors) == 0 {
			ps = append(ps, schema.Problem{Path: "scale_factors", Msg: "must list at least one GPU count when multi_gpu is on"})
		} else if total := sumScale(p.ScaleFactors); total <= 0 {
			ps = append(ps, schema.Problem{Path: "scale_factors", Msg: "weights must add up to more than 0"})
		}
	}
	for i, h := range p.DurationHours {
		if !(h > 0) || h > 1e6 {
			ps = append(ps, schema.Problem{Path: schema.Index("duration_hours", i), Msg: fmt.Sprintf("must be positive and at most 1e6 hours, got %v", h)})
		}
	}
	for i, f := range p.SLOFactors {
		if !(f >= 1) || f > 1e6 {
			ps = append(ps, schema.Problem{Path: schema.Index("slo_factors", i), Msg: fmt.Sprintf("must be between 1 and 1e6, got %v", f)})
		}
	}
	if _, err := p.templates(1); err != nil {
		ps = append(ps, schema.Problem{Path: "models", Msg: err.Error()})
	}
	return ps
}

func sumScale(s []ScaleShare) float64 {
	t := 0.0
	for _, x := range s {
		t += x.Weight
	}
	return t
}

// templates returns the zoo restricted to p.Models and to types that can
// run on sf GPUs.
func (p *GavelParams) templates(sf int) ([]Template, error) {
	var out []Template
	for _, t := range GavelZoo {
		if sf > 1 && !t.Distributed {
			continue
		}
		if len(p.Models) > 0 && !contains(p.Models, t.Key()) && !contains(p.Models, t.Model) {
			continue
		}
		out = append(out, t)
	}
	if len(out) == 0 {
		if sf > 1 {
			return nil, fmt.Errorf("no job type in %v can use %d GPUs", p.Models, sf)
		}
		return nil, fmt.Errorf("no job type matches %v", p.Models)
	}
	return out, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

type gavelGenerator struct{ p GavelParams }

// JobCount is the number of jobs Generate makes.
func (g gavelGenerator) JobCount() (int64, string) { return int64(g.p.Jobs), "jobs" }

// AllAtZero implements Batcher: a rate of 0 submits every job at time 0.
func (g gavelGenerator) AllAtZero() (bool, string) {
	return g.p.JobsPerHour <= 0 || g.p.Jobs <= 1, "jobs_per_hour"
}

// NewGavel returns Gavel's generator with the given parameters.
func NewGavel(p GavelParams) Generator { return gavelGenerator{p} }

// Generate draws the jobs. Job types, arrivals, durations, scale factors,
// priorities and SLOs come from separate seeded streams, as in the
// reference, so that e.g. turning multi_gpu on changes no duration.
func (g gavelGenerator) Generate(seed uint64) ([]Job, error) {
	p := g.p
	rTypes, rArr, rDur, rScale := stream(seed, streamTypes), stream(seed, streamArrivals), stream(seed, streamDurations), stream(seed, streamScale)
	rPrio, rSLO := stream(seed, streamPriority), stream(seed, streamSLO)
	arrivals := poissonArrivals(rArr, p.Jobs, p.JobsPerHour)
	mix := make([]Weighted[int], len(p.ScaleFactors))
	for i, s := range p.ScaleFactors {
		mix[i] = Weighted[int]{s.GPUs, s.Weight}
	}
	byScale := map[int][]Template{}
	jobs := make([]Job, p.Jobs)
	for i := range jobs {
		sf := 1
		if p.MultiGPU {
			sf = pick(rScale, mix)
		}
		tmpls, ok := byScale[sf]
		if !ok {
			var err error
			if tmpls, err = p.templates(sf); err != nil {
				return nil, err
			}
			byScale[sf] = tmpls
		}
		t := tmpls[rTypes.IntN(len(tmpls))]
		dur := p.FixedDurationS
		switch {
		case dur > 0:
		case len(p.DurationHours) > 0:
			dur = 3600 * p.DurationHours[rDur.IntN(len(p.DurationHours))]
		default:
			dur = gavelDuration(rDur, p)
		}
		w := 1.0
		if p.HighPriorityFraction > 0 && rPrio.Float64() < p.HighPriorityFraction {
			w = p.HighPriorityWeight
		}
		jobs[i] = Job{
			ArrivalS: arrivals[i], Model: t.Model, BatchSize: t.BatchSize,
			GPUs: sf, DurationS: dur, Weight: w,
		}
		if len(p.SLOFactors) > 0 {
			f := p.SLOFactors[rSLO.IntN(len(p.SLOFactors))]
			jobs[i].DeadlineS = arrivals[i] + f*dur
		}
	}
	numberNames(jobs, "job", 0)
	return finalizeNumbered(jobs)
}

// gavelDuration draws a standalone duration in seconds: 10^U(short) minutes
// with probability ShortProb, else 10^U(long) minutes.
func gavelDuration(r *rand.Rand, p GavelParams) float64 {
	rng := p.LongLog10Min
	if r.Float64() < p.ShortProb {
		rng = p.ShortLog10Min
	}
	e := rng[0] + r.Float64()*(rng[1]-rng[0])
	return 60 * detmath.Pow(10, e)
}

// DefaultGavelStaticParams returns the settings of Gavel's static trace
// generator (scripts/utils/generate_trace.py, spec 001 §5.4): every job
// at time 0, durations of 1, 2, 3 or 4 hours, 70% 1 GPU, 10% 2, 20% 4.
func DefaultGavelStaticParams() *GavelParams {
	p := DefaultGavelParams()
	p.Jobs, p.JobsPerHour, p.MultiGPU = 100, 0, true
	p.DurationHours = []float64{1, 2, 3, 4}
	p.ScaleFactors = []ScaleShare{{1, 0.70}, {2, 0.10}, {4, 0.20}}
	return p
}

func init() {
	RegisterGenerator(GeneratorFamily[GavelParams]{
		Name:     "gavel-static",
		Doc:      "Gavel's static trace (every job submitted at time 0 unless jobs_per_hour is set): job types uniform over the zoo, durations drawn from duration_hours (default 1–4 h), GPU mix 70/10/20% on 1/2/4 GPUs; the same knobs as the gavel generator.",
		Defaults: func() GavelParams { return *DefaultGavelStaticParams() },
		New:      func(p GavelParams) (Generator, error) { return NewGavel(p), nil },
	})
	RegisterGenerator(GeneratorFamily[GavelParams]{
		Name:     "gavel",
		Doc:      "Gavel's continuous trace (Narayanan et al., OSDI'20): job types uniform over the 26-type zoo, durations 10^U(1.5,3) min (80%) or 10^U(3,4) min (20%), Poisson arrivals, optional 70/10/15/5 multi-GPU mix.",
		Defaults: func() GavelParams { return *DefaultGavelParams() },
		New:      func(p GavelParams) (Generator, error) { return NewGavel(p), nil },
	})
}
