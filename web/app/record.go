package app

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/web/protocol"
)

// The figure view opens on the committed record (reproduction/report.json,
// written by `make reproduce`): every sweep point and seed of the paper's
// set-up, already run, so that opening a figure costs no simulation. A
// re-run in the browser replaces it with the page's own (quick) runs.

// The record is 1.8 MB of JSON, and decoding it on the page's main thread
// took 0.2 s, plus V8 compiling encoding/json in the background, while the
// page's first run was starting on a cold load. So the page reads it once
// its first results are drawn or the user turns to another view
// (openingDone), or when a figure asks for it (whenRecord), not as it
// opens.

// RecordURL is where the page fetches the committed record, relative to
// itself; the browser sets it. Empty (tests, the site's build) means there
// is none to fetch: the page behaves as if it had been read and was
// missing, unless SetReproduction gives one.
var RecordURL string

// recordState says how far the record has been read.
type recordState int

const (
	recordUnread recordState = iota
	recordReading
	recordRead // read, or found missing
)

// ReadRecord fetches and reads the committed record, once; what waits for
// it (whenRecord) runs after. A missing record (no RecordURL, a failed
// fetch, a status other than 200) leaves the badges at "not yet run"; one
// that cannot be decoded is reported for developers and does the same.
func (a *App) ReadRecord() {
	if a.recState != recordUnread {
		return
	}
	if RecordURL == "" {
		a.recordRead()
		return
	}
	a.recState = recordReading
	a.P.Fetch("GET", RecordURL, nil, func(r FetchReply) {
		if r.Err == nil && r.Status == 200 {
			a.SetReproduction(r.Body)
			return
		}
		a.recordRead()
	})
}

// RecordReading says whether the record is being fetched or decoded.
func (a *App) RecordReading() bool { return a.recState == recordReading }

// whenRecord runs f once the record has been read (at once if it has),
// asking for it if nobody has yet.
func (a *App) whenRecord(f func()) {
	if a.recState == recordRead {
		f()
		return
	}
	a.afterRecord = append(a.afterRecord, f)
	a.ReadRecord()
}

// recordRead marks the record read and runs what waited for it.
func (a *App) recordRead() {
	a.recState = recordRead
	waiting := a.afterRecord
	a.afterRecord = nil
	for _, f := range waiting {
		f()
	}
}

// RecordFigure is the committed record of the scenario named name, or nil.
func (a *App) RecordFigure(name string) *results.FigureRepro {
	if a.Repro == nil {
		return nil
	}
	for i := range a.Repro.Papers {
		for j := range a.Repro.Papers[i].Figures {
			if f := &a.Repro.Papers[i].Figures[j]; f.Scenario == name {
				return f
			}
		}
	}
	return nil
}

// RecordSummary counts a recorded figure's claims as REPRODUCTION.md does
// (results.Count, results.Tally.Summary): the gallery card, the figure
// view and a run in the browser all say it, so they cannot disagree. all
// is true when no counted claim fails.
func RecordSummary(f results.FigureRepro, quick bool) (text string, all bool) {
	t := results.Count(f)
	return t.Summary(quick), t.Fail == 0
}

// RecordNote says where a recorded figure's numbers come from.
func (a *App) RecordNote(f *results.FigureRepro) string {
	mode := "full mode (the paper's seeds, sweep values and sizes)"
	if a.Repro.Quick {
		mode = "quick mode (fewer seeds, sweep values and jobs than the paper's set-up)"
	}
	when := ""
	if r := a.Repro.Run; r != nil && r.Date != "" {
		when = " on " + r.Date
	}
	seeds := ""
	if n := len(f.Seeds); n > 0 {
		seeds = ", " + plural(n, "seed") + " per point"
	}
	return fmt.Sprintf("From the committed record: computed by make reproduce%s in %s%s, with the same simulator as this page. Re-run it here to compare.", when, mode, seeds)
}

// recordView is a recorded figure as the figure view draws it: the swept
// metric per policy with the paper's values, the metrics table of a
// single-point figure, and the checks with their recorded verdicts.
func recordView(sc *scenario.Scenario, f *results.FigureRepro, quick bool) *protocol.StudyView {
	v := &protocol.StudyView{Title: sc.Title, Figure: *f, Complete: true, Checks: []protocol.CheckView{}}
	metric, group := "avg_jct_s", "all"
	if sw := sc.Sweep; sw != nil {
		v.XLabel = sw.Label
		if sw.Unit != "" {
			v.XLabel += " (" + sw.Unit + ")"
		}
		if sw.Metric != "" {
			metric = sw.Metric
		}
		if sw.Group != "" {
			group = sw.Group
		}
	}
	for _, s := range f.Series {
		if s.Metric != metric || s.Group != group {
			continue
		}
		v.Series = append(v.Series, protocol.StudySeries{Policy: s.Policy, X: s.X, Y: s.Mean, SD: s.SD})
		if v.YLabel == "" {
			v.YLabel = metricLabel(s.Metric, s.Unit)
		}
	}
	if len(v.Series) == 0 && len(f.Series) > 0 { // a figure of ratios
		for _, s := range f.Series {
			v.Series = append(v.Series, protocol.StudySeries{Policy: s.Policy, X: s.X, Y: s.Mean, SD: s.SD})
		}
		v.YLabel = metricLabel(f.Series[0].Metric, f.Series[0].Unit)
	}
	v.Paper = paperSeries(f.Reference, metric, group)
	if sc.Sweep == nil {
		v.Columns, v.Rows = recordTable(f)
	}
	for _, c := range f.Checks {
		v.Checks = append(v.Checks, recordCheck(c))
	}
	t := results.Count(*f)
	v.Passed, v.Counted = t.Pass, t.Pass+t.Fail
	v.Summary, _ = RecordSummary(*f, quick)
	return v
}

// paperSeries are the paper's values of the swept metric, by policy.
func paperSeries(ref []results.ReferenceRepro, metric, group string) []protocol.StudySeries {
	var out []protocol.StudySeries
	at := map[string]int{}
	for _, r := range ref {
		if r.X == nil || r.Metric != metric || r.Group != group {
			continue
		}
		i, ok := at[r.Policy]
		if !ok {
			i = len(out)
			at[r.Policy] = i
			out = append(out, protocol.StudySeries{Policy: r.Policy})
		}
		y := r.Paper
		out[i].X = append(out[i].X, *r.X)
		out[i].Y = append(out[i].Y, &y)
	}
	return out
}

// recordTable is a single-point figure's metrics for the whole workload:
// a row per policy, a column per metric, mean ± standard deviation over
// the seeds, with the paper's value beside ours where it reports one.
func recordTable(f *results.FigureRepro) (columns []string, rows [][]string) {
	type key struct{ policy, metric string }
	var policies, metrics []string
	seenP, seenM := map[string]bool{}, map[string]bool{}
	cell := map[key]string{}
	for _, val := range f.Values {
		if val.X != nil || val.Group != "all" {
			continue
		}
		if !seenP[val.Policy] {
			seenP[val.Policy] = true
			policies = append(policies, val.Policy)
		}
		if !seenM[val.Metric] {
			seenM[val.Metric] = true
			metrics = append(metrics, val.Metric)
			columns = append(columns, metricLabel(val.Metric, val.Unit))
		}
		cell[key{val.Policy, val.Metric}] = meanSD(val.Mean, val.SD)
	}
	for _, r := range f.Reference {
		if r.X == nil && r.Group == "all" && seenP[r.Policy] && seenM[r.Metric] {
			k := key{r.Policy, r.Metric}
			cell[k] += " (paper " + num(r.Paper) + ")"
		}
	}
	for _, p := range policies {
		row := []string{p}
		for _, m := range metrics {
			c := cell[key{p, m}]
			if c == "" {
				c = "–"
			}
			row = append(row, c)
		}
		rows = append(rows, row)
	}
	return columns, rows
}

// recordCheck is a recorded check in the words of the check table:
// "holds", "fails" with its recorded why, or "n/a" with its reason.
func recordCheck(c results.CheckRepro) protocol.CheckView {
	cv := protocol.CheckView{ID: c.ID, Claim: c.Claim, Required: c.Required, Calibrated: c.Calibrated, Class: c.CountedClass(), Observed: c.Observed}
	switch c.Verdict {
	case "pass":
		cv.Verdict = "holds"
	case "fail":
		cv.Verdict, cv.Why = "fails", c.Why
	default:
		cv.Verdict, cv.Why = "n/a", c.NA
	}
	if cv.Observed == "" && c.Ours != nil {
		cv.Observed = meanSD(c.Ours, c.OursSD)
	}
	if c.Paper != nil {
		cv.Expected = "paper " + num(*c.Paper)
		if c.Tolerance != nil {
			cv.Expected += " ± " + num(*c.Tolerance)
		}
	} else if c.Bound != "" {
		cv.Expected = c.Bound
	}
	return cv
}

// jctPercentile reads the percentile of a JCT percentile metric
// ("p50_jct_s" gives 50). It reads the name by hand rather than with a
// regular expression compiled at start-up, which in WebAssembly costs the
// page about a second of background compilation before its first results.
func jctPercentile(metric string) (pct int, ok bool) {
	digits, ok := strings.CutPrefix(metric, "p")
	if ok {
		digits, ok = strings.CutSuffix(digits, "_jct_s")
	}
	if !ok || digits == "" || strings.Trim(digits, "0123456789") != "" {
		return 0, false
	}
	pct, _ = strconv.Atoi(digits)
	return pct, true
}

// RecordCDF is a single-point figure's JCT distribution as the paper draws
// it, a CDF per policy: the recorded JCT percentiles of the whole workload
// (x, in the record's unit) against the share of jobs finished (y, %).
// It is nil when the record holds fewer than two percentiles.
func RecordCDF(f *results.FigureRepro) (series []ChartSeries, unit string) {
	type point struct{ jct, pct float64 }
	byPolicy := map[string][]point{}
	var policies []string
	for _, val := range f.Values {
		pct, ok := jctPercentile(val.Metric)
		if !ok || val.X != nil || val.Group != "all" || val.Mean == nil {
			continue
		}
		if _, ok := byPolicy[val.Policy]; !ok {
			policies = append(policies, val.Policy)
		}
		byPolicy[val.Policy] = append(byPolicy[val.Policy], point{*val.Mean, float64(pct)})
		unit = val.Unit
	}
	for i, p := range policies {
		pts := byPolicy[p]
		if len(pts) < 2 {
			return nil, ""
		}
		sort.Slice(pts, func(a, b int) bool { return pts[a].pct < pts[b].pct })
		s := ChartSeries{Name: p, Color: seriesColor(i)}
		for _, pt := range pts {
			y := pt.pct
			s.X, s.Y = append(s.X, pt.jct), append(s.Y, &y)
		}
		series = append(series, s)
	}
	return series, unit
}

// metricLabel names a metric with its unit: "avg_jct_s (h)".
func metricLabel(metric, unit string) string {
	if unit == "" {
		return metric
	}
	return metric + " (" + unit + ")"
}

// meanSD is "12.3 ± 0.4", or "12.3" without a deviation, or "–".
func meanSD(mean, sd *float64) string {
	if mean == nil || math.IsNaN(*mean) {
		return "–"
	}
	if sd == nil || *sd == 0 {
		return num(*mean)
	}
	return num(*mean) + " ± " + num(*sd)
}

// num is a value to three significant digits.
func num(x float64) string { return strconv.FormatFloat(x, 'g', 3, 64) }
