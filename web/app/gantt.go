package app

import (
	"fmt"
	"html"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/web/protocol"
)

// The interactive Gantt chart: the same GPU intervals as the chart the
// engine draws with gonum/plot (kept for PNG and SVG downloads), drawn by
// the page as SVG so that a student can hover a bar (its job, model and
// times), click it (the job's story), find a job by name, zoom in on
// time, and read which jobs share a GPU. Rows of GPUs idle in the window
// shown fold into one line each, so a large cluster stays short.

// GanttBar is one interval as the chart lays it out.
type GanttBar struct {
	GPU        int
	Job        int
	Start, End float64
	// Lane of Lanes splits a row where jobs share the GPU.
	Lane, Lanes int
	Shared      bool
	// K is the interval's index in the run's intervals.
	K int
}

// GanttRow is one GPU of the chart, or a run of GPUs idle in the window.
type GanttRow struct {
	GPU   int    // -1 for a folded run of idle GPUs
	Name  string // "s0/g1", or "s2/g0 – s3/g3" for a fold
	Idle  int    // GPUs folded into the row
	Bars  []GanttBar
	Lanes int
}

// GanttModel lays a run's intervals out in rows and lanes: every interval
// of a GPU in its row, overlapping ones (jobs sharing the GPU) in lanes.
// It draws what the engine's Gantt chart draws (experiment.GanttBars),
// which a test checks.
func GanttModel(c *cluster.Cluster, ivs []protocol.Interval) []GanttRow {
	rows := make([]GanttRow, c.NumGPUs())
	for _, g := range c.GPUs {
		rows[g.ID] = GanttRow{GPU: int(g.ID), Name: fmt.Sprintf("s%d/g%d", g.Server, g.Slot)}
	}
	for k, iv := range ivs {
		if int(iv.GPU) < 0 || int(iv.GPU) >= len(rows) {
			continue
		}
		r := &rows[iv.GPU]
		r.Bars = append(r.Bars, GanttBar{GPU: int(iv.GPU), Job: int(iv.Job), Start: iv.StartS, End: iv.EndS, K: k})
	}
	for i := range rows {
		rows[i].Lanes = laneOut(rows[i].Bars)
	}
	return rows
}

// laneOut assigns lanes to a row's bars, the lowest free lane first in
// order of start, and marks the bars that overlap another; it returns the
// number of lanes.
func laneOut(bars []GanttBar) int {
	sort.SliceStable(bars, func(a, b int) bool {
		if bars[a].Start != bars[b].Start {
			return bars[a].Start < bars[b].Start
		}
		return bars[a].End < bars[b].End
	})
	var laneEnd []float64
	for i := range bars {
		b := &bars[i]
		lane := -1
		for l, end := range laneEnd {
			if end <= b.Start {
				lane = l
				break
			}
		}
		if lane < 0 {
			lane = len(laneEnd)
			laneEnd = append(laneEnd, 0)
		}
		laneEnd[lane] = b.End
		b.Lane = lane
	}
	n := max(len(laneEnd), 1)
	// A bar overlaps another when one before it (in order of start) ends
	// after it starts, or one after it starts before it ends. The bars
	// are sorted by start, so the latest end so far and the next starts
	// tell, without comparing every pair (a row of a 20,000-job run holds
	// thousands of bars); only a bar of zero length needs the full look.
	latestEnd := math.Inf(-1)
	for i := range bars {
		b := &bars[i]
		b.Lanes = n
		if latestEnd > b.Start {
			b.Shared = b.End > b.Start || overlapsBefore(bars[:i], *b)
		}
		for j := i + 1; !b.Shared && j < len(bars) && bars[j].Start < b.End; j++ {
			b.Shared = b.Start < bars[j].End
		}
		latestEnd = math.Max(latestEnd, b.End)
	}
	return n
}

// overlapsBefore reports whether b overlaps one of the bars before it.
func overlapsBefore(before []GanttBar, b GanttBar) bool {
	for _, o := range before {
		if o.Start < b.End && b.Start < o.End {
			return true
		}
	}
	return false
}

// Gantt is the state of an interactive Gantt chart.
type Gantt struct {
	// Policy is the run shown (an index into the results' policies).
	Policy int
	// From and To bound the time shown; To 0 shows the whole run.
	From, To float64
	// ShowIdle unfolds the rows of idle GPUs.
	ShowIdle bool
	// Find is what was typed in the find box; Found the job it found
	// (an index into the run's jobs, -1 none), FindErr why not.
	Find    string
	Found   int
	FindErr string
	// Hover is the bar under the pointer (an interval index, -1 none).
	Hover int
	// Prefix starts the ids of the chart's bars ("gb-K" after it), so
	// that two charts on one page keep their ids apart.
	Prefix string

	runID   int
	drawing [2]int // the run and policy whose first drawing is due
	model   []GanttRow
	modelOf [2]int
	svgKey  string
	svg     string
	note    string
}

// NewGantt is a chart of policy 0, whole.
func NewGantt() *Gantt { return &Gantt{Found: -1, Hover: -1} }

// ResultsGantt is the chart of the Results view, reset to the whole run
// of its policy when new results come.
func (a *App) ResultsGantt() *Gantt {
	if a.gantt == nil {
		a.gantt = NewGantt()
	}
	g := a.gantt
	if a.Res != nil && g.runID != a.Res.RunID {
		pol := g.Policy
		*g = Gantt{Found: -1, Hover: -1, runID: a.Res.RunID, ShowIdle: g.ShowIdle}
		if pol < len(a.Res.Policies) {
			g.Policy = pol
		}
	}
	return g
}

// ganttRun is the run a chart shows.
func (a *App) ganttRun(g *Gantt) *PolicyResult {
	if a.Res == nil || g.Policy < 0 || g.Policy >= len(a.Res.Policies) {
		return nil
	}
	return a.Res.Policies[g.Policy]
}

// rows is the chart's layout, made once per run and policy.
func (g *Gantt) rows(res *Results) []GanttRow {
	key := [2]int{res.RunID, g.Policy}
	if g.model == nil || g.modelOf != key {
		g.model, g.modelOf = GanttModel(res.Cluster, res.Policies[g.Policy].Intervals), key
	}
	return g.model
}

// End is the end of the run's timeline.
func (g *Gantt) end(p *PolicyResult) float64 { return math.Max(tlEnd(p), 1) }

// Window is the time shown.
func (g *Gantt) Window(p *PolicyResult) (lo, hi float64) {
	end := g.end(p)
	if g.To <= g.From || g.To <= 0 {
		return 0, end
	}
	return math.Max(0, g.From), math.Min(end, g.To)
}

// GanttSelect shows policy i in chart g, whole.
func (a *App) GanttSelect(g *Gantt, i int) {
	if a.Res != nil && i >= 0 && i < len(a.Res.Policies) {
		g.Policy, g.From, g.To, g.Found, g.FindErr, g.Hover = i, 0, 0, -1, "", -1
	}
}

// GanttZoom zooms chart g in (factor < 1) or out (> 1) about the middle
// of the window.
func (a *App) GanttZoom(g *Gantt, factor float64) {
	p := a.ganttRun(g)
	if p == nil {
		return
	}
	lo, hi := g.Window(p)
	mid, half := (lo+hi)/2, (hi-lo)/2*factor
	end := g.end(p)
	half = math.Min(math.Max(half, end/2000), end/2)
	g.From, g.To = math.Max(0, mid-half), math.Min(end, mid+half)
	if g.From == 0 && g.To >= end {
		g.To = 0
	}
}

// GanttReset shows the whole run.
func (a *App) GanttReset(g *Gantt) { g.From, g.To = 0, 0 }

// GanttPan moves the window so that it starts at pos/SliderSteps of
// what is left.
func (a *App) GanttPan(g *Gantt, pos float64) {
	p := a.ganttRun(g)
	if p == nil || g.To <= 0 {
		return
	}
	lo, hi := g.Window(p)
	w, end := hi-lo, g.end(p)
	g.From = math.Max(0, math.Min(1, pos/SliderSteps)) * (end - w)
	g.To = g.From + w
}

// GanttPanPos is the pan slider's position.
func (a *App) GanttPanPos(g *Gantt) int {
	p := a.ganttRun(g)
	if p == nil || g.To <= 0 {
		return 0
	}
	lo, hi := g.Window(p)
	if free := g.end(p) - (hi - lo); free > 0 {
		return int(math.Round(lo / free * SliderSteps))
	}
	return 0
}

// GanttFind finds the job named in g.Find, zooms in on its time and
// highlights it.
func (a *App) GanttFind(g *Gantt) {
	p := a.ganttRun(g)
	g.FindErr, g.Found = "", -1
	name := strings.TrimSpace(g.Find)
	if p == nil || name == "" {
		return
	}
	for i, j := range p.Out.Jobs {
		if strings.EqualFold(j.ID, name) {
			g.Found = i
			a.zoomToJob(g, p, i)
			return
		}
	}
	g.FindErr = fmt.Sprintf("No job named %q in this run (jobs are named like %s).", name, p.Out.Jobs[0].ID)
}

// zoomToJob shows job i's time on the GPUs with some of its wait before.
func (a *App) zoomToJob(g *Gantt, p *PolicyResult, i int) {
	j := p.Out.Jobs[i]
	lo, hi := j.ArrivalS, g.end(p)
	if j.FinishS != nil {
		hi = *j.FinishS
	}
	pad := math.Max((hi-lo)*0.25, g.end(p)/200)
	g.From, g.To = math.Max(0, lo-pad), math.Min(g.end(p), hi+pad)
}

// barOf is the interval index of the bar whose element has this id, or
// -1.
func (g *Gantt) barOf(id string) int {
	if k, ok := strings.CutPrefix(id, g.Prefix+"gb-"); ok {
		if n, err := strconv.Atoi(k); err == nil {
			return n
		}
	}
	return -1
}

// GanttHover notes the bar under the pointer from its element's id.
func (a *App) GanttHover(g *Gantt, id string) { g.Hover = g.barOf(id) }

// GanttClick opens the story of the job whose bar was clicked.
func (a *App) GanttClick(g *Gantt, id string) {
	p := a.ganttRun(g)
	if n := g.barOf(id); p != nil && n >= 0 && n < len(p.Intervals) {
		a.OpenStory(g.Policy, int(p.Intervals[n].Job))
	}
}

// GanttHoverText says what the bar under the pointer is, "" for none.
func (a *App) GanttHoverText(g *Gantt) string {
	p := a.ganttRun(g)
	if p == nil || g.Hover < 0 || g.Hover >= len(p.Intervals) {
		return ""
	}
	iv := p.Intervals[g.Hover]
	rows := g.rows(a.Res)
	if int(iv.GPU) < 0 || int(iv.GPU) >= len(rows) {
		return ""
	}
	for _, b := range rows[iv.GPU].Bars {
		if b.K == g.Hover {
			return a.barText(p, b, rows[iv.GPU].Bars)
		}
	}
	return ""
}

// barText describes one bar: job, model, GPU, times, and who shares the
// GPU meanwhile (from the bars of its row).
func (a *App) barText(p *PolicyResult, bar GanttBar, row []GanttBar) string {
	j := p.Out.Jobs[bar.Job]
	name := fmt.Sprintf("GPU %d", bar.GPU)
	if c := a.Res.Cluster; bar.GPU < c.NumGPUs() {
		name = fmt.Sprintf("s%d/g%d", c.GPUs[bar.GPU].Server, c.GPUs[bar.GPU].Slot)
	}
	s := fmt.Sprintf("%s · %s · %s on %s · from %s to %s (%s)", j.ID, j.Model, plural(j.GPUs, "GPU"), name,
		results.Duration(bar.Start), results.Duration(bar.End), results.Duration(bar.End-bar.Start))
	if bar.Shared {
		var with []string
		for _, o := range row {
			if o.Job != bar.Job && o.Start < bar.End && bar.Start < o.End && !containsStr(with, p.Out.Jobs[o.Job].ID) {
				with = append(with, p.Out.Jobs[o.Job].ID)
			}
		}
		s += " · shares the GPU with " + strings.Join(with, ", ")
	}
	return s
}

func containsStr(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// maxGanttBars bounds the bars one drawing holds; beyond it the shortest
// are left out with a note (zooming in shows them). The page parses and
// lays out every bar in one task of the browser's main thread, which at
// 6,000 bars took 2-3 s on a 2-core machine at the end of a 20,000-job
// run; 2,500 bars still give a 900-pixel chart more bars than it has
// pixels across.
const maxGanttBars = 2500

// GanttSVG draws chart g at the given pixel width (0: a default).
func (a *App) GanttSVG(g *Gantt, width int) string {
	p := a.ganttRun(g)
	if p == nil || a.Res.Cluster == nil {
		return ""
	}
	if width <= 0 {
		width = 900
	}
	lo, hi := g.Window(p)
	key := fmt.Sprintf("%d/%d/%g/%g/%v/%d/%d/%s", a.Res.RunID, g.Policy, lo, hi, g.ShowIdle, g.Found, width, g.Prefix)
	if key == g.svgKey {
		return g.svg
	}
	g.svg, g.note = a.drawGantt(p, g, lo, hi, width)
	g.svgKey = key
	return g.svg
}

// GanttSVGInTurn is GanttSVG for the page: the first drawing of a run's
// chart is left to a task of its own, so that the results come on screen
// first and the browser never parses thousands of bars in the same task
// as the rest of the page (a 20,000-job run ended with a 2-3 s freeze
// that way). Until then it is "" and the caller shows that it is coming.
// The build-time results' charts (of the small default scenario) are drawn
// at once: the page's first screen, drawn when the site was built
// (web/snapshot), shows them, and the page must not blank them when it
// takes over.
func (a *App) GanttSVGInTurn(g *Gantt, width int) string {
	if a.Res == nil {
		return ""
	}
	now := [2]int{a.Res.RunID, g.Policy}
	if g.svgKey != "" && g.modelOf == now {
		return a.GanttSVG(g, width)
	}
	if g.drawing != now && !a.Res.Built {
		g.drawing = now
		a.P.After(0, func() {})
		return ""
	}
	return a.GanttSVG(g, width)
}

// GanttNote says what the drawing leaves out, "" for nothing.
func (a *App) GanttNote(g *Gantt) string { return g.note }

// shownRows are the rows of the window: GPUs with a bar in it, and runs of
// idle GPUs folded into one row each (unless ShowIdle).
func shownRows(rows []GanttRow, lo, hi float64, showIdle bool) []GanttRow {
	var out []GanttRow
	for _, r := range rows {
		in := barsIn(r.Bars, lo, hi)
		if len(in) > 0 || showIdle {
			out = append(out, GanttRow{GPU: r.GPU, Name: r.Name, Bars: in, Lanes: r.Lanes})
			continue
		}
		if n := len(out); n > 0 && out[n-1].GPU < 0 {
			out[n-1].Idle++
			first, _, _ := strings.Cut(out[n-1].Name, " – ")
			out[n-1].Name = first + " – " + r.Name
			continue
		}
		out = append(out, GanttRow{GPU: -1, Name: r.Name, Idle: 1, Lanes: 1})
	}
	return out
}

// barsIn are the bars that reach into [lo, hi]: the row's own slice when
// all do (the whole run is the usual view, and copying a 20,000-job run's
// bars cost a third of a second in the browser), else a copy of exactly
// those.
func barsIn(bars []GanttBar, lo, hi float64) []GanttBar {
	n := 0
	for _, b := range bars {
		if b.End > lo && b.Start < hi {
			n++
		}
	}
	if n == len(bars) {
		return bars
	}
	in := make([]GanttBar, 0, n)
	for _, b := range bars {
		if b.End > lo && b.Start < hi {
			in = append(in, b)
		}
	}
	return in
}

// drawGantt draws the window [lo, hi] of run p as SVG.
func (a *App) drawGantt(p *PolicyResult, g *Gantt, lo, hi float64, width int) (string, string) {
	full := g.rows(a.Res)
	rows := shownRows(full, lo, hi, g.ShowIdle)
	const left, right, top, bottom = 92.0, 12.0, 6.0, 34.0
	busy := 0
	for _, r := range rows {
		if r.GPU >= 0 {
			busy++
		}
	}
	rowH := math.Max(6, math.Min(22, 640/math.Max(1, float64(busy))))
	const foldH = 14.0
	h := top + bottom
	for _, r := range rows {
		if r.GPU < 0 {
			h += foldH
		} else {
			h += rowH
		}
	}
	w := float64(width)
	pw := w - left - right
	px := func(t float64) float64 { return left + pw*(t-lo)/(hi-lo) }
	// the shortest bars go first when there are too many
	total := 0
	for _, r := range rows {
		total += len(r.Bars)
	}
	minW := 0.0
	if total > maxGanttBars {
		widths := make([]float64, 0, total)
		for _, r := range rows {
			for _, b := range r.Bars {
				widths = append(widths, px(math.Min(b.End, hi))-px(math.Max(b.Start, lo)))
			}
		}
		sort.Float64s(widths)
		minW = widths[total-maxGanttBars]
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="gantt-svg" width="%d" height="%.0f" viewBox="0 0 %d %.0f" role="img" aria-label="%s">`,
		width, h, width, h, html.EscapeString(fmt.Sprintf("Gantt chart of %s from %s to %s: %d GPUs with jobs, each bar a job on a GPU", p.Label, results.Duration(lo), results.Duration(hi), busy)))
	b.WriteString(`<g font-size="11" font-family="Liberation Sans, Arial, sans-serif">`)
	y := top
	left0 := 0
	kp := p.Palette()
	for ri, r := range rows {
		rh := rowH
		if r.GPU < 0 {
			rh = foldH
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#f4f4f4"/>`, left, y, pw, rh)
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" fill="#555" font-size="10">%s idle here: %s</text>`, left+4, y+rh-3.5, html.EscapeString(plural(r.Idle, "GPU")), html.EscapeString(r.Name))
			y += rh
			continue
		}
		if ri%2 == 1 {
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#f7f9fc"/>`, left, y, pw, rh)
		}
		if rowH >= 9 {
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end" fill="#333" font-size="%.0f">%s</text>`, left-6, y+rh/2+3.5, math.Min(11, rh-1), html.EscapeString(r.Name))
		}
		lh := (rh - 2) / float64(r.Lanes)
		for _, bar := range r.Bars {
			x0, x1 := px(math.Max(bar.Start, lo)), px(math.Min(bar.End, hi))
			if x1-x0 < minW {
				left0++
				continue
			}
			by := y + 1 + float64(bar.Lane)*lh
			job := p.Out.Jobs[bar.Job]
			c := kp.Color(job.Model)
			stroke := "#fff"
			if bar.Shared {
				stroke = "#b00020"
			}
			if bar.Job == g.Found {
				stroke = "#000"
			}
			writeBar(&b, g.Prefix, bar, x0, by, math.Max(x1-x0, 0.5), math.Max(lh-0.5, 1), results.CSSColor(c), stroke, strokeWidth(bar, g.Found))
			if label := job.ID; x1-x0 >= float64(len(label))*6.2+4 && lh >= 9 {
				fg := "#fff"
				if results.DarkText(c) {
					fg = "#000"
				}
				fmt.Fprintf(&b, `<text x="%.2f" y="%.2f" fill="%s" font-size="%.0f" pointer-events="none">%s</text>`, x0+3, by+lh/2+3.5, fg, math.Min(11, lh-1), html.EscapeString(label))
			}
		}
		y += rh
	}
	// the time axis
	axisY := y + 2
	fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#999"/>`, left, left+pw, axisY, axisY)
	for _, t := range timeTicks(lo, hi, max(3, width/140)) {
		x := px(t)
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#999"/>`, x, x, axisY, axisY+4)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle" fill="#333">%s</text>`, x, axisY+16, results.Duration(t))
	}
	b.WriteString(`</g></svg>`)
	note := ""
	if left0 > 0 {
		note = fmt.Sprintf("%s too short to see at this zoom are left out; zoom in to see them.", plural(left0, "bar"))
	}
	if p.Timeline.IntervalsOmitted > 0 {
		note = fmt.Sprintf("This run recorded %s GPU intervals, too many to send to the page; the chart is empty (the downloads draw it).", results.Thousands(p.Timeline.IntervalsOmitted))
	}
	return b.String(), note
}

// writeBar writes one bar as an SVG rect. Its id names the interval, so
// that the pointer's events find it; the hover line says what the bar is
// (a <title> per bar doubled the bytes the browser parses).
func writeBar(b *strings.Builder, prefix string, bar GanttBar, x, y, w, h float64, fill, stroke, strokeWidth string) {
	var buf [64]byte
	num := func(v float64, prec int) { b.Write(strconv.AppendFloat(buf[:0], v, 'f', prec, 64)) }
	b.WriteString(`<rect id="`)
	b.WriteString(prefix)
	b.WriteString(`gb-`)
	b.Write(strconv.AppendInt(buf[:0], int64(bar.K), 10))
	b.WriteString(`" class="bar" x="`)
	num(x, 2)
	b.WriteString(`" y="`)
	num(y, 2)
	b.WriteString(`" width="`)
	num(w, 2)
	b.WriteString(`" height="`)
	num(h, 2)
	b.WriteString(`" fill="`)
	b.WriteString(fill)
	b.WriteString(`" stroke="`)
	b.WriteString(stroke)
	b.WriteString(`" stroke-width="`)
	b.WriteString(strokeWidth)
	b.WriteString(`" data-gpu="`)
	b.Write(strconv.AppendInt(buf[:0], int64(bar.GPU), 10))
	b.WriteString(`" data-job="`)
	b.Write(strconv.AppendInt(buf[:0], int64(bar.Job), 10))
	b.WriteString(`" data-s="`)
	num(bar.Start, -1)
	b.WriteString(`" data-e="`)
	num(bar.End, -1)
	b.WriteString(`"/>`)
}

func strokeWidth(b GanttBar, found int) string {
	switch {
	case b.Job == found:
		return "2"
	case b.Shared:
		return "1.2"
	}
	return "0.6"
}

// timeTicks are about n round times in [lo, hi], in the unit the page
// writes durations in.
func timeTicks(lo, hi float64, n int) []float64 {
	if !(hi > lo) {
		return []float64{lo}
	}
	unit := 1.0
	switch span := hi - lo; {
	case span >= 2*86400*3:
		unit = 86400
	case span >= 3600*3:
		unit = 3600
	case span >= 120*3:
		unit = 60
	}
	raw := (hi - lo) / unit / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	step *= unit
	var out []float64
	for t := math.Ceil(lo/step) * step; t <= hi+1e-9*step; t += step {
		out = append(out, t)
		if len(out) > 3*n {
			break
		}
	}
	return out
}
