package reproduce

import (
	"fmt"
	"math"

	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/metrics"
	"github.com/schedlab/schedlab/sim/plot"
	"github.com/schedlab/schedlab/sim/scenario"
)

// Draw draws a study as its paper draws the figure. A sweep is a metric
// against the swept value, one line per policy (or per ratio of two), the
// mean over seeds with ±1 standard deviation as error bars, and the
// paper's values as hollow rings of the policy's colour. A study without
// a sweep is a bar per policy of its main metric, ours beside the paper's
// where the paper gives one.
func Draw(st *experiment.Study, o plot.Options) (*plot.Figure, error) {
	if st.Scenario.Robustness != nil {
		return drawRobustness(st, o)
	}
	if st.Scenario.Sweep != nil {
		return drawSweep(st, o)
	}
	return drawBars(st, o)
}

func drawSweep(st *experiment.Study, o plot.Options) (*plot.Figure, error) {
	sc := st.Scenario
	out := st.Output()
	metric, group := sweepMetric(sc)
	var series []plot.Series
	color := map[string]int{}
	for i, s := range out.Series {
		color[s.Policy] = i + 1
		ps := plot.Series{Name: s.Policy, Color: i + 1}
		for k, m := range s.Mean {
			if m == nil {
				continue
			}
			ps.X, ps.Y = append(ps.X, s.X[k]), append(ps.Y, *m)
			e := math.NaN()
			if s.SD[k] != nil {
				e = *s.SD[k]
			}
			ps.YErr = append(ps.YErr, e)
		}
		if len(ps.X) > 0 {
			series = append(series, ps)
		}
	}
	paper := map[string]*plot.Series{}
	var order []string
	for _, p := range sc.PaperValues(metric, group) {
		if p.X == nil || color[p.Label] == 0 {
			continue // not on this figure's curves
		}
		if paper[p.Label] == nil {
			paper[p.Label] = &plot.Series{Name: "paper: " + p.Label, Color: color[p.Label], Points: true}
			order = append(order, p.Label)
		}
		paper[p.Label].X = append(paper[p.Label].X, *p.X)
		paper[p.Label].Y = append(paper[p.Label].Y, p.Value)
	}
	for _, l := range order {
		series = append(series, *paper[l])
	}
	if len(series) == 0 {
		return nil, fmt.Errorf("%s: every run saturated or failed; nothing to draw", sc.Name)
	}
	ylabel := metrics.AxisLabel(metric)
	if len(sc.Sweep.Ratios) > 0 {
		ylabel += ", ratio"
	} else if u := out.Series[0].Unit; u != "" {
		ylabel += " (" + u + ")"
	}
	xlabel := sc.Sweep.Label
	if sc.Sweep.Unit != "" {
		xlabel += " (" + sc.Sweep.Unit + ")"
	}
	return plot.Lines(title(sc), xlabel, ylabel, series, o)
}

// drawRobustness draws a robustness figure: the headline number in each
// draw (rings), their mean (a line) and the range of the middle 95% of
// the draws (dashed), and the paper's number (dashed, its own colour).
func drawRobustness(st *experiment.Study, o plot.Options) (*plot.Figure, error) {
	r := st.RobustnessOutput()
	if r.Mean == nil {
		return nil, fmt.Errorf("%s: no draw gave a value; nothing to draw", st.Scenario.Name)
	}
	pts := plot.Series{Name: "each draw (mean over seeds)", Color: 1, Points: true}
	for i, y := range r.Value {
		if y != nil {
			pts.X, pts.Y = append(pts.X, r.X[i]), append(pts.Y, *y)
		}
	}
	lo, hi := r.X[0], r.X[len(r.X)-1]
	flat := func(name string, y float64, color int, dashed bool) plot.Series {
		return plot.Series{Name: name, X: []float64{lo, hi}, Y: []float64{y, y}, Color: color, Dashed: dashed}
	}
	series := []plot.Series{pts, flat("mean over the draws", *r.Mean, 1, false),
		flat("2.5th percentile", *r.Low, 1, true), flat("97.5th percentile", *r.High, 1, true)}
	if r.Paper != nil {
		series = append(series, flat("paper", *r.Paper, 2, true))
	}
	ylabel := r.Label
	if r.Unit != "" && r.Unit != "ratio" {
		ylabel += " (" + r.Unit + ")"
	}
	return plot.Lines(title(st.Scenario), st.Scenario.Sweep.Label, ylabel, series, o)
}

// drawBars draws the main metric of a study without a sweep: one bar per
// policy, ours and, where recorded, the paper's.
func drawBars(st *experiment.Study, o plot.Options) (*plot.Figure, error) {
	sc := st.Scenario
	metric, group := sc.MainMetric()
	var cats []string
	ours := plot.BarSeries{Name: "ours (mean over seeds)"}
	for i := range sc.Policies {
		label := sc.PolicyLabel(i)
		cats = append(cats, label)
		v := st.Value(scenario.Quantity{Policy: label, Metric: metric, Group: group})
		y := math.NaN()
		if v.Err == nil && !v.Saturated {
			y, _ = st.InRefUnit(metric, v.Mean)
		}
		ours.Values = append(ours.Values, y)
	}
	series := []plot.BarSeries{ours}
	paper := plot.BarSeries{Name: "paper", Values: make([]float64, len(cats))}
	found := false
	for i := range paper.Values {
		paper.Values[i] = math.NaN()
		for _, p := range sc.PaperValues(metric, group) {
			if p.X == nil && p.Label == cats[i] {
				paper.Values[i], found = p.Value, true
				break
			}
		}
	}
	if found {
		series = append(series, paper)
	}
	_, unit := st.InRefUnit(metric, 0)
	ylabel := metrics.AxisLabel(metric)
	if group != "all" {
		ylabel += " [" + group + "]"
	}
	if unit != "" {
		ylabel += " (" + unit + ")"
	}
	return plot.Bars(title(sc), ylabel, cats, series, o)
}

func sweepMetric(sc *scenario.Scenario) (metric, group string) {
	metric, group = "avg_jct_s", "all"
	if sc.Sweep.Metric != "" {
		metric = sc.Sweep.Metric
	}
	if sc.Sweep.Group != "" {
		group = sc.Sweep.Group
	}
	return metric, group
}

func title(sc *scenario.Scenario) string {
	if sc.Title != "" {
		return sc.Title
	}
	return sc.Name
}
