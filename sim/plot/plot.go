// Package plot draws schedlab's figures (JCT CDFs, Gantt charts, bars,
// curves, heat maps) with gonum/plot and returns them as SVG or PNG bytes.
//
// The package takes plain data (of schedlab's packages it imports only
// sim/results, for the palette its figures share with the page's tables
// and charts) so that the engine, the CLI and the Web Worker can all call
// it. Every constructor validates its input and returns an error instead
// of panicking; the same input always gives byte-identical output. The
// figures' fonts come through FaceData (see LoadFaces).
package plot

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strings"
	"sync"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Series is one line of a CDF or curve plot. For CDF, Y may be left empty:
// X is then taken as raw samples (e.g. job completion times in seconds).
type Series struct {
	Name string
	X, Y []float64
	// Color picks palette colour Color-1 instead of the series' own (0),
	// so that related series (ours and a paper's) share a colour.
	Color int
	// Dashed draws the line dashed, e.g. for reference values.
	Dashed bool
	// YErr, when given (one per point, NaN for none), draws an error bar
	// of ±YErr at each point of Lines, e.g. the spread over seeds.
	YErr []float64
	// Points draws only hollow markers, no line (Lines): a paper's
	// reported values beside our curve of the same colour.
	Points bool
}

// BarSeries is one colour of a grouped bar chart: one value per category,
// NaN meaning that the category has no bar for this series.
type BarSeries struct {
	Name   string
	Values []float64
	// Color picks palette colour Color-1 instead of the series' own (0),
	// so that related series (a GPU type's target and received shares)
	// share a colour; Light draws a light tint of it, to tell them apart.
	Color int
	Light bool
}

// GanttBar is one interval during which a job held a GPU.
type GanttBar struct {
	Row        int     // index into the rows passed to Gantt
	Start, End float64 // seconds
	Label      string  // job name, drawn inside the bar when it fits
	Key        string  // colour key (e.g. the job's model): equal keys get equal colours, named in a legend; empty means Label
}

// Options tunes the size and a few per-figure choices. The zero value is
// usable.
type Options struct {
	// Width and Height are the figure size in inches; zero means 7 x 4.2
	// (Gantt grows the default height with the number of rows).
	Width, Height float64
	// EmbedFonts embeds the fonts in SVG output so browsers without the
	// Liberation fonts render exactly what was measured (+~0.5 MB per SVG).
	EmbedFonts bool
	// MaxRows caps the rows a Gantt chart draws (0 means 128); when capped,
	// the title says "first N of M GPUs".
	MaxRows int
	// LogX and LogY use logarithmic axes in CDF (LogX only) and Lines;
	// the data on such an axis must then be positive.
	LogX, LogY bool
	// Keys are every colour key of the data a Gantt chart belongs to (one
	// per job: its model), so that charts of the same jobs colour them
	// alike (see results.KeyPalette); nil means the bars' own keys.
	Keys []string
}

// Defaults and limits of the figure geometry.
const (
	defaultWidth   = 7.0 // inches
	defaultHeight  = 4.2 // inches
	maxInches      = 30  // a 30-inch PNG is already 2880 px wide, 33 MB in memory
	pngDPI         = 96
	defaultMaxRows = 128 // Gavel's 108-GPU cluster whole
)

// Figure is a configured plot, rendered anew by each call of SVG or PNG.
// It is safe for concurrent use.
type Figure struct {
	mu    sync.Mutex // gonum's Draw normalises axis ranges in place
	p     *plot.Plot
	w, h  vg.Length
	embed bool
	lg    *legend // nil when the figure has none; may sit beside the plot
}

// Size returns the figure size in inches.
func (f *Figure) Size() (width, height float64) {
	return float64(f.w / vg.Inch), float64(f.h / vg.Inch)
}

// SVG renders the figure as an SVG document (ASCII only).
func (f *Figure) SVG() (out []byte, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	defer recoverInto(&err, "SVG")
	c := vgsvg.NewWith(vgsvg.UseWH(f.w, f.h), vgsvg.EmbedFonts(f.embed))
	f.draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("plot: writing SVG: %w", err)
	}
	return addFontFallbacks(buf.Bytes()), nil
}

// PNG renders the figure as a PNG image at 96 dpi.
func (f *Figure) PNG() (out []byte, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	defer recoverInto(&err, "PNG")
	c := vgimg.NewWith(vgimg.UseWH(f.w, f.h), vgimg.UseDPI(pngDPI))
	f.draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("plot: writing PNG: %w", err)
	}
	return buf.Bytes(), nil
}

// draw paints the background over the whole canvas, then the plot inside
// a margin: gonum places the title and the last tick labels flush with the
// canvas edge, where they look clipped.
func (f *Figure) draw(c draw.Canvas) {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	area, strip := layout(c, f.lg)
	f.p.Draw(area)
	if f.lg != nil && f.lg.outside {
		f.lg.drawBeside(strip, f.p.DataCanvas(area))
	}
}

// outerMargin is the blank border around every figure.
const outerMargin = vg.Length(6)

// layout splits a figure canvas into the area of the plot and, when the
// legend sits beside the plot, the strip on the right that holds it.
func layout(c draw.Canvas, lg *legend) (area, strip draw.Canvas) {
	area = draw.Crop(c, outerMargin, -outerMargin, outerMargin, -outerMargin)
	if lg == nil || !lg.outside {
		return area, draw.Canvas{}
	}
	lw, _ := lg.size()
	strip = area
	strip.Min.X = area.Max.X - lw
	area.Max.X = strip.Min.X - 2*legendMargin
	return area, strip
}

// dataCanvas is the area the plotters of p will draw into on a w x h
// figure; it only measures text, so no real canvas is needed. Layout
// decisions made before drawing (legend room, label density) use it.
func dataCanvas(p *plot.Plot, lg *legend, w, h vg.Length) draw.Canvas {
	area, _ := layout(draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: w, Y: h}}}, lg)
	return p.DataCanvas(area)
}

// recoverInto turns a panic deep inside gonum/plot into an error: callers
// (a Web Worker serving a page) must never crash on a figure.
func recoverInto(err *error, what string) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("plot: rendering %s failed: %v", what, r)
	}
}

// addFontFallbacks lets browsers without Liberation Sans fall back to Arial
// or Helvetica, which share its metrics, so that text measured by gonum
// still fits (the "SVG font trap").
func addFontFallbacks(svg []byte) []byte {
	return bytes.ReplaceAll(svg,
		[]byte("font-family:Liberation Sans;"),
		[]byte("font-family:'Liberation Sans',Arial,Helvetica,sans-serif;"))
}

// figureSize resolves the requested size against defaults and limits.
func figureSize(fn string, o Options, defHeight float64) (w, h vg.Length, err error) {
	wi, hi := o.Width, o.Height
	if wi == 0 {
		wi = defaultWidth
	}
	if hi == 0 {
		hi = defHeight
	}
	for _, d := range []struct {
		name string
		v    float64
	}{{"Options.Width", wi}, {"Options.Height", hi}} {
		if math.IsNaN(d.v) || d.v < 1 || d.v > maxInches {
			return 0, 0, fmt.Errorf("plot.%s: %s must be between 1 and %d inches (or 0 for the default), got %v",
				fn, d.name, maxInches, d.v)
		}
	}
	return vg.Length(wi) * vg.Inch, vg.Length(hi) * vg.Inch, nil
}

// newFigure wraps a configured plot, adding its legend (if any) last so
// that it is drawn over everything else.
func newFigure(p *plot.Plot, lg *legend, w, h vg.Length, o Options) *Figure {
	if lg != nil {
		p.Add(lg)
	}
	return &Figure{p: p, w: w, h: h, embed: o.EmbedFonts, lg: lg}
}

// Font sizes in points. Sans is easier to read than gonum's serif default
// at small sizes, and Liberation Sans has the metrics of Arial.
const (
	titleSize  = 12
	labelSize  = 10.5
	tickSize   = 9
	legendSize = 9
)

// sansFont returns the Liberation Sans font at the given size, the
// faces loaded (every figure names its fonts through it). A build that
// fetches its faces (see FaceData) has loaded them before it draws, so
// the panic here is a caller's mistake that recoverInto turns into the
// figure's error.
func sansFont(size vg.Length, bold bool) font.Font {
	if err := LoadFaces(); err != nil {
		panic(err)
	}
	f := font.Font{Typeface: "Liberation", Variant: "Sans"}
	if bold {
		f.Weight = xfont.WeightBold
	}
	return font.From(f, size)
}

// newPlot returns a plot with schedlab's common look: sans fonts, light
// axes and no default legend (figures draw their own, see legend.go).
func newPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.BackgroundColor = nil // Figure.draw paints it, margin included
	p.Title.Text = ascii(title)
	p.Title.TextStyle.Font = sansFont(titleSize, true)
	p.Title.Padding = vg.Points(6)
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Label.TextStyle.Font = sansFont(labelSize, false)
		ax.Label.Padding = vg.Points(3)
		ax.Tick.Label.Font = sansFont(tickSize, false)
		ax.Tick.Length = vg.Points(4)
		ax.Padding = vg.Points(3)
	}
	p.X.Label.Text = ascii(xLabel)
	p.Y.Label.Text = ascii(yLabel)
	// gonum's own legend stays empty, but Plot.Draw still measures its
	// font, gonum's default Liberation Serif, which schedlab's builds do
	// not carry (see TestFiguresUseTwoFaces).
	p.Legend.TextStyle.Font = sansFont(legendSize, false)
	return p
}

// textStyle is a centred label style for text drawn inside the data area.
func textStyle(size vg.Length, clr color.Color) text.Style {
	return text.Style{
		Color:   clr,
		Font:    sansFont(size, false),
		XAlign:  draw.XCenter,
		YAlign:  draw.YCenter,
		Handler: plot.DefaultTextHandler,
	}
}

// gridStyle is the style of grid lines: light enough not to compete with
// the data.
var gridStyle = draw.LineStyle{Color: color.Gray{Y: 220}, Width: vg.Points(0.5)}

// ascii replaces what is not printable ASCII, because the page moves SVG
// text in chunks cut at byte offsets, which would split multi-byte runes.
func ascii(s string) string {
	ok := true
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			ok = false
			break
		}
	}
	if ok {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		b.WriteString(asciiRune(r))
	}
	return b.String()
}

// asciiRune maps one rune to an ASCII stand-in.
func asciiRune(r rune) string {
	switch {
	case r >= 0x20 && r <= 0x7e:
		return string(r)
	case r == '\t' || r == '\n' || r == '\r':
		return " "
	}
	switch r {
	case 'µ', 'μ':
		return "u"
	case '×':
		return "x"
	case '–', '—', '−':
		return "-"
	case '‘', '’':
		return "'"
	case '“', '”':
		return `"`
	case '…':
		return "..."
	case '≤':
		return "<="
	case '≥':
		return ">="
	}
	return "?"
}
