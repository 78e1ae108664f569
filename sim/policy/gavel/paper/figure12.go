package paper

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy/gavel/alloc"
	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/workload"
)

// ScalabilityKinds are the policies of the Figure 12 benchmark (spec 001
// §6 Figure 12, §7): LAS and hierarchical water filling, with and without
// space sharing, and the per-job LPs.
var ScalabilityKinds = []string{"las", "las-ss", "hierarchical", "hierarchical-ss", "makespan", "ftf", "cost"}

// ScalabilityPoint is one measured policy computation.
type ScalabilityPoint struct {
	Kind     string  `json:"kind"`
	Jobs     int     `json:"jobs"`
	Seconds  float64 `json:"seconds"`
	LPs      int     `json:"lps"`
	Variable int     `json:"variables,omitempty"`
}

// Scalability times one allocation of a policy over m active jobs drawn
// from Gavel's zoo (single-GPU jobs for space sharing, the multi-GPU mix
// otherwise), on a cluster with m/4 GPUs of each type; hierarchical
// policies put each job in one of 5 entities with weights 1–3 (the
// reference's set-up). The time is wall-clock time of this machine.
func Scalability(kind string, m int, seed uint64) (ScalabilityPoint, error) {
	in, err := scalabilityInput(kind, m, seed)
	if err != nil {
		return ScalabilityPoint{}, err
	}
	run := &alloc.LPs{}
	var a plan.Allocator
	ents := make([]plan.Entity, 5)
	r := rand.New(rand.NewPCG(seed, 77))
	for i := range ents {
		ents[i] = plan.Entity{Name: fmt.Sprintf("e%d", i), Weight: float64(1 + r.IntN(3))}
	}
	switch kind {
	case "las":
		a = &alloc.Fair{Aware: true, TieBreak: true, PairThreshold: 1, LPs: run}
	case "las-ss":
		a = &alloc.Fair{Aware: true, SpaceSharing: true, TieBreak: true, PairThreshold: 1, LPs: run}
	case "hierarchical":
		a = &alloc.Fair{Aware: true, Entities: ents, PairThreshold: 1, LPs: run}
	case "hierarchical-ss":
		a = &alloc.Fair{Aware: true, SpaceSharing: true, Entities: ents, PairThreshold: 1, LPs: run}
	case "makespan":
		a = &alloc.PerJob{Objective: "makespan", Aware: true, TieBreak: true, LPs: run}
	case "ftf":
		a = &alloc.PerJob{Objective: "ftf", Aware: true, TieBreak: true, LPs: run}
	case "cost":
		a = &alloc.PerJob{Objective: "cost", Aware: true, SLO: true, Prices: []float64{0.74, 0.43, 0.135}, LPs: run}
	default:
		return ScalabilityPoint{}, fmt.Errorf("unknown kind %q; kinds: %v", kind, ScalabilityKinds)
	}
	start := time.Now()
	if _, err := a.Allocate(in); err != nil {
		return ScalabilityPoint{}, err
	}
	return ScalabilityPoint{Kind: kind, Jobs: m, Seconds: time.Since(start).Seconds(), LPs: run.Solved}, nil
}

func scalabilityInput(kind string, m int, seed uint64) (*plan.Input, error) {
	per := max(1, m/4)
	c, err := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{
		{Count: per, GPUs: 1, GPUType: "V100"}, {Count: per, GPUs: 1, GPUType: "P100"}, {Count: per, GPUs: 1, GPUType: "K80"}}})
	if err != nil {
		return nil, err
	}
	model, err := perf.NewThroughput(perf.ThroughputParams{})
	if err != nil {
		return nil, err
	}
	single := kind == "las-ss" || kind == "hierarchical-ss"
	gen := workload.DefaultGavelParams()
	gen.Jobs, gen.JobsPerHour, gen.MultiGPU = m, 0, !single
	gen.SLOFactors = []float64{1.2, 2, 10}
	jobs, err := workload.NewGavel(*gen).Generate(seed)
	if err != nil {
		return nil, err
	}
	if err := model.Prepare(c, jobs); err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(seed, 78))
	in := &plan.Input{Now: 0, Types: c.Types(), Count: []float64{float64(per), float64(per), float64(per)},
		Rand: rand.New(rand.NewPCG(seed, 79)), Oracle: plan.Oracle{Model: model, Cluster: c}}
	for i := range jobs {
		j := &jobs[i]
		j.Entity = fmt.Sprintf("e%d", r.IntN(5))
		thr := make([]float64, len(in.Types))
		for k, t := range in.Types {
			thr[k] = model.SoloThroughput(j, t)
		}
		in.Jobs = append(in.Jobs, plan.Job{ID: j.ID, Job: j, SF: j.GPUs, Weight: 1, Thr: thr,
			Rem: j.Iterations * (0.2 + 0.8*r.Float64()), Elapsed: 3600 * r.Float64() * 10, IsoTime: 1800 * r.Float64() * 10})
	}
	return in, nil
}
