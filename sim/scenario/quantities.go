package scenario

import (
	"sort"
	"strings"
)

// StudyQuantities lists, sorted, the metrics and job groups a study of
// the scenario reads: those its checks, reference values and sweep name,
// plus the average JCT over all jobs, which picks a report's time unit.
func (sc *Scenario) StudyQuantities() (metrics, groups []string) {
	ms, gs := map[string]bool{"avg_jct_s": true}, map[string]bool{"all": true}
	add := func(q *Quantity) {
		if q == nil {
			return
		}
		if q.Metric != "" {
			ms[q.Metric] = true
		}
		if q.Group != "" {
			gs[q.Group] = true
		}
	}
	if sw := sc.Sweep; sw != nil {
		add(&Quantity{Metric: sw.Metric, Group: sw.Group})
	}
	for i := range sc.Checks {
		c := &sc.Checks[i]
		add(&Quantity{Metric: c.Metric, Group: c.Group})
		for _, g := range c.Groups {
			add(&Quantity{Group: g})
		}
		add(c.Num)
		add(c.Den)
		add(c.Of)
		for _, q := range c.Show {
			q = c.Resolve(q)
			add(&q)
		}
	}
	if r := sc.Reference; r != nil {
		for _, v := range r.Values {
			add(&v.Quantity)
		}
	}
	if r := sc.Robustness; r != nil {
		add(r.Headline.Of)
		add(r.Headline.Num)
		add(r.Headline.Den)
	}
	return sortedKeys(ms), sortedKeys(gs)
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// SweepSetsPolicies reports whether the sweep changes a policy's
// parameters (a path under "policies"): such a scenario cannot be cut to
// one policy, whose index the path would no longer name.
func (sc *Scenario) SweepSetsPolicies() bool {
	if sc.Sweep == nil {
		return false
	}
	for _, p := range sc.Sweep.Params {
		if strings.HasPrefix(p, "policies") {
			return true
		}
	}
	return false
}
