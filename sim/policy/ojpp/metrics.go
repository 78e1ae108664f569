package ojpp

import (
	"math"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/metrics"
)

// The metrics of spec 002 §6.0, computed from the raw records; the first
// three are in every run's JSON output, so that every figure can be
// recomputed from it.
func init() {
	for _, d := range []metrics.Def{
		{Name: "gpus_used", Doc: "most GPUs active at once (the paper's devices used)", Fn: gpusUsed},
		{Name: "degradation", Doc: "ΣJCT / Σ solo time − 1 (OJPP's performance degradation D)", Fn: degradation},
		{Name: "mean_slowdown", Doc: "mean over jobs of JCT / solo time − 1", Fn: meanSlowdown},
	} {
		metrics.RegisterOutput(d)
	}
	for _, d := range []metrics.Def{
		{Name: "guaranteed_perf", Doc: "1 / (1 + degradation): OJPP's guaranteed performance (Table 5)", Fn: func(c metrics.Context) float64 {
			return 1 / (1 + degradation(c))
		}},
		{Name: "belief_mae", Doc: "mean absolute error of the interference matrix the policy planned with, against the true one", Fn: beliefMAE},
		{Name: "belief_loo", Doc: "leave-one-out mean absolute error, on the measured cells, of the regression that predicted the interference matrix (AIP's model-selection score)", Fn: firstOf("ojpp/belief_loo")},
		{Name: "migration_overhead", Doc: "OJPAP's migration downtime over ΣJCT (Fig. 10's migration cost)", Fn: migrationOverhead},
		{Name: "quiet_crossings", Doc: "OJPAP: ticks at which a GPU's raw interference passed θ̄ without triggering an adjustment (Fig. 10's t2)", Fn: lastOf("ojpp/quiet_crossings")},
		{Name: "adjustments", Doc: "OJPAP: adjustments run", Fn: countOf("ojpp/adjust_moves")},
		{Name: "moves_per_adjustment", Doc: "OJPAP: workers moved per adjustment, on average", Fn: meanOf("ojpp/adjust_moves")},
		{Name: "adjust_drop", Doc: "OJPAP: mean relative fall of the mean observed interference across an adjustment", Fn: meanOf("ojpp/adjust_drop")},
		{Name: "adjust_drop_max", Doc: "OJPAP: mean relative fall of the worst GPU's observed interference across an adjustment", Fn: meanOf("ojpp/adjust_drop_max")},
		{Name: "adjust_drop_hot", Doc: "OJPAP: mean relative fall, across an adjustment, of the mean observed interference of the GPUs whose smoothed value had passed θ̄", Fn: meanOf("ojpp/adjust_drop_hot")},
		{Name: "adjust_drop_10", Doc: "OJPAP: mean relative fall of the mean observed interference from just before an adjustment to its lowest in the next 10 ticks (the paper's Fig. 10)", Fn: meanOf("ojpp/adjust_drop_10")},
		{Name: "gpu_reduction", Doc: "1 − GPUs used / Σ workers: GPUs saved against one GPU per worker (Table 5)", Fn: gpuReduction},
	} {
		metrics.Register(d)
	}
}

// gpusUsed is the most busy GPUs at once; NaN when the run kept no
// utilisation steps (lean runs).
func gpusUsed(c metrics.Context) float64 {
	if len(c.Result.Utilization) == 0 {
		return math.NaN()
	}
	most := 0
	for _, u := range c.Result.Utilization {
		most = max(most, u.BusyGPUs)
	}
	return float64(most)
}

func degradation(c metrics.Context) float64 {
	jct, solo := 0.0, 0.0
	for i := range c.Selected {
		r := &c.Selected[i]
		if r.Status == engine.Finished && r.SoloS > 0 {
			jct += r.JCT()
			solo += r.SoloS
		}
	}
	if solo == 0 {
		return math.NaN()
	}
	return jct/solo - 1
}

func meanSlowdown(c metrics.Context) float64 {
	sum, n := 0.0, 0
	for i := range c.Selected {
		r := &c.Selected[i]
		if r.Status == engine.Finished && r.SoloS > 0 {
			sum += r.JCT()/r.SoloS - 1
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

func gpuReduction(c metrics.Context) float64 {
	workers := 0
	for i := range c.Selected {
		workers += c.Selected[i].GPUs
	}
	if workers == 0 {
		return math.NaN()
	}
	return 1 - gpusUsed(c)/float64(workers)
}

// beliefMAE reads the error the policy recorded when it built its belief;
// NaN (no value) when it planned with the true matrix or the run kept no
// series (lean runs).
func beliefMAE(c metrics.Context) float64 {
	for _, s := range c.Result.Series {
		if s.Name == "ojpp/belief_mae" && len(s.V) > 0 {
			return s.V[0]
		}
	}
	return math.NaN()
}

// migrationOverhead is the downtime OJPAP charged (its last recorded
// total) over the selected jobs' ΣJCT; 0 when it never adjusted, NaN in
// lean runs.
func migrationOverhead(c metrics.Context) float64 {
	jct := 0.0
	for i := range c.Selected {
		if r := &c.Selected[i]; r.Status == engine.Finished {
			jct += r.JCT()
		}
	}
	for _, s := range c.Result.Series {
		if s.Name == "ojpp/migration_s" && len(s.V) > 0 {
			return s.V[len(s.V)-1] / jct
		}
	}
	if len(c.Result.Series) == 0 {
		return math.NaN()
	}
	return 0
}

// series finds a recorded series of the run, or nil.
func series(c metrics.Context, name string) *engine.Series {
	for i := range c.Result.Series {
		if c.Result.Series[i].Name == name {
			return &c.Result.Series[i]
		}
	}
	return nil
}

// lastOf is the last value of a series; 0 when the run recorded others
// but not this one, NaN when it recorded none (lean runs).
func lastOf(name string) func(metrics.Context) float64 {
	return func(c metrics.Context) float64 {
		if s := series(c, name); s != nil && len(s.V) > 0 {
			return s.V[len(s.V)-1]
		}
		if len(c.Result.Series) == 0 {
			return math.NaN()
		}
		return 0
	}
}

// firstOf is the first value of a series; NaN when there is none.
func firstOf(name string) func(metrics.Context) float64 {
	return func(c metrics.Context) float64 {
		if s := series(c, name); s != nil && len(s.V) > 0 {
			return s.V[0]
		}
		return math.NaN()
	}
}

// countOf is the number of points of a series (0 when absent).
func countOf(name string) func(metrics.Context) float64 {
	return func(c metrics.Context) float64 {
		if s := series(c, name); s != nil {
			return float64(len(s.V))
		}
		return 0
	}
}

// meanOf is the mean of a series' values; NaN when it has none.
func meanOf(name string) func(metrics.Context) float64 {
	return func(c metrics.Context) float64 {
		s := series(c, name)
		if s == nil || len(s.V) == 0 {
			return math.NaN()
		}
		sum := 0.0
		for _, v := range s.V {
			sum += v
		}
		return sum / float64(len(s.V))
	}
}
