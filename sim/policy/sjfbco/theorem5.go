package sjfbco

import (
	"math"

	"github.com/schedlab/schedlab/sim/metrics"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

// The paper's Theorem 5 says SJF-BCO's makespan is at most n_g·φ·u/l
// times the best possible one, T*. T* is not known, so each run checks
// the bound against a lower bound LB ≤ T*: makespan/LB ≤ n_g·φ·u/l
// implies makespan/T* ≤ n_g·φ·u/l.

// theorem5 is Theorem 5's bound for one run and the run's lower bound on
// the best possible makespan.
type theorem5 struct {
	NG  int     // n_g, the most GPUs any job asks for
	Phi float64 // φ, the largest ratio of one job's run times under two placements
	U   float64 // u, the upper ratio of the run-time estimate (the policy's knob)
	L   float64 // l, the smallest ratio of a job's estimate ρ̂ to its run time in this run
	// Lower is a lower bound on the best possible makespan on the servers
	// in use: the larger of the longest job and the jobs' total GPU-time
	// over the GPUs (the paper's "total work / N"), each job counted at
	// its shortest possible run time. Any schedule runs every job at
	// least that long, and its GPUs cannot do more GPU-time than the
	// makespan times their number. The shortest run time is ρ̂ unless
	// the model lets a split ring beat τ0 (no_clamp_k).
	Lower float64
}

// Bound is n_g·φ·u/l.
func (t theorem5) Bound() float64 { return float64(t.NG) * t.Phi * t.U / t.L }

// theorem5Terms computes Theorem 5's terms for jobs under model m on
// servers servers of gpus GPUs in all, at most maxPerServer on one, with
// runS[i] job i's run time in this run (0 when it did not run) and u the
// policy's upper estimate ratio.
//
// A job's fastest iteration is τ0 on one server, or eq. 8 on two servers
// with itself as the only split job (the least overhead and contention a
// split ring can have), whichever is shorter; its slowest is eq. 8 over
// as many servers as it has workers (at most the servers in use) with a
// full server of split jobs on one of them (every GPU a different ring).
// Run times are F over the model's speed (whole iterations per slot in
// floor mode), so φ counts that rounding as the paper's run times do.
func theorem5Terms(m *perf.RAR, jobs []workload.Job, runS []float64, servers, gpus, maxPerServer int, u float64) theorem5 {
	t := theorem5{Phi: 1, U: u, L: 1}
	work, longest := 0.0, 0.0
	for i := range jobs {
		j := &jobs[i]
		t.NG = max(t.NG, j.GPUs)
		tau0 := perf.Tau0(j)
		best, shortest := tau0, j.DurationS
		if j.GPUs > 1 {
			if split := m.Split(j, 2, 1).Total(); split < tau0 {
				best, shortest = split, j.Iterations*split
			}
		}
		work += float64(j.GPUs) * shortest
		longest = max(longest, shortest)
		worst := m.Split(j, min(j.GPUs, servers), maxPerServer).Total()
		t.Phi = max(t.Phi, m.Speed(best)/m.Speed(worst))
		if i < len(runS) && runS[i] > 0 {
			t.L = min(t.L, j.DurationS/runS[i])
		}
	}
	t.Lower = max(longest, work/float64(gpus))
	return t
}

// Names of the series theory records and the metrics that read them.
const (
	seriesLowerBound   = "sjfbco/lower_bound"
	seriesOverLower    = "sjfbco/makespan_over_lower_bound"
	seriesTheorem5     = "sjfbco/theorem5_ratio"
	metricOverLower    = "sjfbco_makespan_over_lower_bound"
	metricTheorem5     = "sjfbco_theorem5_bound"
	metricTheorem5Used = "sjfbco_theorem5_share"
)

// lastValue is the last value of a series the run recorded; NaN when it
// recorded none (another policy, or a lean run).
func lastValue(c metrics.Context, name string) float64 {
	for i := range c.Result.Series {
		if s := &c.Result.Series[i]; s.Name == name && len(s.V) > 0 {
			return s.V[len(s.V)-1]
		}
	}
	return math.NaN()
}

func init() {
	metrics.Register(metrics.Def{Name: metricOverLower,
		Doc: "SJF-BCO's makespan over a lower bound on the best possible one (max of the longest job and GPU-time / GPUs)",
		Fn:  func(c metrics.Context) float64 { return lastValue(c, seriesOverLower) }})
	metrics.Register(metrics.Def{Name: metricTheorem5,
		Doc: "Theorem 5's bound n_g·φ·u/l on SJF-BCO's makespan over the best possible",
		Fn:  func(c metrics.Context) float64 { return lastValue(c, seriesTheorem5) }})
	metrics.Register(metrics.Def{Name: metricTheorem5Used,
		Doc: "SJF-BCO's makespan over the lower bound, divided by Theorem 5's bound: at most 1 when it holds",
		Fn: func(c metrics.Context) float64 {
			return lastValue(c, seriesOverLower) / lastValue(c, seriesTheorem5)
		}})
}
