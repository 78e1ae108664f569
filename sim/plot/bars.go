package plot

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/schedlab/schedlab/sim/results"
)

// groupWidth is the share of a category's slot taken by its bars; the rest
// separates neighbouring groups.
const groupWidth = 0.8

// Bars draws grouped bars: one group per category along x (e.g. models),
// one colour per series (e.g. policies), with a legend. A NaN value draws
// no bar; negative values grow downwards from zero.
func Bars(title, yLabel string, categories []string, series []BarSeries, o Options) (*Figure, error) {
	if err := LoadFaces(); err != nil {
		return nil, err
	}
	const fn = "Bars"
	w, h, err := figureSize(fn, o, defaultHeight)
	if err != nil {
		return nil, err
	}
	if err := checkLabels(fn, "categories", categories); err != nil {
		return nil, err
	}
	if err := checkBarSeries(fn, len(categories), series); err != nil {
		return nil, err
	}

	p := newPlot(title, "", yLabel)
	p.X.Min, p.X.Max = -0.5, float64(len(categories))-0.5
	lo, hi := barRange(series)
	p.Y.Min, p.Y.Max = roundOut(lo, hi, 5)
	p.Y.Tick.Marker = niceTicks{n: 5}
	grid := plotter.NewGrid()
	grid.Vertical, grid.Horizontal = draw.LineStyle{}, gridStyle
	bx := &boxes{}
	lg := &legend{}
	bw := groupWidth / float64(len(series))
	for s, bs := range series {
		fill := barColor(s, bs)
		for c, v := range bs.Values {
			if math.IsNaN(v) {
				continue
			}
			x0 := float64(c) - groupWidth/2 + float64(s)*bw
			b := box{x0: x0, x1: x0 + bw, y0: 0, y1: v, fill: fill}
			bx.items = append(bx.items, b)
			lg.shapes = append(lg.shapes, shape{x0: b.x0, y0: b.y0, x1: b.x1, y1: b.y1, area: true})
		}
		lg.add(bs.Name, swatch{fill: fill})
	}
	p.Add(grid, bx, zeroLine{})
	setCategoryTicks(&p.X, categories)
	fitCategoryLabels(p, nil, categories, w, h)
	lg.arrange(p, w, h, true)
	if lg.outside {
		fitCategoryLabels(p, lg, categories, w, h) // the slots got narrower
	}
	return newFigure(p, lg, w, h, o), nil
}

// barColor is the fill of series s: its own palette colour or the one it
// names, lightened (mixed half with white) when asked.
func barColor(s int, bs BarSeries) color.RGBA {
	c := results.SeriesColor(s)
	if bs.Color > 0 {
		c = results.SeriesColor(bs.Color - 1)
	}
	if bs.Light {
		mix := func(v uint8) uint8 { return uint8((int(v) + 255 + 1) / 2) }
		c = color.RGBA{R: mix(c.R), G: mix(c.G), B: mix(c.B), A: c.A}
	}
	return c
}

// TimeBars is Bars for values in seconds: the y axis reads in s, min or h,
// whichever suits the largest value (as the page's tables do), and the
// label gets the unit, e.g. "queuing delay (min)".
func TimeBars(title, yLabel string, categories []string, series []BarSeries, o Options) (*Figure, error) {
	if err := LoadFaces(); err != nil {
		return nil, err
	}
	largest := 0.0
	for _, s := range series {
		for _, v := range s.Values {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				largest = math.Max(largest, math.Abs(v))
			}
		}
	}
	unit := chooseTimeUnit(largest)
	scaled := make([]BarSeries, len(series))
	for i, s := range series {
		scaled[i] = BarSeries{Name: s.Name, Values: make([]float64, len(s.Values)), Color: s.Color, Light: s.Light}
		for j, v := range s.Values {
			scaled[i].Values[j] = v / unit.seconds
		}
	}
	return Bars(title, timeLabel(yLabel, unit), categories, scaled, o)
}

// checkBarSeries validates the series of a bar chart.
func checkBarSeries(fn string, nCat int, series []BarSeries) error {
	if len(series) == 0 {
		return errorf(fn, "series is empty")
	}
	for i, s := range series {
		name := seriesName(i, s.Name)
		if len(s.Values) != nCat {
			return errorf(fn, "%s has %d values for %d categories", name, len(s.Values), nCat)
		}
		for j, v := range s.Values {
			if math.IsInf(v, 0) {
				return errorf(fn, "%s.Values[%d] must be finite or NaN (no bar), got %v", name, j, v)
			}
		}
	}
	return nil
}

// barRange is the y range of the bars, always including zero, where bars
// start.
func barRange(series []BarSeries) (lo, hi float64) {
	for _, s := range series {
		for _, v := range s.Values {
			if !math.IsNaN(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if lo == 0 && hi == 0 {
		hi = 1 // nothing to draw: keep a sane empty axis
	}
	return lo, hi
}

// zeroLine draws y = 0, from where the bars grow.
type zeroLine struct{}

// Plot implements plot.Plotter.
func (zeroLine) Plot(c draw.Canvas, p *plot.Plot) {
	if p.Y.Min > 0 || p.Y.Max < 0 {
		return
	}
	_, trY := p.Transforms(&c)
	c.StrokeLine2(draw.LineStyle{Color: p.X.LineStyle.Color, Width: vg.Points(0.5)}, c.Min.X, trY(0), c.Max.X, trY(0))
}

// setCategoryTicks labels positions 0, 1, ... of a nominal axis.
func setCategoryTicks(a *plot.Axis, labels []string) {
	ticks := make([]plot.Tick, len(labels))
	for i, l := range labels {
		ticks[i] = plot.Tick{Value: float64(i), Label: ascii(l)}
	}
	a.Tick.Marker = plot.ConstantTicks(ticks)
	a.Tick.Length = 0
	a.Padding = 0
}

// fitCategoryLabels tilts the category labels on x when they are too wide
// for their slots, so that they do not run into each other.
func fitCategoryLabels(p *plot.Plot, lg *legend, labels []string, w, h vg.Length) {
	c := dataCanvas(p, lg, w, h)
	pitch := (c.Max.X - c.Min.X) / vg.Length(len(labels))
	var widest vg.Length
	for _, l := range labels {
		widest = max(widest, p.X.Tick.Label.Width(ascii(l)))
	}
	if widest+vg.Points(6) <= pitch {
		return
	}
	sty := &p.X.Tick.Label
	sty.XAlign, sty.YAlign = draw.XRight, draw.YTop
	if pitch < sty.FontExtents().Height*1.6 {
		sty.Rotation = math.Pi / 2
	} else {
		sty.Rotation = math.Pi / 4
	}
}
