//go:build !noplot

package experiment

import (
	"fmt"

	"github.com/schedlab/schedlab/sim/plot"
)

// SweepFigure draws the sweep metric against the swept value, one line per
// policy, with the paper's numbers as dashed lines.
func (st *Study) SweepFigure(o plot.Options) (*NamedFigure, error) {
	sc := st.Scenario
	if sc.Sweep == nil {
		return nil, nil
	}
	out := st.Output()
	var series []plot.Series
	color := map[string]int{} // a paper's line takes its policy's colour
	for i, s := range out.Series {
		color[s.Policy] = i + 1
		ps := plot.Series{Name: s.Policy, Color: i + 1}
		for i, m := range s.Mean {
			if m != nil {
				ps.X, ps.Y = append(ps.X, s.X[i]), append(ps.Y, *m)
			}
		}
		if len(ps.X) > 0 {
			series = append(series, ps)
		}
	}
	metric, group := sweepMetric(sc)
	if sc.Reference != nil && len(sc.Sweep.Ratios) == 0 {
		paper := map[string]*plot.Series{}
		var order []string
		for _, v := range sc.Reference.Values {
			g := v.Group
			if g == "" {
				g = "all"
			}
			if v.Metric != metric || g != group || v.X == nil {
				continue
			}
			if paper[v.Policy] == nil {
				paper[v.Policy] = &plot.Series{Name: "paper: " + v.Policy, Color: color[v.Policy], Dashed: true}
				order = append(order, v.Policy)
			}
			paper[v.Policy].X = append(paper[v.Policy].X, *v.X)
			paper[v.Policy].Y = append(paper[v.Policy].Y, v.Value)
		}
		for _, p := range order {
			series = append(series, *paper[p])
		}
	}
	if len(series) == 0 {
		return nil, fmt.Errorf("every run saturated; nothing to plot")
	}
	xlabel, ylabel := st.AxisLabels()
	title := sc.Title
	if title == "" {
		title = sc.Name
	}
	f, err := plot.Lines(title, xlabel, ylabel, series, o)
	if err != nil {
		return nil, err
	}
	return &NamedFigure{Name: "sweep", Title: title, Figure: f}, nil
}
