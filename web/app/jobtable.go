package app

import (
	"fmt"
	"sort"
	"strings"

	"github.com/schedlab/schedlab/sim/results"
)

// JobTable is the state of the Results view's table of jobs: one policy's
// jobs, filtered by a name or model, sorted by a column, a page at a time.
// Clicking a job opens its story.
type JobTable struct {
	Policy int
	Filter string
	Sort   string // a JobColumn key
	Desc   bool
	Page   int
	runID  int
}

// JobColumn is a column of the jobs table.
type JobColumn struct{ Key, Title, Help string }

// JobColumns are the jobs table's columns.
var JobColumns = []JobColumn{
	{"job", "Job", "the job's name; click it for its story"},
	{"model", "Model", "the model it trains"},
	{"gpus", "GPUs", "GPUs it asks for"},
	{"arrival", "Arrived", "when it was submitted"},
	{"queue", "Waited", "queuing delay: from arrival to first start"},
	{"start", "Started", "its first start"},
	{"finish", "Finished", "when it finished"},
	{"jct", "JCT", "job completion time: from arrival to finish"},
	{"preempt", "Preempted", "times it was stopped to make room for others"},
}

// JobRowsPerPage is the rows the jobs table shows at once.
const JobRowsPerPage = 20

// JobLine is one job of the table.
type JobLine struct {
	Index int
	Name  string
	Style string
	Cells []string
}

// Jobs is the jobs table's state, reset when new results come.
func (a *App) Jobs() *JobTable {
	if a.jobs == nil {
		a.jobs = &JobTable{}
	}
	t := a.jobs
	if a.Res != nil && t.runID != a.Res.RunID {
		t.runID, t.Page = a.Res.RunID, 0
		if t.Policy >= len(a.Res.Policies) {
			t.Policy = 0
		}
	}
	return t
}

// JobsSort sorts the table by a column, the other way on a second click.
func (a *App) JobsSort(key string) {
	t := a.Jobs()
	if t.Sort == key {
		t.Desc = !t.Desc
	} else {
		t.Sort, t.Desc = key, key == "jct" || key == "queue" || key == "preempt"
	}
	t.Page = 0
}

// JobsPage moves d pages.
func (a *App) JobsPage(d int) {
	t := a.Jobs()
	_, pages := a.JobRows()
	t.Page = max(0, min(pages-1, t.Page+d))
}

// JobsSelect shows policy i's jobs.
func (a *App) JobsSelect(i int) {
	if a.Res != nil && i >= 0 && i < len(a.Res.Policies) {
		t := a.Jobs()
		t.Policy, t.Page = i, 0
	}
}

// JobsFilter keeps the jobs whose name or model contains s.
func (a *App) JobsFilter(s string) {
	t := a.Jobs()
	t.Filter, t.Page = s, 0
}

// JobRows is the page of the table on show and the number of pages.
func (a *App) JobRows() ([]JobLine, int) {
	t := a.Jobs()
	if a.Res == nil || t.Policy >= len(a.Res.Policies) {
		return nil, 0
	}
	p := a.Res.Policies[t.Policy]
	f := strings.ToLower(strings.TrimSpace(t.Filter))
	var idx []int
	for i, j := range p.Out.Jobs {
		if f == "" || strings.Contains(strings.ToLower(j.ID), f) || strings.Contains(strings.ToLower(j.Model), f) {
			idx = append(idx, i)
		}
	}
	if key := jobKey(t.Sort); key != nil {
		sort.SliceStable(idx, func(x, y int) bool {
			kx, ky := key(&p.Out.Jobs[idx[x]]), key(&p.Out.Jobs[idx[y]])
			if t.Desc {
				return kx > ky
			}
			return kx < ky
		})
	}
	pages := max(1, (len(idx)+JobRowsPerPage-1)/JobRowsPerPage)
	page := min(t.Page, pages-1)
	var out []JobLine
	for _, i := range idx[min(page*JobRowsPerPage, len(idx)):min((page+1)*JobRowsPerPage, len(idx))] {
		j := &p.Out.Jobs[i]
		out = append(out, JobLine{Index: i, Name: j.ID, Style: p.jobStyle(i), Cells: []string{
			j.Model, fmt.Sprint(j.GPUs), results.Duration(j.ArrivalS), optDuration(j.QueueS), optDuration(j.StartS),
			optDuration(j.FinishS), optDuration(j.JCTS), fmt.Sprint(j.Preemptions)}})
	}
	return out, pages
}

// JobsCount says how many jobs the filter keeps.
func (a *App) JobsCount() string {
	t := a.Jobs()
	if a.Res == nil || t.Policy >= len(a.Res.Policies) {
		return ""
	}
	p := a.Res.Policies[t.Policy]
	f := strings.ToLower(strings.TrimSpace(t.Filter))
	n := 0
	for _, j := range p.Out.Jobs {
		if f == "" || strings.Contains(strings.ToLower(j.ID), f) || strings.Contains(strings.ToLower(j.Model), f) {
			n++
		}
	}
	_, pages := a.JobRows()
	return fmt.Sprintf("%s of %s jobs · page %d of %d", results.Thousands(n), results.Thousands(len(p.Out.Jobs)), min(t.Page, pages-1)+1, pages)
}

func optDuration(x *float64) string {
	if x == nil {
		return "–"
	}
	return results.Duration(*x)
}

// jobKey is the sort key of a column, nil for none (the run's order).
func jobKey(col string) func(j *results.JobOutput) float64 {
	opt := func(x *float64) float64 {
		if x == nil {
			return 1e300
		}
		return *x
	}
	switch col {
	case "gpus":
		return func(j *results.JobOutput) float64 { return float64(j.GPUs) }
	case "arrival":
		return func(j *results.JobOutput) float64 { return j.ArrivalS }
	case "queue":
		return func(j *results.JobOutput) float64 { return opt(j.QueueS) }
	case "start":
		return func(j *results.JobOutput) float64 { return opt(j.StartS) }
	case "finish":
		return func(j *results.JobOutput) float64 { return opt(j.FinishS) }
	case "jct":
		return func(j *results.JobOutput) float64 { return opt(j.JCTS) }
	case "preempt":
		return func(j *results.JobOutput) float64 { return float64(j.Preemptions) }
	}
	return nil
}
