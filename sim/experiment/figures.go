//go:build !noplot

package experiment

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/metrics"
	"github.com/schedlab/schedlab/sim/plot"
	"github.com/schedlab/schedlab/sim/workload"
)

// NamedFigure is one figure with a file-name stem, e.g. "gantt-fifo", and
// the plot kind that drew it, e.g. "gantt" or "series:gavel/objective".
type NamedFigure struct {
	Name   string
	Title  string
	Kind   string
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
			figs, err = byModel(kind, "Average queuing delay per model", "queuing delay", runs, o,
				func(g metrics.Group) float64 { return g.AvgQueue })
		case "wait_by_model":
			figs, err = byModel(kind, "Average time without GPUs per model", "time without GPUs", runs, o,
				func(g metrics.Group) float64 { return g.AvgWait })
		case "shares":
			figs, err = shares(runs, o)
		default:
			if name, ok := strings.CutPrefix(kind, "series:"); ok {
				figs, err = seriesOverTime(name, runs, o)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", kind, err)
		}
		for i := range figs {
			figs[i].Kind = kind
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
		x, y := r.CDFX, r.CDFY
		if !r.Streamed {
			x, y = metrics.CDF(r.Result.Jobs)
		}
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
		rows, bars := GanttBars(r)
		ko := o
		ko.Keys = r.modelKeys()
		title := fmt.Sprintf("GPU allocation: %s", r.Policy)
		f, err := plot.Gantt(title, rows, bars, ko)
		if err != nil {
			return nil, err
		}
		out = append(out, NamedFigure{Name: "gantt-" + Slug(r.Policy), Title: title, Figure: f})
	}
	return out, nil
}

// GanttBars are the rows (one per GPU, named as the timeline names them)
// and the bars (one per GPU interval, labelled with its job and keyed by
// its model) of run r's Gantt chart. The page's interactive chart draws
// the same intervals, which a test checks.
func GanttBars(r *Run) (rows []string, bars []plot.GanttBar) {
	c := r.Inputs.Cluster
	rows = make([]string, c.NumGPUs())
	for _, g := range c.GPUs {
		rows[g.ID] = fmt.Sprintf("s%d/g%d", g.Server, g.Slot)
	}
	// A job's colour is its model's (a legend names them), the same in
	// every policy's chart; the label on a bar names the job.
	bars = make([]plot.GanttBar, len(r.Result.Intervals))
	for i, iv := range r.Result.Intervals {
		name, model := r.nameModel(iv.Job)
		bars[i] = plot.GanttBar{Row: int(iv.GPU), Start: iv.StartS, End: iv.EndS, Label: name, Key: model}
	}
	return rows, bars
}

// nameModel names a job and its model from the run's job records, or from
// its inputs when the run kept no records (a streamed run; a run rebuilt
// from its output has records but no inputs).
func (r *Run) nameModel(id workload.JobID) (name, model string) {
	if int(id) >= 0 && int(id) < len(r.Result.Jobs) {
		j := &r.Result.Jobs[id]
		return j.Name, j.Model
	}
	spec := r.spec(id)
	return spec.Name, spec.Model
}

// modelKeys is every job's model, the colour keys of the run's Gantt chart.
func (r *Run) modelKeys() []string {
	if n := len(r.Result.Jobs); n > 0 {
		keys := make([]string, n)
		for i := range r.Result.Jobs {
			keys[i] = r.Result.Jobs[i].Model
		}
		return keys
	}
	if r.Inputs == nil {
		return nil
	}
	keys := make([]string, len(r.Inputs.Jobs))
	for i := range r.Inputs.Jobs {
		keys[i] = r.Inputs.Jobs[i].Model
	}
	return keys
}

// byModel draws one bar per model and policy of a per-model time metric
// (seconds, drawn in s, min or h).
func byModel(name, title, ylabel string, runs []*Run, o plot.Options, value func(metrics.Group) float64) ([]NamedFigure, error) {
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
				vals[sort.SearchStrings(cats, g.Name)] = value(g)
			}
		}
		series = append(series, plot.BarSeries{Name: r.Policy, Values: vals})
	}
	f, err := plot.TimeBars(title, ylabel, cats, series, o)
	if err != nil {
		return nil, err
	}
	return []NamedFigure{{Name: name, Title: title, Figure: f}}, nil
}

// Slug turns a label into a file-name part: "FIFO (strict)" -> "fifo-strict".
func Slug(s string) string {
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

// seriesOverTime draws a run-level series the policies recorded (job -1),
// one line per policy, against time in hours.
func seriesOverTime(name string, runs []*Run, o plot.Options) ([]NamedFigure, error) {
	var lines []plot.Series
	for _, r := range runs {
		if r.Result == nil {
			continue
		}
		if s := r.Result.FindSeries(name, -1); s != nil && len(s.T) > 0 {
			ps := plot.Series{Name: r.Policy}
			for i := range s.T {
				ps.X = append(ps.X, s.T[i]/3600)
				ps.Y = append(ps.Y, s.V[i])
			}
			lines = append(lines, ps)
		}
	}
	if len(lines) == 0 {
		return nil, nil // no policy of this comparison records it
	}
	title := name + " over time"
	f, err := plot.Lines(title, "time (h)", name, lines, o)
	if err != nil {
		return nil, err
	}
	return []NamedFigure{{Name: "series-" + Slug(name), Title: title, Figure: f}}, nil
}

// maxShareJobs bounds the jobs of a shares figure, to keep it readable.
const maxShareJobs = 12

// shares draws, per policy that records them, each job's time-averaged
// target share of every GPU type (the allocation its policy computed)
// beside the share of its time it actually spent there: how well the
// rounds deliver what the optimisation asked for.
func shares(runs []*Run, o plot.Options) ([]NamedFigure, error) {
	var out []NamedFigure
	for _, r := range runs {
		if r.Result == nil {
			continue
		}
		types := r.Inputs.Cluster.Types()
		var cats []string
		var vals [][]float64 // per bar series: target then received, per type
		for j := range r.Result.Jobs {
			id := r.Result.Jobs[j].Job
			row, ok := jobShares(r.Result, id, types)
			if !ok {
				continue
			}
			cats = append(cats, r.Result.Jobs[j].Name)
			vals = append(vals, row)
			if len(cats) == maxShareJobs {
				break
			}
		}
		if len(cats) == 0 {
			continue
		}
		var series []plot.BarSeries
		for k, t := range types {
			// one colour per GPU type: light for the target, full for
			// what the job received
			target := plot.BarSeries{Name: "target " + t, Color: k + 1, Light: true}
			got := plot.BarSeries{Name: "received " + t, Color: k + 1}
			for _, row := range vals {
				target.Values = append(target.Values, row[2*k])
				got.Values = append(got.Values, row[2*k+1])
			}
			series = append(series, target, got)
		}
		title := fmt.Sprintf("Target and received share of each GPU type: %s", r.Policy)
		f, err := plot.Bars(title, "share of the job's time", cats, series, o)
		if err != nil {
			return nil, err
		}
		out = append(out, NamedFigure{Name: "shares-" + Slug(r.Policy), Title: title, Figure: f})
	}
	return out, nil
}

// jobShares returns, per GPU type, a job's time-averaged target share and
// its last received share, from the series gavel/x/TYPE and
// gavel/received/TYPE; ok is false when the job has none.
func jobShares(res *engine.Result, id workload.JobID, types []string) ([]float64, bool) {
	row := make([]float64, 0, 2*len(types))
	found := false
	for _, t := range types {
		x, got := math.NaN(), math.NaN()
		if s := res.FindSeries("gavel/x/"+t, id); s != nil && len(s.T) > 0 {
			x, found = timeAverage(s, res.Jobs[id].FinishS), true
		}
		if s := res.FindSeries("gavel/received/"+t, id); s != nil && len(s.V) > 0 {
			got, found = s.V[len(s.V)-1], true
		}
		row = append(row, x, got)
	}
	return row, found
}

// timeAverage averages a step series from its first sample to end (or its
// last sample when end is unknown).
func timeAverage(s *engine.Series, end float64) float64 {
	if end < s.T[len(s.T)-1] {
		end = s.T[len(s.T)-1]
	}
	total, sum := end-s.T[0], 0.0
	if total <= 0 {
		return s.V[len(s.V)-1]
	}
	for i := range s.T {
		next := end
		if i+1 < len(s.T) {
			next = s.T[i+1]
		}
		sum += s.V[i] * (next - s.T[i])
	}
	return sum / total
}
