package scenario

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/sim/schema"
	"github.com/schedlab/schedlab/sim/workload"
)

// LimitSet bounds what one scenario may ask for. Parse checks every limit
// before anything is built (no cluster, job list or result is allocated
// for a scenario over a limit), so that memory stays bounded whatever the
// input; the page compares Size.EstimatedBytes with its own budget.
type LimitSet struct {
	// MaxFileBytes is the largest scenario document read from a file or
	// stdin (16 MiB: a scenario of MaxExplicitJobs jobs is about 9 MB).
	MaxFileBytes int64
	// MaxGPUs is the most GPUs of the whole cluster: the sum over server
	// groups of count × gpus. The engine and the policies keep a few
	// hundred bytes per GPU.
	MaxGPUs int64
	// MaxJobs is the most jobs of one run however they are made (explicit
	// or generated, e.g. base_jobs × scale), at any sweep value. A run
	// keeps about 1–2 KB per job (the job, its state, its record, its
	// GPU intervals and the utilisation steps).
	MaxJobs int64
	// MaxExplicitJobs is the most jobs listed in the document itself;
	// validating that many takes about a second and under 200 MB.
	MaxExplicitJobs int64
	// MaxRuns is the most runs of one scenario: sweep points × seeds ×
	// policies.
	MaxRuns int64
	// MaxJobRuns is the most job records over all runs (the sum over sweep
	// points of jobs × seeds × policies), since a study keeps every run's
	// records until it reports.
	MaxJobRuns int64
	// MaxSweepValues is the most values of a sweep.
	MaxSweepValues int
}

// Limits are the limits Parse enforces.
var Limits = LimitSet{
	MaxFileBytes:    16 << 20,
	MaxGPUs:         100_000,
	MaxJobs:         1_000_000,
	MaxExplicitJobs: 100_000,
	MaxRuns:         10_000,
	MaxJobRuns:      2_000_000,
	MaxSweepValues:  100,
}

// Memory model of Size.EstimatedBytes, from measured native runs (FIFO,
// 200,000 Poisson jobs on 1,024 GPUs: 369 MB peak, about 1.8 KB per job
// with the garbage collector's headroom); it errs on the high side.
const (
	baseBytes   = 64 << 20
	bytesPerGPU = 1 << 10
	bytesPerJob = 2 << 10 // per job of one run
)

// Size is how big a scenario is, known before anything is built.
type Size struct {
	GPUs           int64 // over all server groups
	Jobs           int64 // of one run, the largest over sweep values
	ExplicitJobs   int64 // listed in the document
	Points         int64 // sweep values (1 without a sweep)
	Seeds          int64
	Policies       int64
	Runs           int64 // Points × Seeds × Policies
	JobRuns        int64 // sum over points of jobs × seeds × policies
	EstimatedBytes int64 // peak memory of running it all, natively
}

// Size returns the scenario's size as run in full (every seed and sweep
// value; the quick version is never larger in the built-in scenarios, and
// Parse checks it separately).
func (sc *Scenario) Size() Size {
	s := Size{GPUs: sc.gpuTotal(), ExplicitJobs: int64(len(sc.Workload.Jobs)),
		Seeds: int64(len(sc.RunSeeds())), Policies: int64(len(sc.Policies))}
	jobs := sc.pointJobs
	if len(jobs) == 0 {
		n, _ := sc.jobCount()
		jobs = []int64{n}
	}
	s.Points = int64(len(jobs))
	for _, n := range jobs {
		s.Jobs = max(s.Jobs, n)
		s.JobRuns = satAdd(s.JobRuns, satMul(satMul(n, s.Seeds), s.Policies))
	}
	s.Runs = satMul(satMul(s.Points, s.Seeds), s.Policies)
	s.EstimatedBytes = satAdd(satAdd(baseBytes, satMul(s.GPUs, bytesPerGPU)), satMul(s.JobRuns, bytesPerJob))
	return s
}

// gpuTotal sums count × gpus over the server groups, saturating instead
// of overflowing.
func (sc *Scenario) gpuTotal() int64 {
	var total int64
	for _, g := range sc.Cluster.Servers {
		total = satAdd(total, satMul(int64(max(g.Count, 0)), int64(max(g.GPUs, 0))))
	}
	return total
}

// JobCount is the number of jobs of one run of a parsed scenario, known
// before any job is generated, with the generator's parameter that sets
// it ("jobs", "base_jobs × scale"), or "workload.jobs" for a job list.
func (sc *Scenario) JobCount() (int64, string) { return sc.jobCount() }

func (sc *Scenario) jobCount() (int64, string) {
	if sc.generator != nil {
		if c, ok := sc.generator.(workload.Counter); ok {
			return c.JobCount()
		}
		return 0, ""
	}
	return int64(len(sc.Workload.Jobs)), "workload.jobs"
}

// checkClusterLimits runs before anything depends on the cluster's size.
func (sc *Scenario) checkClusterLimits() []schema.Problem {
	n := sc.gpuTotal()
	if n <= Limits.MaxGPUs {
		return nil
	}
	var parts []string
	for i, g := range sc.Cluster.Servers {
		if i == 4 {
			parts = append(parts, "...")
			break
		}
		parts = append(parts, fmt.Sprintf("%s × %s", group(int64(g.Count)), group(int64(g.GPUs))))
	}
	return []schema.Problem{{Path: "cluster.servers", Msg: fmt.Sprintf(
		"the cluster has %s GPUs (count × gpus summed over the server groups: %s), above the limit of %s GPUs; reduce the count or gpus of the server groups",
		group(n), strings.Join(parts, " + "), group(Limits.MaxGPUs))}}
}

// explicitJobsLimit refuses a document listing too many jobs before they
// are decoded.
func explicitJobsLimit(tree any) []schema.Problem {
	doc, _ := tree.(map[string]any)
	w, _ := doc["workload"].(map[string]any)
	jobs, _ := w["jobs"].([]any)
	if int64(len(jobs)) <= Limits.MaxExplicitJobs {
		return nil
	}
	return []schema.Problem{{Path: "workload.jobs", Msg: fmt.Sprintf(
		"lists %s jobs, above the limit of %s explicit jobs; list fewer jobs, or describe them with a generator", group(int64(len(jobs))), group(Limits.MaxExplicitJobs))}}
}

// checkJobLimits runs once the workload is resolved, before any job is
// generated.
func (sc *Scenario) checkJobLimits() []schema.Problem {
	if n := int64(len(sc.Workload.Jobs)); n > Limits.MaxExplicitJobs {
		return []schema.Problem{{Path: "workload.jobs", Msg: fmt.Sprintf(
			"lists %s jobs, above the limit of %s explicit jobs; list fewer jobs, or describe them with a generator", group(n), group(Limits.MaxExplicitJobs))}}
	}
	if n, fields := sc.jobCount(); n > Limits.MaxJobs {
		return []schema.Problem{{Path: "workload.generator", Msg: fmt.Sprintf(
			"makes %s jobs (%s), above the limit of %s jobs per run; reduce %s", group(n), fields, group(Limits.MaxJobs), fields)}}
	}
	return nil
}

// checkRunLimits bounds the whole study: runs and job records over every
// sweep value, seed and policy.
func (sc *Scenario) checkRunLimits(path string) []schema.Problem {
	s := sc.Size()
	var ps []schema.Problem
	if s.Jobs > Limits.MaxJobs {
		ps = append(ps, schema.Problem{Path: path, Msg: fmt.Sprintf(
			"at some sweep value a run has %s jobs, above the limit of %s jobs per run; reduce the swept values or the job count", group(s.Jobs), group(Limits.MaxJobs))})
	}
	if s.Runs > Limits.MaxRuns {
		ps = append(ps, schema.Problem{Path: path, Msg: fmt.Sprintf(
			"asks for %s runs (%d sweep values × %d seeds × %d policies), above the limit of %s runs; reduce the sweep values, seeds or policies",
			group(s.Runs), s.Points, s.Seeds, s.Policies, group(Limits.MaxRuns))})
	}
	if s.JobRuns > Limits.MaxJobRuns {
		ps = append(ps, schema.Problem{Path: path, Msg: fmt.Sprintf(
			"asks for %s job records over all runs (jobs × seeds × policies, summed over %d sweep values), above the limit of %s; reduce the jobs, sweep values, seeds or policies",
			group(s.JobRuns), s.Points, group(Limits.MaxJobRuns))})
	}
	return ps
}

// group writes n with thousands separators: 1,000,000.
func group(n int64) string {
	s := strconv.FormatInt(n, 10)
	if n < 0 {
		return "-" + group(-n)
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

func satMul(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a > math.MaxInt64/b {
		return math.MaxInt64
	}
	return a * b
}

// OverBudget returns, when the scenario's estimated memory is above
// budget bytes (the page's, for instance), a sentence that says so and
// what to reduce; "" when it fits.
func (s Size) OverBudget(budget int64) string {
	if s.EstimatedBytes <= budget {
		return ""
	}
	what := "the jobs"
	switch {
	case s.GPUs*bytesPerGPU > s.JobRuns*bytesPerJob:
		what = "the cluster's GPUs"
	case s.Runs > 1:
		what = "the jobs, seeds, sweep values or policies"
	}
	return fmt.Sprintf("this scenario needs about %s of memory (%s GPUs, %s job records over %s runs), more than the %s available here; reduce %s",
		gib(s.EstimatedBytes), group(s.GPUs), group(s.JobRuns), group(s.Runs), gib(budget), what)
}

func gib(n int64) string {
	if n >= 1<<30 {
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	}
	return fmt.Sprintf("%d MB", n>>20)
}
