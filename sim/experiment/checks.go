package experiment

import (
	"fmt"
	"math"
	"strings"

	"github.com/schedlab/schedlab/sim/metrics"
	"github.com/schedlab/schedlab/sim/scenario"
)

// Verdict is the outcome of one check.
type Verdict struct {
	ID          string `json:"id"`
	Description string `json:"description"`
	Kind        string `json:"kind"`
	// Class is how the verdict counts: claim (counted), detail (shown,
	// never counted), calibrated (shown, not counted), exploration
	// (counted apart) or robustness (shown beside the claim it judges).
	Class    string `json:"class"`
	DetailOf string `json:"detail_of,omitempty"`
	// Exploration says which setting of ours the paper does not have.
	Exploration string `json:"exploration,omitempty"`
	Passed      bool   `json:"passed"`
	// Required checks must pass in this mode (every uncalibrated check in
	// a full run; the quick list in quick mode).
	Required bool `json:"required"`
	// Calibrated checks are decided by an input chosen on results: they
	// are shown, never required, and left out of the count.
	Calibrated bool   `json:"calibrated"`
	Expected   string `json:"expected"`
	Observed   string `json:"observed"`
	// Why is the scenario's recorded explanation of a failure.
	Why string `json:"why,omitempty"`
	// NotRun marks a check on a sweep value this mode did not run (quick
	// mode runs a subset): it is neither passed nor failed; NA says why.
	NotRun bool   `json:"not_run,omitempty"`
	NA     string `json:"na,omitempty"`
	Numbers
	// Robust is, for a check of a robustness figure, how many draws it
	// holds in.
	Robust *Robust `json:"robust,omitempty"`
}

// Verdicts evaluates every check of the study's scenario; a robustness
// figure's in every draw.
func (st *Study) Verdicts() []Verdict {
	if st.Scenario.Robustness != nil {
		return st.robustVerdicts()
	}
	return st.verdicts()
}

func (st *Study) verdicts() []Verdict {
	sc := st.Scenario
	quick := map[string]bool{}
	if st.Quick && sc.Quick != nil {
		for _, id := range sc.Quick.Checks {
			quick[id] = true
		}
	}
	out := make([]Verdict, len(sc.Checks))
	byID := map[string]*Verdict{}
	for i := range sc.Checks {
		c := &sc.Checks[i]
		v := Verdict{ID: c.ID, Description: c.Description, Kind: c.Kind, Class: sc.Class(c), DetailOf: c.DetailOf,
			Exploration: sc.ExplorationWhy(c), Calibrated: c.Calibrated,
			Required: !c.Calibrated && (!st.Quick || quick[c.ID]), Why: c.Why, NotRun: !st.runsAll(c)}
		switch {
		case c.Kind == "order":
			v.Passed, v.Expected, v.Observed = st.checkOrder(c)
		case c.Paper != nil:
			st.checkPaper(c, &v)
		case c.Kind == "ratio":
			v.Passed, v.Expected, v.Observed = st.checkRatio(c)
		case c.Kind == "value":
			v.Passed, v.Expected, v.Observed = st.checkValue(c)
		case c.Kind == "knee":
			v.Passed, v.Expected, v.Observed, v.Ours = st.checkKnee(c)
		case c.Kind == "trend":
			v.Passed, v.Expected, v.Observed = st.checkTrend(c)
		}
		if c.Paper == nil {
			st.numbers(c, &v)
		}
		if len(c.Show) > 0 { // its words carry the numbers: reports print them instead of one number
			v.Observed += st.shown(c)
			v.Ours, v.OursSD = nil, nil
		}
		if v.NotRun {
			v.NA = "not run in quick mode: it needs a sweep value that quick mode skips"
		}
		out[i] = v
		byID[c.ID] = &out[i]
	}
	for i := range sc.Checks { // claims made of parts, once the parts are in
		if c := &sc.Checks[i]; c.Kind == "all" {
			checkAll(c, &out[i], byID)
		}
	}
	return out
}

// lowerBetter reports whether a <= b within a relative tolerance, in the
// direction the check prefers.
func better(a, b, tol float64, higher bool) bool {
	if higher {
		return a >= b*(1-tol)
	}
	return a <= b*(1+tol)
}

func (st *Study) checkOrder(c *scenario.Check) (bool, string, string) {
	tiers := c.Tiers
	for _, p := range c.Policies {
		tiers = append(tiers, []string{p})
	}
	groups := c.Groups
	if len(groups) == 0 {
		groups = []string{c.Group}
	}
	need := c.AtLeast
	if need == 0 {
		need = len(groups)
	}
	passed := 0
	var obs []string
	for _, g := range groups {
		ok, text := st.orderIn(c, tiers, g)
		if ok {
			passed++
		}
		if len(groups) > 1 {
			mark := "no"
			if ok {
				mark = "yes"
			}
			text = fmt.Sprintf("%s: %s [%s]", groupName(g), text, mark)
		}
		obs = append(obs, text)
	}
	rel := "<"
	if c.HigherIsBetter {
		rel = ">"
	}
	exp := strings.Join(tierNames(tiers), " "+rel+" ")
	if c.Tolerance > 0 {
		exp += fmt.Sprintf(" (ties within %g%%)", 100*c.Tolerance)
	}
	if len(groups) > 1 {
		exp += fmt.Sprintf(" in at least %d of %d groups", need, len(groups))
		obs = append(obs, fmt.Sprintf("holds in %d of %d", passed, len(groups)))
	}
	return passed >= need, exp, strings.Join(obs, "; ")
}

func (st *Study) orderIn(c *scenario.Check, tiers [][]string, group string) (bool, string) {
	vals := make([][]Value, len(tiers))
	var parts []string
	for i, tier := range tiers {
		for _, p := range tier {
			v := st.Value(c.Resolve(scenario.Quantity{Policy: p, Group: group}))
			if v.Err != nil {
				return false, v.Err.Error()
			}
			vals[i] = append(vals[i], v)
			parts = append(parts, p+" "+st.format(c.Metric, v))
		}
	}
	for i := 0; i+1 < len(vals); i++ {
		for _, a := range vals[i] {
			for _, b := range vals[i+1] {
				if !better(a.Mean, b.Mean, c.Tolerance, c.HigherIsBetter) {
					return false, strings.Join(parts, ", ")
				}
			}
		}
	}
	return true, strings.Join(parts, ", ")
}

func tierNames(tiers [][]string) []string {
	out := make([]string, len(tiers))
	for i, t := range tiers {
		out[i] = strings.Join(t, " ≈ ")
		if len(t) > 1 {
			out[i] = "{" + out[i] + "}"
		}
	}
	return out
}

func groupName(g string) string {
	if g == "" {
		return "all"
	}
	return g
}

// ratio evaluates num/den of a check.
func (st *Study) ratio(c *scenario.Check, x *float64) (float64, string, error) {
	num := c.Resolve(*c.Num)
	if x != nil {
		num.X = x
	}
	n := st.Value(num)
	if n.Err != nil {
		return 0, "", n.Err
	}
	if c.Den == nil {
		return n.Mean, num.Policy + " " + st.format(num.Metric, n), nil
	}
	den := c.Resolve(*c.Den)
	if x != nil {
		den.X = x
	}
	d := st.Value(den)
	if d.Err != nil {
		return 0, "", d.Err
	}
	r := n.Mean / d.Mean
	if n.Saturated || d.Saturated {
		r = math.NaN()
	}
	return r, fmt.Sprintf("%s / %s = %s / %s = %.3g", num.Policy, den.Policy, st.format(num.Metric, n), st.format(den.Metric, d), r), nil
}

func bounds(c *scenario.Check, v float64, relative bool) (bool, string) {
	ok := !math.IsNaN(v)
	var parts []string
	if c.Target != nil {
		tol := c.Tolerance
		if relative {
			tol *= math.Abs(*c.Target)
		}
		ok = ok && math.Abs(v-*c.Target) <= tol+1e-12
		if relative {
			parts = append(parts, fmt.Sprintf("%.4g ± %g%%", *c.Target, 100*c.Tolerance))
		} else {
			parts = append(parts, fmt.Sprintf("%.4g ± %g", *c.Target, c.Tolerance))
		}
	}
	if c.Min != nil {
		ok = ok && v >= *c.Min
		parts = append(parts, fmt.Sprintf("≥ %g", *c.Min))
	}
	if c.Max != nil {
		ok = ok && v <= *c.Max
		parts = append(parts, fmt.Sprintf("≤ %g", *c.Max))
	}
	return ok, strings.Join(parts, ", ")
}

func (st *Study) checkRatio(c *scenario.Check) (bool, string, string) {
	r, text, err := st.ratio(c, nil)
	if err != nil {
		return false, "", err.Error()
	}
	ok, exp := bounds(c, r, false)
	return ok, "ratio " + exp, text
}

func (st *Study) checkValue(c *scenario.Check) (bool, string, string) {
	q := c.Resolve(*c.Of)
	v := st.Value(q)
	if v.Err != nil {
		return false, "", v.Err.Error()
	}
	x := st.inRefUnit(q.Metric, v.Mean)
	if v.Saturated {
		x = math.NaN()
	}
	ok, exp := bounds(c, x, true)
	return ok, exp + " " + st.refUnit(q.Metric), q.String() + " = " + st.format(q.Metric, v)
}

// checkKnee finds the smallest swept value at which a series crosses the
// threshold (or saturates) and compares its grid position with the target.
// The fourth result is the swept value of the knee (nil beyond the sweep).
func (st *Study) checkKnee(c *scenario.Check) (bool, string, string, *float64) {
	of := c.Resolve(*c.Of)
	threshold := c.Threshold * st.unitFactor(of.Metric)
	basis := ""
	if c.ThresholdFactor > 0 {
		lowest := math.Inf(1)
		first := st.Points[0].X
		for i := range st.Scenario.Policies {
			q := of
			q.Policy, q.X = st.Scenario.PolicyLabel(i), &first
			if v := st.Value(q); v.Err == nil && !v.Saturated {
				lowest = math.Min(lowest, v.Mean)
			}
		}
		threshold = c.ThresholdFactor * lowest
		basis = fmt.Sprintf(" (%g × the lowest value at %g)", c.ThresholdFactor, first)
	}
	grid := st.Scenario.Sweep.Values
	if st.Quick && len(st.Scenario.Quick.Values) > 0 {
		grid = st.Scenario.Quick.Values
	}
	knee := len(grid) // beyond the sweep
	var trail []string
	for i, x := range grid {
		q := of
		q.X = &x
		v := st.Value(q)
		if v.Err != nil {
			return false, "", v.Err.Error(), nil
		}
		trail = append(trail, fmt.Sprintf("%g: %s", x, st.format(of.Metric, v)))
		if v.Saturated || v.Mean >= threshold {
			knee = i
			break
		}
	}
	target := len(grid)
	for i, x := range grid {
		if x >= c.TargetX-1e-9 {
			target = i
			break
		}
	}
	steps := c.Steps
	if st.Quick && len(st.Scenario.Quick.Values) > 0 {
		steps = max(steps, 1) // a coarser grid cannot place a knee more finely
	}
	name := func(i int) string {
		if i >= len(grid) {
			return fmt.Sprintf("beyond %g", grid[len(grid)-1])
		}
		return fmt.Sprintf("%g", grid[i])
	}
	exp := fmt.Sprintf("%s knee at %s ± %d step(s), threshold %s%s", of.Policy, name(target), steps, st.formatSeconds(of.Metric, threshold), basis)
	obs := fmt.Sprintf("knee at %s (%s)", name(knee), strings.Join(trail, ", "))
	var at *float64
	if knee < len(grid) {
		x := grid[knee]
		at = &x
	}
	return abs(knee-target) <= steps, exp, obs, at
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// checkTrend checks that a series (or ratio) moves in one direction across
// the swept values.
func (st *Study) checkTrend(c *scenario.Check) (bool, string, string) {
	var seq []float64
	var trail []string
	for _, p := range st.Points {
		x := p.X
		r, _, err := st.ratio(c, &x)
		if err != nil {
			return false, "", err.Error()
		}
		seq = append(seq, r)
		if c.Den == nil {
			trail = append(trail, fmt.Sprintf("%g: %s", x, st.formatSeconds(c.Resolve(*c.Num).Metric, r)))
		} else {
			trail = append(trail, fmt.Sprintf("%g: %.3g", x, r))
		}
	}
	ok := len(seq) >= 2
	tol := c.Tolerance
	for i := 1; i < len(seq); i++ {
		a, b := seq[i-1], seq[i]
		switch c.Direction {
		case "increasing", "non-decreasing":
			ok = ok && b >= a*(1-tol)
		case "decreasing", "non-increasing":
			ok = ok && b <= a*(1+tol)
		}
	}
	if ok && c.Direction == "increasing" {
		ok = seq[len(seq)-1] > seq[0]
	}
	if ok && c.Direction == "decreasing" {
		ok = seq[len(seq)-1] < seq[0]
	}
	what := c.Resolve(*c.Num).Policy
	if c.Den != nil {
		what += " / " + c.Resolve(*c.Den).Policy
	}
	exp := fmt.Sprintf("%s %s with the swept value", what, c.Direction)
	if tol > 0 {
		exp += fmt.Sprintf(" (steps back within %g%%)", 100*tol)
	}
	return ok, exp, strings.Join(trail, ", ")
}

// unitFactor is the size of the reference unit for a metric: seconds per
// reference unit for durations, 1 otherwise.
func (st *Study) unitFactor(metric string) float64 {
	if d, err := metrics.Lookup(metric); err != nil || d.Unit != "s" {
		return 1
	}
	switch st.durationUnit() {
	case "min":
		return 60
	case "h":
		return 3600
	}
	return 1
}

// durationUnit is the unit durations are shown in: the paper's, or one
// that suits the sweep's values.
func (st *Study) durationUnit() string {
	if r := st.Scenario.Reference; r != nil {
		if r.Unit == "" {
			return "s"
		}
		return r.Unit
	}
	if st.autoUnit == "" {
		st.autoUnit = st.pickUnit()
	}
	return st.autoUnit
}

// pickUnit chooses s, min or h from the largest finite value of the
// plotted metric (or the average JCT).
func (st *Study) pickUnit() string {
	metric, group := sweepMetric(st.Scenario)
	if d, err := metrics.Lookup(metric); err != nil || d.Unit != "s" {
		metric = "avg_jct_s"
	}
	largest := 0.0
	for _, p := range st.Points {
		x := p.X
		for i := range st.Scenario.Policies {
			q := scenario.Quantity{Policy: st.Scenario.PolicyLabel(i), Metric: metric, Group: group}
			if p.Swept {
				q.X = &x
			}
			if v := st.Value(q); v.Err == nil && !v.Saturated && !math.IsNaN(v.Mean) {
				largest = math.Max(largest, v.Mean)
			}
		}
	}
	switch {
	case largest >= 7200:
		return "h"
	case largest >= 120:
		return "min"
	}
	return "s"
}

func (st *Study) inRefUnit(metric string, v float64) float64 { return v / st.unitFactor(metric) }

func (st *Study) refUnit(metric string) string {
	if d, err := metrics.Lookup(metric); err == nil && d.Unit == "s" {
		return st.durationUnit()
	}
	return ""
}

// format prints a value in the reference unit with its spread over seeds.
// shown prints a check's Show quantities, each as its range over every
// run: "; over 10 runs: SJF-BCO sjfbco_theorem5_bound 41.2–45.3".
func (st *Study) shown(c *scenario.Check) string {
	var parts []string
	n := 0
	for _, q := range c.Show {
		q = c.Resolve(q)
		if q.Policy == "" && c.Of != nil {
			q.Policy = c.Of.Policy
		}
		q.EveryRun, q.X, q.MeanOverSweep = true, nil, false
		v := st.Value(q)
		text := st.format(q.Metric, v) // "error" or "saturated"
		if v.Err == nil && !v.Saturated {
			n = max(n, v.N)
			text = st.formatSeconds(q.Metric, v.Min) + "–" + st.formatSeconds(q.Metric, v.Max)
		}
		parts = append(parts, q.Policy+" "+q.Metric+" "+text)
	}
	return fmt.Sprintf("; over %d runs: %s", n, strings.Join(parts, ", "))
}

func (st *Study) format(metric string, v Value) string {
	if v.Err != nil {
		return "error"
	}
	if v.Saturated {
		return "saturated"
	}
	s := num3(st.inRefUnit(metric, v.Mean))
	if u := st.refUnit(metric); u != "" {
		s += " " + u
	}
	return s
}

func (st *Study) formatSeconds(metric string, x float64) string {
	return st.format(metric, Value{Mean: x})
}

// num3 prints a number with about three significant digits and without
// exponent notation in the range reports meet (1239 s, not 1.24e+03 s).
func num3(x float64) string {
	if a := math.Abs(x); a >= 1000 && a < 1e9 {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.3g", x)
}
