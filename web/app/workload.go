package app

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/workload"
	"github.com/schedlab/schedlab/web/doc"
)

// MaxTableJobs bounds turning generated jobs into an editable table.
const MaxTableJobs = 5000

// SetWorkloadMode switches between a generator and a job table, putting
// the other aside. A first switch to a table fills it with the jobs the
// generator makes for the current seed.
func (e *Editor) SetWorkloadMode(mode string) string {
	if mode == e.WorkloadMode() {
		return ""
	}
	var jobs []workload.Job
	if mode == ModeJobs {
		if _, stashed := e.Stash["workload.jobs"]; !stashed {
			var err error
			if jobs, err = e.generated(); err != nil {
				jobs = nil
			} else if len(jobs) > MaxTableJobs {
				return fmt.Sprintf("the generator makes %s jobs; a table holds at most %s (lower the number of jobs first)", results.Thousands(len(jobs)), results.Thousands(MaxTableJobs))
			}
		}
	}
	e.structural(func() {
		w := doc.Obj(e.Tree, "workload")
		if w == nil {
			w = doc.NewObject()
			if t, err := doc.Set(e.Tree, "workload", w); err == nil {
				e.Tree = t
			}
		}
		from, to := "workload.generator", "workload.jobs"
		if mode == ModeGenerator {
			from, to = to, from
		}
		if v, ok := w.Get(strings.TrimPrefix(from, "workload.")); ok {
			e.Stash[from] = doc.Clone(v)
		}
		w.Delete("generator")
		w.Delete("jobs")
		next, ok := e.Stash[to]
		switch {
		case ok:
		case mode == ModeJobs && len(jobs) > 0:
			next = tidyNumbers(doc.FromGo(jobs))
		case mode == ModeJobs:
			next = []any{newJob("j1", 0)}
		default:
			g := doc.NewObject()
			g.Set("kind", "poisson")
			next = g
		}
		w.Set(strings.TrimPrefix(to, "workload."), doc.Clone(next))
	})
	return ""
}

// generated returns the jobs of the current scenario's first seed.
func (e *Editor) generated() ([]workload.Job, error) {
	e.CheckNow()
	sc := e.Scenario()
	if sc == nil || !e.Valid() {
		return nil, fmt.Errorf("the scenario has problems")
	}
	in, err := sc.Build(sc.RunSeeds()[0])
	if err != nil {
		return nil, err
	}
	return in.Jobs, nil
}

// tidyNumbers rounds the numbers of a tree to the millisecond the
// generators round to, dropping float noise (37.175000000000004 becomes
// 37.175) that would only distract in a table.
func tidyNumbers(v any) any {
	switch x := v.(type) {
	case *doc.Object:
		for _, k := range x.Keys() {
			e, _ := x.Get(k)
			x.Set(k, tidyNumbers(e))
		}
	case []any:
		for i, e := range x {
			x[i] = tidyNumbers(e)
		}
	case json.Number:
		if f, err := x.Float64(); err == nil && f == f && math.Abs(f) < 1e12 {
			return jsonNumber(math.Round(f*1000) / 1000)
		}
	}
	return v
}

func newJob(id string, arrival float64) *doc.Object {
	o := doc.NewObject()
	o.Set("id", id)
	o.Set("arrival_s", jsonNumber(arrival))
	o.Set("gpus", jsonNumber(1))
	o.Set("model", "resnet50")
	o.Set("duration_s", jsonNumber(600))
	return o
}

// SetGeneratorKind switches the generator kind, keeping each kind's
// parameters aside for a switch back.
func (e *Editor) SetGeneratorKind(kind string) {
	cur := e.GeneratorKind()
	if kind == cur {
		return
	}
	e.structural(func() {
		if g := doc.Obj(e.Tree, "workload.generator"); g != nil {
			e.Stash["generator:"+cur] = doc.Clone(g)
		}
		next, ok := e.Stash["generator:"+kind]
		if !ok {
			g := doc.NewObject()
			g.Set("kind", kind)
			next = g
		}
		if t, err := doc.Set(e.Tree, "workload.generator", doc.Clone(next)); err == nil {
			e.Tree = t
		}
	})
}

// AddJob appends a job like the last one, with a fresh id, and shows the
// page it is on.
func (e *Editor) AddJob() {
	jobs := doc.List(e.Tree, "workload.jobs")
	var row *doc.Object
	if n := len(jobs); n > 0 {
		if last, ok := jobs[n-1].(*doc.Object); ok {
			row = doc.Clone(last).(*doc.Object)
		}
	}
	if row == nil {
		row = newJob("", 0)
	}
	row.Set("id", e.freshJobID())
	e.AddRow("workload.jobs", row)
	e.JobsPage = (len(jobs)) / JobPageSize
}

// freshJobID returns "j<N>" with N one above the largest such id.
func (e *Editor) freshJobID() string {
	n := 0
	for _, job := range doc.List(e.Tree, "workload.jobs") {
		id := doc.Str(job, "id")
		if k, err := strconv.Atoi(strings.TrimPrefix(id, "j")); err == nil && strings.HasPrefix(id, "j") && k > n {
			n = k
		}
	}
	return "j" + strconv.Itoa(n+1)
}

// SortJobs sorts the job table by a column; sorting by the same column
// again reverses the order.
func (e *Editor) SortJobs(col string) {
	jobs := doc.List(e.Tree, "workload.jobs")
	if len(jobs) == 0 {
		return
	}
	desc := e.sortCol == col && !e.sortDesc
	e.sortCol, e.sortDesc = col, desc
	e.structural(func() { sortRows(jobs, col, desc) })
}

// sortKey is a cell read once for sorting: comparing cells read through
// their paths was millions of path lookups for a table of 74,426 jobs.
type sortKey struct {
	num   float64
	isNum bool
	text  string
}

func cellKey(row any, col string) sortKey {
	v, _ := doc.Get(row, col)
	if n, ok := v.(json.Number); ok {
		f, _ := n.Float64()
		return sortKey{num: f, isNum: true}
	}
	if v == nil {
		return sortKey{}
	}
	return sortKey{text: fmt.Sprint(v)}
}

// keyLess orders numbers before text and blanks, text naturally (j2
// before j10).
func keyLess(a, b sortKey) bool {
	if a.isNum && b.isNum {
		return a.num < b.num
	}
	if a.isNum != b.isNum {
		return a.isNum
	}
	return naturalLess(a.text, b.text)
}

// sortRows sorts rows stably by column col, reversed when desc.
func sortRows(rows []any, col string, desc bool) {
	type keyed struct {
		key sortKey
		row any
	}
	ks := make([]keyed, len(rows))
	for i, r := range rows {
		ks[i] = keyed{cellKey(r, col), r}
	}
	sort.SliceStable(ks, func(a, b int) bool {
		if desc {
			return keyLess(ks[b].key, ks[a].key)
		}
		return keyLess(ks[a].key, ks[b].key)
	})
	for i, k := range ks {
		rows[i] = k.row
	}
}

// SortMark is the arrow after a sorted column's name.
func (e *Editor) SortMark(col string) string {
	if e.sortCol != col {
		return ""
	}
	if e.sortDesc {
		return " ▼"
	}
	return " ▲"
}

// Preview is a look at the jobs a scenario runs.
type Preview struct {
	Err     string
	Total   int
	Rows    []PreviewRow
	Summary []string
}

// PreviewRow is one job of the preview.
type PreviewRow struct {
	ID, Model, Arrival, Duration string
	GPUs                         int
}

// PreviewRows is the number of jobs the preview lists.
const PreviewRows = 100

// JobPreview builds the preview of the first seed's jobs.
func (e *Editor) JobPreview() Preview {
	jobs, err := e.generated()
	if err != nil {
		return Preview{Err: "Fix the problems above to see the jobs: " + err.Error()}
	}
	p := Preview{Total: len(jobs)}
	mix := map[int]int{}
	models := map[string]int{}
	gpuHours, last, totalDur := 0.0, 0.0, 0.0
	for i, j := range jobs {
		mix[j.GPUs]++
		models[j.Model]++
		gpuHours += float64(j.GPUs) * j.DurationS / 3600
		totalDur += j.DurationS
		last = max(last, j.ArrivalS)
		if i < PreviewRows {
			p.Rows = append(p.Rows, PreviewRow{ID: j.Name, Model: j.Model, GPUs: j.GPUs, Arrival: results.Duration(j.ArrivalS), Duration: results.Duration(j.DurationS)})
		}
	}
	if len(jobs) == 0 {
		return p
	}
	counts := make([]int, 0, len(mix))
	for g := range mix {
		counts = append(counts, g)
	}
	sort.Ints(counts)
	var mixParts []string
	for _, g := range counts {
		mixParts = append(mixParts, fmt.Sprintf("%d × %s", mix[g], plural(g, "GPU")))
	}
	names := make([]string, 0, len(models))
	for m := range models {
		names = append(names, m)
	}
	sort.Strings(names)
	var modelParts []string
	for _, m := range names {
		modelParts = append(modelParts, fmt.Sprintf("%s %d", m, models[m]))
	}
	p.Summary = []string{
		fmt.Sprintf("%s arriving over %s", plural(len(jobs), "job"), results.Duration(last)),
		"GPU counts: " + strings.Join(mixParts, ", "),
		"Models: " + strings.Join(modelParts, ", "),
		fmt.Sprintf("Mean solo duration %s; %s GPU-hours of work in all", results.Duration(totalDur/float64(len(jobs))), strconv.FormatFloat(gpuHours, 'f', 1, 64)),
	}
	return p
}
