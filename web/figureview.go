package web

import (
	"html"
	"strconv"
	"strings"

	"github.com/vugu/vugu"

	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/protocol"
)

// FigureView shows a paper figure being reproduced: its curve beside the
// paper's numbers, its metrics and its checks.
type FigureView struct {
	App *app.App
}

// Title is the figure's scenario title.
func (c *FigureView) Title() string {
	if v := c.App.Fig.View; v != nil && v.Title != "" {
		return v.Title
	}
	for _, k := range c.App.Cards {
		if k.Name == c.App.Fig.Name {
			return k.Title
		}
	}
	return c.App.Fig.Name
}

// Comparison reports a cross-paper comparison: its checks are our
// findings, and there are no paper's numbers to draw.
func (c *FigureView) Comparison() bool { return c.App.IsComparison(c.App.Fig.Name) }

// ClaimLabel introduces the figure's claim: a paper's, or our finding.
func (c *FigureView) ClaimLabel() string {
	if c.Comparison() {
		return "What we found:"
	}
	return "The paper's claim:"
}

// CurveHint says how to read the curve; a comparison has no paper's
// values to draw.
func (c *FigureView) CurveHint() string {
	const gap = " A gap is a load at which the cluster could not keep up (or a point still running)."
	if c.App.Fig != nil && c.App.FigureIsCDF() {
		from := "from the record"
		if !c.App.Fig.Record {
			from = "from the runs here"
		}
		return "Each line is one policy's job completion times " + from + ": the share of jobs finished within a JCT, at the percentiles the figure keeps (the mean over the seeds). Further left is better."
	}
	if c.App.FigureIsBars() {
		what := "Each filled bar is one policy's number from our runs, the mean over the seeds, with a whisker of ± one standard deviation"
		if c.Comparison() {
			return what + "; no paper reports these numbers. The table below has every metric."
		}
		if !c.App.FigureBarsHavePaper() {
			return what + ". The scenario records no number of the paper's for this metric, so no bar of the paper's stands beside ours. The table below has every metric."
		}
		return what + "; the outlined bar beside it is the paper's value, where the paper reports one. The table below has every metric."
	}
	if c.Comparison() {
		return "Lines with dots are ours, each dot a mean over the seeds run; no paper reports these numbers." + gap
	}
	if !c.App.HasFullMode() {
		return "Each line is one policy, each dot the mean over the seeds run at that value, its bar ± one standard deviation over them." + gap
	}
	return "Lines with dots are ours, each dot a mean over the seeds run; hollow diamonds on dashed lines are the paper's reported values." + gap
}

// CanRerun enables the re-run buttons: the scenario is valid and no
// figure is being run.
func (c *FigureView) CanRerun() bool { return c.App.CanRun() && !c.App.FigureRunning() }

// RerunQuick re-runs the figure here in quick mode.
func (c *FigureView) RerunQuick() { c.App.RerunFigure(app.ModeQuick) }

// RerunFull re-runs the figure here in full mode.
func (c *FigureView) RerunFull() { c.App.RerunFigure(app.ModeFull) }

// ServerOpenAttr is aria-expanded of the server form's toggle.
func (c *FigureView) ServerOpenAttr() string { return boolString(c.App.ServerFormOpen) }

// ServerChevron points down when the server form is open.
func (c *FigureView) ServerChevron() string {
	if c.App.ServerFormOpen {
		return "▾"
	}
	return "▸"
}

// ServeCommand is the command that starts a server this page may use.
func (c *FigureView) ServeCommand() string { return c.App.ServeCommand() }

// HasFull reports a built-in figure, whose full set-up can run here.
func (c *FigureView) HasFull() bool { return c.App.HasFullMode() }

// QuickLabel names the quick re-run button.
func (c *FigureView) QuickLabel() string {
	if c.HasFull() {
		return "Re-run in this browser: quick mode"
	}
	return "Run the figure again"
}

// QuickWhat says what quick mode runs and how it compares.
func (c *FigureView) QuickWhat() string {
	if !c.HasFull() {
		return "Runs the scenario as it stands in the editor."
	}
	what := "Quick mode: " + c.App.QuickDifference() + ", for a fast look."
	if c.App.Repro != nil && c.App.Repro.Quick {
		return what + " The record was made in quick mode too, so the run is compared with it number for number."
	}
	return what + " It is not the record's set-up, so it is compared with the full record check by check, not number for number."
}

// FullWhat says what full mode runs and how it compares.
func (c *FigureView) FullWhat() string {
	if c.App.Repro != nil && c.App.Repro.Quick {
		return "Full mode: the whole set-up, every seed and sweep point. The record was made in quick mode, so a full run is compared with it check by check."
	}
	return "Full mode: the record's own set-up, every seed and sweep point, so the result can be compared number for number with the record."
}

// RerunHint says where a re-run runs.
func (c *FigureView) RerunHint() string {
	return "Simulate this figure again on this computer, in this browser: every sweep point and seed is one simulation, and " + c.App.WorkerText() + " run them side by side. Nothing is sent anywhere."
}

// ProgressLabel names the progress bar.
func (c *FigureView) ProgressLabel() string { return "Progress of the " + c.App.Fig.Mode + " run" }

// CanShowRecord offers the record back after a run here.
func (c *FigureView) CanShowRecord() bool {
	return !c.App.Fig.Record && !c.App.FigureRunning() && c.App.RecordFigure(c.App.Fig.Name) != nil
}

// IdenticalAttr is data-identical of the comparison, for tests.
func (c *FigureView) IdenticalAttr() string { return boolString(c.App.Fig.Compare.Identical) }

// ValuesAttr is data-values: compared number for number or by verdicts.
func (c *FigureView) ValuesAttr() string { return boolString(c.App.Fig.Compare.Values) }

// CompareClass colours the comparison's headline.
func (c *FigureView) CompareClass() string {
	if c.App.Fig.Compare.Identical {
		return "verdict verdict-holds compare-head"
	}
	return "verdict verdict-fails compare-head"
}

// CompareHeadline is the comparison in one sentence.
func (c *FigureView) CompareHeadline() string {
	k := c.App.Fig.Compare
	n := len(k.Diffs)
	switch {
	case k.Values && k.Identical && k.ValuesCompared:
		return "Identical to the record: every recorded value and check."
	case k.Values && k.Identical:
		return "Identical to the record in all it keeps of this figure: each check's verdict and number."
	case k.Values:
		return strconv.Itoa(n) + " of " + strconv.Itoa(k.Compared) + " numbers or verdicts differ from the record:"
	case k.Identical:
		return "Not comparable number for number; every check reaches the record's verdict."
	}
	return "Not comparable number for number; " + strconv.Itoa(n) + " of " + strconv.Itoa(k.Compared) + " checks reach another verdict than the record:"
}

// CompareBasis says what was compared, and why a run is not compared
// number for number.
func (c *FigureView) CompareBasis() string {
	k := c.App.Fig.Compare
	if k.Values && k.ValuesCompared {
		return "Compared: " + k.Basis + ". The record keeps the mean over the seeds at each point, not each seed's value, so a difference in one seed shows in its point's mean and spread."
	}
	if k.Values {
		return "Compared: " + k.Basis + "."
	}
	return c.App.WhyNotComparable() + " Compared instead: " + k.Basis + "."
}

// shownDiffs is how many differences the table lists.
const shownDiffs = 40

// ShownDiffs are the differences listed.
func (c *FigureView) ShownDiffs() []app.Difference {
	d := c.App.Fig.Compare.Diffs
	return d[:min(len(d), shownDiffs)]
}

// MoreDiffs says how many differences the table leaves out.
func (c *FigureView) MoreDiffs() string {
	if n := len(c.App.Fig.Compare.Diffs) - shownDiffs; n > 0 {
		return "…and " + strconv.Itoa(n) + " more."
	}
	return ""
}

// ChecksHint says where the verdicts come from and how they count.
func (c *FigureView) ChecksHint() string {
	const counts = " Calibrated checks compare a number the set-up was tuned to match: shown, not counted. Exploration checks test a setting the paper does not have: counted apart."
	what := "Each check is one of the paper's claims"
	if c.Comparison() {
		what = "No paper ran this comparison, so each check is one of our own findings"
	}
	if c.App.Fig != nil && c.App.Fig.Record {
		return what + ", with the verdict of the committed record and, for a failure, its recorded why." + counts
	}
	if c.App.Fig != nil && c.App.Fig.Mode == app.ModeFull {
		return what + ", tested on the runs above with the same code as the command line's schedlab run." + counts
	}
	return what + ", tested on the runs above with the same code as the command line's schedlab run --quick." + counts
}

// Percent is the figure's progress in whole percent.
func (c *FigureView) Percent() string { return strconv.Itoa(int(100 * c.App.Fig.Progress())) }

// HasCurve reports a sweep with a point drawn.
func (c *FigureView) HasCurve() bool { return c.App.Fig.View != nil && c.App.FigureChart() != "" }

// HasTable reports a single-point figure's metrics table.
func (c *FigureView) HasTable() bool { return c.App.Fig.View != nil && len(c.App.Fig.View.Rows) > 0 }

// Header is a metrics table's column header that may wrap after each
// underscore: a long metric name (sjfbco_makespan_over_lower_bound) takes
// two lines rather than push the table past the page's width.
func (c *FigureView) Header(h string) vugu.HTML {
	return vugu.HTML(strings.ReplaceAll(html.EscapeString(h), "_", "_<wbr>"))
}

// Column names the metrics table's column i, for a phone, where each
// policy's metrics stack under its name.
func (c *FigureView) Column(i int) string {
	if cols := c.App.Fig.View.Columns; i < len(cols) {
		return cols[i]
	}
	return ""
}

// Chart is the figure's SVG.
func (c *FigureView) Chart() vugu.HTML { return vugu.HTML(c.App.FigureChart()) }

// FirstCurveMS is the time to the first drawn point, for tests.
func (c *FigureView) FirstCurveMS() string {
	return strconv.FormatInt(c.App.Fig.FirstCurve.Milliseconds(), 10)
}

// SwatchClass marks the paper's legend entries, and a bar's key.
func (c *FigureView) SwatchClass(l app.LegendItem) string {
	cls := "swatch"
	if l.Paper {
		cls += " paper"
	}
	if l.Bar {
		cls += " bar"
	}
	return cls
}

// SwatchFill fills ours, leaves the paper's hollow.
func (c *FigureView) SwatchFill(l app.LegendItem) string {
	if l.Paper {
		return "#fff"
	}
	return l.Color
}

// VerdictText is a check's verdict in a word with its mark.
func (c *FigureView) VerdictText(k protocol.CheckView) string {
	switch k.Verdict {
	case "holds":
		return "✓ holds"
	case "fails":
		return "✗ fails"
	case "n/a":
		return "– n/a"
	}
	return k.Verdict
}

// VerdictNote qualifies a verdict: how it counts, and why it fails or
// could not be judged.
func (c *FigureView) VerdictNote(k protocol.CheckView) string {
	var note string
	switch k.Class {
	case "calibrated":
		note = "calibrated: shown, not counted"
	case "exploration":
		note = "exploration: counted apart"
	case "detail":
		note = "detail: not counted"
	case "robustness":
		note = "over draws of unpublished inputs"
	}
	if k.Why != "" && k.Verdict != "waiting" && k.Verdict != "holds" {
		if note != "" {
			note += "; "
		}
		note += k.Why
	}
	return note
}

// VerdictClass colours a verdict.
func (c *FigureView) VerdictClass(k protocol.CheckView) string {
	if k.Verdict == "n/a" {
		return "verdict verdict-na"
	}
	return "verdict verdict-" + k.Verdict
}

// GalleryFilter is one filter button.
type GalleryFilter struct{ Key, Label string }

// Filters are the gallery's filter buttons: every card, a kind, a paper.
func (c *GalleryView) Filters() []GalleryFilter {
	out := []GalleryFilter{{"", "All"}, {app.FilterCurves, "Curves"}, {app.FilterTables, "Tables and bars"}, {app.FilterTeaching, "Teaching"}, {app.FilterCompare, "Cross-paper"}}
	for _, p := range app.Papers {
		out = append(out, GalleryFilter{p.Key, p.Name})
	}
	return out
}

// Pressed is aria-pressed of a filter button.
func (c *GalleryView) Pressed(key string) string { return boolString(c.App.GalleryFilter == key) }

// BadgeText is a card's verdict from the committed report.
func (c *GalleryView) BadgeText(g *app.Card) string {
	t, _ := c.App.Badge(g.Name)
	return t
}

// BadgeClass colours the badge: all hold, some fail, not run.
func (c *GalleryView) BadgeClass(g *app.Card) string {
	t, all := c.App.Badge(g.Name)
	switch {
	case t == app.BadgeNotRun || t == app.BadgeLoading:
		return "vbadge none"
	case all:
		return "vbadge all"
	}
	return "vbadge some"
}

// FigureRuns is the open figure's runs at the top of Results and
// Timeline: pickers for the sweep point, the seed and the policy, the
// picked run's metrics, and the button that runs one point here.
type FigureRuns struct {
	App   *app.App
	Where string // "results" or "timeline", for distinct ids
}

// Ch are the figure's choices.
func (c *FigureRuns) Ch() app.FigureChoices { return c.App.Choices() }

// Heading names the figure whose runs these are.
func (c *FigureRuns) Heading() string {
	v := &FigureView{App: c.App}
	return "Runs of " + v.Title()
}

// Hint says what the figure's runs are.
func (c *FigureRuns) Hint() string {
	const jct = " JCT is a job's completion time, from its arrival to its end."
	if c.Swept() {
		return "This view shows the open figure's own runs. Each point of its curve is one set-up (a sweep point, a value on its x axis) simulated with one or more random workloads (seeds): pick a point, a seed and a policy." + jct
	}
	return "This view shows the open figure's own runs: its set-up simulated with one or more random workloads (seeds). Pick a seed and a policy." + jct
}

// Swept reports a figure with sweep points to pick.
func (c *FigureRuns) Swept() bool { return c.Ch().Label != "" || len(c.Ch().X) > 1 }

// PointLabel labels the sweep point picker.
func (c *FigureRuns) PointLabel() string {
	if l := c.Ch().Label; l != "" {
		return "Sweep point: " + l
	}
	return "Sweep point"
}

// XText is a sweep value.
func (c *FigureRuns) XText(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// SeedText is a seed.
func (c *FigureRuns) SeedText(s uint64) string { return strconv.FormatUint(s, 10) }

// Itoa is strconv.Itoa for the template.
func (c *FigureRuns) Itoa(i int) string { return strconv.Itoa(i) }

// Table is the picked run's metrics.
func (c *FigureRuns) Table() app.PickTable { return c.App.FigurePickTable() }

// CanRunPoint enables the button that runs the picked point.
func (c *FigureRuns) CanRunPoint() bool { return !c.App.Running() && !c.App.FigureRunning() }

// JobsNote says why the job-by-job views need a run here.
func (c *FigureRuns) JobsNote() string {
	src := "The committed record"
	if !c.App.Fig.Record {
		src = "The figure's runs"
	}
	return src + " keep each policy's metrics only, not its jobs: the jobs table, the Gantt chart, the JCT distribution, the decision log and the Timeline need a run of one point and seed. It takes one click and runs every policy here."
}
