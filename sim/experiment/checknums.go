package experiment

import (
	"math"

	"github.com/schedlab/schedlab/sim/scenario"
)

// Numbers are the quantities a check compares, for reports that tabulate
// them (nil where the check has no such number: an order has no paper
// value, a bound-only check no target). Durations are in the reference
// unit. Tolerance is the allowed |Ours − Paper| in Paper's unit for value
// and ratio checks, and a number of sweep steps for a knee (Paper and
// Ours are then swept values).
type Numbers struct {
	Paper     *float64 `json:"paper,omitempty"`
	Ours      *float64 `json:"ours,omitempty"`
	OursSD    *float64 `json:"ours_sd,omitempty"`
	Tolerance *float64 `json:"tolerance,omitempty"`
	// ToleranceBasis says how the tolerance of a check on the paper's
	// number was derived; Bound is the paper's one-sided word, if any.
	ToleranceBasis string `json:"tolerance_basis,omitempty"`
	Bound          string `json:"bound,omitempty"`
}

// numbers fills v's Numbers from check c; the knee's Ours is set by
// checkKnee.
func (st *Study) numbers(c *scenario.Check, v *Verdict) {
	if v.NotRun {
		v.Ours = nil
		return
	}
	switch c.Kind {
	case "value":
		q := c.Resolve(*c.Of)
		val := st.Value(q)
		if val.Err == nil && !val.Saturated {
			v.Ours = finite(st.inRefUnit(q.Metric, val.Mean))
			if val.N > 1 {
				v.OursSD = finite(st.inRefUnit(q.Metric, val.SD))
			}
		}
		if c.Target != nil {
			v.Paper, v.Tolerance = finite(*c.Target), finite(c.Tolerance*math.Abs(*c.Target))
		}
	case "ratio":
		v.Ours, v.OursSD, _, _ = st.ratioNumbers(c)
		if c.Target != nil {
			v.Paper, v.Tolerance = finite(*c.Target), finite(c.Tolerance)
		}
	case "knee":
		v.Paper, v.Tolerance = finite(c.TargetX), finite(float64(c.Steps))
	}
}

// ratioNumbers is a ratio check's num/den of means, its spread over seeds
// and the number of seeds behind it; a ratio without a denominator is its
// numerator's mean and spread.
//
// When both quantities ran on the same seeds, the seeds are paired: both
// policies saw the same trace, so their values move together and the
// spread of the ratio is that of num_i − R·den_i over seeds, divided by
// the denominator's mean (the delta method for a ratio of paired means).
// Treating the two as independent would add their spreads and make the
// tolerance of a ratio check as wide as the trace-to-trace variation,
// which the pairing cancels. Otherwise the relative spreads add in
// quadrature. paired says which was used.
func (st *Study) ratioNumbers(c *scenario.Check) (ours, sd *float64, n int, paired bool) {
	num := c.Resolve(*c.Num)
	nv := st.Value(num)
	if nv.Err != nil || nv.Saturated {
		return nil, nil, 0, false
	}
	if c.Den == nil {
		if nv.N > 1 {
			sd = finite(nv.SD)
		}
		return finite(nv.Mean), sd, nv.N, false
	}
	d := st.Value(c.Resolve(*c.Den))
	if d.Err != nil || d.Saturated || d.Mean == 0 {
		return nil, nil, 0, false
	}
	r := nv.Mean / d.Mean
	if s, ok := pairedRatioSD(nv, d, r); ok {
		return finite(r), finite(s), nv.N, true
	}
	if nv.N > 1 && d.N > 1 && nv.Mean != 0 {
		sd = finite(math.Abs(r) * math.Hypot(nv.SD/nv.Mean, d.SD/d.Mean))
	}
	return finite(r), sd, min(nv.N, d.N), false
}

// pairedRatioSD is the spread over seeds of r = mean(num)/mean(den) when
// num and den hold values of the same seeds (in any order): the standard
// deviation of num_i − r·den_i over seeds i, divided by |mean(den)|. ok
// is false when the seeds differ or there are fewer than two.
func pairedRatioSD(num, den Value, r float64) (sd float64, ok bool) {
	if num.N < 2 || num.N != den.N || len(num.Each) != num.N || len(den.Each) != den.N ||
		len(num.Seeds) != num.N || len(den.Seeds) != den.N {
		return 0, false
	}
	denOf := make(map[uint64]float64, den.N)
	for i, s := range den.Seeds {
		denOf[s] = den.Each[i]
	}
	if len(denOf) != den.N {
		return 0, false
	}
	resid := make([]float64, 0, num.N)
	for i, s := range num.Seeds {
		dv, found := denOf[s]
		if !found {
			return 0, false
		}
		resid = append(resid, num.Each[i]-r*dv)
	}
	_, s := meanSD(resid)
	return s / math.Abs(den.Mean), true
}

// runsAll reports whether every sweep value check c names was run (quick
// mode runs a subset of them).
func (st *Study) runsAll(c *scenario.Check) bool {
	qs := []scenario.Quantity{c.Resolve(scenario.Quantity{})}
	for _, q := range []*scenario.Quantity{c.Of, c.Num, c.Den} {
		if q != nil {
			qs = append(qs, c.Resolve(*q))
		}
	}
	for _, q := range qs {
		if q.X != nil && !st.ran(*q.X) {
			return false
		}
		if q.MeanOverSweep && st.Quick && st.Scenario.Quick != nil && len(st.Scenario.Quick.Values) > 0 {
			return false // an average over fewer values is another number
		}
	}
	return true
}

// finite points at x, or is nil for NaN and infinities (JSON has neither).
func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// InRefUnit converts a metric's value (seconds for durations) to the unit
// the study shows it in, and names that unit ("" for plain numbers).
func (st *Study) InRefUnit(metric string, v float64) (float64, string) {
	return st.inRefUnit(metric, v), st.refUnit(metric)
}
