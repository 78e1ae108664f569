package app

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/sim/workload"
	"github.com/schedlab/schedlab/web/doc"
	"github.com/schedlab/schedlab/web/form"
)

// The editor's sections describe their inputs with package form; the
// components render those descriptions, and the same descriptions tell
// which problems have a field to show next to.

// BasicsFields are the scenario's name, title and description.
func (e *Editor) BasicsFields() []*form.Field {
	return cached(e, "basics", func() []*form.Field {
		t := reflect.TypeOf(scenario.Scenario{})
		var out []*form.Field
		for _, w := range form.Describe(t, nil, "", e.Tree) {
			if w.Field != nil && (w.Field.Name == "name" || w.Field.Name == "title" || w.Field.Name == "description") {
				out = append(out, w.Field)
			}
		}
		return out
	})
}

// ClusterWidgets are the server groups, racks and network.
func (e *Editor) ClusterWidgets() []form.Widget {
	return cached(e, "cluster", func() []form.Widget {
		return form.Describe(reflect.TypeOf(cluster.Spec{}), nil, "cluster", e.Tree)
	})
}

// ClusterSummary describes the cluster in a sentence, e.g. "16 GPUs: 16 ×
// V100 on 4 servers in 1 rack". Groups with invalid values are skipped.
func (e *Editor) ClusterSummary() string {
	return cached(e, "cluster-summary", func() string {
		byType := map[string]int{}
		var types []string
		servers, gpus := 0, 0
		for i := range doc.List(e.Tree, "cluster.servers") {
			p := doc.Index("cluster.servers", i)
			count, ok1 := e.wholeNumber(p + ".count")
			per, ok2 := e.wholeNumber(p + ".gpus")
			typ := strings.TrimSpace(e.Str(p + ".gpu_type"))
			if !ok1 || !ok2 || count < 1 || per < 1 || typ == "" || count > 100000 {
				continue
			}
			if _, seen := byType[typ]; !seen {
				types = append(types, typ)
			}
			byType[typ] += count * per
			servers += count
			gpus += count * per
		}
		if gpus == 0 {
			return "No complete server group yet."
		}
		sort.Strings(types)
		parts := make([]string, len(types))
		for i, t := range types {
			parts[i] = fmt.Sprintf("%d × %s", byType[t], t)
		}
		racks := 1
		if per, ok := e.wholeNumber("cluster.servers_per_rack"); ok && per > 0 {
			racks = (servers + per - 1) / per
		}
		return fmt.Sprintf("%s GPUs: %s, on %s in %s.", results.Thousands(gpus), strings.Join(parts, ", "),
			plural(servers, "server"), plural(racks, "rack"))
	})
}

func (e *Editor) wholeNumber(path string) (int, bool) {
	f, ok := e.Number(path)
	if !ok || f != float64(int(f)) {
		return 0, false
	}
	return int(f), true
}

// GPUTypes are suggestions for the GPU type field.
var GPUTypes = []string{"V100", "P100", "K80", "A100", "H100", "T4", "RTX2080Ti", "RTX3090"}

// Workload modes.
const (
	ModeGenerator = "generator"
	ModeJobs      = "jobs"
)

// WorkloadMode tells whether jobs are generated or listed.
func (e *Editor) WorkloadMode() string {
	if doc.Obj(e.Tree, "workload.generator") == nil && doc.List(e.Tree, "workload.jobs") != nil {
		return ModeJobs
	}
	if _, ok := e.Get("workload.jobs").([]any); ok && e.Get("workload.generator") == nil {
		return ModeJobs
	}
	return ModeGenerator
}

// GeneratorKind is the kind of the job generator.
func (e *Editor) GeneratorKind() string { return e.Str("workload.generator.kind") }

// GeneratorKinds lists the generator kinds.
func (e *Editor) GeneratorKinds() []string { return workload.GeneratorNames() }

// GeneratorDoc explains the current generator kind.
func (e *Editor) GeneratorDoc() string {
	k, _ := workload.LookupGenerator(e.GeneratorKind())
	return k.Doc
}

// GeneratorWidgets are the parameters of the current generator kind.
func (e *Editor) GeneratorWidgets() []form.Widget {
	return cached(e, "generator", func() []form.Widget {
		k, ok := workload.LookupGenerator(e.GeneratorKind())
		if !ok {
			return nil
		}
		defaults := k.NewParams()
		return form.Describe(reflect.TypeOf(defaults), defaults, "workload.generator", e.Tree, "kind")
	})
}

// SeedField edits the first seed, the one the page runs.
func (e *Editor) SeedField() *form.Field {
	return &form.Field{Path: "seeds[0]", ID: form.ID("seeds[0]"), Name: "seed", Label: "Random seed", Kind: form.Integer,
		Default: "1", Help: "the same seed gives the same jobs and the same results, here and on the command line"}
}

// OtherSeeds describes the seeds after the first, which the command line
// runs with --all-seeds.
func (e *Editor) OtherSeeds() string {
	seeds := doc.List(e.Tree, "seeds")
	if len(seeds) < 2 {
		return ""
	}
	parts := make([]string, 0, len(seeds)-1)
	for _, s := range seeds[1:] {
		parts = append(parts, form.Text(s, form.Integer))
	}
	return strings.Join(parts, ", ")
}

// jobColumns are the columns of the job table, the first five always.
var jobColumns = []string{"id", "arrival_s", "gpus", "model", "duration_s"}

// JobPageSize is the number of job rows shown at once.
const JobPageSize = 50

// JobColumns are the job table's column headers.
func (e *Editor) JobColumns() []*form.Field {
	return cached(e, fmt.Sprintf("jobcols:%v", e.ShowAllCols), e.jobColumns)
}

func (e *Editor) jobColumns() []*form.Field {
	var out []*form.Field
	for _, w := range form.Describe(reflect.TypeOf(workload.Job{}), nil, "", nil) {
		if w.Field != nil && (e.ShowAllCols || contains(jobColumns, w.Field.Name)) {
			out = append(out, w.Field)
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return colRank(out[a].Name) < colRank(out[b].Name) })
	return out
}

func colRank(name string) int {
	for i, c := range jobColumns {
		if c == name {
			return i
		}
	}
	return len(jobColumns)
}

// JobRow is one row of the job table.
type JobRow struct {
	Index int
	Cells []*form.Field
}

// JobRows are the rows of the current page.
func (e *Editor) JobRows() []JobRow {
	return cached(e, fmt.Sprintf("jobrows:%d:%v", e.JobsPage, e.ShowAllCols), e.jobRows)
}

func (e *Editor) jobRows() []JobRow {
	cols := e.JobColumns()
	n := len(doc.List(e.Tree, "workload.jobs"))
	e.JobsPage = max(0, min(e.JobsPage, (n-1)/JobPageSize))
	var rows []JobRow
	for i := e.JobsPage * JobPageSize; i < n && i < (e.JobsPage+1)*JobPageSize; i++ {
		row := JobRow{Index: i}
		for _, c := range cols {
			f := *c
			f.Path = doc.Join(doc.Index("workload.jobs", i), c.Name)
			f.ID = form.ID(f.Path)
			row.Cells = append(row.Cells, &f)
		}
		rows = append(rows, row)
	}
	return rows
}

// JobCount is the number of listed jobs.
func (e *Editor) JobCount() int { return len(doc.List(e.Tree, "workload.jobs")) }

// JobPages is the number of pages of the job table.
func (e *Editor) JobPages() int { return max(1, (e.JobCount()+JobPageSize-1)/JobPageSize) }

// PolicyCard is one chosen policy in the editor.
type PolicyCard struct {
	Index   int
	Path    string
	Name    string
	Known   bool
	Title   string
	Paper   string
	Doc     string
	Needs   string // what the policy needs of a scenario, "" for nothing
	Label   *form.Field
	Widgets []form.Widget
}

// PolicyCards describe the chosen policies.
func (e *Editor) PolicyCards() []PolicyCard {
	return cached(e, "policies", func() []PolicyCard {
		var out []PolicyCard
		for i := range doc.List(e.Tree, "policies") {
			p := doc.Index("policies", i)
			c := PolicyCard{Index: i, Path: p, Name: e.Str(p + ".name")}
			c.Label = &form.Field{Path: p + ".label", ID: form.ID(p + ".label"), Name: "label", Label: "Label", Kind: form.String,
				Optional: true, Help: "name in tables and legends"}
			if f, ok := policy.Lookup(c.Name); ok {
				c.Known, c.Title, c.Paper, c.Doc, c.Needs = true, f.Title, f.Paper, f.Doc, f.Needs()
				c.Label.Default = f.Title
				defaults := f.NewParams()
				var skip []string
				if c.Name == ScriptPolicy {
					skip = []string{"source"} // the card's code editor (script.go)
				}
				c.Widgets = form.Describe(reflect.TypeOf(defaults), defaults, p+".params", e.Tree, skip...)
			}
			out = append(out, c)
		}
		return out
	})
}

// PolicyInfo describes a registered policy for the "add" menu.
type PolicyInfo struct {
	Name, Title, Paper, Doc string
	Needs                   string // what it needs of a scenario, "" for nothing
}

// Policies lists the registered policies.
func Policies() []PolicyInfo {
	var out []PolicyInfo
	for _, n := range policy.Names() {
		f, _ := policy.Lookup(n)
		out = append(out, PolicyInfo{Name: n, Title: f.Title, Paper: f.Paper, Doc: f.Doc, Needs: f.Needs()})
	}
	return out
}

// PerfModel is the base perf model's name.
func (e *Editor) PerfModel() string {
	if m := e.Str("perf.model"); m != "" {
		return m
	}
	return "constant"
}

// PerfModels lists the base perf models.
func (e *Editor) PerfModels() []string { return perf.Names() }

// PerfDoc explains the current perf model.
func (e *Editor) PerfDoc() string {
	k, _ := perf.Lookup(e.PerfModel())
	return k.Doc
}

// PerfWidgets are the base perf model's parameters.
func (e *Editor) PerfWidgets() []form.Widget {
	return cached(e, "perf", func() []form.Widget {
		k, ok := perf.Lookup(e.PerfModel())
		if !ok {
			return nil
		}
		defaults := k.NewParams()
		return form.Describe(reflect.TypeOf(defaults), defaults, "perf.params", e.Tree)
	})
}

// EngineWidgets are the engine's overheads, budgets and sharing limit, and
// the metric options.
func (e *Editor) EngineWidgets() []form.Widget {
	return cached(e, "engine", func() []form.Widget {
		ws := form.Describe(reflect.TypeOf(scenario.Engine{}), nil, "engine", e.Tree)
		return append(ws, form.Describe(reflect.TypeOf(scenario.MetricOptions{}), nil, "metrics", e.Tree)...)
	})
}

// where is Where with the interference matrix's cells named by their
// models: "Interference › bert next to ncf".
func (e *Editor) where(path string) string {
	var i, k int
	if n, _ := fmt.Sscanf(path, interferencePath+".matrix[%d][%d]", &i, &k); n == 2 {
		models := e.MatrixModels()
		if i < len(models) && k < len(models) {
			return fmt.Sprintf("Interference › %s next to %s", models[i], models[k])
		}
	}
	return Where(path)
}

// Where names the place of a path on the page, e.g. "Cluster › server
// group 1 › GPUs per server".
func Where(path string) string {
	if name, ok := pathNames[path]; ok {
		return name
	}
	if rest, ok := strings.CutPrefix(path, interferencePath); ok {
		if rest == "" {
			return "Interference"
		}
		return "Interference › " + Where(strings.TrimPrefix(rest, "."))
	}
	steps, err := doc.ParsePath(path)
	if err != nil || len(steps) == 0 {
		return "Scenario"
	}
	var parts []string
	owner := ""
	for i, s := range steps {
		if s.IsIdx {
			if n := len(parts); n > 0 {
				parts[n-1] += " " + strconv.Itoa(s.Index+1)
			}
			continue
		}
		if i == 0 {
			if name, ok := sectionNames[s.Key]; ok {
				parts = append(parts, name)
				owner = s.Key
				continue
			}
		}
		name := form.Label(ownerType(owner, s.Key), s.Key)
		if alt, ok := stepNames[s.Key]; ok {
			name = alt
		}
		parts = append(parts, name)
		owner = s.Key
	}
	return strings.Join(parts, " › ")
}

var sectionNames = map[string]string{
	"name": "Name", "title": "Title", "description": "Description", "cluster": "Cluster", "workload": "Jobs",
	"seeds": "Seed", "policies": "Policy", "perf": "Performance model", "engine": "Engine", "metrics": "Metrics", "plots": "Plots",
}

// stepNames name containers along a path.
// pathNames name fields whose steps alone read badly ("jobs" is a job
// table row elsewhere).
var pathNames = map[string]string{
	"workload.generator.jobs":      "Jobs › generator › number of jobs",
	"workload.generator.base_jobs": "Jobs › generator › base jobs",
	"workload.jobs":                "Jobs › job table",
	"cluster.servers":              "Cluster › servers",
	"policies":                     "Policies",
}

var stepNames = map[string]string{
	"servers": "server group", "jobs": "job", "generator": "generator", "params": "parameters",
	"interference": "interference", "matrix": "matrix row", "gpu_mix": "GPU-count mix row", "models": "model",
	"scale_factors": "GPU-count mix row", "network": "network",
}

func ownerType(parent, key string) string {
	switch {
	case parent == "servers" || parent == "cluster" && key == "gpus":
		return "ServerGroup"
	case parent == "network":
		return "Network"
	case parent == "gpu_mix" || parent == "scale_factors":
		return "ScaleShare"
	}
	return ""
}

// shownPaths lists every path the current editor view shows a problem at.
func (e *Editor) shownPaths() map[string]bool {
	return cached(e, fmt.Sprintf("shown:%d:%v", e.JobsPage, e.ShowAllCols), e.findShownPaths)
}

func (e *Editor) findShownPaths() map[string]bool {
	m := map[string]bool{}
	var walk func(ws []form.Widget)
	walk = func(ws []form.Widget) {
		for _, w := range ws {
			switch {
			case w.Field != nil:
				m[w.Field.Path] = true
			case w.Table != nil:
				m[w.Table.Path] = true
				for _, row := range w.Table.Rows {
					for _, c := range row {
						m[c.Path] = true
					}
				}
			case w.Group != nil:
				m[w.Group.Path] = true
				walk(w.Group.Widgets)
			}
		}
	}
	for _, f := range e.BasicsFields() {
		m[f.Path] = true
	}
	walk(e.ClusterWidgets())
	m["cluster.servers"] = true
	m[e.SeedField().Path] = true
	m["workload.generator.kind"], m["workload.jobs"] = true, true
	if e.WorkloadMode() == ModeGenerator {
		walk(e.GeneratorWidgets())
	} else {
		for _, r := range e.JobRows() {
			for _, c := range r.Cells {
				m[c.Path] = true
			}
		}
	}
	for _, c := range e.PolicyCards() {
		m[c.Path+".name"], m[c.Label.Path] = true, true
		walk(c.Widgets)
	}
	m["perf.model"] = true
	walk(e.PerfWidgets())
	for _, f := range e.InterferenceFields() {
		m[f.Path] = true
	}
	for _, row := range e.MatrixRows() {
		m[row.Model.Path] = true
		for _, c := range row.Cells {
			m[c.Path] = true
		}
	}
	m["perf.interference.matrix"], m["perf.interference.models"] = true, true
	walk(e.InterferenceWidgets())
	walk(e.EngineWidgets())
	return m
}

// Unplaced returns the problems under prefix that no input of the current
// view shows, for the top of their section. An empty prefix takes those of
// no section.
func (e *Editor) Unplaced(prefixes ...string) []Problem {
	if len(e.Problems) == 0 {
		return nil
	}
	shown := e.shownPaths()
	var out []Problem
	for _, p := range e.Problems {
		if shown[p.Path] {
			continue
		}
		for _, pre := range prefixes {
			if pre == "" && sectionRank(p.Path) == 0 || pre != "" && (p.Path == pre || strings.HasPrefix(p.Path, pre+".") || strings.HasPrefix(p.Path, pre+"[")) {
				out = append(out, Problem{Path: p.Path, Where: e.where(p.Path), Msg: p.Msg})
				break
			}
		}
	}
	return out
}

// Problem is a validation problem for display.
type Problem struct {
	Path, Where, Msg string
	ID               string // DOM id of the input to focus, if shown
}

// AllProblems lists every problem with its place, for the run bar.
func (e *Editor) AllProblems() []Problem {
	out := make([]Problem, len(e.Problems))
	for i, p := range e.Problems {
		msg := p.Msg
		if v, ok := doc.Get(e.Tree, p.Path); ok {
			if _, isText := v.(string); isText {
				msg = form.Message(&form.Field{Kind: e.kindAt(p.Path)}, v, msg)
			}
		}
		out[i] = Problem{Path: p.Path, Where: e.where(p.Path), Msg: msg, ID: form.ID(p.Path)}
	}
	return out
}

// kindAt guesses the kind of the field at path from the message-bearing
// value: typed text where a number belongs is the common case.
func (e *Editor) kindAt(path string) form.Kind {
	msg := e.byPath[path]
	switch {
	case strings.Contains(msg, "whole number"):
		return form.Integer
	case strings.Contains(msg, "a number"):
		return form.Number
	case strings.Contains(msg, "a list"):
		return form.NumberList
	}
	return form.String
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// jsonNumber formats a float as a document number.
func jsonNumber(f float64) json.Number {
	return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
}
