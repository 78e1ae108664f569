// Package metrics turns a run's records into the numbers schedlab reports:
// average, median and tail job completion time (JCT), queuing delay,
// makespan, utilization, and the same broken down per model and for small
// and large jobs.
package metrics

import (
	"math"
	"slices"
	"sort"

	"github.com/schedlab/schedlab/internal/hugepages"
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
	s.Utilization = utilization(res, firstArrival(res.Jobs), s, numGPUs)
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
	a := newAcc(len(jobs))
	for i := range jobs {
		a.add(&jobs[i])
	}
	return a.summary()
}

// acc accumulates a Summary one record at a time, so that groups of jobs
// are summarised without copying their records.
type acc struct {
	s           Summary
	jct         []float64
	sumQ, sumW  float64
	first, last float64
	// counting accumulators count finished jobs instead of listing
	// their JCTs, which Stream lists at the end.
	counting bool
	finished int
	sorted   bool // jct is in ascending order already (Stream.lists)
	// parts, when not nil, replaces jct: the JCTs are the merge of
	// these ascending lists (see Stream.lists).
	parts sortedParts
}

// newAcc returns an accumulator expecting about n records.
func newAcc(n int) *acc {
	return &acc{jct: hugepages.Make[float64](n)[:0], first: math.Inf(1), last: math.Inf(-1)}
}

func (a *acc) add(r *engine.JobRecord) {
	s := &a.s
	s.Jobs++
	a.first = min(a.first, r.ArrivalS) // math.Min's rules (NaN, -0), inlined: add runs for every job of every group
	s.Preemptions += r.Preemptions
	s.Migrations += r.Migrations
	s.GPUHours += r.GPUSeconds / 3600
	switch r.Status {
	case engine.Finished:
		if a.counting {
			a.finished++
		} else {
			a.jct = append(a.jct, r.JCT())
		}
		a.sumQ += r.QueueS
		a.sumW += r.WaitS
		a.last = max(a.last, r.FinishS)
	case engine.Unschedulable:
		s.Unschedulable++
	default:
		s.Unfinished++
	}
}

// summary sorts the JCTs it collected and returns the Summary.
func (a *acc) summary() Summary {
	s := a.s
	if a.parts != nil {
		s.Finished = a.parts.len()
	} else {
		s.Finished = len(a.jct)
	}
	if s.Finished == 0 {
		return s
	}
	switch {
	case a.parts != nil:
		s.AvgJCT, s.P50JCT, s.P95JCT, s.P99JCT = a.parts.stats()
	default:
		if !a.sorted {
			slices.Sort(a.jct)
			a.sorted = true
		}
		s.AvgJCT = mean(a.jct)
		s.P50JCT = Percentile(a.jct, 50)
		s.P95JCT = Percentile(a.jct, 95)
		s.P99JCT = Percentile(a.jct, 99)
	}
	s.AvgQueue = a.sumQ / float64(s.Finished)
	s.AvgWait = a.sumW / float64(s.Finished)
	s.Makespan = a.last - a.first
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
	lo, frac, last := percentileRank(n, p)
	if last {
		return sorted[n-1]
	}
	return interpolate(sorted[lo], sorted[lo+1], frac)
}

// percentileRank is where the p-th percentile of n sorted values lies:
// between the values at ranks lo and lo+1 (from 0), frac of the way, or
// at the last value when last is set.
func percentileRank(n int, p float64) (lo int, frac float64, last bool) {
	pos := p / 100 * float64(n-1)
	lo = int(math.Floor(pos))
	if lo >= n-1 {
		return n - 1, 0, true
	}
	return lo, pos - float64(lo), false
}

func interpolate(a, b, frac float64) float64 { return a + frac*(b-a) }

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
	idx := map[string]int{}
	var accs []*acc
	var names []string
	for i := range jobs {
		r := &jobs[i]
		k, ok := idx[r.Model]
		if !ok {
			k = len(accs)
			idx[r.Model] = k
			accs = append(accs, newAcc(0))
			names = append(names, r.Model)
		}
		accs[k].add(r)
	}
	order := make([]int, len(names))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return names[order[a]] < names[order[b]] })
	out := make([]Group, len(names))
	for i, k := range order {
		out[i] = Group{Name: names[k], Summary: accs[k].summary()}
	}
	return out
}

// BySize splits jobs into small (at most threshold GPUs) and large (more),
// the split of the SJF-BSBF paper with threshold 4.
func BySize(jobs []engine.JobRecord, threshold int) (small, large Group) {
	s, l := newAcc(0), newAcc(0)
	for i := range jobs {
		if r := &jobs[i]; r.GPUs > threshold {
			l.add(r)
		} else {
			s.add(r)
		}
	}
	return Group{Name: "small", Summary: s.summary()}, Group{Name: "large", Summary: l.summary()}
}

// CDF returns the sorted JCTs of finished jobs and, for each, the fraction
// of finished jobs done by then.
func CDF(jobs []engine.JobRecord) (x, y []float64) {
	for i := range jobs {
		if r := &jobs[i]; r.Status == engine.Finished {
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
