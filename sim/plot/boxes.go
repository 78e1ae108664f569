package plot

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// box is a filled rectangle in data coordinates with an optional label
// written inside it (Gantt bars, bars, heat-map cells).
type box struct {
	x0, x1, y0, y1 float64
	fill           color.Color
	label          string
}

// boxes draws many boxes at once. gonum's BarChart and HeatMap cannot put
// text inside cells nor skip NaN values, hence this small plotter.
type boxes struct {
	items   []box
	outline draw.LineStyle // Width 0 draws no outline
	// fontSizes are the label sizes to try, largest first; a label is
	// drawn at the largest that fits inside its box, or not at all.
	fontSizes []vg.Length
	// uniform writes every label at one size (the largest that fits all),
	// so that a table of numbers looks like one.
	uniform bool
}

// refSize is the font size at which label widths are measured once; other
// sizes scale linearly.
const refSize = 10

// labelPad is the room kept between a label and its box edges.
const labelPad = 1.5

// Plot implements plot.Plotter.
func (b *boxes) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	rects := make([]vg.Rectangle, len(b.items))
	for i, it := range b.items {
		rects[i] = canonRect(trX(it.x0), trY(it.y0), trX(it.x1), trY(it.y1))
		c.FillPolygon(it.fill, closedPath(rects[i])[:4])
		if b.showOutline(rects[i]) {
			c.StrokeLines(b.outline, closedPath(rects[i]))
		}
	}
	b.drawLabels(c, rects)
}

// drawLabels writes the labels that fit, centred in their boxes.
func (b *boxes) drawLabels(c draw.Canvas, rects []vg.Rectangle) {
	if len(b.fontSizes) == 0 {
		return
	}
	ref := textStyle(refSize, color.Black)
	ext := ref.FontExtents()
	refH := ext.Ascent + ext.Descent
	widths := make(map[string]vg.Length)
	width := func(s string) vg.Length {
		w, ok := widths[s]
		if !ok {
			w = ref.Width(s)
			widths[s] = w
		}
		return w
	}
	fits := func(i int, size vg.Length) bool {
		r := rects[i]
		k := size / refSize
		return width(b.items[i].label)*k+2*labelPad <= r.Max.X-r.Min.X &&
			refH*k+labelPad <= r.Max.Y-r.Min.Y
	}
	common := vg.Length(0)
	if b.uniform {
		common = b.commonSize(fits)
		if common == 0 {
			return
		}
	}
	for i, it := range b.items {
		if it.label == "" {
			continue
		}
		size := common
		if !b.uniform {
			size = b.largestFitting(i, fits)
		}
		if size == 0 {
			continue
		}
		r := rects[i]
		sty := textStyle(size, textColorOn(it.fill))
		c.FillText(sty, vg.Point{X: (r.Min.X + r.Max.X) / 2, Y: (r.Min.Y + r.Max.Y) / 2}, it.label)
	}
}

// largestFitting returns the largest candidate size at which label i fits,
// or 0.
func (b *boxes) largestFitting(i int, fits func(int, vg.Length) bool) vg.Length {
	for _, s := range b.fontSizes {
		if fits(i, s) {
			return s
		}
	}
	return 0
}

// commonSize returns the largest candidate size at which every label fits,
// or 0.
func (b *boxes) commonSize(fits func(int, vg.Length) bool) vg.Length {
	for _, s := range b.fontSizes {
		all := true
		for i, it := range b.items {
			if it.label != "" && !fits(i, s) {
				all = false
				break
			}
		}
		if all {
			return s
		}
	}
	return 0
}

// canonRect returns the rectangle spanned by two corners in any order
// (negative bars grow downwards).
func canonRect(x0, y0, x1, y1 vg.Length) vg.Rectangle {
	return vg.Rectangle{
		Min: vg.Point{X: min(x0, x1), Y: min(y0, y1)},
		Max: vg.Point{X: max(x0, x1), Y: max(y0, y1)},
	}
}

// showOutline tells whether a box is large enough for its outline: on a
// sliver, the outline would paint over the whole fill.
func (b *boxes) showOutline(r vg.Rectangle) bool {
	min := 4 * b.outline.Width
	return b.outline.Width > 0 && r.Max.X-r.Min.X > min && r.Max.Y-r.Min.Y > min
}
