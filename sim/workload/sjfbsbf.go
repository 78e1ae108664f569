package workload

import (
	"fmt"
	"math/rand/v2"
	"sort"

	"github.com/schedlab/schedlab/sim/detmath"
	"github.com/schedlab/schedlab/sim/schema"
)

// The two workloads of the SJF-BSBF paper (spec 000 §5). The paper gives
// neither its trace nor its generator, so both follow the spec's
// proposals; every number is a knob. Jobs name one of Pollux's six tasks
// (bert, cifar10, deepspeech2, imagenet, ncf, yolov3), which the analytic
// perf model times.

// BSBFSimParams describe the 64-GPU simulation workload (spec 000 §5.4):
// Poisson arrivals over a window, a small/large class split, lognormal
// solo durations, and the task chosen by GPU-time with Pollux's buckets.
type BSBFSimParams struct {
	BaseJobs   int          `json:"base_jobs" min:"1" max:"1000000" help:"jobs at load scale 1 (the paper's 240)"`
	Scale      float64      `json:"scale" min:"0.01" max:"100" help:"load scale: the number of jobs is base_jobs × scale, arriving in the same window (the paper sweeps 0.5–2)"`
	WindowH    float64      `json:"window_h" min:"0.001" max:"100000" unit:"h" help:"arrivals are spread over this window as a Poisson process conditioned on the job count"`
	LargeShare float64      `json:"large_share" min:"0" max:"1" help:"probability that a job is large (more than 4 GPUs)"`
	SmallGPUs  []ScaleShare `json:"small_gpus" help:"GPU-count mix of small jobs"`
	LargeGPUs  []ScaleShare `json:"large_gpus" help:"GPU-count mix of large jobs"`
	SmallMeanH float64      `json:"small_mean_h" min:"0.0001" max:"1e6" unit:"h" help:"mean solo duration of small jobs"`
	LargeMeanH float64      `json:"large_mean_h" min:"0.0001" max:"1e6" unit:"h" help:"mean solo duration of large jobs"`
	Sigma      float64      `json:"sigma" min:"0" max:"10" help:"σ of the lognormal solo durations"`
	MinS       float64      `json:"min_s" min:"0" max:"1e10" unit:"s" help:"shortest solo duration (Pollux keeps jobs of at least 60 s)"`
	BertShare  float64      `json:"bert_share" min:"0" max:"1" help:"share of the 1–10 GPU-hour jobs that are BERT rather than DeepSpeech2 (Pollux: half)"`
	IDPrefix   string       `json:"id_prefix,omitempty" help:"prefix of job ids; default the task name"`
}

// DefaultBSBFSimParams returns spec 000 §5.4's proposal. The window is
// calibrated so that the exclusive policies land near the paper's 240-job
// values (SJF ≈ 1.25 h, FIFO ≈ 2.3 h average JCT), as §5.4 step 8 asks.
func DefaultBSBFSimParams() *BSBFSimParams {
	return &BSBFSimParams{
		BaseJobs: 240, Scale: 1, WindowH: 8, LargeShare: 0.125,
		SmallGPUs:  []ScaleShare{{1, 0.70}, {2, 0.10}, {4, 0.20}},
		LargeGPUs:  []ScaleShare{{8, 0.60}, {16, 0.30}, {32, 0.10}},
		SmallMeanH: 0.55, LargeMeanH: 1.7, Sigma: 1, MinS: 60, BertShare: 0.5,
	}
}

// Check enforces the rules that span fields.
func (p *BSBFSimParams) Check() []schema.Problem {
	var ps []schema.Problem
	for _, m := range []struct {
		name string
		mix  []ScaleShare
		use  bool
	}{{"small_gpus", p.SmallGPUs, p.LargeShare < 1}, {"large_gpus", p.LargeGPUs, p.LargeShare > 0}} {
		if m.use && sumScale(m.mix) <= 0 {
			ps = append(ps, schema.Problem{Path: m.name, Msg: "must list at least one GPU count with a positive weight"})
		}
	}
	return ps
}

// Jobs is the number of jobs the parameters produce.
func (p *BSBFSimParams) Jobs() int { return max(1, int(float64(p.BaseJobs)*p.Scale+0.5)) }

type bsbfSim struct{ p BSBFSimParams }

// JobCount is the number of jobs Generate makes: base_jobs × scale.
func (g bsbfSim) JobCount() (int64, string) { return int64(g.p.Jobs()), "base_jobs × scale" }

func (g bsbfSim) Generate(seed uint64) ([]Job, error) {
	p := g.p
	n := p.Jobs()
	rArr, rGPU, rDur, rModel := stream(seed, streamArrivals), stream(seed, streamGPUs), stream(seed, streamDurations), stream(seed, streamModels)
	arrivals := uniformArrivals(rArr, n, p.WindowH*3600)
	small, large := weighted(p.SmallGPUs), weighted(p.LargeGPUs)
	jobs := make([]Job, n)
	for i := range jobs {
		isLarge := rGPU.Float64() < p.LargeShare
		mix, mean := small, p.SmallMeanH
		if isLarge {
			mix, mean = large, p.LargeMeanH
		}
		gpus := pick(rGPU, mix)
		d := DurationDist{Dist: "lognormal", MeanS: mean * 3600, Sigma: p.Sigma, MinS: p.MinS}
		dur := roundTo(d.Draw(rDur), 1e-3)
		model := PolluxTask(float64(gpus)*dur/3600, p.BertShare, rModel)
		jobs[i] = Job{Name: jobName(p.IDPrefix, model, i), ArrivalS: roundTo(arrivals[i], 1e-3), Model: model, GPUs: gpus, DurationS: dur}
	}
	return Finalize(jobs)
}

// PolluxTask maps a job's GPU-hours to one of Pollux's six tasks the way
// Pollux's workload generator does (spec 000 §5.3): below 1 GPU-hour
// CIFAR10 or NCF (half each), 1–10 DeepSpeech2 (a share of them BERT),
// 10–100 YoloV3, from 100 on ImageNet.
func PolluxTask(gpuHours, bertShare float64, r *rand.Rand) string {
	u := r.Float64() // drawn for every job so each job uses one number
	switch {
	case gpuHours < 1:
		if u < 0.5 {
			return "cifar10"
		}
		return "ncf"
	case gpuHours < 10:
		if u < bertShare {
			return "bert"
		}
		return "deepspeech2"
	case gpuHours < 100:
		return "yolov3"
	}
	return "imagenet"
}

// uniformArrivals returns n sorted arrival times in [0, window): a Poisson
// process conditioned on n arrivals in the window.
func uniformArrivals(r *rand.Rand, n int, window float64) []float64 {
	t := make([]float64, n)
	for i := range t {
		t[i] = r.Float64() * window
	}
	sort.Float64s(t)
	return t
}

func weighted(mix []ScaleShare) []Weighted[int] {
	out := make([]Weighted[int], len(mix))
	for i, s := range mix {
		out[i] = Weighted[int]{s.GPUs, s.Weight}
	}
	return out
}

func jobName(prefix, model string, i int) string {
	if prefix == "" {
		prefix = model
	}
	return fmt.Sprintf("%s-%d", prefix, i)
}

// BSBFTestbedParams describe the 30-job physical testbed workload (spec
// 000 §5.1): a fixed number of small and large jobs, models uniform over
// the six tasks, iterations log-uniform, Poisson arrivals.
type BSBFTestbedParams struct {
	Jobs          int      `json:"jobs" min:"1" max:"100000" help:"number of jobs (the paper's 30)"`
	LargeJobs     int      `json:"large_jobs" min:"0" max:"100000" help:"how many of them are large (the paper: 10 use 12 or 16 GPUs)"`
	SmallGPUs     []int    `json:"small_gpus" help:"a small job's GPU count is drawn uniformly from this list"`
	LargeGPUs     []int    `json:"large_gpus" help:"a large job's GPU count is drawn uniformly from this list"`
	MinIterations float64  `json:"min_iterations" min:"1" max:"1e15" help:"fewest iterations of a job (log-uniform draw)"`
	MaxIterations float64  `json:"max_iterations" min:"1" max:"1e15" help:"most iterations of a job"`
	WorkGPUS      float64  `json:"work_gpu_s" min:"0" max:"1e12" unit:"GPU-s" help:"total solo work of the jobs, Σ GPUs × solo seconds; above 0, each job's size is drawn log-uniformly between min_iterations and max_iterations as before but read as relative solo seconds, scaled so that the total is this (the perf model then turns each duration into iterations); 0 draws iterations instead, and the work follows from the perf model"`
	MeanGapS      float64  `json:"mean_gap_s" min:"0" max:"1e10" unit:"s" help:"mean gap between Poisson arrivals; 0 submits every job at time 0"`
	Models        []string `json:"models" help:"tasks drawn uniformly"`
	IDPrefix      string   `json:"id_prefix,omitempty" help:"prefix of job ids; default the task name"`
}

// TestbedWorkGPUS is the default total work of the testbed workload:
// Table II's FIFO makespan bounds it by 16 GPUs × 2,317 s ≈ 37,000
// GPU-seconds (spec 000 ruling R7). The value below that bound is
// calibrated: it is the total at which FIFO (backfilling) lands near the
// paper's 2,317 s makespan, averaged over seeds 1–5, under the default
// analytic model on 2080 Ti GPUs (28,000 gave 2,242 s, 29,000 gives 2,354
// s, 30,000 gave 2,417 s), so the makespan checks of the testbed
// scenarios are calibrated ones (ruling R1).
const TestbedWorkGPUS = 29000

// DefaultBSBFTestbedParams returns spec 000 §5.1's proposal, with the
// total work of ruling R7.
func DefaultBSBFTestbedParams() *BSBFTestbedParams {
	return &BSBFTestbedParams{
		Jobs: 30, LargeJobs: 10, SmallGPUs: []int{1, 2, 4, 8}, LargeGPUs: []int{12, 16},
		MinIterations: 100, MaxIterations: 5000, WorkGPUS: TestbedWorkGPUS, MeanGapS: 40,
		Models: []string{"bert", "cifar10", "deepspeech2", "imagenet", "ncf", "yolov3"},
	}
}

// Check enforces the rules that span fields.
func (p *BSBFTestbedParams) Check() []schema.Problem {
	var ps []schema.Problem
	add := func(path, format string, args ...any) {
		ps = append(ps, schema.Problem{Path: path, Msg: fmt.Sprintf(format, args...)})
	}
	if p.LargeJobs > p.Jobs {
		add("large_jobs", "is above jobs (%d > %d)", p.LargeJobs, p.Jobs)
	}
	if p.LargeJobs < p.Jobs && len(p.SmallGPUs) == 0 {
		add("small_gpus", "must list at least one GPU count")
	}
	if p.LargeJobs > 0 && len(p.LargeGPUs) == 0 {
		add("large_gpus", "must list at least one GPU count")
	}
	for _, l := range []struct {
		name string
		v    []int
	}{{"small_gpus", p.SmallGPUs}, {"large_gpus", p.LargeGPUs}} {
		for i, g := range l.v {
			if g < 1 {
				add(schema.Index(l.name, i), "must be at least 1, got %d", g)
			}
		}
	}
	if p.MinIterations > p.MaxIterations {
		add("min_iterations", "is above max_iterations (%v > %v)", p.MinIterations, p.MaxIterations)
	}
	if len(p.Models) == 0 {
		add("models", "must list at least one task")
	}
	return ps
}

type bsbfTestbed struct{ p BSBFTestbedParams }

// JobCount is the number of jobs Generate makes.
func (g bsbfTestbed) JobCount() (int64, string) { return int64(g.p.Jobs), "jobs" }

func (g bsbfTestbed) Generate(seed uint64) ([]Job, error) {
	p := g.p
	rArr, rGPU, rIter, rModel := stream(seed, streamArrivals), stream(seed, streamGPUs), stream(seed, streamDurations), stream(seed, streamModels)
	arrivals := make([]float64, p.Jobs)
	for i := 1; i < p.Jobs && p.MeanGapS > 0; i++ {
		arrivals[i] = arrivals[i-1] + detmath.ExpVariate(rArr)*p.MeanGapS
	}
	large := make([]bool, p.Jobs) // exactly LargeJobs of them, at random positions
	for _, k := range rGPU.Perm(p.Jobs)[:p.LargeJobs] {
		large[k] = true
	}
	lo, hi := detmath.Log(p.MinIterations), detmath.Log(p.MaxIterations)
	jobs := make([]Job, p.Jobs)
	for i := range jobs {
		sizes := p.SmallGPUs
		if large[i] {
			sizes = p.LargeGPUs
		}
		model := p.Models[rModel.IntN(len(p.Models))]
		jobs[i] = Job{
			Name: jobName(p.IDPrefix, model, i), ArrivalS: roundTo(arrivals[i], 1e-3), Model: model,
			GPUs: sizes[rGPU.IntN(len(sizes))], Iterations: max(1, float64(int(detmath.Exp(lo+rIter.Float64()*(hi-lo))+0.5))),
		}
	}
	if p.WorkGPUS > 0 {
		scaleToWork(jobs, p.WorkGPUS)
	}
	return Finalize(jobs)
}

// scaleToWork reads each job's drawn size (its Iterations) as relative
// solo seconds and scales them so that Σ GPUs × seconds is work; the perf
// model later turns each duration into iterations.
func scaleToWork(jobs []Job, work float64) {
	total := 0.0
	for i := range jobs {
		total += float64(jobs[i].GPUs) * jobs[i].Iterations
	}
	for i := range jobs {
		jobs[i].DurationS = roundTo(jobs[i].Iterations*work/total, 1e-3)
		jobs[i].Iterations = 0
	}
}

func init() {
	RegisterGenerator(GeneratorFamily[BSBFSimParams]{
		Name: "sjf-bsbf-sim",
		Doc: "The SJF-BSBF paper's 64-GPU simulation workload (240 jobs at scale 1): Poisson arrivals over a window, " +
			"12.5% large jobs, lognormal solo durations, Pollux's task for each job's GPU-hours.",
		Defaults: func() BSBFSimParams { return *DefaultBSBFSimParams() },
		New:      func(p BSBFSimParams) (Generator, error) { return bsbfSim{p}, nil },
	})
	RegisterGenerator(GeneratorFamily[BSBFTestbedParams]{
		Name: "sjf-bsbf-testbed",
		Doc: "The SJF-BSBF paper's 16-GPU testbed workload: 30 jobs, 10 of them on 12 or 16 GPUs, the six tasks " +
			"uniformly, sizes log-uniform over a 50× range (the paper's 100–5000 iterations) scaled to 29,000 GPU-seconds " +
			"in all (Table II's FIFO makespan allows at most 37,000), Poisson arrivals.",
		Defaults: func() BSBFTestbedParams { return *DefaultBSBFTestbedParams() },
		New:      func(p BSBFTestbedParams) (Generator, error) { return bsbfTestbed{p}, nil },
	})
}
