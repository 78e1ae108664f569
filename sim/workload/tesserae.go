package workload

import (
	"fmt"
	"math/rand/v2"

	"github.com/schedlab/schedlab/sim/detmath"
	"github.com/schedlab/schedlab/sim/schema"
)

// The two traces of the Tesserae paper (spec 003 §5.4). "shockwave"
// follows the Blox repository's generate_shockwave_trace.py [ext]:
// durations are 100 evenly spaced values from 0.2 h to 5 h, split into
// classes Small (first 20), Medium (next 30), Large (next 40) and
// Extra-large (last 10), drawn 0.72/0.20/0.05/0.03 and uniformly inside a
// class; GPU counts 1/2/4/8 by thresholds 0.6/0.9/0.99; a 1-GPU job runs a
// vision model, a 2–4-GPU job any model, an 8-GPU job a language model;
// batch size uniform in {32, 64, 128}; exponential gaps in whole seconds.
// "gavel" is Gavel's generator as the spec reads it: GPU counts 1/2/4/8
// with 0.70/0.10/0.15/0.05, durations 10^U(1.5,3) minutes with
// probability 0.8, else 10^U(3,4) minutes, any model.

// TesseraeTraceParams describe one of the two traces.
type TesseraeTraceParams struct {
	Style          string   `json:"style" enum:"shockwave,gavel" help:"shockwave (the paper's default trace, as Blox generates it) or gavel (its Fig. 17 trace)"`
	Jobs           int      `json:"jobs" min:"1" max:"1000000" help:"number of jobs (the paper: 900 simulated, 120 physical)"`
	JobsPerHour    float64  `json:"jobs_per_hour" min:"0.001" max:"1e9" unit:"jobs/h" help:"Poisson arrival rate (the paper: 80)"`
	VisionModels   []string `json:"vision_models" help:"models of data-parallel jobs"`
	LanguageModels []string `json:"language_models" help:"models of pipeline-parallel jobs (8-GPU jobs in the shockwave style)"`
	MaxGPUs        int      `json:"max_gpus,omitempty" min:"0" max:"4096" help:"most GPUs a job asks for: a job drawn larger asks for this many, its model and duration unchanged (0: no cap, the paper)"`
	IDPrefix       string   `json:"id_prefix,omitempty" help:"prefix of job ids; default j"`
}

// DefaultTesseraeTraceParams is the paper's simulated trace with the Blox
// models (Bert-Large and GPT2-Medium stand for the GPT3 family).
func DefaultTesseraeTraceParams() *TesseraeTraceParams {
	return &TesseraeTraceParams{Style: "shockwave", Jobs: 900, JobsPerHour: 80,
		VisionModels:   []string{"resnet50", "vgg19", "DCGAN", "PointNet"},
		LanguageModels: []string{"Bert-Large", "GPT2-Medium"}}
}

type tesseraeTrace struct{ p TesseraeTraceParams }

// JobCount is the number of jobs Generate makes.
func (g tesseraeTrace) JobCount() (int64, string) { return int64(g.p.Jobs), "jobs" }

func (g tesseraeTrace) Generate(seed uint64) ([]Job, error) {
	p := g.p
	if p.Style != "shockwave" && p.Style != "gavel" {
		return nil, fmt.Errorf("style: must be shockwave or gavel, got %q", p.Style)
	}
	if len(p.VisionModels) == 0 || len(p.LanguageModels) == 0 {
		return nil, fmt.Errorf("vision_models, language_models: each must list at least one model")
	}
	rArr, rDur, rGPU, rModel := stream(seed, streamArrivals), stream(seed, streamDurations), stream(seed, streamGPUs), stream(seed, streamModels)
	prefix := p.IDPrefix
	if prefix == "" {
		prefix = "j"
	}
	all := append(append([]string{}, p.VisionModels...), p.LanguageModels...)
	jobs := make([]Job, p.Jobs)
	at := 0.0
	for i := range jobs {
		if i > 0 {
			at += float64(int64(detmath.ExpVariate(rArr) * 3600 / p.JobsPerHour))
		}
		var gpus int
		var dur float64
		var model string
		if p.Style == "shockwave" {
			gpus, dur = shockwaveGPUs(rGPU.Float64()), shockwaveDuration(rDur)
			switch {
			case gpus == 1:
				model = p.VisionModels[rModel.IntN(len(p.VisionModels))]
			case gpus == 8:
				model = p.LanguageModels[rModel.IntN(len(p.LanguageModels))]
			default:
				model = all[rModel.IntN(len(all))]
			}
		} else {
			gpus = pick(rGPU, []Weighted[int]{{1, 0.70}, {2, 0.10}, {4, 0.15}, {8, 0.05}})
			lo, hi := 1.5, 3.0
			if rDur.Float64() >= 0.8 {
				lo, hi = 3, 4
			}
			dur = 60 * detmath.Pow(10, lo+rDur.Float64()*(hi-lo))
			model = all[rModel.IntN(len(all))]
		}
		if p.MaxGPUs > 0 {
			gpus = min(gpus, p.MaxGPUs)
		}
		jobs[i] = Job{ArrivalS: at, Model: model,
			BatchSize: []int{32, 64, 128}[rModel.IntN(3)], GPUs: gpus, DurationS: roundTo(dur, 1e-3)}
	}
	numberNames(jobs, prefix, 1)
	return finalizeNumbered(jobs)
}

func shockwaveGPUs(u float64) int {
	switch {
	case u < 0.6:
		return 1
	case u < 0.9:
		return 2
	case u < 0.99:
		return 4
	}
	return 8
}

// shockwaveDuration draws a class, then one of its evenly spaced values.
func shockwaveDuration(r *rand.Rand) float64 {
	class := pick(r, []Weighted[[2]int]{{[2]int{0, 20}, 0.72}, {[2]int{20, 50}, 0.20}, {[2]int{50, 90}, 0.05}, {[2]int{90, 100}, 0.03}})
	k := class[0] + r.IntN(class[1]-class[0])
	return (0.2 + 4.8*float64(k)/99) * 3600
}

func init() {
	RegisterGenerator(GeneratorFamily[TesseraeTraceParams]{
		Name:     "tesserae",
		Doc:      "The Tesserae paper's traces: the Shockwave-style default (duration classes, 1/2/4/8 GPUs) or the Gavel-style one.",
		Defaults: func() TesseraeTraceParams { return *DefaultTesseraeTraceParams() },
		New:      func(p TesseraeTraceParams) (Generator, error) { return tesseraeTrace{p}, nil },
	})
}

// Check enforces the rules that span fields.
func (p *TesseraeTraceParams) Check() []schema.Problem {
	var ps []schema.Problem
	if len(p.VisionModels) == 0 {
		ps = append(ps, schema.Problem{Path: "vision_models", Msg: "must list at least one model"})
	}
	if len(p.LanguageModels) == 0 {
		ps = append(ps, schema.Problem{Path: "language_models", Msg: "must list at least one model"})
	}
	return ps
}
