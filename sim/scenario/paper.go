package scenario

import "fmt"

// PaperValue is one number the paper reports for a quantity: a reference
// value, or the target of a value or ratio check, in the reference unit.
type PaperValue struct {
	Label string   // the policy's label, or "num / den" for a ratio
	X     *float64 // the sweep value; nil for the whole study
	Value float64
}

// PaperValues are the paper's numbers for metric over group: the
// scenario's reference values, then the targets of its value and ratio
// checks. A (label, x) pair given twice keeps the first.
func (sc *Scenario) PaperValues(metric, group string) []PaperValue {
	var out []PaperValue
	seen := map[string]bool{}
	add := func(label string, x *float64, y float64) {
		key := label + "@nil"
		if x != nil {
			key = fmt.Sprintf("%s@%g", label, *x)
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, PaperValue{label, x, y})
		}
	}
	same := func(q Quantity) bool {
		g := q.Group
		if g == "" {
			g = "all"
		}
		return q.Metric == metric && g == group
	}
	if sc.Reference != nil {
		for _, v := range sc.Reference.Values {
			if same(v.Quantity) {
				add(v.Policy, v.X, v.Value)
			}
		}
	}
	for i := range sc.Checks {
		c := &sc.Checks[i]
		if c.Target == nil {
			continue
		}
		switch {
		case c.Kind == "value" && c.Of != nil:
			if q := c.Resolve(*c.Of); same(q) {
				add(q.Policy, q.X, *c.Target)
			}
		case c.Kind == "ratio" && c.Num != nil && c.Den != nil:
			n, d := c.Resolve(*c.Num), c.Resolve(*c.Den)
			if same(n) && same(d) && n.X != nil && d.X != nil && *n.X == *d.X {
				add(n.Policy+" / "+d.Policy, n.X, *c.Target)
			}
		}
	}
	return out
}

// MainMetric is the metric and job group a study without a sweep is
// drawn by, as a bar per policy: the first the paper reports, else the
// first a check compares, else the average JCT over all jobs. The
// reproduction's figures and the page's figure view both draw it.
func (sc *Scenario) MainMetric() (metric, group string) {
	norm := func(q Quantity) (string, string) {
		if q.Group == "" {
			q.Group = "all"
		}
		return q.Metric, q.Group
	}
	if sc.Reference != nil {
		for _, v := range sc.Reference.Values {
			if v.X == nil && v.Metric != "" {
				return norm(v.Quantity)
			}
		}
	}
	for i := range sc.Checks {
		c := &sc.Checks[i]
		q := c.Resolve(Quantity{})
		switch {
		case c.Of != nil:
			q = c.Resolve(*c.Of)
		case c.Num != nil:
			q = c.Resolve(*c.Num)
		}
		if q.Metric != "" && q.X == nil {
			return norm(q)
		}
	}
	return "avg_jct_s", "all"
}
