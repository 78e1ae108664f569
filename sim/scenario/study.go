package scenario

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/schedlab/schedlab/sim/metrics"
	"github.com/schedlab/schedlab/sim/schema"
)

// Measure says which jobs are measured and when a run counts as saturated.
type Measure struct {
	JobsFrom       int     `json:"jobs_from,omitempty" min:"0" help:"first measured job in arrival order (0-based)"`
	JobsTo         int     `json:"jobs_to,omitempty" min:"0" help:"one past the last measured job; the run ends when these are done; 0 measures every job"`
	SaturateAfterS float64 `json:"saturate_after_s,omitempty" min:"0" unit:"s" help:"a run whose measured jobs are not done by this simulated time is reported as saturated"`
}

// Sweep varies the scenario along one axis: each value x gives a variant
// in which every path in Params is set to x and every path in Scale is
// multiplied by x.
type Sweep struct {
	Label  string    `json:"label" help:"axis label, e.g. input job rate"`
	Unit   string    `json:"unit,omitempty" help:"unit of the swept values"`
	Values []float64 `json:"values" help:"the swept values"`
	Params []string  `json:"params,omitempty" help:"JSON paths set to each value"`
	Scale  []string  `json:"scale,omitempty" help:"JSON paths multiplied by each value (whole numbers stay whole)"`
	Metric string    `json:"metric,omitempty" help:"metric plotted against the swept value; default avg_jct_s"`
	Group  string    `json:"group,omitempty" help:"job group of the plotted metric; default all"`
	// Ratios replace the per-policy curves by ratios of two policies'
	// metric, e.g. SJF-BSBF / SJF-FFS against GPU memory.
	Ratios []SweepRatio `json:"ratios,omitempty" help:"plot these ratios of two policies' metric (num / den, averaged over seeds first) against the swept value instead of one curve per policy"`
}

// SweepRatio is one plotted ratio of two policies' metric.
type SweepRatio struct {
	Num string `json:"num" help:"policy label of the numerator"`
	Den string `json:"den" help:"policy label of the denominator"`
}

// Reference holds the numbers a paper reports, in its own unit.
type Reference struct {
	Source string     `json:"source" help:"where the numbers come from, e.g. Table III of the paper"`
	Unit   string     `json:"unit,omitempty" enum:",s,min,h" help:"unit of duration metrics (*_s) in the values; default s"`
	Values []RefValue `json:"values"`
}

// RefValue is one reported number.
type RefValue struct {
	Quantity
	Value float64 `json:"value"`
}

// Quantity names a number a run produces: a metric of a group of one
// policy's jobs, at one sweep value, averaged over seeds. Empty fields are
// inherited from the check they appear in.
type Quantity struct {
	Policy string   `json:"policy,omitempty" help:"policy label"`
	Metric string   `json:"metric,omitempty" help:"metric name, e.g. avg_jct_s"`
	Group  string   `json:"group,omitempty" help:"job group, e.g. all, large, model:bert"`
	X      *float64 `json:"x,omitempty" help:"sweep value"`
	// MeanOverSweep averages the quantity over every sweep value (each
	// the mean over seeds), for a paper's number "on average" over the
	// figure's settings.
	MeanOverSweep bool `json:"mean_over_sweep,omitempty" help:"average over every sweep value (each the mean over seeds), e.g. a paper's number 'on average' over its four workloads; names no x"`
	// EveryRun takes the largest value over every run instead of the
	// mean over seeds, for a bound that must hold on each run.
	EveryRun bool `json:"every_run,omitempty" help:"the largest value over every run (each seed at each sweep value), not the mean: for a bound on each run"`
}

// Check is one test of what "reproduced" means: one claim of a paper, in
// the paper's words (an order, a number, a trend), or a detail of one.
//
//	order: the policies (or tiers of tied policies) are sorted best first by
//	       the metric; adjacent ones may be swapped within Tolerance
//	       (relative); with Groups, it must hold in at least AtLeast groups.
//	ratio: Num/Den is the paper's number (Paper) within the tolerance of
//	       ToleranceFor, on both sides or on the one side Bound names; or,
//	       for a claim without a number, in [Target−Tolerance,
//	       Target+Tolerance] and in [Min, Max] when given.
//	value: Of is the paper's number as for a ratio (in the reference
//	       unit); or within Tolerance (relative) of Target and in [Min,
//	       Max] when given.
//	knee:  the smallest swept value at which Of reaches Threshold (or
//	       ThresholdFactor × the lowest value at the first swept value over
//	       all policies), or saturates, is within Steps grid steps of TargetX.
//	trend: Num (or Num/Den) moves in Direction across the swept values,
//	       within Tolerance (relative) for each step.
//	all:   at least AtLeast (default all) of the checks named in Checks
//	       hold: one claim made of parts, each part a detail of it.
//
// How a check counts: a claim is counted; a detail (DetailOf) is shown and
// never counted; a calibrated check is shown and not counted; an
// exploration check (Exploration, or the scenario's) is counted apart
// from the paper's claims.
type Check struct {
	ID          string `json:"id" help:"short identifier"`
	Description string `json:"description" help:"the claim being checked, in the paper's words where it has them"`
	Kind        string `json:"kind" enum:"order,ratio,value,knee,trend,all"`
	// Calibrated marks a check whose outcome an input chosen while
	// looking at results decides: passing it is no evidence, so it is
	// shown but never counted, and never required in quick mode.
	Calibrated bool `json:"calibrated,omitempty" help:"an input chosen while looking at results (e.g. an arrival window fitted to the baselines' JCT, or a placeholder picked so that a figure appears) decides this check; it is shown in the report but left out of the count and never required, since passing it proves nothing"`
	// Exploration marks a check on a setting the paper does not have; it
	// says which. Its verdict is counted apart from the paper's claims.
	Exploration string `json:"exploration,omitempty" help:"the check is about a setting the paper does not have (say which, e.g. packing only strong pairs); it is shown and counted apart from the paper's claims"`
	// DetailOf makes the check a detail of the claim with that id: a part
	// shown under it, never counted and never standing in for it.
	// A claim counted in another scenario (the same theorem checked in
	// several figures) is named scenario-name/check-id.
	DetailOf string `json:"detail_of,omitempty" help:"id of the claim this check details: shown under it, never counted; scenario-name/check-id for another scenario's claim"`
	// Why records what is known about a check that does not hold: where
	// the difference from the paper comes from. Reports print it beside
	// a failing verdict.
	Why string `json:"why,omitempty" help:"why the check fails, when it does and the cause is known (e.g. an ambiguity of the paper, a quirk of its simulator); shown beside the verdict"`

	Metric string   `json:"metric,omitempty"`
	Group  string   `json:"group,omitempty"`
	X      *float64 `json:"x,omitempty"`

	Policies       []string   `json:"policies,omitempty" help:"order: best first"`
	Tiers          [][]string `json:"tiers,omitempty" help:"order: groups of policies, best first; within a tier any order"`
	HigherIsBetter bool       `json:"higher_is_better,omitempty"`
	Groups         []string   `json:"groups,omitempty" help:"evaluate in each of these groups"`
	AtLeast        int        `json:"at_least,omitempty" min:"0" help:"order: how many groups must pass; all: how many of the checks; default all"`
	Checks         []string   `json:"checks,omitempty" help:"all: ids of the details that make up this claim"`

	Num *Quantity `json:"num,omitempty"`
	Den *Quantity `json:"den,omitempty"`
	Of  *Quantity `json:"of,omitempty"`

	// Paper is the number the paper prints, in the check's unit (a ratio,
	// or the reference unit for a value), and Precision the size of its
	// last printed digit in that unit (0.001 for a ratio printed as
	// +82.9%). The tolerance then follows one rule (ToleranceFor).
	Paper          *float64 `json:"paper,omitempty" help:"the paper's number, in the check's unit: a ratio as a ratio (+82.9% more is 1.829), a value in the reference unit; checked on both sides"`
	Precision      float64  `json:"precision,omitempty" min:"0" help:"with paper: the size of the paper's last printed digit in the same unit (0.001 for 1.829 printed as 82.9%)"`
	TightTolerance *float64 `json:"tight_tolerance,omitempty" min:"0" help:"with paper: a tolerance the paper's own set-up names, in the same unit; used only when tighter than the rule's"`
	Bound          string   `json:"bound,omitempty" enum:",at least,at most,within" help:"with paper: one-sided, only where the paper's own words are 'at least', 'at most' or 'within'"`

	Target    *float64 `json:"target,omitempty"`
	Tolerance float64  `json:"tolerance,omitempty" min:"0"`
	Min       *float64 `json:"min,omitempty"`
	Max       *float64 `json:"max,omitempty"`

	Threshold       float64 `json:"threshold,omitempty" min:"0"`
	ThresholdFactor float64 `json:"threshold_factor,omitempty" min:"0"`
	TargetX         float64 `json:"target_x,omitempty"`
	Steps           int     `json:"steps,omitempty" min:"0"`

	Direction string `json:"direction,omitempty" enum:",increasing,decreasing,non-decreasing,non-increasing"`

	// Show lists quantities printed beside the verdict, each as its range
	// over every run: the two sides of a bound the check judges.
	Show []Quantity `json:"show,omitempty" help:"quantities printed beside the verdict, each as its range over every run (policy: of's by default)"`
}

// Check classes: how a verdict counts in a report.
const (
	ClassClaim       = "claim"       // a paper's claim: counted
	ClassDetail      = "detail"      // part of a claim: shown, never counted
	ClassCalibrated  = "calibrated"  // decided by an input chosen on results: shown, not counted
	ClassExploration = "exploration" // a setting the paper does not have: counted apart
	ClassRobustness  = "robustness"  // a claim judged over draws of placeholder inputs, shown beside the claim it names
)

// Class is how check c of sc counts (see the Class constants).
func (sc *Scenario) Class(c *Check) string {
	switch {
	case c.DetailOf != "":
		return ClassDetail
	case c.Calibrated:
		return ClassCalibrated
	case c.Exploration != "" || sc.Exploration != "":
		return ClassExploration
	case sc.Robustness != nil && sc.Robustness.claimOf(c.ID) != "":
		return ClassRobustness
	}
	return ClassClaim
}

// ExplorationWhy is why check c of sc is exploration: its own reason, or
// the scenario's; "" when it is not.
func (sc *Scenario) ExplorationWhy(c *Check) string {
	if c.Exploration != "" {
		return c.Exploration
	}
	return sc.Exploration
}

// Robustness makes a scenario a robustness figure: its sweep is over
// draws of inputs the paper does not publish (each swept value a draw
// seed, crossed with the scenario's workload seeds), and every check is
// judged in each draw. A check holds robustly when it holds in at least
// half of the draws.
type Robustness struct {
	Draws    string        `json:"draws" help:"what each draw changes, in plain words, e.g. the unpublished cells of the interference matrix, each drawn from a lognormal around the placeholder"`
	Headline Headline      `json:"headline" help:"the figure's headline number, reported per draw with its mean and 95% range"`
	Claims   []RobustClaim `json:"claims,omitempty" help:"checks of this scenario that judge a claim of another figure over the draws"`
}

// Headline is the number a robustness figure reports per draw: Of, or
// Num/Den, in the reference unit.
type Headline struct {
	Label string    `json:"label" help:"what the number is, e.g. GPUs saved by OJPP"`
	Of    *Quantity `json:"of,omitempty"`
	Num   *Quantity `json:"num,omitempty"`
	Den   *Quantity `json:"den,omitempty"`
	Paper *float64  `json:"paper,omitempty" help:"the paper's number, drawn as a line"`
}

// RobustClaim links a check of a robustness figure to the claim it judges
// over draws: Claim is "scenario/check-id". A claim that holds in fewer
// than half of the draws is reported as not holding robustly.
type RobustClaim struct {
	Check string `json:"check" help:"id of a check of this scenario"`
	Claim string `json:"claim" help:"the claim it judges over draws, as scenario-name/check-id"`
}

func (r *Robustness) claimOf(id string) string {
	for _, c := range r.Claims {
		if c.Check == id {
			return c.Claim
		}
	}
	return ""
}

// ClaimOf is the claim (scenario/check-id) that check id of a robustness
// figure judges over draws, "" when none.
func (r *Robustness) ClaimOf(id string) string { return r.claimOf(id) }

// ToleranceFor is the allowed |ours − paper| of a check with a paper
// number, given twice the standard error of our mean over seeds: the
// largest of the paper's printed precision, 2 × SE and 10% of the paper's
// number, or TightTolerance when that is smaller. basis says which one
// decided, in words.
func (c *Check) ToleranceFor(twoSE float64) (tol float64, basis string) {
	paper := math.Abs(*c.Paper)
	tol, basis = 0.1*paper, "10% of the paper's number"
	if c.Precision > tol {
		tol, basis = c.Precision, "the paper's printed precision"
	}
	if twoSE > tol && !math.IsNaN(twoSE) {
		tol, basis = twoSE, "2 × the standard error of our mean"
	}
	if t := c.TightTolerance; t != nil && *t < tol {
		tol, basis = *t, "the tighter tolerance set for this claim"
	}
	return tol, basis
}

// Quick is a reduced version of a study for tests and quick looks: fewer
// seeds and sweep values, shorter traces, and the checks expected to hold
// even so.
type Quick struct {
	Seeds  []uint64  `json:"seeds,omitempty"`
	Values []float64 `json:"values,omitempty" help:"subset of the sweep values"`
	Set    []Assign  `json:"set,omitempty" help:"changes to the scenario"`
	Checks []string  `json:"checks,omitempty" help:"IDs of the checks that must pass in quick mode (never a calibrated one)"`
}

// Assign sets the value at a JSON path.
type Assign struct {
	Param string          `json:"param"`
	Value json.RawMessage `json:"value"`
}

// checkStudy validates the study blocks against the rest of the scenario.
func (sc *Scenario) checkStudy() []schema.Problem {
	var ps []schema.Problem
	add := func(path, format string, args ...any) {
		ps = append(ps, schema.Problem{Path: path, Msg: fmt.Sprintf(format, args...)})
	}
	if m := sc.Measure; m.JobsTo != 0 && m.JobsTo <= m.JobsFrom {
		add("measure.jobs_to", "must be above jobs_from (%d), got %d", m.JobsFrom, m.JobsTo)
	}
	if sw := sc.Sweep; sw != nil {
		if len(sw.Values) == 0 {
			add("sweep.values", "must list at least one value")
		}
		if len(sw.Params)+len(sw.Scale) == 0 {
			add("sweep", "must name params to set or scale")
		}
		for i := 1; i < len(sw.Values); i++ {
			if !(sw.Values[i] > sw.Values[i-1]) {
				add(schema.Index("sweep.values", i), "values must increase")
			}
		}
	}
	labels := map[string]bool{}
	for i := range sc.Policies {
		labels[sc.PolicyLabel(i)] = true
	}
	if sw := sc.Sweep; sw != nil {
		for i, r := range sw.Ratios {
			p := schema.Index("sweep.ratios", i)
			for _, f := range []struct{ name, label string }{{"num", r.Num}, {"den", r.Den}} {
				if !labels[f.label] {
					add(p+"."+f.name, "no policy is labelled %q", f.label)
				}
			}
		}
	}
	known := func(path string, q Quantity, inherit Quantity) {
		q = q.inherit(inherit)
		if q.Policy != "" && !labels[q.Policy] {
			add(path+".policy", "no policy is labelled %q", q.Policy)
		}
		if q.Metric == "" {
			add(path+".metric", "is required")
		} else if _, err := metrics.Lookup(q.Metric); err != nil {
			add(path+".metric", "%v", err)
		}
		if q.X != nil && !sc.hasSweepValue(*q.X) {
			add(path+".x", "%v is not a sweep value", *q.X)
		}
		if q.MeanOverSweep && (q.X != nil || sc.Sweep == nil) {
			add(path+".mean_over_sweep", "averages over the sweep's values, so it needs a sweep and names no x")
		}
		if q.EveryRun && (q.X != nil || q.MeanOverSweep) {
			add(path+".every_run", "takes the largest value over every run at every sweep value, so it names no x and no mean_over_sweep")
		}
	}
	if r := sc.Reference; r != nil {
		for i, v := range r.Values {
			p := schema.Index("reference.values", i)
			known(p, v.Quantity, Quantity{})
			if v.Policy == "" {
				add(p+".policy", "is required")
			}
		}
	}
	ids := map[string]bool{}
	for i, c := range sc.Checks {
		p := schema.Index("checks", i)
		if c.ID == "" {
			add(p+".id", "is required")
		} else if ids[c.ID] {
			add(p+".id", "%q is used twice", c.ID)
		}
		ids[c.ID] = true
		base := Quantity{Metric: c.Metric, Group: c.Group, X: c.X}
		switch c.Kind {
		case "order":
			if len(c.Policies)+len(c.Tiers) < 2 && len(c.Tiers) == 0 {
				add(p+".policies", "an order needs at least two policies")
			}
			for _, name := range append(append([]string(nil), c.Policies...), flatten(c.Tiers)...) {
				known(p, Quantity{Policy: name}, base)
			}
		case "ratio", "trend":
			if c.Num == nil {
				add(p+".num", "is required")
			} else {
				known(p+".num", *c.Num, base)
			}
			if c.Den != nil {
				known(p+".den", *c.Den, base)
			} else if c.Kind == "ratio" {
				add(p+".den", "is required")
			}
			if c.Kind == "trend" && (c.Direction == "" || sc.Sweep == nil) {
				add(p+".direction", "a trend needs a direction and a sweep")
			}
			if c.Kind == "ratio" && c.Target == nil && c.Min == nil && c.Max == nil && c.Paper == nil {
				add(p, "a ratio needs the paper's number (paper), or a target, a min or a max")
			}
		case "value", "knee":
			if c.Of == nil {
				add(p+".of", "is required")
			} else {
				known(p+".of", *c.Of, base)
			}
			if c.Kind == "knee" {
				if sc.Sweep == nil {
					add(p, "a knee needs a sweep")
				}
				if c.Threshold == 0 && c.ThresholdFactor == 0 {
					add(p+".threshold", "a knee needs a threshold or a threshold_factor")
				}
			} else if c.Target == nil && c.Min == nil && c.Max == nil && c.Paper == nil {
				add(p, "a value check needs the paper's number (paper), or a target, a min or a max")
			}
		case "all":
			if len(c.Checks) == 0 {
				add(p+".checks", "a claim made of parts names at least one check")
			}
			if c.AtLeast > len(c.Checks) {
				add(p+".at_least", "is %d, but only %d checks are named", c.AtLeast, len(c.Checks))
			}
		}
		for j, q := range c.Show {
			known(schema.Index(p+".show", j), q, base)
		}
		ps = append(ps, sc.checkPaperNumber(p, &c)...)
	}
	ps = append(ps, sc.checkParts()...)
	ps = append(ps, sc.checkRobustness(known)...)
	if q := sc.Quick; q != nil {
		calibrated := map[string]bool{}
		for _, c := range sc.Checks {
			calibrated[c.ID] = c.Calibrated
		}
		for i, id := range q.Checks {
			if !ids[id] {
				add(schema.Index("quick.checks", i), "no check has the id %q", id)
			} else if calibrated[id] {
				add(schema.Index("quick.checks", i), "check %q is calibrated and cannot be required: passing it is no evidence", id)
			}
		}
		for i, v := range q.Values {
			if !sc.hasSweepValue(v) {
				add(schema.Index("quick.values", i), "%v is not a sweep value", v)
			}
		}
	}
	return ps
}

// checkPaperNumber validates a check that states the paper's number: the
// tolerance follows from it, so no band of our own may be added.
func (sc *Scenario) checkPaperNumber(p string, c *Check) []schema.Problem {
	var ps []schema.Problem
	add := func(path, format string, args ...any) {
		ps = append(ps, schema.Problem{Path: path, Msg: fmt.Sprintf(format, args...)})
	}
	if c.Paper == nil {
		for _, f := range []struct {
			name string
			set  bool
		}{{"precision", c.Precision != 0}, {"tight_tolerance", c.TightTolerance != nil}, {"bound", c.Bound != ""}} {
			if f.set {
				add(p+"."+f.name, "is only used with the paper's number (paper)")
			}
		}
		return ps
	}
	if c.Kind != "value" && c.Kind != "ratio" {
		add(p+".paper", "only a value or a ratio check compares with the paper's number, not a %s", c.Kind)
	}
	if c.Kind == "value" && c.Of != nil && sc.Reference == nil {
		if d, err := metrics.Lookup(c.Resolve(*c.Of).Metric); err == nil && d.Unit == "s" {
			add(p+".paper", "a duration is compared in the paper's unit: add a reference block with its unit (s, min or h)")
		}
	}
	if !(c.Precision > 0) {
		add(p+".precision", "is required with paper: the size of the paper's last printed digit, e.g. 0.1 for 82.9")
	}
	for _, f := range []struct {
		name string
		set  bool
	}{{"target", c.Target != nil}, {"tolerance", c.Tolerance != 0}, {"min", c.Min != nil}, {"max", c.Max != nil}} {
		if f.set {
			add(p+"."+f.name, "cannot be combined with paper: the tolerance follows from the paper's number (use tight_tolerance for a tighter one the paper's set-up names, bound for the paper's 'at least' or 'at most')")
		}
	}
	return ps
}

// checkParts validates details and the claims made of them: a detail
// names a claim of this scenario that is not itself a detail, and a claim
// made of parts names only its own details.
func (sc *Scenario) checkParts() []schema.Problem {
	var ps []schema.Problem
	byID := map[string]*Check{}
	for i := range sc.Checks {
		byID[sc.Checks[i].ID] = &sc.Checks[i]
	}
	for i, c := range sc.Checks {
		p := schema.Index("checks", i)
		if name, id, other := strings.Cut(c.DetailOf, "/"); other {
			if name == "" || id == "" || name == sc.Name || strings.Contains(id, "/") {
				ps = append(ps, schema.Problem{Path: p + ".detail_of", Msg: fmt.Sprintf("%q should name a claim of another scenario as scenario-name/check-id", c.DetailOf)})
			}
		} else if c.DetailOf != "" {
			switch parent := byID[c.DetailOf]; {
			case parent == nil:
				ps = append(ps, schema.Problem{Path: p + ".detail_of", Msg: fmt.Sprintf("no check has the id %q", c.DetailOf)})
			case parent.ID == c.ID:
				ps = append(ps, schema.Problem{Path: p + ".detail_of", Msg: "a check cannot be a detail of itself"})
			case parent.DetailOf != "":
				ps = append(ps, schema.Problem{Path: p + ".detail_of", Msg: fmt.Sprintf("%q is itself a detail; name the claim it details", c.DetailOf)})
			}
		}
		for j, id := range c.Checks {
			q := schema.Index(p+".checks", j)
			switch part := byID[id]; {
			case part == nil:
				ps = append(ps, schema.Problem{Path: q, Msg: fmt.Sprintf("no check has the id %q", id)})
			case part.DetailOf != c.ID:
				ps = append(ps, schema.Problem{Path: q, Msg: fmt.Sprintf("check %q must be a detail of this claim (\"detail_of\": %q)", id, c.ID)})
			}
		}
	}
	return ps
}

// checkRobustness validates a robustness figure: a sweep over draws, a
// headline number, and checks judged in each draw (so they name no sweep
// value).
func (sc *Scenario) checkRobustness(known func(path string, q Quantity, inherit Quantity)) []schema.Problem {
	r := sc.Robustness
	if r == nil {
		return nil
	}
	var ps []schema.Problem
	add := func(path, format string, args ...any) {
		ps = append(ps, schema.Problem{Path: path, Msg: fmt.Sprintf(format, args...)})
	}
	if sc.Sweep == nil || len(sc.Sweep.Values) < 2 {
		add("robustness", "a robustness figure sweeps over at least two draws (sweep.values are the draw seeds)")
	}
	if strings.TrimSpace(r.Draws) == "" {
		add("robustness.draws", "is required: say what each draw changes")
	}
	h := r.Headline
	if h.Label == "" {
		add("robustness.headline.label", "is required")
	}
	switch {
	case h.Of != nil && (h.Num != nil || h.Den != nil):
		add("robustness.headline", "give either of, or num and den")
	case h.Of != nil:
		known("robustness.headline.of", *h.Of, Quantity{})
	case h.Num != nil:
		known("robustness.headline.num", *h.Num, Quantity{})
		if h.Den != nil {
			known("robustness.headline.den", *h.Den, Quantity{})
		}
	default:
		add("robustness.headline", "needs of, or num and den")
	}
	for _, q := range []*Quantity{h.Of, h.Num, h.Den} {
		if q != nil && q.X != nil {
			add("robustness.headline", "names no sweep value: it is taken in every draw")
		}
	}
	ids := map[string]bool{}
	for i, c := range sc.Checks {
		ids[c.ID] = true
		for _, q := range []*Quantity{c.Of, c.Num, c.Den} {
			if c.X != nil || (q != nil && q.X != nil) {
				add(schema.Index("checks", i)+".x", "a robustness figure judges each check in every draw, so a check names no sweep value")
				break
			}
		}
	}
	for i, rc := range r.Claims {
		p := schema.Index("robustness.claims", i)
		if !ids[rc.Check] {
			add(p+".check", "no check has the id %q", rc.Check)
		}
		if a, b, ok := strings.Cut(rc.Claim, "/"); !ok || a == "" || b == "" {
			add(p+".claim", "must be scenario-name/check-id, got %q", rc.Claim)
		}
	}
	return ps
}

func flatten(tiers [][]string) []string {
	var out []string
	for _, t := range tiers {
		out = append(out, t...)
	}
	return out
}

func (sc *Scenario) hasSweepValue(x float64) bool {
	if sc.Sweep == nil {
		return false
	}
	for _, v := range sc.Sweep.Values {
		if math.Abs(v-x) <= 1e-9*math.Max(1, math.Abs(x)) {
			return true
		}
	}
	return false
}

// inherit fills q's empty fields from base.
func (q Quantity) inherit(base Quantity) Quantity {
	if q.Policy == "" {
		q.Policy = base.Policy
	}
	if q.Metric == "" {
		q.Metric = base.Metric
	}
	if q.Group == "" {
		q.Group = base.Group
	}
	if q.X == nil {
		q.X = base.X
	}
	return q
}

// Resolve returns q with the check's defaults filled in.
func (c *Check) Resolve(q Quantity) Quantity {
	return q.inherit(Quantity{Metric: c.Metric, Group: c.Group, X: c.X})
}

// String names a quantity for tables: "SJF-BSBF avg_jct_s (large) at 2".
func (q Quantity) String() string {
	var b strings.Builder
	b.WriteString(q.Policy)
	b.WriteString(" " + q.Metric)
	if q.Group != "" && q.Group != "all" {
		b.WriteString(" (" + q.Group + ")")
	}
	if q.X != nil {
		fmt.Fprintf(&b, " at %g", *q.X)
	}
	if q.MeanOverSweep {
		b.WriteString(" (mean over the sweep)")
	}
	if q.EveryRun {
		b.WriteString(" (largest over every run)")
	}
	return b.String()
}

// UnitFactor is how many seconds one reference unit is.
func (r *Reference) UnitFactor() float64 {
	switch r.Unit {
	case "min":
		return 60
	case "h":
		return 3600
	}
	return 1
}
