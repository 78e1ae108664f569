package trace

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/sim/schema"
	"github.com/schedlab/schedlab/sim/workload"
)

// jobBound is a numeric job field with the bounds a scenario holds it to.
type jobBound struct {
	name     string
	min, max *float64
	get      func(*workload.Job) float64
}

// jobBounds are read once from the job's struct tags, the bounds scenario
// validation checks, so that a value out of them is named by its line
// here rather than by a JSON path after the import. They are read on the
// first import, not at start: reading the tags by reflection is most of
// this package's start-up in WebAssembly (V8 compiles the reflection for
// it), and most commands import no trace.
var jobBounds = sync.OnceValue(func() []jobBound {
	get := map[string]func(*workload.Job) float64{
		"gpus":       func(j *workload.Job) float64 { return float64(j.GPUs) },
		"batch_size": func(j *workload.Job) float64 { return float64(j.BatchSize) },
		"iterations": func(j *workload.Job) float64 { return j.Iterations },
		"duration_s": func(j *workload.Job) float64 { return j.DurationS },
		"weight":     func(j *workload.Job) float64 { return j.Weight },
		"memory_gb":  func(j *workload.Job) float64 { return j.MemoryGB },
		"compute":    func(j *workload.Job) float64 { return j.Compute },
		"deadline_s": func(j *workload.Job) float64 { return j.DeadlineS },
	}
	var out []jobBound
	for _, f := range schema.Describe(workload.Job{}) {
		if g, ok := get[f.Name]; ok && (f.Min != nil || f.Max != nil) {
			out = append(out, jobBound{f.Name, f.Min, f.Max, g})
		}
	}
	return out
})

// checkFields checks a parsed job's fields against a scenario's bounds
// (gpus is left to the warnings about jobs too large for the cluster),
// returning the column and the problem of the first one out of them.
func (b *builder) checkFields(j *workload.Job) (column, msg string) {
	for _, f := range jobBounds() {
		v := f.get(j)
		switch {
		case f.name == "gpus":
		case f.min != nil && v < *f.min:
			return b.column(f.name), fmt.Sprintf("must be at least %g, got %g", *f.min, v)
		case f.max != nil && v > *f.max:
			return b.column(f.name), fmt.Sprintf("must be at most %g, got %g", *f.max, v)
		}
	}
	for _, p := range j.Check() {
		if p.Path != "arrival_s" { // checked once arrivals are shifted
			return b.column(p.Path), p.Msg
		}
	}
	return "", ""
}

// column names the column a job field was read from.
func (b *builder) column(field string) string {
	if c, ok := b.columns[field]; ok {
		return c
	}
	return field
}

// Check builds the result's scenario and checks it as a run would. A
// problem with a job is named by the line the job was read from (and its
// column where the field is one), not by the scenario's JSON path.
func (r *Result) Check(doc []byte) error {
	_, err := scenario.Parse(doc)
	ps, ok := err.(schema.Problems)
	if !ok {
		return err
	}
	var issues Errors
	for _, p := range ps {
		issues = append(issues, r.issueOf(p))
	}
	return issues
}

// issueOf turns a problem at workload.jobs[i].field into one at the
// job's line.
func (r *Result) issueOf(p schema.Problem) Issue {
	rest, ok := strings.CutPrefix(p.Path, "workload.jobs[")
	if !ok {
		return Issue{0, "the imported scenario: " + p.String()}
	}
	idx, field, _ := strings.Cut(rest, "]")
	i, err := strconv.Atoi(idx)
	if err != nil || i < 0 || i >= len(r.Jobs) || i >= len(r.Lines) {
		return Issue{0, "the imported scenario: " + p.String()}
	}
	msg := p.Msg
	if field = strings.TrimPrefix(field, "."); field != "" {
		if c, ok := r.columns[field]; ok {
			msg = "column " + c + ": " + msg
		} else {
			msg = "field " + field + ": " + msg
		}
	}
	return Issue{r.Lines[i], fmt.Sprintf("job %s: %s", short(r.Jobs[i].Name), msg)}
}
