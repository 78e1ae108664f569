package tesserae

import (
	"math"
	"slices"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/metrics"
)

// The finish-time fairness metrics of Fig. 13 (spec 003 §5.7), computed
// from job records alone so that every policy can be compared.
func init() {
	for _, d := range []metrics.Def{
		{Name: "ftf_fair_max", Doc: "worst finish-time fairness ρ: a job's JCT over its isolated-fair JCT, its solo time × max(1, GPUs × average active jobs during its lifetime ÷ cluster GPUs) (Themis' 1/N share of the cluster)", Fn: rhoStat(1)},
		{Name: "ftf_fair_p95", Doc: "95th percentile of finish-time fairness ρ (see ftf_fair_max)", Fn: rhoStat(0.95)},
		{Name: "ftf_fair_mean", Doc: "mean finish-time fairness ρ (see ftf_fair_max)", Fn: rhoMean},
	} {
		metrics.Register(d)
	}
}

// FairRhos returns ρ of each selected finished job (spec 003 §5.7 [ours]):
// JCT ÷ (solo time × max(1, g·n̄/G)), where n̄ is the time-averaged number
// of jobs present (arrived, not finished) over the job's lifetime and G the
// cluster's GPUs: with a 1/n̄ share of the cluster the job would get
// G/n̄ GPUs, so it runs g·n̄/G times slower than alone when that exceeds 1.
func FairRhos(c metrics.Context) []float64 {
	if c.Result == nil || c.NumGPUs == 0 {
		return nil
	}
	all := c.Result.Jobs
	var out []float64
	for _, r := range c.Selected {
		if r.Status != engine.Finished || !(r.SoloS > 0) || r.Job < 0 || int(r.Job) >= len(c.Jobs) {
			continue
		}
		a, f := r.ArrivalS, r.FinishS
		if !(f > a) {
			continue
		}
		present := 0.0 // ∫ jobs present dt over [a, f]
		for _, o := range all {
			end := o.FinishS
			if o.Status != engine.Finished {
				end = math.Inf(1)
			}
			if lo, hi := max(a, o.ArrivalS), min(f, end); hi > lo {
				present += hi - lo
			}
		}
		nbar := present / (f - a)
		fair := r.SoloS * max(1, float64(c.Jobs[r.Job].GPUs)*nbar/float64(c.NumGPUs))
		out = append(out, (f-a)/fair)
	}
	return out
}

func rhoStat(q float64) func(metrics.Context) float64 {
	return func(c metrics.Context) float64 {
		rs := FairRhos(c)
		if len(rs) == 0 {
			return math.NaN()
		}
		slices.Sort(rs)
		i := int(math.Ceil(q*float64(len(rs)))) - 1
		return rs[max(0, min(i, len(rs)-1))]
	}
}

func rhoMean(c metrics.Context) float64 {
	rs := FairRhos(c)
	if len(rs) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, v := range rs {
		s += v
	}
	return s / float64(len(rs))
}
