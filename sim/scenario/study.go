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
}

// Check is one test of what "reproduced" means, from a paper's spec.
//
//	order: the policies (or tiers of tied policies) are sorted best first by
//	       the metric; adjacent ones may be swapped within Tolerance
//	       (relative); with Groups, it must hold in at least AtLeast groups.
//	ratio: Num/Den lies in [Target−Tolerance, Target+Tolerance] and in
//	       [Min, Max] when given.
//	value: Of lies within Tolerance (relative) of Target, in the
//	       reference unit, and in [Min, Max] when given.
//	knee:  the smallest swept value at which Of reaches Threshold (or
//	       ThresholdFactor × the lowest value at the first swept value over
//	       all policies), or saturates, is within Steps grid steps of TargetX.
//	trend: Num (or Num/Den) moves in Direction across the swept values,
//	       within Tolerance (relative) for each step.
type Check struct {
	ID          string `json:"id" help:"short identifier"`
	Description string `json:"description" help:"the claim being checked, in plain words"`
	Kind        string `json:"kind" enum:"order,ratio,value,knee,trend"`
	// Calibrated marks a check on a quantity the scenario's inputs were
	// tuned to (spec 000 ruling R1): passing it is no evidence, so it is
	// shown but never counted, and never required in quick mode.
	Calibrated bool `json:"calibrated,omitempty" help:"the check compares a quantity the workload or model was tuned to reproduce (e.g. an arrival window fitted to the baselines' JCT); it is shown in the report but left out of the pass count and never required, since passing it proves nothing"`
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
	AtLeast        int        `json:"at_least,omitempty" min:"0" help:"how many groups must pass; default all"`

	Num *Quantity `json:"num,omitempty"`
	Den *Quantity `json:"den,omitempty"`
	Of  *Quantity `json:"of,omitempty"`

	Target    *float64 `json:"target,omitempty"`
	Tolerance float64  `json:"tolerance,omitempty" min:"0"`
	Min       *float64 `json:"min,omitempty"`
	Max       *float64 `json:"max,omitempty"`

	Threshold       float64 `json:"threshold,omitempty" min:"0"`
	ThresholdFactor float64 `json:"threshold_factor,omitempty" min:"0"`
	TargetX         float64 `json:"target_x,omitempty"`
	Steps           int     `json:"steps,omitempty" min:"0"`

	Direction string `json:"direction,omitempty" enum:",increasing,decreasing,non-decreasing,non-increasing"`
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
			if c.Kind == "ratio" && c.Target == nil && c.Min == nil && c.Max == nil {
				add(p, "a ratio needs a target, a min or a max")
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
			} else if c.Target == nil && c.Min == nil && c.Max == nil {
				add(p, "a value check needs a target, a min or a max")
			}
		}
	}
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
