package metrics

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/internal/registry"
	"github.com/schedlab/schedlab/sim/workload"
)

// Context is what a named metric is computed from: the selected jobs of
// one run (a group, inside the measurement window), the whole run, and
// the run's job specs and GPU count.
type Context struct {
	Selected []engine.JobRecord
	Result   *engine.Result
	Jobs     []workload.Job
	NumGPUs  int
	// Peers are the runs of the scenario's other policies on the same
	// trace (same seed and sweep value), for metrics that compare a job
	// with itself under another policy.
	Peers []Peer
}

// Peer is another policy's run of the same trace. A metric reads of it
// only its job records, which is what lets a study copy a run from
// another study (experiment.RunShare) and still serve it as a peer.
type Peer struct {
	Label string             // the policy's label in the scenario
	Name  string             // its registry name
	Jobs  []engine.JobRecord // every job's record, measured or not
}

// Def is a named metric.
type Def struct {
	Name string
	Unit string // "s" for durations, "" for counts and fractions
	Doc  string
	Fn   func(c Context) float64
}

var defs = registry.New[Def]("metric")

// Register adds a named metric; it panics on a duplicate, a programming
// error. Paper packages register their own (cost, fairness, ...).
func Register(d Def) { defs.Add(d.Name, d) }

// Lookup finds a named metric. Besides the registered names it knows the
// families pNN_jct_s and pNN_queue_s (the NN-th percentile, 0 < NN < 100)
// and lowmeanNN_jct_s (the mean of the NN% shortest JCTs).
func Lookup(name string) (Def, error) {
	if d, ok := defs.Get(name); ok {
		return d, nil
	}
	for _, fam := range []struct {
		prefix, suffix string
		build          func(p float64) func(Context) float64
		doc            string
	}{
		{"p", "_jct_s", func(p float64) func(Context) float64 { return pct(jct, p) }, "%gth percentile of JCT"},
		{"p", "_queue_s", func(p float64) func(Context) float64 { return pct(queue, p) }, "%gth percentile of queuing delay"},
		{"lowmean", "_jct_s", lowMean, "mean JCT of the %g%% fastest jobs"},
	} {
		if v, ok := strings.CutPrefix(name, fam.prefix); ok {
			if v, ok := strings.CutSuffix(v, fam.suffix); ok {
				p, err := strconv.ParseFloat(v, 64)
				if err == nil && p > 0 && p < 100 {
					return Def{Name: name, Unit: "s", Doc: fmt.Sprintf(fam.doc, p), Fn: fam.build(p)}, nil
				}
			}
		}
	}
	return Def{}, fmt.Errorf("unknown metric %q; known metrics: %s, pNN_jct_s, pNN_queue_s, lowmeanNN_jct_s", name, strings.Join(Names(), ", "))
}

// AxisLabel names a metric on a figure's axis: its description when it
// is short and plain (up to 45 ASCII characters), else its name without
// the "_s" of seconds, since the axis label gives the unit.
func AxisLabel(name string) string {
	if d, err := Lookup(name); err == nil && d.Doc != "" && len(d.Doc) <= 45 && isASCII(d.Doc) {
		return d.Doc
	}
	return strings.TrimSuffix(name, "_s")
}

func isASCII(s string) bool {
	for _, r := range s {
		if r > 127 {
			return false
		}
	}
	return true
}

var outputNames []string

// RegisterOutput registers a metric that every run's JSON output carries
// (when it has a value); it must not need Context.Peers.
func RegisterOutput(d Def) {
	Register(d)
	outputNames = append(outputNames, d.Name)
	sort.Strings(outputNames)
}

// OutputNames lists, sorted, the metrics registered with RegisterOutput.
func OutputNames() []string { return append([]string(nil), outputNames...) }

// Names lists the registered metric names, sorted.
func Names() []string { return defs.Names() }

func jct(r *engine.JobRecord) float64   { return r.JCT() }
func queue(r *engine.JobRecord) float64 { return r.QueueS }

// finishedValues returns f over the finished selected jobs, sorted.
func finishedValues(c Context, f func(*engine.JobRecord) float64) []float64 {
	var xs []float64
	for i := range c.Selected {
		if c.Selected[i].Status == engine.Finished {
			xs = append(xs, f(&c.Selected[i]))
		}
	}
	sort.Float64s(xs)
	return xs
}

func pct(f func(*engine.JobRecord) float64, p float64) func(Context) float64 {
	return func(c Context) float64 { return Percentile(finishedValues(c, f), p) }
}

func lowMean(p float64) func(Context) float64 {
	return func(c Context) float64 {
		xs := finishedValues(c, jct)
		n := int(math.Ceil(float64(len(xs)) * p / 100))
		if n == 0 {
			return math.NaN()
		}
		return mean(xs[:n])
	}
}

func meanOf(f func(*engine.JobRecord) float64) func(Context) float64 {
	return func(c Context) float64 {
		xs := finishedValues(c, f)
		if len(xs) == 0 {
			return math.NaN()
		}
		return mean(xs)
	}
}

func init() {
	for _, d := range []Def{
		{"jobs", "", "number of jobs", func(c Context) float64 { return float64(len(c.Selected)) }},
		{"finished", "", "number of finished jobs", func(c Context) float64 { return float64(len(finishedValues(c, jct))) }},
		{"avg_jct_s", "s", "average job completion time", meanOf(jct)},
		{"max_jct_s", "s", "longest job completion time", func(c Context) float64 { return Percentile(finishedValues(c, jct), 100) }},
		{"avg_queue_s", "s", "average time from arrival to first start", meanOf(queue)},
		{"avg_wait_s", "s", "average time spent holding no GPUs after arrival", meanOf(func(r *engine.JobRecord) float64 { return r.WaitS })},
		{"avg_run_slowdown", "", "average of run time over solo run time (the slowdown sharing causes)", meanOf(func(r *engine.JobRecord) float64 {
			if r.SoloS <= 0 {
				return math.NaN()
			}
			return r.RunS / r.SoloS
		})},
		{"makespan_s", "s", "last completion minus first arrival", func(c Context) float64 { return summarizeJobs(c.Selected).Makespan }},
		{"utilization", "", "fraction of GPU time busy (whole run)", func(c Context) float64 { return Summarize(c.Result, c.NumGPUs).Utilization }},
		{"gpu_hours", "", "GPU-hours held", func(c Context) float64 { return summarizeJobs(c.Selected).GPUHours }},
		{"preemptions", "", "number of preemptions", func(c Context) float64 { return float64(summarizeJobs(c.Selected).Preemptions) }},
		{"migrations", "", "number of migrations", func(c Context) float64 { return float64(summarizeJobs(c.Selected).Migrations) }},
	} {
		Register(d)
	}
}

// Select returns the records of one group of jobs. Groups: "all"; "small"
// and "large" (at most / more than largeGPUs GPUs); "model:NAME";
// "gpus:N"; "weight:W" (priority weight); "short:P" and "long:P" (jobs at
// or below / above the P-th percentile of solo duration, e.g. short:80).
func Select(group string, recs []engine.JobRecord, jobs []workload.Job, largeGPUs int) ([]engine.JobRecord, error) {
	keep, err := groupFilter(group, jobs, largeGPUs)
	if err != nil {
		return nil, err
	}
	var out []engine.JobRecord
	for i := range recs {
		if keep(&recs[i], &jobs[recs[i].Job]) {
			out = append(out, recs[i])
		}
	}
	return out, nil
}

func groupFilter(group string, jobs []workload.Job, largeGPUs int) (func(*engine.JobRecord, *workload.Job) bool, error) {
	kind, arg, _ := strings.Cut(group, ":")
	num := func() (float64, error) {
		v, err := strconv.ParseFloat(arg, 64)
		if err != nil {
			return 0, fmt.Errorf("group %q needs a number after the colon", group)
		}
		return v, nil
	}
	switch kind {
	case "", "all":
		return func(*engine.JobRecord, *workload.Job) bool { return true }, nil
	case "small":
		return func(r *engine.JobRecord, _ *workload.Job) bool { return r.GPUs <= largeGPUs }, nil
	case "large":
		return func(r *engine.JobRecord, _ *workload.Job) bool { return r.GPUs > largeGPUs }, nil
	case "model":
		return func(r *engine.JobRecord, _ *workload.Job) bool { return r.Model == arg }, nil
	case "gpus":
		n, err := num()
		return func(r *engine.JobRecord, _ *workload.Job) bool { return float64(r.GPUs) == n }, err
	case "weight":
		w, err := num()
		return func(_ *engine.JobRecord, j *workload.Job) bool { return j.EffectiveWeight() == w }, err
	case "short", "long":
		p, err := num()
		if err != nil || p <= 0 || p >= 100 {
			return nil, fmt.Errorf("group %q needs a percentile between 0 and 100", group)
		}
		d := make([]float64, len(jobs))
		for i := range jobs {
			d[i] = jobs[i].DurationS
		}
		sort.Float64s(d)
		cut := Percentile(d, p)
		if kind == "short" {
			return func(_ *engine.JobRecord, j *workload.Job) bool { return j.DurationS <= cut }, nil
		}
		return func(_ *engine.JobRecord, j *workload.Job) bool { return j.DurationS > cut }, nil
	}
	return nil, fmt.Errorf("unknown group %q; groups: all, small, large, model:NAME, gpus:N, weight:W, short:P, long:P", group)
}
