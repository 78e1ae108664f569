package experiment

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/sim/metrics"
	"github.com/schedlab/schedlab/sim/scenario"
)

// StudyOutput is the JSON form of a study.
type StudyOutput struct {
	Scenario  string          `json:"scenario"`
	Title     string          `json:"title,omitempty"`
	Quick     bool            `json:"quick"`
	Sweep     *scenario.Sweep `json:"sweep,omitempty"`
	Series    []SeriesOutput  `json:"series,omitempty"`
	Source    string          `json:"source,omitempty"`
	Reference []ReferenceRow  `json:"reference,omitempty"`
	Checks    []Verdict       `json:"checks"`
	Summary   VerdictSummary  `json:"summary"`
	// Robustness is a robustness figure's headline over its draws.
	Robustness *RobustnessOutput `json:"robustness,omitempty"`
	Runs       []StudyRunOutput  `json:"runs"`
}

// SeriesOutput is one policy's plotted metric across the sweep, in the
// reference unit; null marks a saturated point.
type SeriesOutput struct {
	Policy string     `json:"policy"`
	Metric string     `json:"metric"`
	Group  string     `json:"group"`
	Unit   string     `json:"unit"`
	X      []float64  `json:"x"`
	Mean   []*float64 `json:"mean"`
	SD     []*float64 `json:"sd"`
}

// ReferenceRow puts one of the paper's numbers beside ours.
type ReferenceRow struct {
	scenario.Quantity
	Unit      string   `json:"unit"`
	Paper     float64  `json:"paper"`
	Ours      *float64 `json:"ours"`
	OursSD    *float64 `json:"ours_sd,omitempty"`
	Saturated bool     `json:"saturated,omitempty"`
	Error     string   `json:"error,omitempty"`
}

// VerdictSummary counts verdicts by class. Claims are the paper's claims
// (counted): Passed of them hold, Failed fail and NA could not be judged
// in this mode. Calibrated checks are decided by an input chosen on
// results and exploration checks by a setting the paper does not have:
// both are counted apart, as are details (parts of a claim, never
// counted) and robustness checks (a claim of another figure judged over
// draws).
type VerdictSummary struct {
	Claims            int `json:"claims"`
	Passed            int `json:"passed"`
	Failed            int `json:"failed"`
	NA                int `json:"na"`
	RequiredFailed    int `json:"required_failed"` // required checks that failed (never calibrated ones)
	Calibrated        int `json:"calibrated"`
	CalibratedPassed  int `json:"calibrated_passed"`
	Exploration       int `json:"exploration"`
	ExplorationPassed int `json:"exploration_passed"`
	Details           int `json:"details"`
	DetailsPassed     int `json:"details_passed"`
	Robustness        int `json:"robustness"`
	RobustnessPassed  int `json:"robustness_passed"`
}

// StudyRunOutput is one run's summary.
type StudyRunOutput struct {
	Policy    string          `json:"policy"`
	Seed      uint64          `json:"seed"`
	X         *float64        `json:"x,omitempty"`
	Saturated bool            `json:"saturated,omitempty"`
	Error     string          `json:"error,omitempty"`
	Metrics   metrics.Summary `json:"metrics"`
	// Named: the output metrics of this run (PolicyOutput.Named).
	Named map[string]float64 `json:"named,omitempty"`
}

// Output builds the JSON form.
func (st *Study) Output() StudyOutput {
	sc := st.Scenario
	out := StudyOutput{Scenario: sc.Name, Title: sc.Title, Quick: st.Quick, Sweep: sc.Sweep, Checks: st.Verdicts()}
	if sc.Sweep != nil {
		out.Series = st.series()
	}
	if r := sc.Reference; r != nil {
		out.Source = r.Source
		for _, v := range r.Values {
			out.Reference = append(out.Reference, st.referenceRow(v))
		}
	}
	out.Summary = summarize(out.Checks)
	out.Robustness = st.RobustnessOutput()
	out.Runs = st.runOutputs()
	return out
}

// runOutputs are the summaries of every run, point by point.
func (st *Study) runOutputs() []StudyRunOutput {
	var runs []StudyRunOutput
	for _, p := range st.Points {
		for _, r := range p.Report.Runs {
			ro := StudyRunOutput{Policy: r.Policy, Seed: r.Seed, Saturated: r.Saturated, Metrics: r.Summary}
			switch {
			case r.kept != nil && r.Err == nil && !r.Saturated:
				ro.Named = r.kept.named
			case r.Result != nil && r.Err == nil && !r.Saturated:
				ro.Named = p.Report.named(r)
			}
			if p.Swept {
				x := p.X
				ro.X = &x
			}
			if r.Err != nil {
				ro.Error = r.Err.Error()
			}
			runs = append(runs, ro)
		}
	}
	return runs
}

// summarize counts verdicts by class.
func summarize(vs []Verdict) VerdictSummary {
	var s VerdictSummary
	for _, v := range vs {
		if v.Required && !v.Passed && !v.NotRun {
			s.RequiredFailed++
		}
		tally := func(n, passed *int) {
			*n++
			if v.Passed {
				*passed++
			}
		}
		switch v.Class {
		case scenario.ClassCalibrated:
			tally(&s.Calibrated, &s.CalibratedPassed)
		case scenario.ClassExploration:
			tally(&s.Exploration, &s.ExplorationPassed)
		case scenario.ClassDetail:
			tally(&s.Details, &s.DetailsPassed)
		case scenario.ClassRobustness:
			tally(&s.Robustness, &s.RobustnessPassed)
		default:
			s.Claims++
			switch {
			case v.NotRun:
				s.NA++
			case v.Passed:
				s.Passed++
			default:
				s.Failed++
			}
		}
	}
	return s
}

func (st *Study) referenceRow(v scenario.RefValue) ReferenceRow {
	q := v.Quantity
	if q.Group == "" {
		q.Group = "all"
	}
	row := ReferenceRow{Quantity: q, Unit: st.refUnit(q.Metric), Paper: v.Value}
	if q.X != nil && !st.ran(*q.X) {
		row.Error = "not run (quick mode)"
		return row
	}
	val := st.Value(q)
	switch {
	case val.Err != nil:
		row.Error = val.Err.Error()
	case val.Saturated:
		row.Saturated = true
	default:
		ours := st.inRefUnit(q.Metric, val.Mean)
		row.Ours = &ours
		if val.N > 1 {
			sd := st.inRefUnit(q.Metric, val.SD)
			row.OursSD = &sd
		}
	}
	return row
}

func (st *Study) ran(x float64) bool {
	_, err := st.point(&x)
	return err == nil
}

func (st *Study) series() []SeriesOutput {
	sc := st.Scenario
	if len(sc.Sweep.Ratios) > 0 {
		return st.ratioSeries()
	}
	metric, group := sweepMetric(sc)
	var out []SeriesOutput
	for i := range sc.Policies {
		s := SeriesOutput{Policy: sc.PolicyLabel(i), Metric: metric, Group: group, Unit: st.refUnit(metric)}
		for _, p := range st.Points {
			x := p.X
			v := st.Value(scenario.Quantity{Policy: s.Policy, Metric: metric, Group: group, X: &x})
			s.X = append(s.X, x)
			if v.Err != nil || v.Saturated || math.IsNaN(v.Mean) {
				s.Mean, s.SD = append(s.Mean, nil), append(s.SD, nil)
				continue
			}
			m, sd := st.inRefUnit(metric, v.Mean), st.inRefUnit(metric, v.SD)
			s.Mean = append(s.Mean, &m)
			if math.IsNaN(sd) {
				s.SD = append(s.SD, nil)
			} else {
				s.SD = append(s.SD, &sd)
			}
		}
		out = append(out, s)
	}
	return out
}

// ratioSeries are the sweep's ratios of two policies' metric (means over
// seeds, as a ratio check takes them); unit "ratio".
func (st *Study) ratioSeries() []SeriesOutput {
	metric, group := sweepMetric(st.Scenario)
	var out []SeriesOutput
	for _, r := range st.Scenario.Sweep.Ratios {
		s := SeriesOutput{Policy: r.Num + " / " + r.Den, Metric: metric, Group: group, Unit: "ratio"}
		for _, p := range st.Points {
			x := p.X
			n := st.Value(scenario.Quantity{Policy: r.Num, Metric: metric, Group: group, X: &x})
			d := st.Value(scenario.Quantity{Policy: r.Den, Metric: metric, Group: group, X: &x})
			s.X, s.SD = append(s.X, x), append(s.SD, nil)
			if n.Err != nil || d.Err != nil || n.Saturated || d.Saturated || !(d.Mean > 0) {
				s.Mean = append(s.Mean, nil)
				continue
			}
			v := n.Mean / d.Mean
			s.Mean = append(s.Mean, &v)
		}
		out = append(out, s)
	}
	return out
}

func sweepMetric(sc *scenario.Scenario) (metric, group string) {
	metric, group = "avg_jct_s", "all"
	if sc.Sweep != nil && sc.Sweep.Metric != "" {
		metric = sc.Sweep.Metric
	}
	if sc.Sweep != nil && sc.Sweep.Group != "" {
		group = sc.Sweep.Group
	}
	return metric, group
}

// WriteText writes the study as a plain-text report: the paper's numbers
// beside ours, the sweep, and a verdict per check.
func (st *Study) WriteText(w io.Writer) { st.WriteOutputText(w, st.Output()) }

// WriteOutputText writes out, the study's output, as WriteText does; a
// study assembled from remote points passes its output with the runs the
// servers sent back.
func (st *Study) WriteOutputText(w io.Writer, out StudyOutput) {
	mode := ""
	if out.Quick {
		mode = " (quick mode: fewer seeds, values and jobs)"
	}
	fmt.Fprintf(w, "%s: %s%s\n", out.Scenario, out.Title, mode)
	if len(out.Reference) > 0 {
		fmt.Fprintf(w, "\nOurs beside the paper's (%s):\n", out.Source)
		fmt.Fprintf(w, "  %-16s %-18s %-10s %8s %12s %10s\n", "policy", "metric", "group", "x", "ours", "paper")
		for _, r := range out.Reference {
			x := ""
			if r.X != nil {
				x = fmt.Sprintf("%g", *r.X)
			}
			fmt.Fprintf(w, "  %-16s %-18s %-10s %8s %12s %10s\n", r.Policy, r.Metric, r.Group, x, oursText(r), strconv.FormatFloat(r.Paper, 'f', -1, 64)+" "+r.Unit)
		}
	}
	if len(out.Series) > 0 {
		s0 := out.Series[0]
		width := 16 // policy labels such as "SJF-FFS (accumulation)" widen the column
		for _, s := range out.Series {
			width = max(width, len([]rune(s.Policy)))
		}
		fmt.Fprintf(w, "\n%s (%s, %s) against %s:\n  %-*s", s0.Metric, s0.Group, s0.Unit, out.Sweep.Label, width, "policy")
		for _, x := range s0.X {
			fmt.Fprintf(w, " %9g", x)
		}
		fmt.Fprintln(w)
		for _, s := range out.Series {
			fmt.Fprintf(w, "  %-*s", width, s.Policy)
			for _, m := range s.Mean {
				if m == nil {
					fmt.Fprintf(w, " %9s", "sat.")
				} else {
					fmt.Fprintf(w, " %9.3g", *m)
				}
			}
			fmt.Fprintln(w)
		}
	}
	if r := out.Robustness; r != nil {
		fmt.Fprintf(w, "\n%s over %d draws (%s): %s\n", r.Label, len(r.X), r.Draws, RobustnessLine(r))
	}
	if len(out.Checks) > 0 {
		fmt.Fprintln(w, "\nChecks:")
		for _, v := range out.Checks {
			fmt.Fprintf(w, "  [%s] %s: %s\n      expected: %s\n      observed: %s\n", verdictMark(v), v.ID, v.Description, v.Expected, v.Observed)
			if v.Why != "" && !v.Passed && !v.NotRun {
				fmt.Fprintf(w, "      why: %s\n", v.Why)
			}
		}
		fmt.Fprintf(w, "\n%s\n", summaryLine(out.Summary))
	}
	for _, r := range out.Runs {
		if r.Error != "" {
			fmt.Fprintf(w, "run %s seed %d failed: %s\n", r.Policy, r.Seed, r.Error)
		}
	}
}

// verdictMark is a check's tag in the text report.
func verdictMark(v Verdict) string {
	mark := "PASS"
	if !v.Passed {
		mark = "FAIL"
	}
	switch {
	case v.NotRun:
		return "n/a: " + v.NA
	case v.Class == scenario.ClassCalibrated:
		return strings.ToLower(mark) + ", calibrated: shown, not counted"
	case v.Class == scenario.ClassExploration:
		return strings.ToLower(mark) + ", exploration: counted apart"
	case v.Class == scenario.ClassDetail:
		return strings.ToLower(mark) + ", detail of " + v.DetailOf + ": not counted"
	case v.Class == scenario.ClassRobustness:
		return strings.ToLower(mark) + ", over draws: shown beside " + v.Robust.Claim
	case !v.Passed && !v.Required:
		return "fail (not required in quick mode)"
	}
	return mark
}

// summaryLine is the report's total, e.g. "12 of 30 claims hold (5
// calibrated checks shown, not counted; ...)".
func summaryLine(s VerdictSummary) string {
	line := fmt.Sprintf("%d of %d claims hold", s.Passed, s.Claims)
	if s.Claims == 0 {
		line = "no claims of the paper"
	}
	if s.NA > 0 {
		line += fmt.Sprintf(", %d n/a", s.NA)
	}
	var apart []string
	for _, c := range []struct {
		n, passed int
		what      string
	}{
		{s.Calibrated, s.CalibratedPassed, "calibrated check%s shown, not counted"},
		{s.Exploration, s.ExplorationPassed, "exploration check%s counted apart"},
		{s.Details, s.DetailsPassed, "detail%s of claims, not counted"},
		{s.Robustness, s.RobustnessPassed, "check%s over draws, shown beside their claims"},
	} {
		if c.n > 0 {
			apart = append(apart, fmt.Sprintf("%d %s; %d of them hold", c.n, fmt.Sprintf(c.what, plural(c.n)), c.passed))
		}
	}
	if len(apart) > 0 {
		line += " (" + strings.Join(apart, "; ") + ")"
	}
	if s.RequiredFailed > 0 {
		line += fmt.Sprintf("; %d required check(s) failed", s.RequiredFailed)
	}
	return line
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func oursText(r ReferenceRow) string {
	switch {
	case r.Error != "":
		return "n/a"
	case r.Saturated:
		return "saturated"
	case r.OursSD != nil:
		return num3(*r.Ours) + "±" + num3(*r.OursSD)
	}
	return num3(*r.Ours)
}

// AxisLabels are the sweep figure's axis titles: the swept value with its
// unit, and the plotted metric in the reference unit.
func (st *Study) AxisLabels() (xlabel, ylabel string) {
	sc := st.Scenario
	metric, _ := sweepMetric(sc)
	unit := st.refUnit(metric)
	ylabel = strings.TrimSuffix(metric, "_s")
	if d, err := metrics.Lookup(metric); err == nil && d.Doc != "" {
		ylabel = d.Doc
	}
	if sc.Sweep == nil {
		return "", ylabel
	}
	if len(sc.Sweep.Ratios) > 0 {
		ylabel += ", ratio"
	} else if unit != "" {
		ylabel += " (" + unit + ")"
	}
	xlabel = sc.Sweep.Label
	if sc.Sweep.Unit != "" {
		xlabel += " (" + sc.Sweep.Unit + ")"
	}
	return xlabel, ylabel
}

// RobustnessLine is a robustness headline in words: "mean 0.41, 95% of
// draws in [0.31, 0.47] (the paper: 0.46)".
func RobustnessLine(r *RobustnessOutput) string {
	if r.Mean == nil {
		return "no draw gave a value"
	}
	unit := ""
	if r.Unit != "" && r.Unit != "ratio" {
		unit = " " + r.Unit
	}
	s := fmt.Sprintf("mean %s%s, 95%% of draws in [%s, %s]", num3(*r.Mean), unit, num3(*r.Low), num3(*r.High))
	if r.Paper != nil {
		s += fmt.Sprintf(" (the paper: %s%s)", num3(*r.Paper), unit)
	}
	return s
}
