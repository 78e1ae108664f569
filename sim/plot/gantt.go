package plot

import (
	"container/heap"
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/schedlab/schedlab/sim/results"
)

// Gantt draws one row per GPU (row 0 at the top) and one bar per interval
// a job held that GPU. Where bars of one row overlap in time (GPU sharing)
// the row is split into lanes so every job stays visible. Only the first
// Options.MaxRows rows are drawn (128 by default); the title then says so.
// Times are in seconds and shown in s, min or h. The default height grows
// with the number of rows drawn. Bars are coloured by their key (a job's
// model), one colour per key (results.KeyPalette), with a legend beside
// the chart; the label on a bar names its job.
func Gantt(title string, rows []string, bars []GanttBar, o Options) (*Figure, error) {
	if err := LoadFaces(); err != nil {
		return nil, err
	}
	const fn = "Gantt"
	if err := checkMaxRows(fn, o); err != nil {
		return nil, err
	}
	if err := checkLabels(fn, "rows", rows); err != nil {
		return nil, err
	}
	if err := checkBars(fn, len(rows), bars); err != nil {
		return nil, err
	}
	n := len(rows)
	if limit := orDefault(o.MaxRows, defaultMaxRows); n > limit {
		n = limit
		title = cappedTitle(title, n, len(rows))
	}
	w, h, err := figureSize(fn, o, ganttHeight(n))
	if err != nil {
		return nil, err
	}
	shown := make([]GanttBar, 0, len(bars))
	for _, b := range bars {
		if b.Row < n {
			shown = append(shown, b)
		}
	}
	lo, hi := timeSpan(shown)
	unit := chooseTimeUnit(math.Max(math.Abs(lo), math.Abs(hi)))

	p := newPlot(title, timeLabel("time", unit), "")
	p.X.Tick.Marker = niceTicks{n: max(3, int(w/vg.Inch))}
	p.X.Min, p.X.Max = lo/unit.seconds, hi/unit.seconds
	p.Y.Min, p.Y.Max = -0.5, float64(n)-0.5
	p.Y.Padding, p.Y.Tick.Length = 0, 0
	grid := plotter.NewGrid()
	grid.Vertical, grid.Horizontal = gridStyle, draw.LineStyle{}
	keys := o.Keys
	if keys == nil {
		keys = make([]string, len(bars))
		for i, b := range bars {
			keys[i] = barKey(b)
		}
	}
	kp := results.NewKeyPalette(keys)
	var lg *legend
	if len(kp.Keys) > 0 {
		lg = &legend{outside: true}
		for _, k := range kp.Keys {
			lg.add(k, swatch{fill: kp.Color(k)})
		}
		if kp.HasOther {
			lg.add(results.OtherName, swatch{fill: results.Other})
		}
	}
	p.Add(rowBands{n: n}, grid, ganttBoxes(shown, n, unit, kp))
	setRowTicks(p, rows[:n], w, h)
	return newFigure(p, lg, w, h, o), nil
}

// barKey is the colour key of a bar: its Key, or its Label.
func barKey(b GanttBar) string {
	if b.Key == "" {
		return b.Label
	}
	return b.Key
}

// checkBars validates the Gantt bars against the number of rows.
func checkBars(fn string, nRows int, bars []GanttBar) error {
	for i, b := range bars {
		switch {
		case b.Row < 0 || b.Row >= nRows:
			return errorf(fn, "bars[%d].Row must be in [0, %d), got %d", i, nRows, b.Row)
		case math.IsNaN(b.Start) || math.IsInf(b.Start, 0):
			return errorf(fn, "bars[%d].Start must be finite, got %v", i, b.Start)
		case math.IsNaN(b.End) || math.IsInf(b.End, 0):
			return errorf(fn, "bars[%d].End must be finite, got %v", i, b.End)
		case b.End < b.Start:
			return errorf(fn, "bars[%d]: End (%v) is before Start (%v)", i, b.End, b.Start)
		}
	}
	return nil
}

// orDefault returns v, or def when v is zero.
func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// cappedTitle says that only part of the cluster is drawn.
func cappedTitle(title string, n, total int) string {
	note := fmt.Sprintf("first %d of %d GPUs", n, total)
	if title == "" {
		return note
	}
	return title + " (" + note + ")"
}

// ganttHeight is the default height in inches for n rows: 0.16 inch a
// row, room for the largest row label (8 pt) up to 128 rows (21.8
// inches), never below the usual 4.2.
func ganttHeight(n int) float64 {
	return math.Max(defaultHeight, math.Min(1.3+0.16*float64(n), 22))
}

// timeSpan is the time range of the bars; it starts at zero unless a bar
// starts earlier, so that a chart shows the whole run.
func timeSpan(bars []GanttBar) (lo, hi float64) {
	if len(bars) == 0 {
		return 0, 1
	}
	lo, hi = 0, math.Inf(-1)
	for _, b := range bars {
		lo, hi = math.Min(lo, b.Start), math.Max(hi, b.End)
	}
	return lo, hi
}

// rowCenter is the y coordinate of row r of n: row 0 at the top, as a
// reader scans a cluster from its first GPU.
func rowCenter(r, n int) float64 { return float64(n - 1 - r) }

// Vertical proportions of a row, in rows.
const (
	rowGap  = 0.08 // above and below the bars of a row
	laneGap = 0.1  // between lanes, as a fraction of a lane
)

// ganttBoxes lays the bars out in rows and lanes.
func ganttBoxes(bars []GanttBar, n int, unit timeUnit, kp *results.KeyPalette) *boxes {
	byRow := make([][]int, n)
	for i, b := range bars {
		byRow[b.Row] = append(byRow[b.Row], i)
	}
	items := make([]box, 0, len(bars))
	for r, idx := range byRow {
		iv := make([]interval, len(idx))
		for j, i := range idx {
			iv[j] = interval{bars[i].Start, bars[i].End}
		}
		lanes, k := assignLanes(iv)
		top := rowCenter(r, n) + 0.5 - rowGap
		lh := (1 - 2*rowGap) / float64(k)
		for j, i := range idx {
			b := bars[i]
			y1 := top - float64(lanes[j])*lh
			y0 := y1 - lh
			if k > 1 {
				y0 += lh * laneGap
			}
			items = append(items, box{
				x0: b.Start / unit.seconds, x1: b.End / unit.seconds, y0: y0, y1: y1,
				fill: kp.Color(barKey(b)), label: ascii(b.Label),
			})
		}
	}
	return &boxes{
		items:     items,
		outline:   draw.LineStyle{Color: color.White, Width: vg.Points(0.6)},
		fontSizes: []vg.Length{8, 7, 6},
	}
}

// setRowTicks labels the rows, skipping some when they are too dense for
// one label each (rows then stay told apart by the shaded bands).
func setRowTicks(p *plot.Plot, rows []string, w, h vg.Length) {
	n := len(rows)
	size := vg.Length(tickSize)
	if n > 32 {
		size = 8
	}
	p.Y.Tick.Label.Font = sansFont(size, false)
	c := dataCanvas(p, nil, w, h)
	pitch := (c.Max.Y - c.Min.Y) / vg.Length(n)
	need := p.Y.Tick.Label.FontExtents().Height * 1.05
	step := max(1, int(math.Ceil(float64(need/pitch))))
	ticks := make([]plot.Tick, 0, n/step+1)
	for r := 0; r < n; r += step {
		ticks = append(ticks, plot.Tick{Value: rowCenter(r, n), Label: ascii(rows[r])})
	}
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
}

// rowBands shades every other row so that long rows can be followed
// across the chart.
type rowBands struct{ n int }

// Plot implements plot.Plotter.
func (b rowBands) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	shade := color.Gray{Y: 242}
	for r := 1; r < b.n; r += 2 {
		y := rowCenter(r, b.n)
		rect := canonRect(c.Min.X, trY(y-0.5), c.Max.X, trY(y+0.5))
		c.FillPolygon(shade, closedPath(rect)[:4])
	}
}

// interval is a closed-open time interval [start, end).
type interval struct{ start, end float64 }

// assignLanes colours intervals greedily: in order of start time, each
// takes the lowest-numbered lane free at its start (a lane whose last
// interval ended at or before it). That uses as few lanes as the largest
// number of intervals overlapping at one time. It returns each interval's
// lane, in input order, and the number of lanes (at least 1).
func assignLanes(iv []interval) (lanes []int, n int) {
	order := make([]int, len(iv))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if c := cmpFloat(iv[a].start, iv[b].start); c != 0 {
			return c
		}
		return cmpFloat(iv[a].end, iv[b].end)
	})
	lanes = make([]int, len(iv))
	busy := &endHeap{}  // lanes in use, by the end of their last interval
	free := &laneHeap{} // lanes released, lowest first
	for _, i := range order {
		for busy.Len() > 0 && (*busy)[0].end <= iv[i].start {
			heap.Push(free, heap.Pop(busy).(laneEnd).lane)
		}
		lane := n
		if free.Len() > 0 {
			lane = heap.Pop(free).(int)
		} else {
			n++
		}
		lanes[i] = lane
		heap.Push(busy, laneEnd{end: iv[i].end, lane: lane})
	}
	return lanes, max(n, 1)
}

// cmpFloat orders two finite floats.
func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// laneEnd is a lane in use and when it frees up.
type laneEnd struct {
	end  float64
	lane int
}

// endHeap is a min-heap of lanes in use by end time (then lane, so that
// the order of pops never depends on heap internals).
type endHeap []laneEnd

func (h endHeap) Len() int { return len(h) }
func (h endHeap) Less(i, j int) bool {
	return h[i].end < h[j].end || h[i].end == h[j].end && h[i].lane < h[j].lane
}
func (h endHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *endHeap) Push(x any)   { *h = append(*h, x.(laneEnd)) }
func (h *endHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// laneHeap is a min-heap of free lane numbers.
type laneHeap []int

func (h laneHeap) Len() int           { return len(h) }
func (h laneHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h laneHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *laneHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *laneHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
