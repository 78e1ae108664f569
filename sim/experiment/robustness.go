package experiment

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
)

// A robustness figure (scenario.Robustness) sweeps over draws of inputs
// the paper does not publish: each swept value is a draw seed, crossed
// with the scenario's workload seeds. Every check is judged in each draw
// on its own, and holds robustly when it holds in at least half of them.

// Robust is how a check of a robustness figure fared over the draws.
type Robust struct {
	Held   int `json:"held"`   // draws in which the check holds
	Judged int `json:"judged"` // draws in which it could be judged
	// Claim is the claim it judges, as scenario/check-id, if any.
	Claim string `json:"claim,omitempty"`
}

// Holds reports whether the check holds in at least half of the draws.
func (r *Robust) Holds() bool { return r.Judged > 0 && 2*r.Held >= r.Judged }

// Share is the share of draws in which the check holds.
func (r *Robust) Share() float64 {
	if r.Judged == 0 {
		return math.NaN()
	}
	return float64(r.Held) / float64(r.Judged)
}

// NotRobust is the words a report gives a claim that holds in fewer than
// half of the draws.
const NotRobust = "does not hold robustly"

// drawStudy is the study at one draw: the point of that draw alone, so
// that quantities without a sweep value resolve to it.
func (st *Study) drawStudy(p *Point) *Study {
	st.durationUnit() // one unit for every draw
	return &Study{Scenario: st.Scenario, Quick: st.Quick, Points: []*Point{p}, autoUnit: st.autoUnit, split: st.split}
}

// robustVerdicts judges every check in every draw. A check passes when it
// holds in at least half of the draws it could be judged in; its numbers
// are the mean and spread of its per-draw numbers.
func (st *Study) robustVerdicts() []Verdict {
	sc := st.Scenario
	var perDraw [][]Verdict
	for _, p := range st.Points {
		perDraw = append(perDraw, st.drawStudy(p).verdicts())
	}
	out := make([]Verdict, len(sc.Checks))
	for i := range sc.Checks {
		c := &sc.Checks[i]
		r := &Robust{Claim: sc.Robustness.ClaimOf(c.ID)}
		var failed []string
		var ours []float64
		v := perDraw[0][i]
		for k, vs := range perDraw {
			d := vs[i]
			if d.NotRun || strings.Contains(d.Observed, ErrNotRun.Error()) {
				continue
			}
			r.Judged++
			if d.Passed {
				r.Held++
			} else {
				failed = append(failed, fmt.Sprintf("%g", st.Points[k].X))
			}
			if d.Ours != nil {
				ours = append(ours, *d.Ours)
			}
		}
		v.Robust = r
		v.NotRun = r.Judged == 0
		v.NA = ""
		if v.NotRun {
			v.NA = "no draw has run"
		}
		v.Passed = r.Holds()
		v.Expected = "in at least half of the draws: " + v.Expected
		v.Observed = fmt.Sprintf("holds in %d of %d draws", r.Held, r.Judged)
		if len(failed) > 0 {
			v.Observed += " (fails in draws " + strings.Join(failed, ", ") + ")"
		}
		if !v.Passed && !v.NotRun {
			v.Why = strings.TrimSpace(NotRobust + ". " + c.Why)
		}
		v.Ours, v.OursSD, v.Tolerance, v.ToleranceBasis = nil, nil, nil, ""
		if m, sd := meanSD(ours); len(ours) > 0 {
			v.Ours = finite(m)
			if len(ours) > 1 {
				v.OursSD = finite(sd)
			}
		}
		out[i] = v
	}
	return out
}

// RobustnessOutput is a robustness figure's headline number over the
// draws: per draw (the mean over workload seeds), their mean and the
// range that holds the middle 95% of them.
type RobustnessOutput = results.RobustnessRepro

// RobustnessOutput is the headline of a robustness figure, nil for any
// other study.
func (st *Study) RobustnessOutput() *RobustnessOutput {
	r := st.Scenario.Robustness
	if r == nil {
		return nil
	}
	h := r.Headline
	out := &RobustnessOutput{Draws: r.Draws, Label: h.Label, Paper: h.Paper}
	var xs []float64
	for _, p := range st.Points {
		d := st.drawStudy(p)
		out.X = append(out.X, p.X)
		y, unit, ok := d.headline(h)
		out.Unit = unit
		if !ok {
			out.Value = append(out.Value, nil)
			continue
		}
		out.Value = append(out.Value, finite(y))
		xs = append(xs, y)
	}
	if len(xs) > 0 {
		m, _ := meanSD(xs)
		out.Mean, out.Low, out.High = finite(m), finite(Percentile(xs, 0.025)), finite(Percentile(xs, 0.975))
	}
	return out
}

// headline is the headline number in a one-draw study.
func (st *Study) headline(h scenario.Headline) (y float64, unit string, ok bool) {
	if h.Of != nil {
		v := st.Value(*h.Of)
		if v.Err != nil || v.Saturated || math.IsNaN(v.Mean) {
			return 0, st.refUnit(h.Of.Metric), false
		}
		y, unit = st.InRefUnit(h.Of.Metric, v.Mean)
		return y, unit, true
	}
	n := st.Value(*h.Num)
	if h.Den == nil {
		if n.Err != nil || n.Saturated || math.IsNaN(n.Mean) {
			return 0, st.refUnit(h.Num.Metric), false
		}
		y, unit = st.InRefUnit(h.Num.Metric, n.Mean)
		return y, unit, true
	}
	d := st.Value(*h.Den)
	if n.Err != nil || d.Err != nil || n.Saturated || d.Saturated || !(d.Mean != 0) {
		return 0, "ratio", false
	}
	return n.Mean / d.Mean, "ratio", true
}

// Percentile is the p-quantile of xs (0 ≤ p ≤ 1), interpolating linearly
// between the order statistics (the usual "type 7" estimate).
func Percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	pos := p * float64(len(s)-1)
	lo := int(math.Floor(pos))
	if lo >= len(s)-1 {
		return s[len(s)-1]
	}
	return s[lo] + (pos-float64(lo))*(s[lo+1]-s[lo])
}
