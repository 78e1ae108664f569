package paper

import (
	"math"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/metrics"
)

// Metrics are the metrics of the Gavel figures, computed from what the
// policies record (they are NaN for runs of other policies).
func Metrics() []metrics.Def {
	return []metrics.Def{
		{Name: "ftf_rho", Doc: "mean finish-time fairness ρ: a job's JCT over its JCT on the same trace under the isolated policy (gavel-isolated, which the scenario must also run)", Fn: ftfRhoIsolated},
		{Name: "ftf_rho_share", Doc: "mean finish-time fairness ρ as Themis estimates it: JCT over the time the job's work would have taken with a 1/n share of the cluster, n the jobs present (recorded by Gavel's policies)", Fn: ftfRho},
		{Name: "cost_usd", Doc: "cost of the run in dollars: GPU-hours of each type times its price (a shared GPU counts once)", Fn: lastValue("gavel/cost_usd")},
		{Name: "slo_violation_pct", Doc: "percentage of jobs with a deadline that finished after it", Fn: sloViolations},
		{Name: "entity_share_error", Doc: "hierarchical fairness: largest relative gap between an entity's share of the normalised throughput and its weight's share, averaged over the time every job is present", Fn: steady("gavel/entity_share_error")},
		{Name: "steady_norm_thr", Doc: "total normalised effective throughput (Σ scale factor × throughput ÷ equal-share throughput), averaged over the time every job is present", Fn: steady("gavel/total_norm_thr")},
	}
}

// ftfRhoIsolated divides each finished job's JCT by its JCT under the
// isolated policy's run of the same trace; jobs that did not finish there
// are left out.
func ftfRhoIsolated(c metrics.Context) float64 {
	var iso []engine.JobRecord
	for _, p := range c.Peers {
		if p.Name == "gavel-isolated" {
			iso = p.Jobs
			break
		}
	}
	if iso == nil {
		return math.NaN()
	}
	sum, n := 0.0, 0
	for _, r := range c.Selected {
		if r.Status != engine.Finished || int(r.Job) >= len(iso) || iso[r.Job].Job != r.Job {
			continue
		}
		b := iso[r.Job]
		if b.Status == engine.Finished && b.JCT() > 0 {
			sum += r.JCT() / b.JCT()
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

func ftfRho(c metrics.Context) float64 {
	if c.Result == nil {
		return math.NaN()
	}
	iso := map[int32]float64{}
	for _, s := range c.Result.Series {
		if s.Name == "gavel/iso_time_s" && len(s.V) > 0 {
			iso[int32(s.Job)] = s.V[len(s.V)-1]
		}
	}
	sum, n := 0.0, 0
	for _, r := range c.Selected {
		if r.Status != engine.Finished {
			continue
		}
		if t, ok := iso[int32(r.Job)]; ok && t > 0 {
			sum += r.JCT() / t
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

func lastValue(name string) func(metrics.Context) float64 {
	return func(c metrics.Context) float64 {
		if c.Result == nil {
			return math.NaN()
		}
		s := c.Result.FindSeries(name, -1)
		if s == nil || len(s.V) == 0 {
			return math.NaN()
		}
		return s.V[len(s.V)-1]
	}
}

func sloViolations(c metrics.Context) float64 {
	late, n := 0, 0
	for _, r := range c.Selected {
		d := c.Jobs[r.Job].DeadlineS
		if r.Status != engine.Finished || d <= 0 {
			continue
		}
		n++
		if r.FinishS > d+1e-6 {
			late++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return 100 * float64(late) / float64(n)
}

// steady averages a series over the points at which the number of active
// jobs was at its largest (every job of a small trace present).
func steady(name string) func(metrics.Context) float64 {
	return func(c metrics.Context) float64 {
		if c.Result == nil {
			return math.NaN()
		}
		s, act := c.Result.FindSeries(name, -1), c.Result.FindSeries("gavel/active_jobs", -1)
		if s == nil || act == nil {
			return math.NaN()
		}
		peak := 0.0
		for _, v := range act.V {
			peak = math.Max(peak, v)
		}
		at := map[float64]bool{}
		for i, v := range act.V {
			if v == peak {
				at[act.T[i]] = true
			}
		}
		sum, n := 0.0, 0
		for i, t := range s.T {
			if at[t] {
				sum += s.V[i]
				n++
			}
		}
		if n == 0 {
			return math.NaN()
		}
		return sum / float64(n)
	}
}
