package perf

import (
	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/workload"
)

// PairModel is implemented by models and factors that can say how much a
// job slows down while one given partner shares its GPUs: the ξ of the
// SJF-BSBF paper, which its policy needs before it places a pair.
type PairModel interface {
	// PairSlowdown returns ξ(a|b) ≥ 1: how many times longer an iteration
	// of job a takes while job b shares its GPUs.
	PairSlowdown(a, b *workload.Job) float64
}

// PairSlowdown returns ξ(a|b) under model m: the product over m's parts
// (a composite's base and factors) of their pair slowdowns, which is what
// Rate gives a job with that single partner. Parts that cannot tell count
// as 1.
func PairSlowdown(m Model, a, b *workload.Job) float64 {
	if p, ok := As[PairModel](m); ok {
		return p.PairSlowdown(a, b)
	}
	return 1
}

// PairSlowdown implements PairModel: the base's pair slowdown times its
// factors'.
func (c *Composite) PairSlowdown(a, b *workload.Job) float64 {
	x := PairSlowdown(c.Base, a, b)
	for _, f := range c.Factors {
		if p, ok := f.(PairModel); ok {
			x *= p.PairSlowdown(a, b)
		}
	}
	return x
}

// PairSlowdown implements PairModel.
func (f *Interference) PairSlowdown(a, b *workload.Job) float64 { return f.Pair(a.Model, b.Model) }

// AdaptiveState is implemented by states in which jobs adapt their total
// batch size to the GPUs they hold (the elastic policies of Pollux's kind).
// Models that know statistical efficiency then measure progress by goodput.
type AdaptiveState interface {
	AdaptiveBatch() bool
}

// SoloRateAt is job j's rate under m alone on gpus with per-GPU
// micro-batch subBatch (0 for its own batch size).
func SoloRateAt(m Model, c *cluster.Cluster, j *workload.Job, gpus []cluster.GPUID, subBatch int) float64 {
	return m.Rate(&Alone{C: c, J: j, Where: Placement{GPUs: gpus, SubBatch: subBatch}}, j.ID)
}

// adaptiveAlone is Alone for a job that adapts its batch to its GPUs.
type adaptiveAlone struct{ Alone }

func (adaptiveAlone) AdaptiveBatch() bool { return true }

// AdaptiveSoloRate is job j's rate under m alone on gpus when it adapts its
// batch size to them (its goodput, for models that know it).
func AdaptiveSoloRate(m Model, c *cluster.Cluster, j *workload.Job, gpus []cluster.GPUID) float64 {
	return m.Rate(&adaptiveAlone{Alone{C: c, J: j, Where: Placement{GPUs: gpus}}}, j.ID)
}
