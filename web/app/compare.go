package app

import (
	"encoding/json"
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/web/doc"
)

// Comparing two runs of the history side by side: what differs between
// their scenarios, each policy's metrics in both with the difference,
// their completion time curves on the same axes, and their Gantt charts.

// changeLimit is how many changes between two scenarios are listed; the
// rest are counted.
const changeLimit = 20

// docDiff is what differs between two scenarios.
type docDiff struct {
	Changes []Change
	More    int
	// Other says they are different scenarios (their names differ, or
	// one cannot be read): their fields are not compared.
	Other bool
	// Big says they are too big (an imported trace) to compare field by
	// field; they differ.
	Big bool
}

// compareDocs lists the fields that differ from scenario a to scenario b
// (compact JSON), in the order of a's fields, then b's new ones.
func compareDocs(a, b string) docDiff {
	if a == b {
		return docDiff{}
	}
	if len(a) >= BigDocument || len(b) >= BigDocument {
		return docDiff{Big: true}
	}
	ta, errA := doc.Parse([]byte(a))
	tb, errB := doc.Parse([]byte(b))
	if errA != nil || errB != nil || doc.Str(ta, "name") != doc.Str(tb, "name") {
		return docDiff{Other: true}
	}
	var d differ
	d.walk("", ta, tb)
	return docDiff{Changes: d.out, More: d.more}
}

// absent stands for a field one of the scenarios does not set.
type absent struct{}

// differ collects changes, up to changeLimit.
type differ struct {
	out  []Change
	more int
}

func (d *differ) add(path string, a, b any) { d.addText(path, valueText(a), valueText(b)) }

func (d *differ) addText(path, from, to string) {
	if len(d.out) >= changeLimit {
		d.more++
		return
	}
	d.out = append(d.out, Change{Path: path, Where: Where(path), From: from, To: to})
}

func (d *differ) walk(path string, a, b any) {
	switch x := a.(type) {
	case *doc.Object:
		y, ok := b.(*doc.Object)
		if !ok {
			break
		}
		for _, k := range x.Keys() {
			va, _ := x.Get(k)
			vb, in := y.Get(k)
			if !in {
				vb = absent{}
			}
			d.walk(doc.Join(path, k), va, vb)
		}
		for _, k := range y.Keys() {
			if _, in := x.Get(k); !in {
				vb, _ := y.Get(k)
				d.walk(doc.Join(path, k), absent{}, vb)
			}
		}
		return
	case []any:
		y, ok := b.([]any)
		if !ok {
			break
		}
		if path == "policies" {
			if na, nb := policyNames(x), policyNames(y); na != nb {
				d.addText(path, na, nb)
				return
			}
		}
		if len(x) == len(y) {
			for i := range x {
				d.walk(doc.Index(path, i), x[i], y[i])
			}
			return
		}
	}
	if !sameValue(a, b) {
		d.add(path, a, b)
	}
}

// policyNames names the policies of a scenario's list: "fifo, sjf".
func policyNames(list []any) string {
	names := make([]string, len(list))
	for i, p := range list {
		names[i] = doc.Str(p, "name")
	}
	return strings.Join(names, ", ")
}

func sameValue(a, b any) bool {
	_, na := a.(absent)
	_, nb := b.(absent)
	if na || nb {
		return na == nb
	}
	return string(doc.Compact(a)) == string(doc.Compact(b))
}

// valueText writes a scenario's value for a list of changes.
func valueText(v any) string {
	switch x := v.(type) {
	case absent:
		return "not set"
	case nil:
		return "none"
	case string:
		if r := []rune(x); len(r) > 40 {
			return "“" + string(r[:39]) + "…”"
		}
		return "“" + x + "”"
	case json.Number:
		return string(x)
	case bool:
		if x {
			return "yes"
		}
		return "no"
	case []any:
		scalars := len(x) <= 8
		for _, e := range x {
			switch e.(type) {
			case *doc.Object, []any:
				scalars = false
			}
		}
		if !scalars {
			return plural(len(x), "row")
		}
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = valueText(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *doc.Object:
		return "set"
	}
	return fmt.Sprint(v)
}

// RunComparison is two runs of the history side by side.
type RunComparison struct {
	A, B *HistoryRun
	docDiff
	// Rows are each policy's metrics in A and B.
	Rows []CompareRow
	// CDF is both runs' completion time curves on one chart (SVG),
	// Legend its colours.
	CDF    string
	Legend []LegendItem
	// Gantts pair each policy's Gantt charts.
	Gantts []GanttPair
	// narrow says the chart was drawn for a phone's width.
	narrow bool
}

// narrowChart is the page width (CSS pixels) below which the curves are
// drawn for a phone: narrower, so that their labels stay readable.
const narrowChart = 600

// CompareGroup is one policy's rows of the metrics table.
type CompareGroup struct {
	Policy string
	Rows   []CompareRow
}

// Groups are the metrics table's rows by policy.
func (c *RunComparison) Groups() []CompareGroup {
	var out []CompareGroup
	for _, r := range c.Rows {
		if r.First || len(out) == 0 {
			out = append(out, CompareGroup{Policy: r.Policy})
		}
		out[len(out)-1].Rows = append(out[len(out)-1].Rows, r)
	}
	return out
}

// CompareRow is one metric of one policy in both runs.
type CompareRow struct {
	Policy string
	// First marks a policy's first row.
	First bool
	// Key names the metric as the Results view's table does.
	Key          string
	Metric, Help string
	A, B         string
	// ExactA and ExactB are the values with full precision ("" when the
	// run has no such policy).
	ExactA, ExactB string
	// Diff is B against A in words; Better and Worse say whether B is
	// better or worse by the metric's sense (neither when equal or when
	// a run lacks the policy).
	Diff          string
	Better, Worse bool
}

// GanttPair is one policy's Gantt charts in both runs; a run without the
// chart says why in Why.
type GanttPair struct {
	Policy     string
	A, B       *Figure
	WhyA, WhyB string
}

// CompareRuns picks the runs to compare: a and b are run numbers.
func (a *App) CompareRuns(x, y int) {
	a.hist.A, a.hist.B = x, y
	a.hist.cmp = nil
}

// Comparing are the run numbers being compared: those picked, or the two
// newest runs (0, 0 when fewer than two are kept).
func (a *App) Comparing() (x, y int) {
	runs := a.hist.Runs
	if len(runs) < 2 {
		return 0, 0
	}
	x, y = a.hist.A, a.hist.B
	if a.HistoryRun(x) == nil {
		x = runs[len(runs)-2].N
	}
	if a.HistoryRun(y) == nil {
		y = runs[len(runs)-1].N
	}
	return x, y
}

// Compare is the comparison of the runs picked, nil with fewer than two
// runs kept. It is built once per pair (and again when a run's full
// results are dropped).
func (a *App) Compare() *RunComparison {
	x, y := a.Comparing()
	ra, rb := a.HistoryRun(x), a.HistoryRun(y)
	if ra == nil || rb == nil {
		return nil
	}
	narrow := a.P.ViewportWidth() < narrowChart
	if c := a.hist.cmp; c != nil && c.A == ra && c.B == rb && c.narrow == narrow {
		return c
	}
	c := &RunComparison{A: ra, B: rb, narrow: narrow}
	if ra != rb {
		c.docDiff = compareDocs(ra.Doc(), rb.Doc())
	}
	c.Rows = compareRows(ra, rb)
	c.CDF, c.Legend = compareCDF(ra, rb, narrow)
	c.Gantts = compareGantts(ra, rb)
	a.hist.cmp = c
	return c
}

// Same says the two scenarios are identical.
func (c *RunComparison) Same() bool {
	return !c.Other && !c.Big && len(c.Changes) == 0 && c.More == 0
}

// comparedPolicies are the policy labels of both runs: A's, then those
// only B has.
func comparedPolicies(a, b *HistoryRun) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range []*HistoryRun{a, b} {
		for _, p := range r.Policies {
			if !seen[p.Label] {
				seen[p.Label] = true
				out = append(out, p.Label)
			}
		}
	}
	return out
}

func (r *HistoryRun) policy(label string) *HistoryPolicy {
	for i := range r.Policies {
		if r.Policies[i].Label == label {
			return &r.Policies[i]
		}
	}
	return nil
}

// compareRows are the rows of the comparison's metrics table: for each
// policy, each metric of the Results view's table and the jobs finished.
func compareRows(a, b *HistoryRun) []CompareRow {
	var rows []CompareRow
	for _, label := range comparedPolicies(a, b) {
		pa, pb := a.policy(label), b.policy(label)
		first := len(rows)
		for _, col := range Metrics {
			row := CompareRow{Policy: label, Key: col.Key, Metric: col.Title, Help: col.Help, A: "not in this run", B: "not in this run", Diff: "–"}
			var va, vb float64
			if pa != nil {
				va = col.get(&PolicyResult{Out: results.PolicyOutput{Metrics: pa.Metrics}})
				row.A, row.ExactA = col.format(va), strconv.FormatFloat(va, 'g', -1, 64)
			}
			if pb != nil {
				vb = col.get(&PolicyResult{Out: results.PolicyOutput{Metrics: pb.Metrics}})
				row.B, row.ExactB = col.format(vb), strconv.FormatFloat(vb, 'g', -1, 64)
			}
			if pa != nil && pb != nil {
				row.Diff, row.Better, row.Worse = difference(col, va, vb)
			}
			rows = append(rows, row)
		}
		done := CompareRow{Policy: label, Key: "jobs_done", Metric: "Jobs done", Help: "jobs that finished, of all jobs", A: "not in this run", B: "not in this run", Diff: "–"}
		if pa != nil {
			done.A = fmt.Sprintf("%s of %s", results.Thousands(pa.Metrics.Finished), results.Thousands(pa.Metrics.Jobs))
		}
		if pb != nil {
			done.B = fmt.Sprintf("%s of %s", results.Thousands(pb.Metrics.Finished), results.Thousands(pb.Metrics.Jobs))
		}
		if pa != nil && pb != nil {
			done.Diff = "same"
			if done.A != done.B {
				done.Diff = "differs"
			}
		}
		rows = append(rows, done)
		rows[first].First = true
	}
	return rows
}

// difference says how b compares with a by metric col: "−4.2 min
// (−18%)", "+3.1 points"; and whether that is better or worse.
func difference(col Metric, a, b float64) (text string, better, worse bool) {
	if math.IsNaN(a) || math.IsNaN(b) {
		return "–", false, false
	}
	if col.format(a) == col.format(b) {
		return "same", false, false
	}
	d := b - a
	sign := "+"
	if d < 0 {
		sign = "−"
	}
	if col.Higher { // a share: the difference in percentage points
		text = fmt.Sprintf("%s%.1f points", sign, math.Abs(100*d))
	} else {
		text = sign + col.format(math.Abs(d))
		if a != 0 {
			text += fmt.Sprintf(" (%s%.0f%%)", sign, math.Abs(100*d/a))
		}
	}
	better = col.Higher == (d > 0)
	if better {
		return text + ", better", true, false
	}
	return text + ", worse", false, true
}

// compareGantts pairs each policy's Gantt charts of the two runs.
func compareGantts(a, b *HistoryRun) []GanttPair {
	var out []GanttPair
	for _, label := range comparedPolicies(a, b) {
		g := GanttPair{Policy: label}
		g.A, g.WhyA = a.gantt(label)
		g.B, g.WhyB = b.gantt(label)
		out = append(out, g)
	}
	return out
}

// gantt is the run's Gantt chart of a policy, or why it has none.
func (r *HistoryRun) gantt(label string) (*Figure, string) {
	if r.policy(label) == nil {
		return nil, fmt.Sprintf("Run %d did not run %s.", r.N, label)
	}
	if r.res == nil {
		return nil, fmt.Sprintf("Run %d's Gantt charts were not kept (only the %d most recently shown runs keep theirs, and none are kept across visits). Go back to it to run it again: the same seed gives the same chart.", r.N, HistoryFull)
	}
	for _, p := range r.res.Policies {
		if p.Label == label && p.Gantt != nil && p.Gantt.URL != "" {
			return p.Gantt, ""
		}
	}
	return nil, fmt.Sprintf("Run %d drew no Gantt chart for %s (too many jobs to draw).", r.N, label)
}

// compareCDF draws both runs' completion time curves on one chart: a
// colour per policy, run A solid and run B dashed.
func compareCDF(a, b *HistoryRun, narrow bool) (string, []LegendItem) {
	labels := comparedPolicies(a, b)
	xmax := 0.0
	for _, r := range []*HistoryRun{a, b} {
		for _, p := range r.Policies {
			for _, x := range p.CDFX {
				xmax = math.Max(xmax, x)
			}
		}
	}
	if xmax <= 0 {
		return "", nil
	}
	unit, scale := "s", 1.0
	switch {
	case xmax >= 3*3600:
		unit, scale = "h", 3600
	case xmax >= 180:
		unit, scale = "min", 60
	}
	box := chartBox{w: 640, h: 340, left: 56, right: 16, top: 12, bottom: 44}
	if narrow {
		box = chartBox{w: 360, h: 280, left: 50, right: 12, top: 12, bottom: 44}
	}
	nx := 6
	if narrow {
		nx = 4
	}
	x1 := ticks(0, xmax/scale, nx)
	top := x1[len(x1)-1]
	pw, ph := box.w-box.left-box.right, box.h-box.top-box.bottom
	px := func(x float64) float64 { return box.left + pw*x/scale/top }
	py := func(y float64) float64 { return box.top + ph*(1-y) }
	var s strings.Builder
	fmt.Fprintf(&s, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %g %g" class="chart" id="compare-cdf" role="img" aria-label="%s">`,
		box.w, box.h, html.EscapeString(fmt.Sprintf("Share of jobs finished against job completion time: run %d solid, run %d dashed", a.N, b.N)))
	s.WriteString(`<g class="axes" font-size="12" fill="#444">`)
	for _, t := range []float64{0, 0.25, 0.5, 0.75, 1} {
		fmt.Fprintf(&s, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#e3e3e3"/>`, box.left, box.w-box.right, py(t), py(t))
		fmt.Fprintf(&s, `<text x="%.1f" y="%.1f" text-anchor="end" dominant-baseline="middle">%g%%</text>`, box.left-6, py(t), 100*t)
	}
	for _, t := range x1 {
		x := px(t * scale)
		fmt.Fprintf(&s, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#999"/>`, x, x, box.h-box.bottom, box.h-box.bottom+5)
		fmt.Fprintf(&s, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, x, box.h-box.bottom+18, tickText(t))
	}
	fmt.Fprintf(&s, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#999"/>`, box.left, box.w-box.right, box.h-box.bottom, box.h-box.bottom)
	fmt.Fprintf(&s, `<text x="%.1f" y="%.1f" text-anchor="middle" font-size="13">Job completion time (%s)</text>`, box.left+pw/2, box.h-6, unit)
	fmt.Fprintf(&s, `<text transform="translate(14 %.1f) rotate(-90)" text-anchor="middle" font-size="13">Jobs finished</text>`, box.top+ph/2)
	s.WriteString(`</g>`)
	var legend []LegendItem
	for i, label := range labels {
		color := seriesColor(i)
		legend = append(legend, LegendItem{Name: label, Color: color})
		for k, r := range []*HistoryRun{a, b} {
			p := r.policy(label)
			if p == nil || len(p.CDFX) == 0 {
				continue
			}
			dash := ""
			if k == 1 {
				dash = ` stroke-dasharray="7 4"`
			}
			fmt.Fprintf(&s, `<path class="cdf" data-run="%d" data-series="%s" d="%s" fill="none" stroke="%s" stroke-width="2"%s><title>%s, run %d</title></path>`,
				r.N, html.EscapeString(label), stepPath(p.CDFX, p.CDFY, px, py, box.w-box.right), color, dash, html.EscapeString(label), r.N)
		}
	}
	s.WriteString(`</svg>`)
	return s.String(), legend
}

// stepPath draws a CDF as steps: flat at each fraction until the next
// job's time, then up; from zero at the first point to the right edge.
func stepPath(x, y []float64, px, py func(float64) float64, right float64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "M%.1f %.1f", px(x[0]), py(0))
	for i := range x {
		fmt.Fprintf(&b, "H%.1fV%.1f", px(x[i]), py(y[i]))
	}
	fmt.Fprintf(&b, "H%.1f", right)
	return b.String()
}
