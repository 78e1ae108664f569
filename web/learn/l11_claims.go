package learn

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/schedlab/schedlab/sim/scenario"
)

// The paper figure lesson 11 reads, and the claims it asks about.
const (
	claimsAsked     = "f6a-bsbf-2" // the question: SJF-BSBF best at 2×
	claimsChallenge = "f6a-light"  // the challenge: Pollux best at 0.5×
)

// Lesson 11: reading a paper's claim, and what the verdicts mean.
var lessonClaims = &Lesson{
	ID:       "claims",
	Title:    "Reading a paper's claim: pass, fail, calibrated, exploration",
	Minutes:  9,
	Scenario: "sjf-bsbf-fig6a",
	Sweep:    true,
	Facts: func(r *Run) map[string]string {
		m := map[string]string{}
		sc := r.Scenario
		if sc == nil {
			return m
		}
		m["policies"] = fmt.Sprint(len(sc.Policies))
		for _, c := range sc.Checks {
			switch c.ID {
			case claimsAsked:
				m["asked"] = c.Description
			case claimsChallenge:
				m["light"] = c.Description
			}
		}
		if q := sc.Quick; q != nil && len(q.Values) > 0 {
			var xs []string
			for _, x := range q.Values {
				xs = append(xs, num(x)+"×")
			}
			m["loads"] = strings.Join(xs, " and ")
		}
		m["range"] = sweptJobs(sc)
		return facts(r, m)
	},
	Steps: []Step{
		{Title: "Claims, and checking them", Paras: []string{
			"A paper sums up its results in claims, such as “our policy has the lowest average JCT at high load”. Reproducing a paper means running its experiment again and checking each claim. schedlab writes each claim as a check, with a tolerance where the paper gives a number, and reports a verdict for each one.",
			"This lesson reruns a figure of the SJF-BSBF paper (Luo et al., 2024, Fig. 6a): the average JCT of {policies} policies on {gpus} GPUs as the load grows {range}. Your browser runs its quick version: the loads {loads}, one seed.",
		}},
		{Title: "What the verdicts mean", Paras: []string{
			"Pass: the claim held in our rerun, within its tolerance. Fail: it did not. A failure is a finding, not a bug: the rerun differs from the paper somewhere (a detail the paper leaves out, a different trace), and the report says what was observed.",
			"n/a: the check could not be made on this run, for example because its load is not part of the quick version.",
			"Calibrated: the check compares a number the set-up was tuned to match (say, an arrival rate chosen so that one policy lands near the paper's value). It passes by construction, so it proves nothing and is not counted.",
			"Exploration: a check of something the paper does not claim, added to probe our own reading of it; it is reported, but never held against the paper.",
		}},
	},
	Question: Question{
		Prompt:  "The paper claims: “{asked}”. Will our quick rerun confirm it?",
		Choices: []string{"Yes", "No, but SJF-BSBF comes within 5 % of the best", "No, clearly"},
		Truth: func(r *Run) (float64, error) {
			if r.Sweep == nil {
				return 0, ErrNoRun
			}
			c, ok := r.Sweep.Check(claimsAsked)
			if !ok {
				return 0, fmt.Errorf("the run has no check %q", claimsAsked)
			}
			if c.Verdict == "pass" {
				return 0, nil
			}
			gap, _, err := bsbfGap(r, 2)
			if err != nil {
				return 0, err
			}
			if gap <= 0.05 {
				return 1, nil
			}
			return 2, nil
		},
	},
	Figures: []string{FigureCurve},
	Explain: func(r *Run) ([]string, error) {
		if r.Sweep == nil {
			return nil, ErrNoRun
		}
		var out []string
		if gap, best, err := bsbfGap(r, 2); err == nil {
			bsbf, _ := r.Curve("SJF-BSBF")
			winner, _ := r.Curve(best)
			out = append(out, fmt.Sprintf("At 2×, SJF-BSBF's average JCT is %s and the best, %s's, is %s: SJF-BSBF is %s behind.",
				dur(bsbf.At(2)), best, dur(winner.At(2)), pct(gap)))
		}
		counts := map[string]int{}
		var lines []string
		for _, c := range r.Sweep.Checks {
			v := c.Verdict
			if c.Calibrated {
				v = "calibrated (" + v + ")"
			}
			counts[c.Verdict]++
			lines = append(lines, fmt.Sprintf("“%s”: %s", strings.TrimSuffix(c.Claim, "."), v))
		}
		out = append(out, "The figure's checks on this run: "+strings.Join(lines, "; ")+".")
		summary := fmt.Sprintf("In all: %d pass, %d fail, %d n/a", counts["pass"], counts["fail"], counts["n/a"])
		for _, k := range sortedKeys(counts) {
			if k != "pass" && k != "fail" && k != "n/a" {
				summary += fmt.Sprintf(", %d %s", counts[k], k)
			}
		}
		summary += "."
		if counts["n/a"] > 0 {
			summary += " An n/a check here asks about a load the quick version does not run; the command line runs the full study, every load and seed (schedlab run sjf-bsbf-fig6a)."
		}
		out = append(out, summary)
		if c, ok := r.Sweep.Check(claimsAsked); ok && c.Verdict != "pass" && c.Why != "" {
			out = append(out, "Why the claim fails here, as the report explains it: "+c.Why)
		}
		return out, nil
	},
	Replay: func(r *Run) (Replay, error) {
		if r.Scenario == nil || r.Scenario.Sweep == nil || len(r.Scenario.Sweep.Params) == 0 {
			return Replay{}, fmt.Errorf("this lesson needs its sweep over the load")
		}
		return Replay{Path: r.Scenario.Sweep.Params[0], Value: 2, Label: "the 2× load"}, nil
	},
	Moment: func(r *Run) (Moment, error) {
		p, err := r.Labelled("SJF-BSBF")
		if err != nil {
			return Moment{}, err
		}
		s, err := r.Labelled("SJF")
		if err != nil {
			return Moment{}, err
		}
		st, ok := r.Busiest(p)
		if !ok {
			return Moment{}, fmt.Errorf("no job waited in this run")
		}
		other := r.At(s, st.T)
		return Moment{Policy: r.Index(p), T: st.T, Text: fmt.Sprintf("At %s, the busiest moment under SJF-BSBF, %s wait for GPUs; under SJF, at the same moment, %d.",
			dur(st.T), plural(len(st.Waiting), "job"), len(other.Waiting))}, nil
	},
	Challenge: Challenge{
		Text: "Find where a claim's strength comes from. The claim “{light}” passes. Change Pollux so that it fails.",
		Hint: "Pollux wins at light load by giving jobs more GPUs than they asked for when GPUs are idle, growing each job step by step. What if a job could not grow?",
		Fields: []Field{
			{"policies[5].params.growth_factor", "Pollux: how many times the GPUs it has held a job may grow to"},
			{"policies[5].params.max_gpus", "Pollux: most GPUs for one job"},
		},
		Check: func(r *Run) (bool, string) {
			if r.Sweep == nil || !r.Sweep.Complete {
				return false, "The figure is not complete yet."
			}
			if _, err := r.Curve("Pollux"); err != nil {
				return false, err.Error()
			}
			c, ok := r.Sweep.Check(claimsChallenge)
			if !ok {
				return false, fmt.Sprintf("The run has no check %q; reset the lesson.", claimsChallenge)
			}
			status := fmt.Sprintf("“%s”: %s. Observed: %s.", strings.TrimSuffix(c.Claim, "."), c.Verdict, c.Observed)
			return c.Verdict == "fail", status
		},
	},
}

// sortedKeys are a count's keys in order.
func sortedKeys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// bsbfGap is how far SJF-BSBF's average JCT at sweep value x is above the
// best of the other policies the paper compares it with, and which that is.
func bsbfGap(r *Run, x float64) (float64, string, error) {
	b, err := r.Curve("SJF-BSBF")
	if err != nil {
		return 0, "", err
	}
	best, who := math.Inf(1), ""
	for _, l := range []string{"FIFO", "SJF", "Tiresias", "Pollux", "SJF-FFS"} {
		s, err := r.Curve(l)
		if err != nil {
			continue
		}
		if v := s.At(x); v < best {
			best, who = v, l
		}
	}
	if who == "" || math.IsNaN(b.At(x)) {
		return 0, "", fmt.Errorf("the curve has no value at %s×", num(x))
	}
	return (b.At(x) - best) / best, who, nil
}

// sweptJobs says how the jobs of a sweep's runs grow: "from 120 to 480
// jobs", read from the scenario at its first and last swept values.
func sweptJobs(sc *scenario.Scenario) string {
	if sc.Sweep == nil || len(sc.Sweep.Values) < 2 {
		return ""
	}
	var n [2]int64
	for i, x := range []float64{sc.Sweep.Values[0], sc.Sweep.Values[len(sc.Sweep.Values)-1]} {
		v, err := sc.SweepVariant(x)
		if err != nil {
			return ""
		}
		n[i], _ = v.JobCount()
	}
	return fmt.Sprintf("from %d to %d jobs", n[0], n[1])
}
