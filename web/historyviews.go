package web

import (
	"fmt"
	"html"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/web/app"
	"github.com/vugu/vugu"
)

// HistorySection is the editor's run history: the runs kept, two of them
// compared side by side, and a way back to each (app/history.go).
type HistorySection struct {
	App *app.App
}

// Hint says what the history keeps, and for how long.
func (c *HistorySection) Hint() string {
	return fmt.Sprintf("Every run of the scenario in this editor is kept here, the last %d (the oldest goes first). Pick two, A and B, to compare them side by side below, or go back to a run's scenario. The %d runs you saw last keep everything, Gantt charts included; the others keep their metrics and completion times, and this browser keeps those across visits. Going back to a run whose full results were not kept runs it again: the same seed gives the same results.", app.HistoryLimit, app.HistoryFull)
}

// Cmp is the comparison on show, nil with fewer than two runs.
func (c *HistorySection) Cmp() *app.RunComparison { return c.App.Compare() }

// RowID is a run's row.
func (c *HistorySection) RowID(r *app.HistoryRun) string { return "history-run-" + strconv.Itoa(r.N) }

// RowClass marks the runs being compared.
func (c *HistorySection) RowClass(r *app.HistoryRun) string {
	if c.IsA(r) || c.IsB(r) {
		return "picked"
	}
	return ""
}

// PickID is the id of a run's A or B choice.
func (c *HistorySection) PickID(which string, r *app.HistoryRun) string {
	return "compare-" + which + "-" + strconv.Itoa(r.N)
}

// PickLabel names a run's A or B choice for screen readers.
func (c *HistorySection) PickLabel(which string, r *app.HistoryRun) string {
	return fmt.Sprintf("Compare run %d as %s", r.N, which)
}

// IsA and IsB say whether r is being compared as A or as B.
func (c *HistorySection) IsA(r *app.HistoryRun) bool { a, _ := c.App.Comparing(); return a == r.N }

// IsB: see IsA.
func (c *HistorySection) IsB(r *app.HistoryRun) bool { _, b := c.App.Comparing(); return b == r.N }

// PickA compares r as A.
func (c *HistorySection) PickA(r *app.HistoryRun) {
	_, b := c.App.Comparing()
	c.App.CompareRuns(r.N, b)
}

// PickB compares r as B.
func (c *HistorySection) PickB(r *app.HistoryRun) {
	a, _ := c.App.Comparing()
	c.App.CompareRuns(a, r.N)
}

// RunName is "Run 3".
func (c *HistorySection) RunName(r *app.HistoryRun) string { return "Run " + strconv.Itoa(r.N) }

// When says how long ago r ran.
func (c *HistorySection) When(r *app.HistoryRun) string { return app.Ago(c.App.P.Now(), r.At) }

// BackID is the id of a run's Go back button.
func (c *HistorySection) BackID(r *app.HistoryRun) string { return "history-back-" + strconv.Itoa(r.N) }

// BackLabel names a run's Go back button for screen readers.
func (c *HistorySection) BackLabel(r *app.HistoryRun) string {
	return fmt.Sprintf("Go back to this run (run %d): its scenario into the editor", r.N)
}

// Panel is the comparison of the two runs picked: what differs between
// their scenarios, the metrics of both, their curves and their Gantt
// charts. It is written as HTML here rather than in the template: it has
// no controls, and Vugu's code for a template of its size cost the page's
// module about 50 kB compressed.
func (c *HistorySection) Panel() vugu.HTML {
	cmp := c.Cmp()
	a, b := cmp.A.N, cmp.B.N
	var w strings.Builder
	esc := html.EscapeString
	colA, colB := fmt.Sprintf("Run %d (A)", a), fmt.Sprintf("Run %d (B)", b)
	fmt.Fprintf(&w, `<h3 id="compare-title">Run %d (A) against run %d (B)</h3><div id="compare-changes">`, a, b)
	switch {
	case cmp.Same():
		w.WriteString(`<p>Both runs are of the same scenario with the same seed, so their results are the same.</p>`)
	case cmp.Other:
		fmt.Fprintf(&w, `<p>These are runs of two different scenarios, “%s” and “%s”, so their fields are not compared one by one.</p>`, esc(cmp.A.Title), esc(cmp.B.Title))
	case cmp.Big:
		w.WriteString(`<p>The two scenarios differ, but they are too big (an imported trace) to list what changed field by field.</p>`)
	}
	if len(cmp.Changes) > 0 {
		fmt.Fprintf(&w, `<p>What is different in run %d's scenario from run %d's (everything else is the same):</p><ul class="changes">`, b, a)
		for _, ch := range cmp.Changes {
			fmt.Fprintf(&w, `<li data-path="%s">%s</li>`, esc(ch.Path), esc(ch.Text()))
		}
		w.WriteString(`</ul>`)
	}
	if cmp.More > 0 {
		fmt.Fprintf(&w, `<p class="muted">…and %s.</p>`, esc(plural(cmp.More, "more change")))
	}
	fmt.Fprintf(&w, `</div><h4>Metrics</h4><div class="scroll" tabindex="0" role="region" aria-label="Metrics of both runs"><table class="metrics compare-metrics" id="compare-metrics">`+
		`<thead><tr><th scope="col">Metric</th><th scope="col">%s</th><th scope="col">%s</th><th scope="col" class="diff">B against A</th></tr></thead>`, colA, colB)
	for _, g := range cmp.Groups() {
		fmt.Fprintf(&w, `<tbody><tr class="policy-row"><th colspan="4" scope="colgroup">%s</th></tr>`, esc(g.Policy))
		for _, r := range g.Rows {
			cls := "diff"
			switch {
			case r.Better:
				cls = "diff better"
			case r.Worse:
				cls = "diff worse"
			}
			cell := func(run, text, exact string) {
				fmt.Fprintf(&w, `<td class="num" data-run="%s" data-policy="%s" data-metric="%s" data-v="%s">%s</td>`, run, esc(r.Policy), r.Key, exact, esc(text))
			}
			fmt.Fprintf(&w, `<tr><th scope="row" title="%s">%s</th>`, esc(r.Help), esc(r.Metric))
			cell("a", r.A, r.ExactA)
			cell("b", r.B, r.ExactB)
			fmt.Fprintf(&w, `<td class="%s">%s</td></tr>`, cls, esc(r.Diff))
		}
		w.WriteString(`</tbody>`)
	}
	w.WriteString(`</table></div><p class="hint">“Better” and “worse” are by each metric's sense: a shorter time is better, a higher utilization is better. JCT is a job's completion time, from its arrival to its finish.</p><h4>Completion times</h4>`)
	if cmp.CDF == "" {
		w.WriteString(`<p class="muted">No job finished in either run, so there are no completion times to draw.</p>`)
	} else {
		fmt.Fprintf(&w, `<div class="curve compare-curve">%s</div><ul class="legend">`, cmp.CDF)
		for _, l := range cmp.Legend {
			fmt.Fprintf(&w, `<li><span class="swatch" style="border-color: %s; background: %s"></span><span>%s</span></li>`, l.Color, l.Color, esc(l.Name))
		}
		fmt.Fprintf(&w, `<li><span class="linekey" aria-hidden="true"></span><span>solid: run %d (A)</span></li><li><span class="linekey dashed" aria-hidden="true"></span><span>dashed: run %d (B)</span></li></ul>`, a, b)
		w.WriteString(`<p class="hint">For each time on the x axis, the share of the finished jobs that had completed within it. Both runs share the axes, so a curve further left and higher finished its jobs sooner.</p>`)
	}
	w.WriteString(`<h4>Gantt charts</h4><p class="hint">Which job held which GPU over time, each run at its own scale: read the time axis under each chart.</p>`)
	side := func(col, run string, f *app.Figure, why string, n int, policy string) {
		fmt.Fprintf(&w, `<figure class="side"><figcaption>%s</figcaption>`, col)
		if f != nil {
			fmt.Fprintf(&w, `<img src="%s" alt="%s" class="compare-gantt" data-run="%s">`, esc(f.URL), esc(fmt.Sprintf("Gantt chart of %s in run %d: which job held which GPU over time", policy, n)), run)
		}
		if why != "" {
			fmt.Fprintf(&w, `<p class="muted">%s</p>`, esc(why))
		}
		w.WriteString(`</figure>`)
	}
	for _, g := range cmp.Gantts {
		fmt.Fprintf(&w, `<div class="gantt-pair"><h5>%s</h5><div class="pair">`, esc(g.Policy))
		side(colA, "a", g.A, g.WhyA, a, g.Policy)
		side(colB, "b", g.B, g.WhyB, b, g.Policy)
		w.WriteString(`</div></div>`)
	}
	return vugu.HTML(w.String())
}

// plural prints "1 more change", "3 more changes".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
