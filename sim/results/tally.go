package results

import "fmt"

// The classes of a check (scenario.ClassClaim and the others) and the
// verdicts of a report, as report.json spells them.
const (
	classCalibrated  = "calibrated"
	classExploration = "exploration"
	classDetail      = "detail"
	classRobustness  = "robustness"
	verdictPass      = "pass"
	verdictFail      = "fail"
)

// Tally counts a report's verdicts by class: the paper's claims (pass,
// fail, n/a), and apart from them the calibrated checks, the exploration
// checks (and how many of them hold), the details and the checks over
// draws. REPRODUCTION.md, the command line, the page's gallery cards and
// its figure view all count with it, so they cannot disagree.
type Tally struct {
	Claims, Pass, Fail, NA int
	RequiredFail           int // of Fail, the checks this mode requires
	Calibrated             int
	Exploration            int
	ExplorationPass        int
	Details                int
	Robustness             int
}

// Count tallies the checks of figures.
func Count(figs ...FigureRepro) Tally {
	var t Tally
	for _, f := range figs {
		for _, c := range f.Checks {
			switch c.CountedClass() {
			case classCalibrated:
				t.Calibrated++
			case classExploration:
				t.Exploration++
				if c.Verdict == verdictPass {
					t.ExplorationPass++
				}
			case classDetail:
				t.Details++
			case classRobustness:
				t.Robustness++
			default:
				t.Claims++
				switch c.Verdict {
				case verdictPass:
					t.Pass++
				case verdictFail:
					t.Fail++
					if c.Required {
						t.RequiredFail++
					}
				default:
					t.NA++
				}
			}
		}
	}
	return t
}

// CountedClass is how a reported check counts: its class, or, in reports
// from before classes, "calibrated" for a calibrated check and "claim"
// otherwise.
func (c CheckRepro) CountedClass() string {
	switch {
	case c.Class != "":
		return c.Class
	case c.Calibrated:
		return classCalibrated
	}
	return "claim"
}

// Summary is a figure's tally in words, as the page's gallery card and
// figure view show it: "12 of 16 claims hold", "in quick mode" when the
// verdicts are quick-mode ones, then the n/a claims and what is counted
// apart: "· 2 n/a · 1 calibrated (not counted) · 3 exploration, 2 hold".
func (t Tally) Summary(quick bool) string {
	text := fmt.Sprintf("%d of %d claims hold", t.Pass, t.Pass+t.Fail)
	if quick {
		text += " in quick mode"
	}
	if t.NA > 0 {
		text += fmt.Sprintf(" · %d n/a", t.NA)
	}
	if t.Calibrated > 0 {
		text += fmt.Sprintf(" · %d calibrated (not counted)", t.Calibrated)
	}
	if t.Exploration > 0 {
		text += fmt.Sprintf(" · %d exploration, %d hold", t.Exploration, t.ExplorationPass)
	}
	return text
}
