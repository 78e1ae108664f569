package app

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/web/doc"
	"github.com/schedlab/schedlab/web/form"
)

// A sweep drawn from the editor: any number of the scenario (a load, a
// count of GPUs, a policy's parameter, ξ) run over a list of values with
// several seeds each, every policy, and drawn in the Figure tab as a
// curve with error bars. The sweep is written into the scenario, so it
// is saved, shared and edited like the rest of it.

// SweepChoice is a number of the scenario that can be swept.
type SweepChoice struct {
	Path    string
	Label   string // the field and where it is, e.g. "Servers (cluster, servers row 1)"
	Unit    string
	Integer bool
	Min     *float64
	Max     *float64
}

// SweepDraft is what the student has entered in the sweep form so far;
// Err the last problem with it, in words.
type SweepDraft struct {
	Path   string
	Values string
	Seeds  int
	Metric string
	Err    string
}

// Sweep limits: a curve needs two points, and a browser should finish a
// sweep of a teaching scenario in a minute or two.
const (
	sweepMinValues = 2
	sweepMaxValues = 20
	sweepMaxSeeds  = 10
)

// SweepMetrics are the metrics a sweep can draw, with their names in words.
var SweepMetrics = [][2]string{
	{"avg_jct_s", "average JCT"},
	{"p95_jct_s", "95th percentile of JCT"},
	{"avg_wait_s", "average time queued"},
	{"makespan_s", "makespan"},
}

// SweepChoices lists the numbers of the scenario that a sweep can vary:
// the cluster's, the job generator's, each chosen policy's parameters
// and the performance model's.
func (e *Editor) SweepChoices() []SweepChoice {
	var out []SweepChoice
	add := func(section string, ws []form.Widget) {
		out = append(out, numericFields(section, ws)...)
	}
	add("cluster", e.ClusterWidgets())
	if e.WorkloadMode() == "generator" {
		add("jobs", e.GeneratorWidgets())
	}
	for _, p := range e.PolicyCards() {
		add(p.Title, p.Widgets)
	}
	add("interference", e.InterferenceWidgets())
	add("performance model", e.PerfWidgets())
	return out
}

// numericFields are the number fields among ws, labelled with section
// (and a table's row).
func numericFields(section string, ws []form.Widget) []SweepChoice {
	var out []SweepChoice
	field := func(label string, f *form.Field) {
		if f.Kind != form.Number && f.Kind != form.Integer {
			return
		}
		out = append(out, SweepChoice{Path: f.Path, Label: f.Label + " (" + label + ")", Unit: f.Unit, Integer: f.Kind == form.Integer, Min: f.Min, Max: f.Max})
	}
	for _, w := range ws {
		switch {
		case w.Field != nil:
			field(section, w.Field)
		case w.Group != nil:
			out = append(out, numericFields(section+", "+strings.ToLower(w.Group.Label), w.Group.Widgets)...)
		case w.Table != nil:
			for i, row := range w.Table.Rows {
				for _, f := range row {
					field(fmt.Sprintf("%s, %s row %d", section, strings.ToLower(w.Table.Label), i+1), f)
				}
			}
		}
	}
	return out
}

// SweepForm is the sweep form's state, its defaults filled in: the
// scenario's own sweep when it has one.
func (a *App) SweepForm() SweepDraft {
	d := a.sweep
	if d.Seeds == 0 {
		d.Seeds = 3
	}
	if d.Metric == "" {
		d.Metric = "avg_jct_s"
	}
	if d.Path == "" {
		if cs := a.Ed.SweepChoices(); len(cs) > 0 {
			d.Path = cs[0].Path
		}
	}
	return d
}

// SetSweepDraft keeps what the student typed or chose in the sweep form.
func (a *App) SetSweepDraft(d SweepDraft) {
	d.Err = ""
	a.sweep = d
}

// HasSweep reports whether the scenario in the editor sweeps a value.
func (a *App) HasSweep() bool { return a.Ed.Get("sweep") != nil }

// SweepSummary says what the scenario's sweep varies, "" without one.
func (a *App) SweepSummary() string {
	sc := a.Ed.Scenario()
	if sc == nil || sc.Sweep == nil {
		return ""
	}
	vals := make([]string, len(sc.Sweep.Values))
	for i, v := range sc.Sweep.Values {
		vals[i] = strconv.FormatFloat(v, 'g', -1, 64)
	}
	return fmt.Sprintf("This scenario sweeps %s over %s, %s each.", sc.Sweep.Label, strings.Join(vals, ", "), plural(len(sc.RunSeeds()), "seed"))
}

// DrawSweep writes the sweep form into the scenario (the swept value,
// the seeds and the metric) and draws its curve in the Figure tab. A
// problem with the form is kept in its Err and nothing runs.
func (a *App) DrawSweep() {
	d := a.SweepForm()
	choice, values, problem := a.checkSweep(d)
	if problem != "" {
		d.Err = problem
		a.sweep = d
		return
	}
	a.sweep = d
	sweep := map[string]any{
		"label":  choice.Label,
		"values": values,
		"params": []string{choice.Path},
		"metric": d.Metric,
	}
	if choice.Unit != "" {
		sweep["unit"] = choice.Unit
	}
	seeds := make([]int, d.Seeds)
	for i := range seeds {
		seeds[i] = i + 1
	}
	a.Ed.SetValue("sweep", treeOf(sweep))
	a.Ed.SetValue("seeds", treeOf(seeds))
	a.Ed.SetValue("quick", nil) // its seeds and values would replace these
	a.Ed.CheckNow()
	if !a.Ed.Valid() {
		a.sweep.Err = "The scenario has problems to fix before it can be swept: see the fields marked in red."
		return
	}
	a.RunFigure()
}

// RemoveSweep takes the sweep out of the scenario: Run simulates it once
// again.
func (a *App) RemoveSweep() {
	a.Ed.SetValue("sweep", nil)
}

// checkSweep reads the form: the field it names, its values in order,
// and a problem in words that names the part of the form at fault ("" for
// none).
func (a *App) checkSweep(d SweepDraft) (SweepChoice, []float64, string) {
	var choice *SweepChoice
	for _, c := range a.Ed.SweepChoices() {
		if c.Path == d.Path {
			choice = &c
			break
		}
	}
	if choice == nil {
		return SweepChoice{}, nil, "Number to sweep: choose one of the scenario's numbers"
	}
	if d.Seeds < 1 || d.Seeds > sweepMaxSeeds {
		return *choice, nil, fmt.Sprintf("Seeds: from 1 to %d, got %d", sweepMaxSeeds, d.Seeds)
	}
	known := false
	for _, m := range SweepMetrics {
		known = known || m[0] == d.Metric
	}
	if !known {
		return *choice, nil, fmt.Sprintf("Metric: %q is not one the sweep can draw", d.Metric)
	}
	values, err := parseSweepValues(d.Values, *choice)
	return *choice, values, err
}

// parseSweepValues reads "8, 16, 32" (commas or spaces) for field c.
func parseSweepValues(text string, c SweepChoice) ([]float64, string) {
	fields := strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ';' || r == ' ' || r == '\t' || r == '\n' })
	if len(fields) < sweepMinValues || len(fields) > sweepMaxValues {
		return nil, fmt.Sprintf("Values: give %d to %d numbers separated by commas, got %d", sweepMinValues, sweepMaxValues, len(fields))
	}
	out := make([]float64, 0, len(fields))
	seen := map[float64]bool{}
	for _, f := range fields {
		v, err := strconv.ParseFloat(f, 64)
		switch {
		case err != nil || math.IsNaN(v) || math.IsInf(v, 0):
			return nil, fmt.Sprintf("Values: %q is not a number", f)
		case c.Integer && v != math.Trunc(v):
			return nil, fmt.Sprintf("Values: %s takes whole numbers, and %s is not one", c.Label, f)
		case c.Min != nil && v < *c.Min:
			return nil, fmt.Sprintf("Values: %s must be at least %g, and %s is less", c.Label, *c.Min, f)
		case c.Max != nil && v > *c.Max:
			return nil, fmt.Sprintf("Values: %s must be at most %g, and %s is more", c.Label, *c.Max, f)
		case seen[v]:
			return nil, fmt.Sprintf("Values: %s is given twice", f)
		}
		seen[v] = true
		out = append(out, v)
	}
	for i := 1; i < len(out); i++ {
		if out[i] < out[i-1] {
			return nil, fmt.Sprintf("Values: give them in increasing order (%g comes after %g)", out[i], out[i-1])
		}
	}
	return out, ""
}

// treeOf is v as the editor's document holds it (keys in order).
func treeOf(v any) any {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err) // plain maps, slices and numbers always encode
	}
	t, err := doc.Parse(data)
	if err != nil {
		panic(err)
	}
	return t
}
