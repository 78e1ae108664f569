package experiment

import (
	"fmt"
	"math"
	"strings"

	"github.com/schedlab/schedlab/sim/scenario"
)

// checkPaper judges a value or ratio check against the paper's number:
// |ours − paper| ≤ tolerance, or only the side the paper's words bound,
// the tolerance being the largest of the paper's printed precision, twice
// the standard error of our mean over seeds and 10% of the paper's number
// (scenario.Check.ToleranceFor).
func (st *Study) checkPaper(c *scenario.Check, v *Verdict) {
	paper := *c.Paper
	v.Paper = finite(paper)
	var ours, sd *float64
	var n int
	var paired bool
	var observed string
	if c.Kind == "value" {
		q := c.Resolve(*c.Of)
		val := st.Value(q)
		switch {
		case val.Err != nil:
			observed = val.Err.Error()
		case val.Saturated:
			observed = q.String() + " = saturated"
		default:
			ours, n = finite(st.inRefUnit(q.Metric, val.Mean)), val.N
			if val.N > 1 {
				sd = finite(st.inRefUnit(q.Metric, val.SD))
			}
			observed = q.String() + " = " + st.format(q.Metric, val)
		}
	} else {
		r, text, err := st.ratio(c, nil)
		if err != nil {
			observed = err.Error()
		} else {
			observed = text
			ours, sd, n, paired = st.ratioNumbers(c)
			if math.IsNaN(r) {
				ours = nil
			}
		}
	}
	twoSE := 0.0
	if sd != nil && n > 1 {
		twoSE = 2 * *sd / math.Sqrt(float64(n))
	}
	tol, basis := c.ToleranceFor(twoSE)
	v.Ours, v.OursSD, v.Tolerance = ours, sd, finite(tol)
	v.ToleranceBasis = toleranceWords(c, tol, basis, twoSE, n, paired)
	v.Bound = c.Bound
	unit := ""
	if c.Kind == "value" {
		if u := st.refUnit(c.Resolve(*c.Of).Metric); u != "" {
			unit = " " + u
		}
	}
	switch c.Bound {
	case "at least":
		v.Expected = fmt.Sprintf("at least %.4g%s (the paper's words), less %.3g (%s)", paper, unit, tol, v.ToleranceBasis)
	case "at most", "within":
		v.Expected = fmt.Sprintf("%s %.4g%s (the paper's words), plus %.3g (%s)", c.Bound, paper, unit, tol, v.ToleranceBasis)
	default:
		v.Expected = fmt.Sprintf("%.4g%s ± %.3g (%s)", paper, unit, tol, v.ToleranceBasis)
	}
	v.Observed = observed
	v.Passed = ours != nil && withinPaper(*ours, paper, tol, c.Bound)
}

// withinPaper is the comparison of a paper-number check.
func withinPaper(ours, paper, tol float64, bound string) bool {
	const eps = 1e-12
	switch bound {
	case "at least":
		return ours >= paper-tol-eps
	case "at most", "within":
		return ours <= paper+tol+eps
	}
	return math.Abs(ours-paper) <= tol+eps
}

// toleranceWords says how a tolerance was derived: the term that decided
// it, then the others, e.g. "10% of the paper's number (0.303); others:
// the paper's printed precision (0.001), 2 × the standard error of our
// mean over 10 seeds (0.041)".
func toleranceWords(c *scenario.Check, tol float64, basis string, twoSE float64, n int, paired bool) string {
	seeds := fmt.Sprintf(" over %d seeds (%.3g)", n, twoSE)
	if paired {
		seeds = fmt.Sprintf(" over %d seeds, the policies paired seed by seed (%.3g)", n, twoSE)
	}
	terms := [][2]string{
		{"10% of the paper's number", fmt.Sprintf(" (%.3g)", 0.1*math.Abs(*c.Paper))},
		{"the paper's printed precision", fmt.Sprintf(" (%.3g)", c.Precision)},
		{"2 × the standard error of our mean", seeds},
	}
	if n <= 1 {
		terms[2][1] = " (none: one seed)"
	}
	if c.TightTolerance != nil {
		terms = append(terms, [2]string{"the tighter tolerance set for this claim", fmt.Sprintf(" (%.3g)", *c.TightTolerance)})
	}
	var first string
	var others []string
	for _, t := range terms {
		if t[0] == basis {
			first = t[0] + t[1]
		} else {
			others = append(others, t[0]+t[1])
		}
	}
	return first + "; others: " + strings.Join(others, ", ")
}

// checkAll judges a claim made of parts from its details' verdicts: it
// holds when at least AtLeast (default all) of them hold, is n/a when the
// parts not run could still decide it, and fails otherwise.
func checkAll(c *scenario.Check, v *Verdict, byID map[string]*Verdict) {
	need := c.AtLeast
	if need == 0 {
		need = len(c.Checks)
	}
	held, notRun := 0, 0
	var parts []string
	for _, id := range c.Checks {
		p := byID[id]
		mark := "fails"
		switch {
		case p == nil:
			mark = "missing"
		case p.NotRun:
			notRun++
			mark = "n/a"
		case p.Passed:
			held++
			mark = "holds"
		}
		parts = append(parts, id+" "+mark)
	}
	v.Passed = held >= need
	v.NotRun = !v.Passed && held+notRun >= need && notRun > 0
	if v.NotRun {
		v.NA = "not run in quick mode: some of its parts need sweep values that quick mode skips"
	}
	if need == len(c.Checks) {
		v.Expected = fmt.Sprintf("all %d parts hold", need)
	} else {
		v.Expected = fmt.Sprintf("at least %d of %d parts hold", need, len(c.Checks))
	}
	v.Observed = fmt.Sprintf("%d of %d hold: %s", held, len(c.Checks), strings.Join(parts, ", "))
}
