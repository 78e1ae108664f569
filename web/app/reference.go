package app

import (
	"fmt"
	"math"
	"strings"

	"github.com/schedlab/schedlab/sim/metrics"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
)

// Reference is what a paper scenario's reference block says, beside the
// same numbers from the run on show.
type Reference struct {
	Source string
	Rows   []RefRow
	Groups []RefGroup // Rows by metric, in order of first appearance
	// Note says how the run on show differs from the paper's runs and
	// where the verdicts are.
	Note string
}

// RefGroup is the reported numbers of one metric.
type RefGroup struct {
	Metric string
	Rows   []RefRow
}

// RefRow is one reported number and ours.
type RefRow struct {
	Policy string
	Group  string // "all", "large", "bert" (a model)
	Metric string // the metric's column title or name
	Paper  string
	Ours   string // "–" when the page cannot compute it
	Ratio  string // ours ÷ paper, e.g. "1.05×"; "" when either is missing
}

// summaryMetrics are the metrics the page can read from a group's summary;
// the others (percentiles of groups, low means, costs) need the job
// records a study keeps, so they are left to the command line.
var summaryMetrics = map[string]func(metrics.Summary) float64{
	"avg_jct_s":   func(s metrics.Summary) float64 { return s.AvgJCT },
	"p50_jct_s":   func(s metrics.Summary) float64 { return s.P50JCT },
	"p95_jct_s":   func(s metrics.Summary) float64 { return s.P95JCT },
	"p99_jct_s":   func(s metrics.Summary) float64 { return s.P99JCT },
	"avg_queue_s": func(s metrics.Summary) float64 { return s.AvgQueue },
	"avg_wait_s":  func(s metrics.Summary) float64 { return s.AvgWait },
	"makespan_s":  func(s metrics.Summary) float64 { return s.Makespan },
	"utilization": func(s metrics.Summary) float64 { return s.Utilization },
	"gpu_hours":   func(s metrics.Summary) float64 { return s.GPUHours },
	"preemptions": func(s metrics.Summary) float64 { return float64(s.Preemptions) },
	"migrations":  func(s metrics.Summary) float64 { return float64(s.Migrations) },
}

// referenceFor pairs the scenario's reported numbers that apply to this
// run (those without a sweep value, or at the value the scenario is
// written at) with the run's own; nil when the scenario reports none.
func referenceFor(sc *scenario.Scenario, res *Results) *Reference {
	if sc.Reference == nil || len(sc.Reference.Values) == 0 {
		return nil
	}
	base, hasBase := sc.BaseSweepValue()
	ref := &Reference{Source: sc.Reference.Source}
	elsewhere := 0
	for _, v := range sc.Reference.Values {
		if v.X != nil && (!hasBase || *v.X != base) {
			elsewhere++
			continue
		}
		ref.Rows = append(ref.Rows, refRow(v, sc.Reference.UnitFactor(), res))
	}
	ref.Groups = groupByMetric(ref.Rows)
	var note []string
	note = append(note, fmt.Sprintf("“This run” is seed %d of the scenario as it stands in the editor", res.Seed))
	if hasBase && len(ref.Rows) > 0 {
		note[0] += fmt.Sprintf(" (%s %g)", sc.Sweep.Label, base)
	}
	note[0] += "; the paper's numbers are averages over its own runs, and a quick version has fewer jobs, so expect differences."
	if elsewhere > 0 {
		note = append(note, fmt.Sprintf("%s at other sweep points are compared on the command line.", plural(elsewhere, "more reported value")))
	}
	if len(sc.Checks) > 0 {
		note = append(note, fmt.Sprintf("The %s of what “reproduced” means run over every seed and sweep point: schedlab run %s prints each with its verdict.", plural(len(sc.Checks), "check"), sc.Name))
	}
	ref.Note = strings.Join(note, " ")
	return ref
}

func refRow(v scenario.RefValue, unit float64, res *Results) RefRow {
	row := RefRow{Policy: v.Policy, Group: groupTitle(v.Group), Metric: metricTitle(v.Metric), Ours: "–"}
	paper := v.Value
	if strings.HasSuffix(v.Metric, "_s") {
		paper *= unit
	}
	row.Paper = formatMetric(v.Metric, paper)
	get, known := summaryMetrics[v.Metric]
	if !known {
		return row
	}
	for _, p := range res.Policies {
		if p.Label != v.Policy || p.Out.Error != "" {
			continue
		}
		s, found := groupSummary(p, v.Group)
		if !found {
			return row
		}
		ours := get(s)
		row.Ours = formatMetric(v.Metric, ours)
		if paper != 0 && !math.IsNaN(ours) {
			row.Ratio = fmt.Sprintf("%.2f×", ours/paper)
		}
		return row
	}
	return row
}

// groupSummary is the summary of one job group of a policy's run.
func groupSummary(p *PolicyResult, group string) (metrics.Summary, bool) {
	switch group {
	case "", "all":
		return p.Out.Metrics, true
	case "small":
		return p.Out.Small.Summary, true
	case "large":
		return p.Out.Large.Summary, true
	}
	if model, ok := strings.CutPrefix(group, "model:"); ok {
		for _, g := range p.Out.ByModel {
			if g.Name == model {
				return g.Summary, true
			}
		}
	}
	return metrics.Summary{}, false
}

func groupTitle(g string) string {
	switch g {
	case "", "all":
		return "all"
	}
	if model, ok := strings.CutPrefix(g, "model:"); ok {
		return model
	}
	return g
}

func metricTitle(m string) string {
	for _, col := range Metrics {
		if col.Key == m {
			return col.Title
		}
	}
	if m == "avg_wait_s" {
		return "Average time without GPUs"
	}
	return m
}

func formatMetric(m string, v float64) string {
	switch {
	case strings.HasSuffix(m, "_s"):
		return results.Duration(v)
	case m == "utilization":
		return results.Percent(v)
	}
	return fmt.Sprintf("%.3g", v)
}

func groupByMetric(rows []RefRow) []RefGroup {
	var out []RefGroup
	at := map[string]int{}
	for _, r := range rows {
		i, ok := at[r.Metric]
		if !ok {
			i = len(out)
			at[r.Metric] = i
			out = append(out, RefGroup{Metric: r.Metric})
		}
		out[i].Rows = append(out[i].Rows, r)
	}
	return out
}
