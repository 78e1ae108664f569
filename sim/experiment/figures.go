package experiment

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/schedlab/schedlab/sim/metrics"
	"github.com/schedlab/schedlab/sim/plot"
)

// NamedFigure is one figure with a file-name stem, e.g. "gantt-fifo".
type NamedFigure struct {
	Name   string
	Title  string
	Figure *plot.Figure
}

// Figures draws the scenario's plots for one seed.
func (rep *Report) Figures(seed uint64, o plot.Options) ([]NamedFigure, error) {
	runs := rep.ForSeed(seed)
	var out []NamedFigure
	for _, kind := range rep.Scenario.PlotList() {
		var figs []NamedFigure
		var err error
		switch kind {
		case "jct_cdf":
			figs, err = jctCDF(rep.Scenario.Name, seed, runs, o)
		case "gantt":
			figs, err = gantts(runs, o)
		case "queue_by_model":
			figs, err = queueByModel(runs, o)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", kind, err)
		}
		out = append(out, figs...)
	}
	return out, nil
}

func jctCDF(name string, seed uint64, runs []*Run, o plot.Options) ([]NamedFigure, error) {
	var series []plot.Series
	for _, r := range runs {
		if r.Result == nil {
			continue
		}
		x, y := metrics.CDF(r.Result.Jobs)
		if len(x) > 0 {
			series = append(series, plot.Series{Name: r.Policy, X: x, Y: y})
		}
	}
	if len(series) == 0 {
		return nil, nil
	}
	title := fmt.Sprintf("JCT CDF: %s (seed %d)", name, seed)
	f, err := plot.CDF(title, "job completion time", series, o)
	if err != nil {
		return nil, err
	}
	return []NamedFigure{{Name: "jct_cdf", Title: title, Figure: f}}, nil
}

func gantts(runs []*Run, o plot.Options) ([]NamedFigure, error) {
	var out []NamedFigure
	for _, r := range runs {
		if r.Result == nil || len(r.Result.Intervals) == 0 {
			continue
		}
		c := r.Inputs.Cluster
		rows := make([]string, c.NumGPUs())
		for _, g := range c.GPUs {
			rows[g.ID] = fmt.Sprintf("s%d/g%d", g.Server, g.Slot)
		}
		bars := make([]plot.GanttBar, len(r.Result.Intervals))
		for i, iv := range r.Result.Intervals {
			name := r.Result.Jobs[iv.Job].Name
			bars[i] = plot.GanttBar{Row: int(iv.GPU), Start: iv.StartS, End: iv.EndS, Label: name, Key: name}
		}
		title := fmt.Sprintf("GPU allocation: %s", r.Policy)
		f, err := plot.Gantt(title, rows, bars, o)
		if err != nil {
			return nil, err
		}
		out = append(out, NamedFigure{Name: "gantt-" + slug(r.Policy), Title: title, Figure: f})
	}
	return out, nil
}

func queueByModel(runs []*Run, o plot.Options) ([]NamedFigure, error) {
	models := map[string]bool{}
	for _, r := range runs {
		for _, g := range r.ByModel {
			models[g.Name] = true
		}
	}
	cats := make([]string, 0, len(models))
	for m := range models {
		cats = append(cats, m)
	}
	sort.Strings(cats)
	if len(cats) == 0 {
		return nil, nil
	}
	var series []plot.BarSeries
	for _, r := range runs {
		vals := make([]float64, len(cats))
		for i := range vals {
			vals[i] = math.NaN()
		}
		for _, g := range r.ByModel {
			if g.Finished > 0 {
				vals[sort.SearchStrings(cats, g.Name)] = g.AvgQueue
			}
		}
		series = append(series, plot.BarSeries{Name: r.Policy, Values: vals})
	}
	title := "Average queuing delay per model"
	f, err := plot.Bars(title, "queuing delay (s)", cats, series, o)
	if err != nil {
		return nil, err
	}
	return []NamedFigure{{Name: "queue_by_model", Title: title, Figure: f}}, nil
}

// slug turns a label into a file-name part: "FIFO (strict)" -> "fifo-strict".
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}
