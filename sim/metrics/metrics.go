// Package metrics turns a run's records into the numbers schedlab reports:
// average, median and tail job completion time (JCT), queuing delay,
// makespan, utilization, and the same broken down per model and for small
// and large jobs.
package metrics

import (
	"math"
	"sort"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/results"
)

// Summary is the headline metrics of a set of jobs. Times are seconds.
// JCT and queue figures cover finished jobs only. The type lives in
// sim/results, which the page reads without linking the simulator.
type Summary = results.Summary

// Group is a Summary of a named subset of jobs.
type Group = results.Group

// Summarize computes the metrics of all jobs of a run on numGPUs GPUs.
// Utilization is the fraction of GPU time, between the first arrival and
// the last completion, during which a GPU held at least one job; it is
// taken from the utilization steps when the run recorded them and from the
// jobs' GPU-seconds otherwise.
func Summarize(res *engine.Result, numGPUs int) Summary {
	s := summarizeJobs(res.Jobs)
	if s.Finished == 0 || numGPUs == 0 || s.Makespan <= 0 {
		return s
	}
	start := firstArrival(res.Jobs)
	switch {
	case len(res.Utilization) > 0 && res.Stats.UtilThinned > 0:
		s.Utilization = (busyUntil(res.Utilization, start+s.Makespan) - busyUntil(res.Utilization, start)) / (float64(numGPUs) * s.Makespan)
	case len(res.Utilization) > 0:
		s.Utilization = busyGPUSeconds(res.Utilization, start, start+s.Makespan) / (float64(numGPUs) * s.Makespan)
	default:
		s.Utilization = math.Min(1, s.GPUHours*3600/(float64(numGPUs)*s.Makespan))
	}
	return s
}

// busyUntil is the integral of busy GPUs from 0 to t over a thinned
// series: exact at its points, linear between them (each gap averages the
// steps merged into it), the last step's count after the last point.
func busyUntil(steps []engine.UtilPoint, t float64) float64 {
	i := sort.Search(len(steps), func(i int) bool { return steps[i].TimeS > t }) - 1
	if i < 0 {
		return 0
	}
	p := steps[i]
	rate := float64(p.BusyGPUs)
	if i+1 < len(steps) {
		q := steps[i+1]
		rate = (q.BusyGPUSeconds - p.BusyGPUSeconds) / (q.TimeS - p.TimeS)
	}
	return p.BusyGPUSeconds + rate*(t-p.TimeS)
}

func summarizeJobs(jobs []engine.JobRecord) Summary {
	var s Summary
	s.Jobs = len(jobs)
	jct := make([]float64, 0, len(jobs))
	var sumQ, sumW float64
	first, last := math.Inf(1), math.Inf(-1)
	for i := range jobs {
		r := &jobs[i]
		first = math.Min(first, r.ArrivalS)
		s.Preemptions += r.Preemptions
		s.Migrations += r.Migrations
		s.GPUHours += r.GPUSeconds / 3600
		switch r.Status {
		case engine.Finished:
			jct = append(jct, r.JCT())
			sumQ += r.QueueS
			sumW += r.WaitS
			last = math.Max(last, r.FinishS)
		case engine.Unschedulable:
			s.Unschedulable++
		default:
			s.Unfinished++
		}
	}
	s.Finished = len(jct)
	if s.Finished == 0 {
		return s
	}
	sort.Float64s(jct)
	s.AvgJCT = mean(jct)
	s.P50JCT = Percentile(jct, 50)
	s.P95JCT = Percentile(jct, 95)
	s.P99JCT = Percentile(jct, 99)
	s.AvgQueue = sumQ / float64(s.Finished)
	s.AvgWait = sumW / float64(s.Finished)
	s.Makespan = last - first
	return s
}

func firstArrival(jobs []engine.JobRecord) float64 {
	first := math.Inf(1)
	for i := range jobs {
		first = math.Min(first, jobs[i].ArrivalS)
	}
	return first
}

// busyGPUSeconds integrates the number of busy GPUs over [from, to].
func busyGPUSeconds(steps []engine.UtilPoint, from, to float64) float64 {
	total := 0.0
	for i, p := range steps {
		end := to
		if i+1 < len(steps) {
			end = math.Min(end, steps[i+1].TimeS)
		}
		begin := math.Max(p.TimeS, from)
		if end > begin {
			total += float64(p.BusyGPUs) * (end - begin)
		}
	}
	return total
}

// Percentile returns the p-th percentile (0–100) of sorted values, by
// linear interpolation between order statistics (NumPy's default).
func Percentile(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	pos := p / 100 * float64(n-1)
	lo := int(math.Floor(pos))
	if lo >= n-1 {
		return sorted[n-1]
	}
	frac := pos - float64(lo)
	return sorted[lo] + frac*(sorted[lo+1]-sorted[lo])
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// ByModel summarizes each model's jobs, in model-name order. Utilization
// is not split by model and stays 0.
func ByModel(jobs []engine.JobRecord) []Group {
	groups := map[string][]engine.JobRecord{}
	for _, r := range jobs {
		groups[r.Model] = append(groups[r.Model], r)
	}
	names := make([]string, 0, len(groups))
	for n := range groups {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]Group, len(names))
	for i, n := range names {
		out[i] = Group{Name: n, Summary: summarizeJobs(groups[n])}
	}
	return out
}

// BySize splits jobs into small (at most threshold GPUs) and large (more),
// the split of the SJF-BSBF paper with threshold 4.
func BySize(jobs []engine.JobRecord, threshold int) (small, large Group) {
	var s, l []engine.JobRecord
	for _, r := range jobs {
		if r.GPUs > threshold {
			l = append(l, r)
		} else {
			s = append(s, r)
		}
	}
	return Group{Name: "small", Summary: summarizeJobs(s)}, Group{Name: "large", Summary: summarizeJobs(l)}
}

// CDF returns the sorted JCTs of finished jobs and, for each, the fraction
// of finished jobs done by then.
func CDF(jobs []engine.JobRecord) (x, y []float64) {
	for _, r := range jobs {
		if r.Status == engine.Finished {
			x = append(x, r.JCT())
		}
	}
	sort.Float64s(x)
	y = make([]float64, len(x))
	for i := range x {
		y[i] = float64(i+1) / float64(len(x))
	}
	return x, y
}
