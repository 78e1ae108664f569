package scenario

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/schedlab/schedlab/sim/schema"
	"github.com/schedlab/schedlab/sim/workload"
)

// dryBuildJobs is the largest workload Parse builds (cluster, perf model,
// the first seed's jobs prepared for the model) to find what Build would
// refuse; larger generated workloads are checked by their parameters only
// (a generator makes only jobs its parameters allow).
const dryBuildJobs = 20_000

// checkBuild finds, before any run, the problems Build and the policies
// would otherwise report only when running: a model missing from the perf
// model's table, measure.jobs_to beyond the job count, jobs larger than a
// policy schedules, arrivals after time 0 for a policy that plans a batch.
func (sc *Scenario) checkBuild(dry bool) []schema.Problem {
	n, _ := sc.jobCount()
	if m := sc.Measure; int64(m.JobsTo) > n {
		return []schema.Problem{{Path: "measure.jobs_to", Msg: fmt.Sprintf("is %d but the workload has only %d jobs; measure fewer jobs or add jobs", m.JobsTo, n)}}
	}
	if !dry {
		return nil
	}
	if n > dryBuildJobs {
		// Too large to build at parse time, but an explicit job list (an
		// imported trace) is checked against the policies' job sizes as
		// it stands, so that a policy that cannot run it is refused now
		// rather than days into the simulation.
		if sc.generator == nil {
			return sc.jobSizeProblems(sc.Workload.Jobs)
		}
		return nil
	}
	key, err := sc.buildKey()
	if err != nil {
		return sc.dryBuild()
	}
	if v, ok := dryBuilds.Load(key); ok {
		r := v.(dryResult)
		sc.buildNotices = r.notices
		return append([]schema.Problem(nil), r.problems...)
	}
	ps := sc.dryBuild()
	if dryBuildCount.Add(1) > 64 { // a small cache: keystrokes in the page edit other fields
		dryBuilds.Clear()
		dryBuildCount.Store(0)
	}
	dryBuilds.Store(key, dryResult{ps, sc.buildNotices})
	return ps
}

// dryResult is what a dry build found: problems, and notices for a valid
// scenario (see Notices).
type dryResult struct {
	problems, notices []schema.Problem
}

// dryBuilds caches dry builds by what they depend on, so that checking
// the same workload again (the page validates at every keystroke, a
// sweep's variants share it) costs nothing.
var (
	dryBuilds     sync.Map // string -> dryResult
	dryBuildCount atomic.Int64
)

// buildKey is everything a dry build depends on.
func (sc *Scenario) buildKey() (string, error) {
	names := make([]string, len(sc.Policies))
	for i, p := range sc.Policies {
		names[i] = p.Name + "\x00" + sc.PolicyLabel(i)
	}
	b, err := json.Marshal(struct {
		Seed     uint64
		Cluster  any
		Workload any
		Perf     any
		Measure  Measure
		Policies []string
	}{sc.RunSeeds()[0], sc.Cluster, sc.Workload, sc.Perf, sc.Measure, names})
	return string(b), err
}

// dryBuild builds the first seed's inputs and checks the jobs against the
// policies' own limits and requirements; it keeps the notices about the
// jobs in sc.buildNotices.
func (sc *Scenario) dryBuild() []schema.Problem {
	seed := sc.RunSeeds()[0]
	in, err := sc.Build(seed)
	if err != nil {
		return []schema.Problem{sc.buildProblem(err)}
	}
	sc.buildNotices = sc.oversizeNotice(in.Jobs, seed)
	ps := sc.batchProblems(in.Jobs)
	return append(ps, sc.jobSizeProblems(in.Jobs)...)
}

// jobSizeProblems names, for each policy that schedules jobs of a
// limited size, the first job that is larger.
func (sc *Scenario) jobSizeProblems(jobs []workload.Job) []schema.Problem {
	var ps []schema.Problem
	for i, p := range sc.Policies {
		f, _ := sc.registry().Lookup(p.Name)
		if f.MaxJobGPUs == 0 {
			continue
		}
		for k := range jobs {
			if j := &jobs[k]; j.GPUs > f.MaxJobGPUs {
				ps = append(ps, schema.Problem{Path: schema.Index("policies", i) + ".name", Msg: fmt.Sprintf(
					"%s schedules jobs of at most %d GPU(s), but job %q asks for %d; use another policy or smaller jobs",
					sc.PolicyLabel(i), f.MaxJobGPUs, j.Name, j.GPUs)})
				break
			}
		}
	}
	return ps
}

// buildProblem places a Build error at the JSON path it is about: an
// explicit job named in the message, or the workload and perf model.
func (sc *Scenario) buildProblem(err error) schema.Problem {
	msg := err.Error()
	path := "workload"
	if strings.HasPrefix(msg, "perf: ") {
		path = "perf"
	}
	for i := range sc.Workload.Jobs {
		if strings.Contains(msg, "job "+sc.Workload.Jobs[i].Name+":") {
			path = schema.Index("workload.jobs", i)
			break
		}
	}
	return schema.Problem{Path: path, Msg: msg}
}

// variantParseBytes is the largest document whose every sweep value is
// parsed as a variant; larger ones check the first and the last value
// (paths are the same for every value and job counts grow with it).
const variantParseBytes = 1 << 20

// checkVariants parses every sweep value's variant and the quick version
// (with its own sweep values), so that a sweep path that does not exist or
// a value a field refuses is reported now, and checks the study's limits.
func (sc *Scenario) checkVariants() []schema.Problem {
	var ps []schema.Problem
	if sw := sc.Sweep; sw != nil && len(sw.Values) > Limits.MaxSweepValues {
		return []schema.Problem{{Path: "sweep.values", Msg: fmt.Sprintf("lists %d values, above the limit of %d; sweep fewer values", len(sw.Values), Limits.MaxSweepValues)}}
	}
	jobs, vps := sc.sweepJobs(sc, "")
	ps = append(ps, vps...)
	sc.pointJobs = jobs
	if q := sc.Quick; q != nil && len(q.Set) > 0 {
		qv, err := sc.Variant(q.Set...)
		if err != nil {
			ps = append(ps, variantProblems(err, "quick.set", "(in the quick version)")...)
		} else {
			_, vps := qv.sweepJobs(qv, " of the quick version")
			ps = append(ps, vps...)
			qv.pointJobs = nil
		}
	}
	if len(ps) > 0 {
		return ps
	}
	path := "seeds"
	if sc.Sweep != nil {
		path = "sweep.values"
	}
	return sc.checkRunLimits(path)
}

// sweepJobs parses the variant at each sweep value and returns each one's
// job count.
func (sc *Scenario) sweepJobs(base *Scenario, what string) ([]int64, []schema.Problem) {
	if base.Sweep == nil {
		return nil, nil
	}
	values := base.Sweep.Values
	if len(base.raw) > variantParseBytes && len(values) > 2 {
		values = []float64{values[0], values[len(values)-1]}
	}
	var jobs []int64
	for i, x := range values {
		// Every value's document is checked; the extreme values are also
		// built (a sweep changes numbers, and its job count grows with x).
		v, err := base.sweepVariant(x, i == 0 || i == len(values)-1)
		if err != nil {
			return nil, variantProblems(err, "sweep", fmt.Sprintf("(at sweep value %g%s)", x, what))
		}
		n, _ := v.jobCount()
		jobs = append(jobs, n)
	}
	return jobs, nil
}

// variantProblems keeps the paths of a variant's problems and says which
// variant they come from.
func variantProblems(err error, path, where string) []schema.Problem {
	var vps schema.Problems
	if !errors.As(err, &vps) {
		return []schema.Problem{{Path: path, Msg: err.Error() + " " + where}}
	}
	out := make([]schema.Problem, len(vps))
	for i, p := range vps {
		out[i] = schema.Problem{Path: p.Path, Msg: p.Msg + " " + where}
	}
	return out
}
