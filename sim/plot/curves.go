package plot

import (
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/schedlab/schedlab/sim/results"
)

// CDF draws one cumulative distribution per series, y being the fraction
// of jobs in [0, 1]. A series with an empty Y holds raw samples (e.g. JCTs
// in seconds) and is drawn as an empirical step CDF; otherwise X, Y is a
// precomputed CDF (both non-decreasing, Y within [0, 1]). X is in seconds
// and shown in s, min or h, whichever reads best; xLabel gets the unit
// appended (e.g. "JCT" becomes "JCT (h)").
func CDF(title, xLabel string, series []Series, o Options) (*Figure, error) {
	if err := LoadFaces(); err != nil {
		return nil, err
	}
	const fn = "CDF"
	w, h, err := figureSize(fn, o, defaultHeight)
	if err != nil {
		return nil, err
	}
	if o.LogY {
		return nil, errorf(fn, "Options.LogY is not supported (y is a fraction in [0, 1])")
	}
	if len(series) == 0 {
		return nil, errorf(fn, "series is empty")
	}
	curves := make([]plotter.XYs, len(series))
	for i, s := range series {
		if curves[i], err = cdfPoints(fn, i, s, o); err != nil {
			return nil, err
		}
	}
	unit := chooseTimeUnit(maxAbsX(curves))
	for _, c := range curves {
		for j := range c {
			c[j].X /= unit.seconds
		}
	}

	p := newPlot(title, timeLabel(xLabel, unit), "fraction of jobs")
	setCurveAxes(p, w, o)
	p.Y.Min, p.Y.Max = 0, 1
	p.X.Min, p.X.Max = xRange(curves, o.LogX)
	widenLogRanges(p)
	lg := &legend{prefer: []corner{bottomRight, topLeft, topRight, bottomLeft}}
	for i, c := range curves {
		line := &plotter.Line{XYs: c, LineStyle: seriesLine(i, series[i])}
		p.Add(line)
		lg.add(series[i].Name, line)
		lg.shapes = append(lg.shapes, segments(c)...)
	}
	lg.arrange(p, w, h, false) // y is a fraction: no room above 1
	return newFigure(p, lg, w, h, o), nil
}

// Lines draws curves with point markers, e.g. a sweep of JCT against load.
// Points are joined in the order given.
func Lines(title, xLabel, yLabel string, series []Series, o Options) (*Figure, error) {
	if err := LoadFaces(); err != nil {
		return nil, err
	}
	const fn = "Lines"
	w, h, err := figureSize(fn, o, defaultHeight)
	if err != nil {
		return nil, err
	}
	if len(series) == 0 {
		return nil, errorf(fn, "series is empty")
	}
	curves := make([]plotter.XYs, len(series))
	for i, s := range series {
		if err := checkXY(fn, i, s, o); err != nil {
			return nil, err
		}
		curves[i] = xys(s.X, s.Y)
	}

	p := newPlot(title, xLabel, yLabel)
	setCurveAxes(p, w, o)
	if o.LogY {
		setLogAxis(&p.Y)
	}
	p.X.Min, p.X.Max = xRange(curves, true)
	p.Y.Min, p.Y.Max = yRange(curves)
	for _, s := range series { // room for the error bars
		for k, e := range s.YErr {
			if e > 0 && !math.IsInf(e, 0) && k < len(s.Y) && !o.LogY {
				p.Y.Min, p.Y.Max = math.Min(p.Y.Min, s.Y[k]-e), math.Max(p.Y.Max, s.Y[k]+e)
			}
		}
	}
	if !o.LogY {
		p.Y.Min = nearZero(p.Y.Min, p.Y.Max)
	}
	widenLogRanges(p)
	lg := &legend{}
	for i, c := range curves {
		if series[i].Points {
			dots := &plotter.Scatter{XYs: c, GlyphStyle: paperMarker(styleIndex(i, series[i]))}
			p.Add(dots)
			lg.add(series[i].Name, dots)
			lg.shapes = append(lg.shapes, segments(c)...)
			continue
		}
		line := &plotter.Line{XYs: c, LineStyle: seriesLine(i, series[i])}
		dots := &plotter.Scatter{XYs: c, GlyphStyle: markerStyle(styleIndex(i, series[i]))}
		if bars := errorBars(c, series[i].YErr, styleIndex(i, series[i])); bars != nil {
			p.Add(bars)
		}
		p.Add(line, dots)
		lg.add(series[i].Name, line, dots)
		lg.shapes = append(lg.shapes, segments(c)...)
	}
	lg.arrange(p, w, h, true)
	return newFigure(p, lg, w, h, o), nil
}

// cdfPoints validates one CDF series and returns the polyline to draw.
func cdfPoints(fn string, i int, s Series, o Options) (plotter.XYs, error) {
	if len(s.Y) == 0 {
		return empiricalCDF(fn, i, s, o)
	}
	if err := checkXY(fn, i, s, o); err != nil {
		return nil, err
	}
	name := seriesName(i, s.Name)
	for j := range s.X {
		if s.Y[j] < 0 || s.Y[j] > 1 {
			return nil, errorf(fn, "%s.Y[%d] must be within [0, 1], got %v", name, j, s.Y[j])
		}
		if j > 0 && s.X[j] < s.X[j-1] {
			return nil, errorf(fn, "%s.X must be non-decreasing, but X[%d]=%v < X[%d]=%v", name, j, s.X[j], j-1, s.X[j-1])
		}
		if j > 0 && s.Y[j] < s.Y[j-1] {
			return nil, errorf(fn, "%s.Y must be non-decreasing, but Y[%d]=%v < Y[%d]=%v", name, j, s.Y[j], j-1, s.Y[j-1])
		}
	}
	return xys(s.X, s.Y), nil
}

// empiricalCDF turns raw samples into the outline of their step CDF: one
// vertical jump per distinct value.
func empiricalCDF(fn string, i int, s Series, o Options) (plotter.XYs, error) {
	name := seriesName(i, s.Name)
	if len(s.X) == 0 {
		return nil, errorf(fn, "%s has no samples", name)
	}
	if err := checkFinite(fn, name+".X", s.X); err != nil {
		return nil, err
	}
	if o.LogX {
		if err := checkPositive(fn, name+".X", "Options.LogX", s.X); err != nil {
			return nil, err
		}
	}
	xs := slices.Clone(s.X)
	slices.Sort(xs)
	n := float64(len(xs))
	pts := plotter.XYs{{X: xs[0], Y: 0}}
	for j, v := range xs {
		if j+1 < len(xs) && xs[j+1] == v {
			continue // one jump per distinct value
		}
		prev := pts[len(pts)-1].Y
		pts = append(pts, plotter.XY{X: v, Y: prev}, plotter.XY{X: v, Y: float64(j+1) / n})
	}
	return pts, nil
}

// setCurveAxes sets ticks and grid shared by CDF and Lines.
func setCurveAxes(p *plot.Plot, w vg.Length, o Options) {
	p.X.Tick.Marker = niceTicks{n: max(3, int(w/vg.Inch))}
	p.Y.Tick.Marker = niceTicks{n: 5}
	if o.LogX {
		setLogAxis(&p.X)
	}
	grid := plotter.NewGrid()
	grid.Vertical, grid.Horizontal = gridStyle, gridStyle
	p.Add(grid)
}

// styleIndex is the palette position of series i: its own, or the one it
// asks for.
func styleIndex(i int, s Series) int {
	if s.Color > 0 {
		return s.Color - 1
	}
	return i
}

// seriesLine is the line style of series i, honouring its Color and Dashed.
func seriesLine(i int, s Series) draw.LineStyle {
	sty := curveStyle(styleIndex(i, s))
	if s.Dashed {
		sty.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	}
	return sty
}

// curveStyle is the line style of series i: palette colours first, then
// the same colours dashed, so that more series than colours stay apart.
func curveStyle(i int) draw.LineStyle {
	sty := draw.LineStyle{Color: results.SeriesColor(i), Width: vg.Points(1.5)}
	if (i/results.PaletteSize)%2 == 1 {
		sty.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	}
	return sty
}

// markers are the point shapes of Lines, cycled with a period coprime to
// the palette's so that colour and shape both tell series apart.
var markers = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}, draw.RingGlyph{},
	draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{},
}

// markerStyle is the point style of series i.
func markerStyle(i int) draw.GlyphStyle {
	return draw.GlyphStyle{Color: results.SeriesColor(i), Radius: vg.Points(2.8), Shape: markers[i%len(markers)]}
}

// paperMarker is the point style of a Points series: a larger hollow
// ring, so a paper's value stays visible over our marker of its colour.
func paperMarker(i int) draw.GlyphStyle {
	return draw.GlyphStyle{Color: results.SeriesColor(i), Radius: vg.Points(4.5), Shape: draw.RingGlyph{}}
}

// errorBars draws ±err at the points of c (nil when there is no spread).
func errorBars(c plotter.XYs, err []float64, i int) plot.Plotter {
	if len(err) != len(c) {
		return nil
	}
	var pts plotter.XYs
	var errs plotter.YErrors
	for k, e := range err {
		if e > 0 && !math.IsInf(e, 0) {
			pts = append(pts, c[k])
			errs = append(errs, struct{ Low, High float64 }{e, e})
		}
	}
	if len(pts) == 0 {
		return nil
	}
	bars, e := plotter.NewYErrorBars(struct {
		plotter.XYs
		plotter.YErrors
	}{pts, errs})
	if e != nil {
		return nil
	}
	bars.LineStyle = draw.LineStyle{Color: results.SeriesColor(i), Width: vg.Points(1)}
	bars.CapWidth = vg.Points(5)
	return bars
}

// xys pairs coordinates (lengths are checked by the caller).
func xys(x, y []float64) plotter.XYs {
	pts := make(plotter.XYs, len(x))
	for i := range x {
		pts[i] = plotter.XY{X: x[i], Y: y[i]}
	}
	return pts
}

// segments lists the pieces of the curves for legend placement; a lone
// point counts as a degenerate segment.
func segments(c plotter.XYs) []shape {
	if len(c) == 1 {
		return []shape{{x0: c[0].X, y0: c[0].Y, x1: c[0].X, y1: c[0].Y}}
	}
	out := make([]shape, 0, len(c))
	for j := 1; j < len(c); j++ {
		out = append(out, shape{x0: c[j-1].X, y0: c[j-1].Y, x1: c[j].X, y1: c[j].Y})
	}
	return out
}

// maxAbsX is the largest |x| over all curves, which decides the time unit.
func maxAbsX(curves []plotter.XYs) float64 {
	m := 0.0
	for _, c := range curves {
		for _, pt := range c {
			m = math.Max(m, math.Abs(pt.X))
		}
	}
	return m
}

// xRange is the x extent of the curves; unless tight, a non-negative axis
// may start at zero (see nearZero).
func xRange(curves []plotter.XYs, tight bool) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, c := range curves {
		for _, pt := range c {
			lo, hi = math.Min(lo, pt.X), math.Max(hi, pt.X)
		}
	}
	if !tight {
		lo = nearZero(lo, hi)
	}
	return lo, hi
}

// nearZero moves the start of a non-negative axis to zero when that adds
// at most a third to its span, so that values compare by length.
func nearZero(lo, hi float64) float64 {
	if lo >= 0 && lo < 0.25*hi {
		return 0
	}
	return lo
}

// yRange is the y extent of the curves.
func yRange(curves []plotter.XYs) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, c := range curves {
		for _, pt := range c {
			lo, hi = math.Min(lo, pt.Y), math.Max(hi, pt.Y)
		}
	}
	return lo, hi
}

// widenLogRanges gives a log axis holding a single value one decade around
// it: gonum would widen it by +-1, which may reach zero.
func widenLogRanges(p *plot.Plot) {
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		if _, isLog := a.Scale.(plot.LogScale); isLog && a.Min == a.Max {
			a.Min, a.Max = a.Min/math.Sqrt(10), a.Max*math.Sqrt(10)
		}
	}
}
