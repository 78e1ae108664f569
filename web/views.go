package web

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/form"
)

// GalleryView lists the built-in scenarios.
type GalleryView struct {
	App *app.App
}

// EditorView is the scenario editor.
type EditorView struct {
	App *app.App
}

// Modified reports an edited copy of a built-in scenario.
func (c *EditorView) Modified() bool {
	_, m := c.App.Builtin()
	return m
}

// BuiltinName is the built-in scenario's name.
func (c *EditorView) BuiltinName() string {
	n, _ := c.App.Builtin()
	return n
}

// GPUTypes are the suggestions of GPU type fields.
func (c *EditorView) GPUTypes() []string { return app.GPUTypes }

// AboutSummary summarizes the About section.
func (c *EditorView) AboutSummary() string { return c.App.Ed.Str("name") }

// JobsSummary summarizes the Jobs section.
func (c *EditorView) JobsSummary() string {
	ed := c.App.Ed
	if ed.WorkloadMode() == app.ModeJobs {
		return results.Thousands(ed.JobCount()) + " jobs in a table"
	}
	n := ed.Text(&form.Field{Path: "workload.generator.jobs", Kind: form.Integer})
	if n == "" {
		return ed.GeneratorKind() + " generator"
	}
	return n + " jobs from the " + ed.GeneratorKind() + " generator"
}

// PoliciesSummary names the chosen policies.
func (c *EditorView) PoliciesSummary() string {
	var names []string
	for _, p := range c.App.Ed.PolicyCards() {
		names = append(names, (&PoliciesSection{App: c.App}).CardTitle(p))
	}
	if len(names) == 0 {
		return "none chosen"
	}
	return strings.Join(names, ", ")
}

// SweepSummary is the sweep section's summary line.
func (c *EditorView) SweepSummary() string {
	if sc := c.App.Ed.Scenario(); sc != nil && sc.Sweep != nil {
		return fmt.Sprintf("%s over %d values", sc.Sweep.Label, len(sc.Sweep.Values))
	}
	return "one number over a list of values, every policy, several seeds"
}

// HistorySummary is the history section's summary line.
func (c *EditorView) HistorySummary() string {
	n := len(c.App.HistoryRuns())
	switch n {
	case 0:
		return "every run is kept here"
	case 1:
		return "1 run kept"
	}
	a, b := c.App.Comparing()
	return fmt.Sprintf("%d runs kept; comparing run %d and run %d", n, a, b)
}

// InterferenceSummary describes the interference setting.
func (c *EditorView) InterferenceSummary() string {
	if c.App.Ed.IsMemShare() {
		return fmt.Sprintf("OJPP memory-sharing matrix of %d models", len(c.App.Ed.MemMatrixModels()))
	}
	switch c.App.Ed.InterferenceMode() {
	case app.InterferenceUniform:
		return "same slowdown for every pair"
	case app.InterferenceMatrix:
		return fmt.Sprintf("matrix of %d models", len(c.App.Ed.MatrixModels()))
	}
	return "no slowdown"
}

// SectionHead is the toggle at the top of an editor section.
type SectionHead struct {
	App     *app.App
	Key     string
	Title   string
	Summary string
}

// Expanded is aria-expanded.
func (c *SectionHead) Expanded() string { return boolString(!c.App.Ed.Closed[c.Key]) }

// Chevron points down when open.
func (c *SectionHead) Chevron() string {
	if c.App.Ed.Closed[c.Key] {
		return "▸"
	}
	return "▾"
}

// Problems counts the section's problems.
func (c *SectionHead) Problems() int {
	ed := c.App.Ed
	switch c.Key {
	case "about":
		return ed.ProblemsUnder("name") + ed.ProblemsUnder("title") + ed.ProblemsUnder("description")
	case "workload":
		return ed.ProblemsUnder("workload") + ed.ProblemsUnder("seeds")
	case "interference":
		return ed.ProblemsUnder("perf.interference")
	case "advanced":
		return ed.ProblemsUnder("perf") - ed.ProblemsUnder("perf.interference") + ed.ProblemsUnder("engine") + ed.ProblemsUnder("metrics") + ed.ProblemsUnder("plots")
	}
	return ed.ProblemsUnder(c.Key)
}

// JobsSection edits the job mix or job table.
type JobsSection struct {
	App *app.App
	// prev caches the preview of one editor revision.
	prev    app.Preview
	prevRev int
}

// Pressed is aria-pressed of a mode button.
// GeneratorNotice is the generator's notice as a sentence of its own.
func (c *JobsSection) GeneratorNotice() string {
	if n := c.App.Ed.Notice("workload.generator"); n != "" {
		return "This generator " + n + "."
	}
	return ""
}

func (c *JobsSection) Pressed(mode string) string { return boolString(c.App.Ed.WorkloadMode() == mode) }

// PreviewExpanded is aria-expanded of the preview button.
func (c *JobsSection) PreviewExpanded() string { return boolString(c.App.Ed.Preview) }

// TogglePreview shows or hides the preview.
func (c *JobsSection) TogglePreview() { c.App.Ed.Preview = !c.App.Ed.Preview }

// PreviewButton is the preview button's text.
func (c *JobsSection) PreviewButton() string {
	if c.App.Ed.Preview {
		return "Hide the jobs"
	}
	return "Preview the jobs"
}

// Prev is the preview of the current scenario.
func (c *JobsSection) Prev() app.Preview {
	if c.prevRev != c.App.Ed.Rev {
		c.prev, c.prevRev = c.App.Ed.JobPreview(), c.App.Ed.Rev
	}
	return c.prev
}

// HasPrevErr reports a preview that could not be made.
func (c *JobsSection) HasPrevErr() bool { return c.Prev().Err != "" }

// MoreJobs tells how many jobs the preview leaves out.
func (c *JobsSection) MoreJobs() string {
	p := c.Prev()
	return fmt.Sprintf("Showing the first %d of %s jobs.", len(p.Rows), results.Thousands(p.Total))
}

// SetAllCols shows every column of the job table.
func (c *JobsSection) SetAllCols(on bool) { c.App.Ed.ShowAllCols = on }

// SortTitle is a sortable column's title.
func (c *JobsSection) SortTitle(f *form.Field) string {
	t := f.Label
	if f.Unit != "" {
		t += " (" + f.Unit + ")"
	}
	return t + c.App.Ed.SortMark(f.Name)
}

// RemoveLabel names a job's remove button.
func (c *JobsSection) RemoveLabel(i int) string {
	return fmt.Sprintf("Remove job %s", c.App.Ed.Str(fmt.Sprintf("workload.jobs[%d].id", i)))
}

// Page moves through the job table.
func (c *JobsSection) Page(d int) { c.App.Ed.JobsPage += d }

// PageText says which page is shown.
func (c *JobsSection) PageText() string {
	return fmt.Sprintf("page %d of %d", c.App.Ed.JobsPage+1, c.App.Ed.JobPages())
}

// PoliciesSection chooses and configures policies.
type PoliciesSection struct {
	App *app.App
}

// CardTitle is a policy's display name.
func (c *PoliciesSection) CardTitle(p app.PolicyCard) string {
	if l := strings.TrimSpace(c.App.Ed.Str(p.Label.Path)); l != "" {
		return l
	}
	if p.Title != "" {
		return p.Title
	}
	return p.Name
}

// Itoa formats an int for ids.
func (c *PoliciesSection) Itoa(i int) string { return strconv.Itoa(i) }

// Last is the index of the last policy.
func (c *PoliciesSection) Last() int { return len(c.App.Ed.PolicyCards()) - 1 }

// Registry lists the registered policies.
func (c *PoliciesSection) Registry() []app.PolicyInfo { return app.Policies() }

// Choice is the policy chosen in the add menu.
func (c *PoliciesSection) Choice() string {
	if c.App.Ed.NewPolicy != "" {
		return c.App.Ed.NewPolicy
	}
	if r := app.Policies(); len(r) > 0 {
		return r[0].Name
	}
	return ""
}

// Choose picks a policy in the add menu.
func (c *PoliciesSection) Choose(name string) { c.App.Ed.NewPolicy = name }

// ChoiceDoc explains the policy chosen in the add menu.
func (c *PoliciesSection) ChoiceDoc() string {
	for _, p := range app.Policies() {
		if p.Name == c.Choice() {
			return strings.TrimSpace(p.Doc + " " + p.Needs)
		}
	}
	return ""
}

// InterferenceSection edits how GPU sharing slows jobs down.
type InterferenceSection struct {
	App *app.App
}

// Pressed is aria-pressed of a mode button.
func (c *InterferenceSection) Pressed(mode string) string {
	return boolString(c.App.Ed.InterferenceMode() == mode)
}

// SetNewModel keeps the name typed for a new model.
func (c *InterferenceSection) SetNewModel(s string) { c.App.Ed.NewModel, c.App.Ed.ModelErr = s, "" }

// SetFill keeps the fill value typed.
func (c *InterferenceSection) SetFill(s string) { c.App.Ed.FillValue, c.App.Ed.FillErr = s, "" }

// SetHeatmap switches the heat-map view.
func (c *InterferenceSection) SetHeatmap(on bool) { c.App.Ed.Heatmap = on }

// Errors are the matrix tools' problems.
func (c *InterferenceSection) Errors() string {
	return strings.TrimSpace(c.App.Ed.ModelErr + " " + c.App.Ed.FillErr)
}

// MatrixClass is the matrix table's class.
func (c *InterferenceSection) MatrixClass() string {
	if c.App.Ed.Heatmap {
		return "matrix heatmap"
	}
	return "matrix"
}

// CellText is a cell's value in the heat-map view.
func (c *InterferenceSection) CellText(f *form.Field) string { return c.App.Ed.Text(f) }

// ResultsView shows the metrics and figures of the last run.
type ResultsView struct {
	App *app.App
}

// Title is the results' heading.
func (c *ResultsView) Title() string {
	if c.App.Res.Title != "" {
		return c.App.Res.Title
	}
	return c.App.Res.Name
}

// RunLine describes the run.
func (c *ResultsView) RunLine() string {
	r := c.App.Res
	// The run's time ends when the last policy finished, before the
	// figures that span policies are drawn: the line says so while they
	// are. It leaves out the engine workers' start as the run bar's line
	// does (Results.SimulatedSeconds).
	drawing := ""
	if r.CDF != nil && r.CDF.Pending {
		drawing = " · drawing the figures…"
	}
	when := "simulated in " + results.Duration(r.SimulatedSeconds())
	if r.Built {
		when = "computed when the site was built"
	}
	return fmt.Sprintf("Seed %d · %d policies · %s jobs each · %s%s", r.Seed, len(r.Policies),
		results.Thousands(r.Policies[0].JobCount()), when, drawing)
}

// CheckLine says how the browser's own results compared with those
// computed when the site was built, which they replaced; "" for results
// that replaced none. It takes the build-time label's place, of about its
// length, so that nothing below it moves.
func (c *ResultsView) CheckLine() string {
	switch c.App.Res.Check {
	case app.CheckSame:
		return "Computed by your browser just now, and the same as the results computed when this site was built."
	case app.CheckDiffers:
		return "Computed by your browser just now, and not the same as the results computed when this site was built: a bug (the browser's console says what differs)."
	}
	return ""
}

// Source says where the results on show come from, for tests: "build"
// (computed when the site was built), "live" or "" (none yet).
func (c *ResultsView) Source() string {
	switch r := c.App.Res; {
	case r == nil:
		return ""
	case r.Built:
		return "build"
	}
	return "live"
}

// Metrics are the table's columns.
func (c *ResultsView) Metrics() []app.Metric { return app.Metrics }

// MetricKey is the JSON name of column k.
func (c *ResultsView) MetricKey(k int) string { return app.Metrics[k].Key }

// CellClass marks the best values.
func (c *ResultsView) CellClass(cell app.Cell) string {
	if cell.Best {
		return "num best"
	}
	return "num"
}

// CellTitle is a cell's tooltip.
func (c *ResultsView) CellTitle(cell app.Cell) string {
	if cell.Best {
		return "best of this column"
	}
	return ""
}

// HasErrors reports policies that stopped with an error.
func (c *ResultsView) HasErrors() bool {
	for _, r := range c.App.Res.MetricRows() {
		if r.Error != "" {
			return true
		}
	}
	return false
}

// SVGLabel is the SVG button's text.
func (c *ResultsView) SVGLabel(f *app.Figure) string {
	if f.Busy {
		return "SVG…"
	}
	return "SVG"
}

// TimelineView replays a run.
type TimelineView struct {
	App *app.App
}

// Itoa formats an int for ids.
func (c *TimelineView) Itoa(i int) string { return strconv.Itoa(i) }

// Pressed is aria-pressed of a policy button.
func (c *TimelineView) Pressed(i int) string { return boolString(c.App.TL.Policy == i) }

// PlayLabel is the play button's text.
func (c *TimelineView) PlayLabel() string {
	if c.App.TL.Playing {
		return "❚❚ Pause"
	}
	return "▶ Play"
}

// Slider is the slider's value.
func (c *TimelineView) Slider() string { return strconv.Itoa(c.App.TLSlider()) }

// TimeText says where t is.
func (c *TimelineView) TimeText() string {
	return "t = " + c.App.TLTime() + " of " + results.Duration(c.App.TLEnd())
}

// Counts summarizes the jobs at t.
func (c *TimelineView) Counts() string {
	n, _ := c.App.TLState(0)
	return fmt.Sprintf("%d running · %d waiting · %d finished · %d of %d GPUs busy", n.Running, n.Waiting, n.Finished, n.Busy, n.GPUs)
}

// maxWaiting is the number of waiting jobs listed.
const maxWaiting = 40

// Waiting lists the jobs waiting at t.
func (c *TimelineView) Waiting() []app.WaitingJob {
	_, w := c.App.TLState(maxWaiting)
	return w
}

// WaitingTitle counts them.
func (c *TimelineView) WaitingTitle() string {
	n, _ := c.App.TLState(0)
	if n.Waiting == 0 {
		return "No job is waiting"
	}
	if n.Waiting == 1 {
		return "1 job waiting"
	}
	return fmt.Sprintf("%d jobs waiting", n.Waiting)
}

// MoreWaiting tells how many waiting jobs are not listed.
func (c *TimelineView) MoreWaiting() string {
	n, _ := c.App.TLState(0)
	if n.Waiting <= maxWaiting {
		return ""
	}
	return fmt.Sprintf("and %d more", n.Waiting-maxWaiting)
}

// HasMoreWaiting reports waiting jobs not listed.
func (c *TimelineView) HasMoreWaiting() bool { return c.MoreWaiting() != "" }

// WaitText describes a waiting job.
func (c *TimelineView) WaitText(w app.WaitingJob) string {
	return fmt.Sprintf("%s, %d GPU%s, waiting for %s", w.Model, w.GPUs, pluralS(w.GPUs), w.Waited)
}

func pluralS(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// GPUClass marks shared and idle GPUs.
func (c *TimelineView) GPUClass(g app.GPUCell) string {
	switch {
	case g.Shared:
		return "gpu shared"
	case len(g.Jobs) == 0:
		return "gpu free"
	}
	return "gpu"
}

// maxLog is the number of log lines shown.
const maxLog = 60

// Log is the decision log up to t.
func (c *TimelineView) Log() []app.LogLine {
	l, _ := c.App.TLLog(maxLog)
	return l
}

// LogCount tells how many entries there are up to t.
func (c *TimelineView) LogCount() string {
	l, n := c.App.TLLog(maxLog)
	switch {
	case n == 0:
		return "No decision yet."
	case n > len(l):
		return fmt.Sprintf("Showing the latest %d of %d decisions up to this moment.", len(l), n)
	}
	return ""
}

// LogClass highlights entries logged at exactly t.
func (c *TimelineView) LogClass(l app.LogLine) string {
	if l.Now {
		return "now"
	}
	return ""
}

// SweepSection is the editor's form for sweeping one of the scenario's
// numbers and drawing the curve (app/sweep.go).
type SweepSection struct {
	App *app.App
}

// Form is the form's state.
func (c *SweepSection) Form() app.SweepDraft { return c.App.SweepForm() }

// Metrics are the metrics the sweep can draw.
func (c *SweepSection) Metrics() [][2]string { return app.SweepMetrics }

// SetPath chooses the number to sweep.
func (c *SweepSection) SetPath(p string) {
	d := c.Form()
	d.Path = p
	c.App.SetSweepDraft(d)
}

// SetValues keeps the typed values.
func (c *SweepSection) SetValues(v string) {
	d := c.Form()
	d.Values = v
	c.App.SetSweepDraft(d)
}

// SetSeeds keeps the typed count of seeds (0 when it is not a number,
// which the form reports on Draw).
func (c *SweepSection) SetSeeds(v string) {
	d := c.Form()
	d.Seeds, _ = strconv.Atoi(strings.TrimSpace(v))
	if d.Seeds == 0 {
		d.Seeds = -1 // not the default: the form says what is wrong
	}
	c.App.SetSweepDraft(d)
}

// Seeds is the seeds field's text.
func (c *SweepSection) Seeds() string {
	if n := c.Form().Seeds; n > 0 {
		return strconv.Itoa(n)
	}
	return ""
}

// SetMetric chooses the metric.
func (c *SweepSection) SetMetric(m string) {
	d := c.Form()
	d.Metric = m
	c.App.SetSweepDraft(d)
}

func (c *SweepSection) choice() *app.SweepChoice {
	p := c.Form().Path
	for _, o := range c.App.Ed.SweepChoices() {
		if o.Path == p {
			return &o
		}
	}
	return nil
}

// Unit is the chosen number's unit, in brackets.
func (c *SweepSection) Unit() string {
	if o := c.choice(); o != nil && o.Unit != "" {
		return "(" + o.Unit + ")"
	}
	return ""
}

// Current says the chosen number's value in the scenario now.
func (c *SweepSection) Current() string {
	o := c.choice()
	if o == nil {
		return ""
	}
	if v, ok := c.App.Ed.Number(o.Path); ok {
		return "In the scenario now: " + strconv.FormatFloat(v, 'g', -1, 64) + "."
	}
	return "Not set in the scenario now (its default applies)."
}

// Placeholder suggests values around the current one.
func (c *SweepSection) Placeholder() string {
	o := c.choice()
	if o == nil {
		return "e.g. 8, 16, 32"
	}
	v, ok := c.App.Ed.Number(o.Path)
	if !ok || v <= 0 {
		return "e.g. 1, 2, 4"
	}
	vals := []float64{v / 2, v, 2 * v}
	if o.Integer {
		vals[0] = math.Max(1, math.Round(vals[0]))
	}
	return fmt.Sprintf("e.g. %g, %g, %g", vals[0], vals[1], vals[2])
}

// Count says how many simulations the form asks for.
func (c *SweepSection) Count() string {
	d := c.Form()
	n := 0
	for _, f := range strings.FieldsFunc(d.Values, func(r rune) bool { return r == ',' || r == ';' || r == ' ' }) {
		if f != "" {
			n++
		}
	}
	if n == 0 || d.Seeds < 1 {
		return ""
	}
	return fmt.Sprintf("%d values × %d seeds = %d simulations of every policy", n, d.Seeds, n*d.Seeds)
}
