package app

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
)

// The open figure owns Results and Timeline: they show its runs, picked
// by sweep point, seed and policy, and never the results of the scenario
// open before it. A figure's runs keep each policy's metrics only (the
// record, their mean over the seeds); a point and seed can be run here in
// one click for its jobs, Gantt chart and decision log.

// FigurePick is the sweep point, seed and policy of the open figure that
// Results and Timeline show; Policy -1 is every policy.
type FigurePick struct {
	Point, Seed, Policy int // indexes into FigureChoices
}

// FigureChoices are what can be picked: the figure's sweep values (one
// NaN without a sweep), its seeds and its policies' labels.
type FigureChoices struct {
	Label    string // the swept quantity, e.g. "input job rate (jobs/h)"
	X        []float64
	Seeds    []uint64
	Policies []string
}

// FigureOwnsViews reports whether Results and Timeline belong to the open
// figure: one is open and the editor holds its scenario.
func (a *App) FigureOwnsViews() bool {
	if a.Fig == nil {
		return false
	}
	sc := a.Ed.Scenario()
	return sc != nil && sc.Name == a.Fig.Name
}

// figureBase is the document the open figure's runs ran: a run here's
// own, or for the record the set-up of the record's mode (the page's
// quick version of the built-in scenario, or its full file).
func (a *App) figureBase() ([]byte, error) {
	f := a.Fig
	if !f.Record {
		return []byte(f.Doc), nil
	}
	if a.Repro != nil && !a.Repro.Quick {
		data, ok := scenarios.Read(f.Name)
		if !ok {
			return nil, fmt.Errorf("no built-in scenario %q", f.Name)
		}
		return data, nil
	}
	data, ok := builtinDocument(f.Name)
	if !ok {
		return nil, fmt.Errorf("no built-in scenario %q", f.Name)
	}
	return data, nil
}

// Choices lists the open figure's sweep points, seeds and policies
// (worked out once per figure: the page draws often).
func (a *App) Choices() FigureChoices {
	f := a.Fig
	if f == nil {
		return FigureChoices{}
	}
	if f.choices == nil {
		c := figureChoices(a.figureLight())
		f.choices = &c
	}
	return *f.choices
}

// figureLight is the open figure's scenario as its runs ran it, read
// without building its workload (which takes a big preset seconds).
func (a *App) figureLight() *scenario.Scenario {
	f := a.Fig
	if !f.Record {
		if sc := a.Ed.Scenario(); f.Mode == ModeQuick && sc != nil && a.Ed.JSON() == f.Doc {
			return sc
		}
	}
	data, err := a.figureBase()
	if err != nil {
		return nil
	}
	sc, err := galleryInfo(data)
	if err != nil {
		return nil
	}
	if f.Mode == ModeFull || f.Record && a.Repro != nil && !a.Repro.Quick {
		sc.Quick = nil
	}
	return sc
}

// figureChoices are sc's sweep points, seeds and policies.
func figureChoices(sc *scenario.Scenario) FigureChoices {
	var c FigureChoices
	if sc == nil {
		return c
	}
	seen := map[string]bool{}
	for _, u := range figureUnits(sc) {
		k := strconv.FormatFloat(u.X, 'g', -1, 64)
		if !seen["x"+k] {
			seen["x"+k] = true
			c.X = append(c.X, u.X)
		}
		s := strconv.FormatUint(u.Seed, 10)
		if !seen["s"+s] {
			seen["s"+s] = true
			c.Seeds = append(c.Seeds, u.Seed)
		}
	}
	for i := range sc.Policies {
		c.Policies = append(c.Policies, sc.PolicyLabel(i))
	}
	if sw := sc.Sweep; sw != nil {
		c.Label = sw.Label
		if sw.Unit != "" {
			c.Label += " (" + sw.Unit + ")"
		}
	}
	return c
}

// PointText names sweep point x: "input job rate (jobs/h) = 2.4", or
// "the one set-up" without a sweep.
func (c FigureChoices) PointText(x float64) string {
	if math.IsNaN(x) {
		return "the figure's one set-up"
	}
	label := c.Label
	if label == "" {
		label = "sweep value"
	}
	return label + " = " + strconv.FormatFloat(x, 'g', -1, 64)
}

// Picked is the pick, within the choices.
func (a *App) Picked() (c FigureChoices, x float64, seed uint64, policy int) {
	c = a.Choices()
	if len(c.X) == 0 || len(c.Seeds) == 0 {
		return c, math.NaN(), 0, -1
	}
	p := a.Pick
	x, seed = c.X[min(max(p.Point, 0), len(c.X)-1)], c.Seeds[min(max(p.Seed, 0), len(c.Seeds)-1)]
	policy = p.Policy
	if policy >= len(c.Policies) {
		policy = -1
	}
	return c, x, seed, policy
}

// SetPick picks a sweep point, a seed or a policy by its index as the
// page's select gives it ("-1" is every policy).
func (a *App) SetPick(what, value string) {
	i, err := strconv.Atoi(value)
	if err != nil {
		return
	}
	switch what {
	case "point":
		a.Pick.Point = i
	case "seed":
		a.Pick.Seed = i
	case "policy":
		a.Pick.Policy = i
		if a.Res != nil && i >= 0 && i < len(a.Res.Policies) {
			a.TLSelect(i)
		}
	}
}

// PickTable is the picked point's metrics: a row per metric and job
// group, a column per policy picked; the caption says where the numbers
// come from, and Missing why there are none.
type PickTable struct {
	Caption  string
	Columns  []string
	Rows     [][]string
	Missing  string
	PerSeed  bool // the numbers are the picked seed's own
	RunHere  bool // the numbers come from a run in this browser
	Complete bool
}

// FigurePickTable is the metrics of the open figure at the pick: from the
// figure's runs here (that seed's own numbers), or from the record (the
// mean over its seeds, which it keeps instead of each seed's).
func (a *App) FigurePickTable() PickTable {
	c, x, seed, policy := a.Picked()
	if c.X == nil {
		return PickTable{Missing: "This figure's runs could not be listed."}
	}
	cols := c.Policies
	if policy >= 0 {
		cols = []string{c.Policies[policy]}
	}
	where := c.PointText(x)
	f := a.Fig
	if !f.Record {
		for _, part := range f.Parts {
			if part.Seed != seed || (part.Swept && part.X != x) {
				continue
			}
			t := PickTable{Columns: cols, PerSeed: true, RunHere: true,
				Caption: fmt.Sprintf("From this browser's %s run of the figure: seed %d at %s.", f.Mode, seed, where)}
			t.Rows = partRows(a.Fig.Parts, x, seed, cols)
			return t
		}
		if f.State == RunRunning {
			return PickTable{Missing: fmt.Sprintf("Seed %d at %s has not finished yet in this browser's run.", seed, where)}
		}
		return PickTable{Missing: fmt.Sprintf("Seed %d at %s did not run in this browser's run.", seed, where)}
	}
	rec := a.RecordFigure(f.Name)
	if rec == nil || len(rec.Values) == 0 {
		return PickTable{Missing: "The committed record keeps only this figure's checks, no numbers per sweep point."}
	}
	t := PickTable{Columns: cols, Caption: fmt.Sprintf("From the committed record at %s: the mean ± standard deviation over its %s. The record keeps that, not each seed's own numbers, so the seed you pick changes nothing here; run it below to see that seed alone.", where, plural(len(c.Seeds), "seed"))}
	t.Rows = recordRows(rec.Values, x, cols)
	if len(t.Rows) == 0 {
		return PickTable{Missing: "The committed record has no numbers at " + where + "."}
	}
	return t
}

// partRows are the metrics of seed's runs at x, by metric and group, a
// cell per column's policy.
func partRows(parts []results.StudyValues, x float64, seed uint64, cols []string) [][]string {
	type key struct{ metric, group string }
	var order []key
	cells := map[key]map[string]string{}
	for _, part := range parts {
		if part.Seed != seed || (part.Swept && part.X != x) {
			continue
		}
		for _, v := range part.Values {
			k := key{v.Metric, v.Group}
			if cells[k] == nil {
				cells[k] = map[string]string{}
				order = append(order, k)
			}
			switch {
			case v.Saturated:
				cells[k][v.Policy] = "did not keep up"
			case v.Value == nil:
				cells[k][v.Policy] = "–"
			case strings.HasSuffix(v.Metric, "_s"):
				cells[k][v.Policy] = results.Duration(*v.Value)
			default:
				cells[k][v.Policy] = num(*v.Value)
			}
		}
	}
	var rows [][]string
	for _, k := range order {
		rows = append(rows, row(metricRowLabel(k.metric, "", k.group), cells[k], cols))
	}
	return rows
}

// recordRows are the record's means at x, by metric and group.
func recordRows(vals []results.ValueRepro, x float64, cols []string) [][]string {
	type key struct{ metric, unit, group string }
	var order []key
	cells := map[key]map[string]string{}
	for _, v := range vals {
		if v.X != nil && *v.X != x || v.X == nil && !math.IsNaN(x) {
			continue
		}
		k := key{v.Metric, v.Unit, v.Group}
		if cells[k] == nil {
			cells[k] = map[string]string{}
			order = append(order, k)
		}
		switch {
		case v.Saturated:
			cells[k][v.Policy] = "did not keep up"
		case v.Error != "":
			cells[k][v.Policy] = "failed: " + v.Error
		default:
			cells[k][v.Policy] = meanSD(v.Mean, v.SD)
		}
	}
	var rows [][]string
	for _, k := range order {
		rows = append(rows, row(metricRowLabel(k.metric, k.unit, k.group), cells[k], cols))
	}
	return rows
}

func row(label string, cells map[string]string, cols []string) []string {
	r := []string{label}
	for _, c := range cols {
		v := cells[c]
		if v == "" {
			v = "–"
		}
		r = append(r, v)
	}
	return r
}

// metricRowLabel names a metric in words where the results table has
// them: "Average JCT (avg_jct_s, h), jobs of group large".
func metricRowLabel(metric, unit, group string) string {
	s := metricLabel(metric, unit)
	for _, m := range Metrics {
		if m.Key == metric {
			s = m.Title + " (" + s + ")"
		}
	}
	if group != "" && group != "all" {
		s += ", jobs of group " + group
	}
	return s
}

// PointRunText names the button that runs the picked point and seed.
func (a *App) PointRunText() string {
	c, x, seed, _ := a.Picked()
	return fmt.Sprintf("Run seed %d at %s here", seed, c.PointText(x))
}

// PickShown reports whether the results below are the picked point and
// seed's run.
func (a *App) PickShown() bool {
	_, x, seed, _ := a.Picked()
	r := a.Res
	return r != nil && r.Point != nil && r.Point.Seed == seed && sameX(r.Point.X, x) && r.Point.Figure == a.Fig.Name
}

// ShownPointText says which point and seed the results below are, when a
// point was run.
func (a *App) ShownPointText() string {
	r := a.Res
	if r != nil && r.Point == nil && a.FigureOwnsViews() {
		return fmt.Sprintf("Below: the run of the scenario as it stands in the editor, seed %d (press Run at the top to update it).", r.Seed)
	}
	if r == nil || r.Point == nil || a.Fig == nil || r.Point.Figure != a.Fig.Name {
		return ""
	}
	c := a.Choices()
	return fmt.Sprintf("Below: every policy's run of seed %d at %s, simulated in this browser.", r.Point.Seed, c.PointText(r.Point.X))
}

func sameX(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

// PointOf is the sweep point and seed a run of one point of a figure
// ran.
type PointOf struct {
	Figure string
	X      float64
	Seed   uint64
}

// RunFigurePoint runs the picked sweep point and seed of the open figure
// here, every policy, with its jobs, Gantt chart and decision log: the
// figure's runs keep metrics only.
func (a *App) RunFigurePoint() {
	if a.Fig == nil || a.FigureRunning() {
		return
	}
	_, x, seed, policy := a.Picked()
	data, err := a.figureBase()
	var base *scenario.Scenario
	if err == nil {
		base, err = reshape(data, map[string]any{"seeds": []uint64{seed}}, "quick")
	}
	if err == nil && !math.IsNaN(x) {
		base, err = base.SweepVariant(x)
	}
	if err != nil {
		a.setNotice("This point could not be set up: "+err.Error(), true)
		return
	}
	a.startRun(string(base.Document()), base, seed, &PointOf{Figure: a.Fig.Name, X: x, Seed: seed})
	if policy >= 0 {
		a.TL.Policy = policy
	}
}
