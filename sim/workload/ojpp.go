package workload

import (
	"fmt"

	"github.com/schedlab/schedlab/sim/schema"
)

// MemShareType is one job type of the OJPP paper's library (Li et al.,
// JPDC 2023; spec 002 §5.2): per-worker compute α and the opportunistic
// memory tuple ⟨γ, δ, p⟩ (a base γ always held, an extra δ held with
// probability p), as fractions of one GPU; the solo run time; the
// migration cost of one worker.
type MemShareType struct {
	Name     string  `json:"name" help:"type name; jobs name it as their model"`
	Alpha    float64 `json:"alpha" min:"0" max:"1" help:"compute each worker needs, as a fraction of one GPU (α)"`
	Gamma    float64 `json:"gamma" min:"0" max:"1" help:"memory each worker always holds, as a fraction of one GPU (γ, the base)"`
	Delta    float64 `json:"delta" min:"0" max:"1" help:"memory a worker holds on top of γ while it peaks (δ)"`
	P        float64 `json:"p" min:"0" max:"1" help:"probability that a worker is at its peak (p)"`
	TSoloS   float64 `json:"t_solo_s" min:"0" max:"1e10" unit:"s" help:"run time of a job of this type alone on its GPUs"`
	MigCostS float64 `json:"mig_cost_s" min:"0" max:"1e10" unit:"s" help:"downtime of moving one worker (checkpoint and restore)"`
	Class    string  `json:"class,omitempty" help:"C-high, I-high or Average (which queue draws it)"`
}

// OJPPTypes is the default job-type library of spec 002 §5.2, normalised to
// an 11 GB GPU. Sources: the model names are the paper's Table 3; the
// paper publishes no α, γ, δ, p, run time or migration cost for them, so
// every number is a placeholder of the spec (tagged [S] there: chosen so
// that LeNet and LSTM are collision-prone, p = 0.3, and ResNet and VGG19
// interference-heavy, as the paper's Fig. 7 discussion describes them).
// Only the "ResNet (Fig. 2)" demo tuple ⟨0.3, 0.62, 0.2⟩ is the paper's own
// (Fig. 2); it is not part of any queue.
var OJPPTypes = []MemShareType{
	{Name: "LeNet", Alpha: 0.15, Gamma: 0.08, Delta: 0.16, P: 0.30, TSoloS: 20 * 60, MigCostS: 5, Class: "C-high"},
	{Name: "CNN", Alpha: 0.15, Gamma: 0.08, Delta: 0.12, P: 0.05, TSoloS: 30 * 60, MigCostS: 5, Class: "Average"},
	{Name: "LSTM", Alpha: 0.20, Gamma: 0.12, Delta: 0.20, P: 0.30, TSoloS: 40 * 60, MigCostS: 8, Class: "C-high"},
	{Name: "AlexNet", Alpha: 0.25, Gamma: 0.15, Delta: 0.20, P: 0.05, TSoloS: 50 * 60, MigCostS: 15, Class: "Average"},
	{Name: "VGG19", Alpha: 0.35, Gamma: 0.25, Delta: 0.25, P: 0.10, TSoloS: 90 * 60, MigCostS: 30, Class: "I-high"},
	{Name: "ResNet", Alpha: 0.30, Gamma: 0.25, Delta: 0.35, P: 0.20, TSoloS: 60 * 60, MigCostS: 12, Class: "I-high"},
	{Name: "ResNet-Fig2", Alpha: 0.30, Gamma: 0.30, Delta: 0.62, P: 0.20, TSoloS: 60 * 60, MigCostS: 12},
}

// OJPPMatrix is the default interference matrix I_true of spec 002 §5.2
// over the first six OJPPTypes (row: the victim, column: the co-runner):
// the extra fraction of run time a worker of the row type needs while one
// worker of the column type shares its GPU (0.18 = 18% slower). Three
// cells are the paper's (§1 and Fig. 1): ResNet next to VGG19 1.22,
// VGG19 next to ResNet 0.187, LeNet next to LSTM 0.18. ResNet next to
// LeNet, 1.13, is read loosely off Fig. 1a's "up to 113%". Every other
// cell is the spec's placeholder [S]. Pairs with a type outside the matrix
// (the Fig. 2 demo type) do not interfere.
var OJPPMatrix = [][]float64{
	//  LeNet  CNN   LSTM  AlexNet VGG19 ResNet
	{0.18, 0.06, 0.18, 0.12, 0.20, 0.15},  // LeNet
	{0.13, 0.04, 0.14, 0.09, 0.15, 0.11},  // CNN
	{0.16, 0.06, 0.20, 0.12, 0.22, 0.15},  // LSTM
	{0.18, 0.07, 0.16, 0.12, 0.20, 0.16},  // AlexNet
	{0.22, 0.08, 0.22, 0.15, 0.25, 0.187}, // VGG19
	{1.13, 0.37, 1.05, 0.73, 1.22, 0.91},  // ResNet
}

// OJPPMatrixModels labels the rows and columns of OJPPMatrix.
var OJPPMatrixModels = []string{"LeNet", "CNN", "LSTM", "AlexNet", "VGG19", "ResNet"}

// The OJPP queues of spec 002 §5.3: which pool each job's type is drawn from.
const (
	OJPPMixed   = 1 // half the jobs C-high or I-high, half Average
	OJPPCHigh   = 2 // a share of the jobs collision-prone
	OJPPIHigh   = 3 // a share of the jobs interference-heavy
	OJPPAverage = 4 // only Average types
)

// OJPPParams describe an OJPP queue (spec 002 §5.3).
type OJPPParams struct {
	Queue       int     `json:"queue" min:"1" max:"4" help:"1 Mixed (half C-high or I-high), 2 C-high, 3 I-high, 4 Average (a number so that a sweep can step through them)"`
	Jobs        int     `json:"jobs" min:"1" max:"1000000" help:"number of jobs"`
	Share       float64 `json:"share" min:"0" max:"1" help:"share of C-high (queue 2) or I-high (queue 3) jobs"`
	WorkersMin  int     `json:"workers_min" min:"1" max:"4096" help:"fewest workers (GPUs) of a job"`
	WorkersMax  int     `json:"workers_max" min:"1" max:"4096" help:"most workers of a job; each job draws uniformly between the two"`
	JobsPerHour float64 `json:"jobs_per_hour,omitempty" min:"0" max:"1e9" unit:"jobs/h" help:"Poisson arrival rate; 0 submits every job at time 0 (the paper's static placement)"`
	Jitter      float64 `json:"duration_jitter,omitempty" min:"0" max:"0.99" help:"each job's solo time is its type's times U[1−j, 1+j]; 0 keeps the type's"`
	IDPrefix    string  `json:"id_prefix,omitempty" help:"prefix of generated job ids"`
}

// DefaultOJPPParams returns the paper's queue: 20 jobs of 1–10 workers.
func DefaultOJPPParams() *OJPPParams {
	return &OJPPParams{Queue: OJPPMixed, Jobs: 20, Share: 0.8, WorkersMin: 1, WorkersMax: 10, IDPrefix: "j"}
}

// Check enforces the rules that span fields.
func (p *OJPPParams) Check() []schema.Problem {
	if p.WorkersMax < p.WorkersMin {
		return []schema.Problem{{Path: "workers_max", Msg: fmt.Sprintf("must be at least workers_min (%d), got %d", p.WorkersMin, p.WorkersMax)}}
	}
	return nil
}

type ojppGen struct{ p OJPPParams }

// JobCount is the number of jobs Generate makes.
func (g ojppGen) JobCount() (int64, string) { return int64(g.p.Jobs), "jobs" }

// AllAtZero implements Batcher: a rate of 0 is the paper's static queue.
func (g ojppGen) AllAtZero() (bool, string) {
	return g.p.JobsPerHour <= 0 || g.p.Jobs <= 1, "jobs_per_hour"
}

// ojppPools are the type pools of spec 002 §5.3, by class.
var ojppPools = map[string][]string{
	"C-high":  {"LeNet", "LSTM"},
	"I-high":  {"ResNet", "VGG19"},
	"Average": {"CNN", "AlexNet"},
}

func (g ojppGen) pool(r float64) []string {
	switch g.p.Queue {
	case OJPPMixed:
		if r < 0.5 {
			return append(append([]string(nil), ojppPools["C-high"]...), ojppPools["I-high"]...)
		}
	case OJPPCHigh:
		if r < g.p.Share {
			return ojppPools["C-high"]
		}
	case OJPPIHigh:
		if r < g.p.Share {
			return ojppPools["I-high"]
		}
	}
	return ojppPools["Average"]
}

func (g ojppGen) Generate(seed uint64) ([]Job, error) {
	p := g.p
	rType, rGPU, rDur := stream(seed, streamTypes), stream(seed, streamGPUs), stream(seed, streamDurations)
	arrivals := poissonArrivals(stream(seed, streamArrivals), p.Jobs, p.JobsPerHour)
	jobs := make([]Job, p.Jobs)
	for i := range jobs {
		pool := g.pool(rType.Float64())
		t := OJPPType(pool[rType.IntN(len(pool))])
		w := p.WorkersMin + rGPU.IntN(p.WorkersMax-p.WorkersMin+1)
		d := t.TSoloS
		if p.Jitter > 0 {
			d *= 1 - p.Jitter + 2*p.Jitter*rDur.Float64()
		}
		jobs[i] = Job{ArrivalS: arrivals[i], Model: t.Name, GPUs: w, DurationS: d}
	}
	numberNames(jobs, p.IDPrefix, 0)
	return finalizeNumbered(jobs)
}

// OJPPType returns the library type of that name, or nil.
func OJPPType(name string) *MemShareType {
	for i := range OJPPTypes {
		if OJPPTypes[i].Name == name {
			return &OJPPTypes[i]
		}
	}
	return nil
}

func init() {
	RegisterGenerator(GeneratorFamily[OJPPParams]{
		Name: "ojpp",
		Doc: "The OJPP paper's queues: jobs of 1–10 workers whose types come from the C-high " +
			"(LeNet, LSTM), I-high (ResNet, VGG19) and Average (CNN, AlexNet) pools, all at time 0 by default.",
		Defaults: func() OJPPParams { return *DefaultOJPPParams() },
		New:      func(p OJPPParams) (Generator, error) { return ojppGen{p}, nil },
	})
}
