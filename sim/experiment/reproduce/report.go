package reproduce

import (
	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/results"
)

// Verdicts of a check in the report.
const (
	Pass = "pass"
	Fail = "fail"
	NA   = "n/a" // not evaluated in this mode (a sweep value quick mode skips)
)

// Done is a figure whose study has run.
type Done struct {
	Entry
	Study *experiment.Study
	Files []string // the figure's image files, relative to the report
}

// Figure is the report of one figure: every check of its scenario with
// the compared numbers and a verdict.
func Figure(d Done) results.FigureRepro {
	f := results.FigureRepro{Figure: d.Figure, Scenario: d.Scenario.Name, Claim: d.Scenario.Title,
		Files: d.Files, Checks: []results.CheckRepro{}}
	for _, v := range d.Study.Verdicts() {
		f.Checks = append(f.Checks, Check(v))
	}
	return f
}

// Check is one verdict as the report shows it.
func Check(v experiment.Verdict) results.CheckRepro {
	c := results.CheckRepro{ID: v.ID, Claim: v.Description, Paper: v.Paper, Ours: v.Ours, OursSD: v.OursSD,
		Tolerance: v.Tolerance, Calibrated: v.Calibrated, Required: v.Required, Observed: v.Observed}
	switch {
	case v.NotRun:
		c.Verdict = NA
		c.Observed = "not run in this mode: " + v.Observed
	case v.Passed:
		c.Verdict = Pass
	default:
		c.Verdict = Fail
		c.Why = v.Why
	}
	return c
}

// Build assembles the report of figures that ran, grouped by paper in
// the order given (Entries' order). seeds is the --seeds override, 0 for
// the scenarios' own.
func Build(quick bool, seeds int, done []Done) results.Reproduction {
	rep := results.Reproduction{Quick: quick, Seeds: seeds, Papers: []results.PaperRepro{}}
	for _, d := range done {
		n := len(rep.Papers)
		if n == 0 || rep.Papers[n-1].Paper != d.Paper {
			rep.Papers = append(rep.Papers, results.PaperRepro{Paper: d.Paper, Title: PaperTitle(d.Paper)})
			n++
		}
		rep.Papers[n-1].Figures = append(rep.Papers[n-1].Figures, Figure(d))
	}
	return rep
}

// Tally counts a report's verdicts. Calibrated checks are counted apart:
// passing them proves nothing (spec 000 ruling R1).
type Tally struct {
	Pass, Fail, NA, Calibrated int
	RequiredFail               int // of Fail, the checks this mode requires
}

// Count tallies the checks of figures.
func Count(figs ...results.FigureRepro) Tally {
	var t Tally
	for _, f := range figs {
		for _, c := range f.Checks {
			switch {
			case c.Calibrated:
				t.Calibrated++
			case c.Verdict == Pass:
				t.Pass++
			case c.Verdict == Fail:
				t.Fail++
				if c.Required {
					t.RequiredFail++
				}
			default:
				t.NA++
			}
		}
	}
	return t
}
