package plot

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"

	"codeberg.org/go-fonts/liberation"
	xfont "golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgpdf"
)

// TestFiguresUseTwoFaces: every figure is drawn with Liberation Sans
// Regular and Bold alone. schedlab's builds carry only these two faces
// (internal/liberation gives the other ten Liberation faces their data,
// see go.mod's replace directive), so a figure that asked for Serif,
// Mono or an italic would silently be drawn in Sans. Each figure is
// rendered with a font cache that holds the two faces and nothing else,
// where any other face is missing and the render fails, and must come
// out byte for byte as with the full cache.
func TestFiguresUseTwoFaces(t *testing.T) {
	if err := LoadFaces(); err != nil {
		t.Fatal(err)
	}
	regular := font.Font{Typeface: "Liberation", Variant: "Sans"}
	bold := regular
	bold.Weight = xfont.WeightBold
	var coll font.Collection
	for _, c := range []struct {
		f    font.Font
		name string
	}{{regular, "Liberation Sans"}, {bold, "Liberation Sans Bold"}} {
		face := font.DefaultCache.Lookup(c.f, 10).Face
		if face == nil {
			t.Fatalf("no %s face registered", c.name)
		}
		// The face is the real one, not another face's data.
		if got, err := face.Name(nil, sfnt.NameIDFull); err != nil || got != c.name {
			t.Fatalf("the face registered as %s is named %q (%v)", c.name, got, err)
		}
		coll = append(coll, font.Face{Font: c.f, Face: face})
	}

	figures := append(append([]figureCase{}, allFigures...),
		figureCase{"Lines/errors,points,dashed", func(o Options) (*Figure, error) {
			s := []Series{
				{Name: "ours", X: []float64{1, 2, 3}, Y: []float64{2, 3, 5}, YErr: []float64{0.5, math.NaN(), 1}},
				{Name: "paper", X: []float64{1, 2, 3}, Y: []float64{2.2, 2.9, 4.1}, Color: 1, Points: true},
				{Name: "bound", X: []float64{1, 3}, Y: []float64{1, 6}, Dashed: true},
			}
			return Lines("a sweep", "load", "JCT (h)", s, o)
		}},
		figureCase{"Gantt/capped", func(o Options) (*Figure, error) {
			o.MaxRows = 2
			return Gantt("GPUs", ganttRows, ganttBars, o)
		}},
		figureCase{"Bars/light", func(o Options) (*Figure, error) {
			s := []BarSeries{{Name: "target", Values: []float64{1, 2, 3}, Color: 1}, {Name: "received", Values: []float64{0.8, 2.5, 3}, Color: 1, Light: true}}
			return Bars("shares", "share", barCats, s, o)
		}},
	)
	type render struct{ svg, png []byte }
	renderAll := func() []render {
		var out []render
		for _, c := range figures {
			f, err := c.build(Options{})
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			svg, err := f.SVG()
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			png, err := f.PNG()
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			out = append(out, render{svg, png})
		}
		return out
	}
	full := renderAll()

	// Figures take their text handler from these globals when built.
	savedCache, savedHandler := font.DefaultCache, plot.DefaultTextHandler
	defer func() { font.DefaultCache, plot.DefaultTextHandler = savedCache, savedHandler }()
	font.DefaultCache = font.NewCache(coll)
	plot.DefaultTextHandler = text.Plain{Fonts: font.DefaultCache}
	two := renderAll()

	for i, c := range figures {
		if !bytes.Equal(full[i].svg, two[i].svg) || !bytes.Equal(full[i].png, two[i].png) {
			t.Errorf("%s: drawn with only Liberation Sans Regular and Bold, the figure differs: it uses another face", c.name)
		}
	}
}

// faceName is the full name of the face gonum's font cache holds for f.
func faceName(f font.Font) string {
	face := font.DefaultCache.Lookup(f, 10).Face
	if face == nil {
		return "(none)"
	}
	name, err := face.Name(nil, sfnt.NameIDFull)
	if err != nil {
		return err.Error()
	}
	return name
}

// sansAtStart is the face gonum's cache held for Liberation Sans Regular
// when the package started, before any test made a figure.
var sansAtStart = faceName(font.Font{Typeface: "Liberation", Variant: "Sans"})

// TestFacesLoadWithFirstFigure: gonum/plot parses the placeholder font of
// internal/liberation at start, not the Liberation faces, and the first
// figure made puts Liberation Sans Regular and Bold in their place; every
// other face stays the placeholder.
func TestFacesLoadWithFirstFigure(t *testing.T) {
	const placeholder = "schedlab placeholder"
	if sansAtStart != placeholder {
		t.Errorf("at start gonum's cache holds %q for Liberation Sans, want the placeholder (parsing the real face belongs to the first figure)", sansAtStart)
	}
	sans := font.Font{Typeface: "Liberation", Variant: "Sans"}
	bold := sans
	bold.Weight = xfont.WeightBold
	serif := font.Font{Typeface: "Liberation", Variant: "Serif"}

	// Another test may have made a figure already: start again from the
	// cache as gonum's start leaves it, the placeholder for every face.
	ph, err := opentype.Parse([]byte(liberation.Placeholder))
	if err != nil {
		t.Fatalf("the placeholder font: %v", err)
	}
	savedCache, savedHandler, savedLoaded := font.DefaultCache, plot.DefaultTextHandler, faces.loaded.Load()
	defer func() {
		font.DefaultCache, plot.DefaultTextHandler = savedCache, savedHandler
		faces.loaded.Store(savedLoaded)
	}()
	font.DefaultCache = font.NewCache(font.Collection{{Font: sans, Face: ph}, {Font: bold, Face: ph}, {Font: serif, Face: ph}})
	plot.DefaultTextHandler = text.Plain{Fonts: font.DefaultCache}
	faces.loaded.Store(false)
	if got := faceName(sans); got != placeholder {
		t.Fatalf("the test's cache holds %q", got)
	}

	f, err := CDF("JCT CDF", "JCT", cdfSeries, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.SVG(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		f    font.Font
		want string
	}{{sans, "Liberation Sans"}, {bold, "Liberation Sans Bold"}, {serif, placeholder}} {
		if got := faceName(c.f); got != c.want {
			t.Errorf("after a figure, the face for %+v is %q, want %q", c.f, got, c.want)
		}
	}
}

// TestNoLatex: schedlab's builds carry no LaTeX layout (internal/golatex
// stands in for go-latex, whose fonts would weigh 0.6 MB), so a figure
// drawn with gonum's LaTeX text handler fails with a message saying so
// (gonum panics as it measures the text), rather than drawing something
// else.
func TestNoLatex(t *testing.T) {
	saved := plot.DefaultTextHandler
	defer func() { plot.DefaultTextHandler = saved }()
	plot.DefaultTextHandler = text.Latex{Fonts: font.DefaultCache}
	msg := func() (msg string) {
		defer func() {
			if v := recover(); v != nil {
				msg = fmt.Sprint(v)
			}
		}()
		f, err := CDF("JCT CDF", "JCT", cdfSeries, Options{})
		if err == nil {
			_, err = f.SVG()
		}
		return fmt.Sprint(err)
	}()
	if !strings.Contains(msg, "LaTeX text is not available") {
		t.Errorf("a figure with the LaTeX handler: %s", msg)
	}
}

// TestNoPDF: schedlab's builds carry no PDF writer (internal/fpdf stands
// in for go-pdf, which brought encoding/gob and regexp into every start),
// so a figure drawn as PDF fails with a message saying so (gonum's vgpdf
// panics with it at the first text) rather than giving an empty document.
func TestNoPDF(t *testing.T) {
	f, err := CDF("JCT CDF", "JCT", cdfSeries, Options{})
	if err != nil {
		t.Fatal(err)
	}
	msg := func() (msg string) {
		defer func() {
			if v := recover(); v != nil {
				msg = fmt.Sprint(v)
			}
		}()
		c := vgpdf.New(f.w, f.h)
		f.p.Draw(draw.New(c))
		_, err := c.WriteTo(io.Discard)
		return fmt.Sprint(err)
	}()
	if !strings.Contains(msg, "PDF output is not part of schedlab") {
		t.Errorf("a figure drawn as PDF: %s", msg)
	}
}
