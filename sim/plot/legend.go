package plot

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// corner is where the legend box sits inside the data area.
type corner int

const (
	topRight corner = iota
	topLeft
	bottomRight
	bottomLeft
)

// shape is something the legend should not cover, in data coordinates:
// an axis-aligned rectangle (a bar) or a segment (part of a curve; a point
// when both ends coincide).
type shape struct {
	x0, y0, x1, y1 float64
	area           bool
}

// legendEntry is one line of the legend.
type legendEntry struct {
	name   string
	thumbs []plot.Thumbnailer
}

// legend is drawn by schedlab itself rather than by gonum's plot.Legend,
// because gonum's has no background and a fixed corner: ours picks the
// corner covering the least data, and the figure may make room for it
// (see arrange).
type legend struct {
	entries []legendEntry
	shapes  []shape
	prefer  []corner // tie-break order
	outside bool     // drawn beside the plot rather than inside it
}

// Legend geometry in points.
const (
	legendMargin = 5  // between the box and the axes
	legendPad    = 4  // inside the box
	legendThumb  = 20 // thumbnail width
	legendGap    = 4  // between thumbnail and text
	legendClear  = 3  // air wanted between the box and the data
)

// add appends an entry; unnamed series get none.
func (l *legend) add(name string, thumbs ...plot.Thumbnailer) {
	if name == "" {
		return
	}
	l.entries = append(l.entries, legendEntry{name: ascii(name), thumbs: thumbs})
}

// style is the text style of the entries.
func (l *legend) style() text.Style {
	return text.Style{
		Color:   color.Black,
		Font:    sansFont(legendSize, false),
		XAlign:  draw.XLeft,
		YAlign:  draw.YCenter,
		Handler: plot.DefaultTextHandler,
	}
}

// entryHeight is the height of one line of the legend.
func (l *legend) entryHeight() vg.Length {
	return l.style().FontExtents().Height * 1.15
}

// size is the size of the legend box.
func (l *legend) size() (w, h vg.Length) {
	sty := l.style()
	var tw vg.Length
	for _, e := range l.entries {
		tw = max(tw, sty.Width(e.name))
	}
	w = 2*legendPad + legendThumb + legendGap + tw
	h = 2*legendPad + vg.Length(len(l.entries))*l.entryHeight()
	return w, h
}

// rect is the legend box placed in corner k of the data canvas c.
func (l *legend) rect(c draw.Canvas, k corner) vg.Rectangle {
	w, h := l.size()
	x := c.Max.X - legendMargin - w
	if k == topLeft || k == bottomLeft {
		x = c.Min.X + legendMargin
	}
	y := c.Max.Y - legendMargin - h
	if k == bottomLeft || k == bottomRight {
		y = c.Min.Y + legendMargin
	}
	return vg.Rectangle{Min: vg.Point{X: x, Y: y}, Max: vg.Point{X: x + w, Y: y + h}}
}

// best returns the preferred corner among those whose box covers the
// fewest shapes, with that number.
func (l *legend) best(c draw.Canvas, p *plot.Plot) (corner, int) {
	order := l.prefer
	if len(order) == 0 {
		order = []corner{topRight, topLeft, bottomRight, bottomLeft}
	}
	bestK, bestN := order[0], math.MaxInt
	for _, k := range order {
		if n := l.hits(c, p, l.rect(c, k)); n < bestN {
			bestK, bestN = k, n
		}
	}
	return bestK, bestN
}

// hits counts the shapes that a box r would cover.
func (l *legend) hits(c draw.Canvas, p *plot.Plot, r vg.Rectangle) int {
	trX, trY := p.Transforms(&c)
	const a = legendClear
	box := [4]float64{float64(r.Min.X) - a, float64(r.Min.Y) - a, float64(r.Max.X) + a, float64(r.Max.Y) + a}
	n := 0
	for _, s := range l.shapes {
		x0, y0 := float64(trX(s.x0)), float64(trY(s.y0))
		x1, y1 := float64(trX(s.x1)), float64(trY(s.y1))
		if s.area && boxesOverlap(box, x0, y0, x1, y1) || !s.area && segmentHitsBox(box, x0, y0, x1, y1) {
			n++
		}
	}
	return n
}

// boxesOverlap tells whether box and the rectangle spanned by two corners
// share any area.
func boxesOverlap(box [4]float64, x0, y0, x1, y1 float64) bool {
	return math.Min(x0, x1) < box[2] && math.Max(x0, x1) > box[0] &&
		math.Min(y0, y1) < box[3] && math.Max(y0, y1) > box[1]
}

// segmentHitsBox clips the segment against the box (Liang-Barsky) and tells
// whether anything of it is left.
func segmentHitsBox(box [4]float64, x0, y0, x1, y1 float64) bool {
	if math.IsNaN(x0 + y0 + x1 + y1) {
		return false
	}
	dx, dy := x1-x0, y1-y0
	t0, t1 := 0.0, 1.0
	for _, e := range [4][2]float64{{-dx, x0 - box[0]}, {dx, box[2] - x0}, {-dy, y0 - box[1]}, {dy, box[3] - y0}} {
		p, q := e[0], e[1]
		if p == 0 {
			if q < 0 {
				return false
			}
			continue
		}
		t := q / p
		if p < 0 {
			t0 = math.Max(t0, t)
		} else {
			t1 = math.Min(t1, t)
		}
		if t0 > t1 {
			return false
		}
	}
	return true
}

// arrange decides where the legend goes when every corner of the plot
// would cover data: above the data, by raising the top of the y axis
// (when headroom is allowed and a little suffices), else beside the plot,
// which then gets narrower. A legend too wide to sit beside the plot stays
// inside and covers some data.
func (l *legend) arrange(p *plot.Plot, w, h vg.Length, headroom bool) {
	if len(l.entries) == 0 {
		return
	}
	c := dataCanvas(p, nil, w, h)
	if _, n := l.best(c, p); n == 0 {
		return
	}
	lw, lh := l.size()
	f := float64(lh+2*legendMargin+legendClear) / float64(c.Max.Y-c.Min.Y)
	switch {
	case headroom && f < 0.4:
		l.raiseTop(p, f)
	case lw < 0.35*(c.Max.X-c.Min.X):
		l.outside = true
	}
}

// raiseTop grows the y axis so that its top fraction f is free of data.
func (l *legend) raiseTop(p *plot.Plot, f float64) {
	lo, hi := p.Y.Min, p.Y.Max
	if _, isLog := p.Y.Scale.(plot.LogScale); isLog {
		p.Y.Max = math.Exp(math.Log(lo) + (math.Log(hi)-math.Log(lo))/(1-f))
	} else {
		p.Y.Max = lo + (hi-lo)/(1-f)
	}
	l.prefer = []corner{topRight, topLeft, bottomRight, bottomLeft}
}

// Plot implements plot.Plotter: the legend is added last, so it is drawn
// over the data it could not avoid.
func (l *legend) Plot(c draw.Canvas, p *plot.Plot) {
	if len(l.entries) == 0 || l.outside {
		return
	}
	k, _ := l.best(c, p)
	l.drawBox(c, l.rect(c, k))
}

// drawBeside draws the legend in the strip right of the plot, its top
// level with the top of the data area dc.
func (l *legend) drawBeside(strip, dc draw.Canvas) {
	w, h := l.size()
	top := dc.Max.Y
	l.drawBox(strip, vg.Rectangle{
		Min: vg.Point{X: strip.Min.X, Y: top - h},
		Max: vg.Point{X: strip.Min.X + w, Y: top},
	})
}

// drawBox draws the legend into the rectangle r of c.
func (l *legend) drawBox(c draw.Canvas, r vg.Rectangle) {
	c.FillPolygon(color.White, closedPath(r)[:4])
	c.StrokeLines(draw.LineStyle{Color: color.Gray{Y: 160}, Width: vg.Points(0.5)}, closedPath(r))

	sty := l.style()
	eh := l.entryHeight()
	y := r.Max.Y - legendPad - eh/2
	for _, e := range l.entries {
		icon := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: r.Min.X + legendPad, Y: y - eh/2},
			Max: vg.Point{X: r.Min.X + legendPad + legendThumb, Y: y + eh/2},
		}}
		for _, t := range e.thumbs {
			t.Thumbnail(&icon)
		}
		c.FillText(sty, vg.Point{X: icon.Max.X + legendGap, Y: y}, e.name)
		y -= eh
	}
}

// closedPath lists the corners of r, back to the start, for StrokeLines.
func closedPath(r vg.Rectangle) []vg.Point {
	return []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}, r.Min}
}

// swatch is a filled-square legend thumbnail for bars.
type swatch struct{ fill color.Color }

// Thumbnail implements plot.Thumbnailer.
func (s swatch) Thumbnail(c *draw.Canvas) {
	side := min(c.Max.Y-c.Min.Y, c.Max.X-c.Min.X) * 0.8
	cx, cy := (c.Min.X+c.Max.X)/2, (c.Min.Y+c.Max.Y)/2
	r := vg.Rectangle{
		Min: vg.Point{X: cx - side/2, Y: cy - side/2},
		Max: vg.Point{X: cx + side/2, Y: cy + side/2},
	}
	c.FillPolygon(s.fill, closedPath(r)[:4])
}
