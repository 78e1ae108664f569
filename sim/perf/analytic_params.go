package perf

import (
	"encoding/json"
	"fmt"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/schema"
)

// ModelProfile is one model's row of the analytic model's table.
type ModelProfile struct {
	Model          string  `json:"model" help:"model name jobs refer to"`
	BatchSize      int     `json:"batch_size" min:"1" help:"per-GPU batch B of a job that does not give its own"`
	AlphaCompS     float64 `json:"alpha_comp_s" min:"0" unit:"s" help:"fixed compute time of one (micro-)batch, α_comp of Eq. 3"`
	BetaCompS      float64 `json:"beta_comp_s" min:"0" unit:"s/sample" help:"compute time per sample, β_comp of Eq. 3"`
	GradientMB     float64 `json:"gradient_mb" min:"0" unit:"MB" help:"size of the gradients all-reduced each iteration"`
	MemBaseGB      float64 `json:"mem_base_gb" min:"0" unit:"GB" help:"GPU memory of a worker at batch 0 (weights, optimizer state), m0"`
	MemPerSampleGB float64 `json:"mem_per_sample_gb" min:"0" unit:"GB/sample" help:"GPU memory per sample of the (sub-)batch, m1; the defaults stay within what Pollux's 16 GB T4 profiles ran (largest local batch: BERT 12, CIFAR10 1024, DeepSpeech2 80, ImageNet 200, NCF 32768, YoloV3 16), e.g. DeepSpeech2 0.19 and ImageNet 0.077"`
	Intensity      float64 `json:"intensity" min:"0" max:"1" help:"fraction of a GPU the model keeps busy alone, u of the time-share interference model"`
}

// ModelTable is the per-model table. A table given in a scenario replaces
// the default one whole, row by row, instead of merging into it.
type ModelTable []ModelProfile

// UnmarshalJSON decodes into a fresh table, so that rows never inherit
// values from the default table at the same position.
func (t *ModelTable) UnmarshalJSON(data []byte) error {
	var rows []ModelProfile
	if err := json.Unmarshal(data, &rows); err != nil {
		return err
	}
	*t = rows
	return nil
}

// SpeedTable lists GPU types' compute speeds. A table given in a scenario
// replaces the default one whole.
type SpeedTable []TypeSpeed

// UnmarshalJSON decodes into a fresh table, so that rows never inherit
// values from the default table at the same position.
func (t *SpeedTable) UnmarshalJSON(data []byte) error {
	var rows []TypeSpeed
	if err := json.Unmarshal(data, &rows); err != nil {
		return err
	}
	*t = rows
	return nil
}

// AnalyticParams configure the analytic iteration-time model. The defaults
// are spec 000 §5.5: α_comp and β_comp are least-squares fits to Pollux's
// single-GPU profiles (see TestFitMatchesPolluxProfiles); the other
// columns, δ, λ and the interference model are the spec's proposals.
type AnalyticParams struct {
	Models          ModelTable     `json:"models" help:"per-model timing, memory and GPU-intensity table"`
	Delta           float64        `json:"delta" min:"1" max:"1000" help:"overlap exponent δ of Eq. 7: 1 adds compute and communication, large values overlap them fully"`
	LatencyUS       float64        `json:"latency_us" min:"0" unit:"µs" help:"per-step latency λ of the ring all-reduce"`
	MemoryPreset    string         `json:"memory_preset,omitempty" enum:",spec_tight" help:"spec_tight: a teaching variant that gives DeepSpeech2, ImageNet and NCF an illustrative per-sample memory (0.30, 0.10 and 0.0005 GB), more than Pollux's profiles allow, so that sharing jobs must shrink their batch more often; empty keeps the table's values"`
	ComputeSpeed    SpeedTable     `json:"compute_speed" help:"how many times faster each GPU type computes than the T4s the α and β were fitted on; it divides the compute time of Eq. 3 (not the all-reduce). Default: the RTX 2080 Ti at 1.65, the ratio of the two cards' public FP32 peaks (13.4 ÷ 8.1 TFLOPS); types not listed run at 1 (T4 speed)"`
	IntraServerGBps float64        `json:"intra_server_gbps,omitempty" min:"0" unit:"GB/s" help:"all-reduce bandwidth when every worker is on one server; 0 takes the cluster's (6 GB/s by default)"`
	InterServerGBps float64        `json:"inter_server_gbps,omitempty" min:"0" unit:"GB/s" help:"all-reduce bandwidth across servers; 0 takes the cluster's (1.25 GB/s, 10 Gb/s Ethernet, by default)"`
	Xi              XiParams       `json:"xi" help:"interference ratios ξ of jobs sharing a GPU"`
	Adaptive        AdaptiveParams `json:"adaptive" help:"how jobs of an elastic, batch-adapting policy (Pollux) progress"`
}

// XiParams choose the interference model.
type XiParams struct {
	Model   string      `json:"model" enum:"time_share,uniform,matrix,none" help:"time_share: the GPU time-share model (docs/sjf-bsbf.md) from each model's intensity; uniform: one ratio for every pair; matrix: a ratio per pair of models; none: sharing is free"`
	Epsilon float64     `json:"epsilon" min:"0" max:"10" help:"time_share: context-switch and memory-bandwidth overhead ε per co-runner"`
	Uniform float64     `json:"uniform,omitempty" min:"0" max:"100" help:"uniform: the ratio ξ of every job beside any partner (≥ 1)"`
	Models  []string    `json:"models,omitempty" help:"matrix: row and column labels"`
	Matrix  [][]float64 `json:"matrix,omitempty" help:"matrix: ξ of the row model beside the column model (≥ 1); pairs not listed are not slowed down"`
}

// AdaptiveParams are the statistical-efficiency knobs of jobs that adapt
// their batch size (spec 000 §4.5).
type AdaptiveParams struct {
	NoiseScaleFactor float64 `json:"noise_scale_factor" min:"0" max:"1000" help:"gradient noise scale φ as a multiple of the job's initial total batch M0: the efficiency of total batch M is (φ+M0)/(φ+M)"`
	MaxBatchFactor   float64 `json:"max_batch_factor" min:"1" max:"1000" help:"largest total batch a job may use, as a multiple of M0"`
	BatchSteps       int     `json:"batch_steps" min:"1" max:"1000" help:"total batches tried between M0 and the largest, spaced geometrically"`
}

// DefaultModelTable is spec 000 §5.5's table with the per-sample memory
// of ruling R3: no larger than public measurements allow. The paper gives
// no memory figures. Pollux's profiles (../shared/data/pollux/traces/
// MODEL/placements.csv, 16 GB T4s) ran each model up to a largest local
// batch, which bounds m1 by (16 GB − m0) / that batch:
//
//	bert        batch 12    -> m1 ≤ 1.18  (0.65 kept; Google's BERT README
//	                           fits batch 12 at sequence 384 in 12 GB)
//	cifar10     batch 1024  -> m1 ≤ 0.015 (0.010 kept)
//	deepspeech2 batch 80    -> m1 ≤ 0.19  (spec 0.30 lowered to 0.19)
//	imagenet    batch 200   -> m1 ≤ 0.077 (spec 0.10 lowered to 0.077)
//	ncf         batch 32768 -> m1 ≤ 0.00048 (spec 0.0005 lowered to 0.00045)
//	yolov3      batch 16    -> m1 ≤ 0.94  (0.55 kept)
//
// Each value is the spec's, or the bound where the spec's is above it.
// The memory_preset spec_tight restores the spec's columns for teaching.
func DefaultModelTable() ModelTable {
	return ModelTable{
		{Model: "bert", BatchSize: 12, AlphaCompS: 0.213, BetaCompS: 0.0578, GradientMB: 440, MemBaseGB: 1.8, MemPerSampleGB: 0.65, Intensity: 0.95},
		{Model: "cifar10", BatchSize: 128, AlphaCompS: 0.0172, BetaCompS: 0.00066, GradientMB: 45, MemBaseGB: 0.6, MemPerSampleGB: 0.010, Intensity: 0.60},
		{Model: "deepspeech2", BatchSize: 20, AlphaCompS: 0.091, BetaCompS: 0.0291, GradientMB: 150, MemBaseGB: 0.8, MemPerSampleGB: 0.19, Intensity: 0.85},
		{Model: "imagenet", BatchSize: 64, AlphaCompS: 0.078, BetaCompS: 0.0042, GradientMB: 102, MemBaseGB: 0.6, MemPerSampleGB: 0.077, Intensity: 0.90},
		{Model: "ncf", BatchSize: 1024, AlphaCompS: 0.0073, BetaCompS: 4.3e-7, GradientMB: 20, MemBaseGB: 0.3, MemPerSampleGB: 0.00045, Intensity: 0.35},
		{Model: "yolov3", BatchSize: 16, AlphaCompS: 0.216, BetaCompS: 0.0243, GradientMB: 248, MemBaseGB: 1.0, MemPerSampleGB: 0.55, Intensity: 0.80},
	}
}

// tightMemory is the per-sample memory spec 000 §5.5 wrote where it is
// above what Pollux's profiles allow: the memory_preset spec_tight, which
// the teaching scenario sjf-bsbf-memory-tight uses to show how memory
// pressure separates SJF-FFS from SJF-BSBF.
var tightMemory = map[string]float64{"deepspeech2": 0.30, "imagenet": 0.10, "ncf": 0.0005}

// TightMemoryTable is table t with the spec_tight memory preset applied,
// as a copy.
func TightMemoryTable(t ModelTable) ModelTable {
	out := append(ModelTable(nil), t...)
	for i := range out {
		if m1, ok := tightMemory[out[i].Model]; ok {
			out[i].MemPerSampleGB = m1
		}
	}
	return out
}

// DefaultComputeSpeed is the 2080 Ti against the T4 the compute times
// were fitted on, from public FP32 peaks: 13.4 ÷ 8.1 TFLOPS ≈ 1.65
// (spec 000 ruling R6).
func DefaultComputeSpeed() SpeedTable {
	return SpeedTable{{GPUType: "2080Ti", Speed: 1.65}}
}

// DefaultAnalyticParams returns spec 000 §5.5's parameters.
func DefaultAnalyticParams() *AnalyticParams {
	return &AnalyticParams{
		Models: DefaultModelTable(), ComputeSpeed: DefaultComputeSpeed(), Delta: 2, LatencyUS: 50,
		Xi:       XiParams{Model: "time_share", Epsilon: 0.1},
		Adaptive: AdaptiveParams{NoiseScaleFactor: 4, MaxBatchFactor: 8, BatchSteps: 12},
	}
}

// Check enforces the rules that span fields.
func (p *AnalyticParams) Check() []schema.Problem {
	var ps []schema.Problem
	add := func(path, format string, args ...any) {
		ps = append(ps, schema.Problem{Path: path, Msg: fmt.Sprintf(format, args...)})
	}
	if len(p.Models) == 0 {
		add("models", "must list at least one model")
	}
	seen := map[string]int{}
	for i, m := range p.Models {
		path := schema.Index("models", i)
		if m.Model == "" {
			add(path+".model", "is required")
		} else if k, dup := seen[m.Model]; dup {
			add(path+".model", "%q is already models[%d]", m.Model, k)
		}
		seen[m.Model] = i
		if !(m.AlphaCompS+m.BetaCompS > 0) {
			add(path, "alpha_comp_s and beta_comp_s cannot both be 0: an iteration would take no time")
		} else if t := m.AlphaCompS + m.BetaCompS*float64(max(m.BatchSize, 1)); t < 1e-6 || t > 1e6 {
			add(path, "an iteration at batch_size takes %g s (alpha_comp_s + beta_comp_s × batch_size); it must take between 1e-6 and 1e6 s so that rates stay finite", t)
		}
	}
	types := map[string]int{}
	for i, ts := range p.ComputeSpeed {
		path := schema.Index("compute_speed", i)
		if ts.GPUType == "" {
			add(path+".gpu_type", "is required")
		} else if k, dup := types[ts.GPUType]; dup {
			add(path+".gpu_type", "%q is already compute_speed[%d]", ts.GPUType, k)
		}
		types[ts.GPUType] = i // the speed's range is checked by its field tags
	}
	return ps // xi is checked by its own Check
}

// Check enforces the rules that span fields.
func (x *XiParams) Check() []schema.Problem {
	var ps []schema.Problem
	switch x.Model {
	case "uniform":
		if !(x.Uniform >= 1) {
			ps = append(ps, schema.Problem{Path: "uniform", Msg: fmt.Sprintf("must be a slowdown of at least 1 when model is uniform, got %v", x.Uniform)})
		}
	case "matrix":
		spec := InterferenceSpec{Models: x.Models, Matrix: x.Matrix}
		ps = append(ps, spec.Check()...)
		if len(x.Models) == 0 {
			ps = append(ps, schema.Problem{Path: "models", Msg: "must list the matrix's models when model is matrix"})
		}
	}
	return ps
}

func init() {
	Register(Family[AnalyticParams]{
		Name: "analytic",
		Doc: "The SJF-BSBF paper's iteration-time model: compute linear in the batch, ring all-reduce " +
			"inside or across servers, overlap exponent δ, gradient accumulation, memory linear in the " +
			"sub-batch, and interference ratios ξ for jobs sharing a GPU (time-share model, uniform or matrix).",
		Defaults: func() AnalyticParams { return *DefaultAnalyticParams() },
		New: func(p AnalyticParams, c *cluster.Cluster) (Model, error) {
			return NewAnalytic(p, c)
		},
	})
}
