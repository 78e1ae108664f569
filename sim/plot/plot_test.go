package plot

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"image/color"
	"image/png"
	"io"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot/plotter"

	"github.com/schedlab/schedlab/sim/results"
)

// Small but representative inputs shared by the tests.
var (
	cdfSeries = []Series{
		{Name: "fifo", X: []float64{600, 1200, 1200, 4000, 9000}},
		{Name: "sjf", X: []float64{300, 500, 800, 2000, 7200}},
		{Name: "precomputed", X: []float64{0, 1000, 5000}, Y: []float64{0, 0.5, 1}},
	}
	lineSeries = []Series{
		{Name: "fifo", X: []float64{0.5, 1, 1.5}, Y: []float64{2, 3, 7}},
		{Name: "tiresias", X: []float64{0.5, 1, 1.5}, Y: []float64{1.5, 2, 4}},
	}
	barCats   = []string{"ResNet-50", "BERT", "LSTM"}
	barSeries = []BarSeries{
		{Name: "fifo", Values: []float64{10, 20, math.NaN()}},
		{Name: "sjf", Values: []float64{8, -3, 12}},
	}
	heatLabels = []string{"A", "B"}
	heatValues = [][]float64{{1, 0.8}, {math.NaN(), 0.55}}
	ganttRows  = []string{"gpu0", "gpu1", "gpu2"}
	ganttBars  = []GanttBar{
		{Row: 0, Start: 0, End: 3600, Label: "job1"},
		{Row: 0, Start: 1800, End: 5400, Label: "job2"}, // shares gpu0 with job1
		{Row: 1, Start: 0, End: 7200, Label: "job3", Key: "job3"},
		{Row: 2, Start: 100, End: 100, Label: "empty"},
	}
)

// figureCase builds one figure.
type figureCase struct {
	name  string
	build func(o Options) (*Figure, error)
}

// allFigures covers every public constructor once.
var allFigures = []figureCase{
	{"CDF", func(o Options) (*Figure, error) { return CDF("JCT CDF", "JCT", cdfSeries, o) }},
	{"CDF/logx", func(o Options) (*Figure, error) {
		o.LogX = true
		return CDF("JCT CDF", "JCT", cdfSeries[:2], o)
	}},
	{"Gantt", func(o Options) (*Figure, error) { return Gantt("GPUs", ganttRows, ganttBars, o) }},
	{"Bars", func(o Options) (*Figure, error) { return Bars("delay", "delay (s)", barCats, barSeries, o) }},
	{"Lines", func(o Options) (*Figure, error) { return Lines("sweep", "load", "JCT (h)", lineSeries, o) }},
	{"Lines/logy", func(o Options) (*Figure, error) {
		o.LogY = true
		return Lines("sweep", "load", "JCT (h)", lineSeries, o)
	}},
	{"Heatmap", func(o Options) (*Figure, error) {
		return Heatmap("interference", heatLabels, heatLabels, heatValues, o)
	}},
}

func TestFiguresRender(t *testing.T) {
	sizes := []struct {
		o          Options
		wPx, hPx   int
		checkEmbed bool
	}{
		{Options{}, 672, 403, false},
		{Options{Width: 5, Height: 3}, 480, 288, false},
	}
	for _, fc := range allFigures {
		for _, sz := range sizes {
			t.Run(fmt.Sprintf("%s/%gx%g", fc.name, sz.o.Width, sz.o.Height), func(t *testing.T) {
				f, err := fc.build(sz.o)
				if err != nil {
					t.Fatal(err)
				}
				svg, err := f.SVG()
				if err != nil {
					t.Fatal(err)
				}
				checkSVG(t, svg)
				pngBytes, err := f.PNG()
				if err != nil {
					t.Fatal(err)
				}
				wantW, wantH := sz.wPx, sz.hPx
				if fc.name == "Gantt" && sz.o.Height == 0 {
					_, h := f.Size()
					wantH = int(h*pngDPI + 0.5)
				}
				checkPNG(t, pngBytes, wantW, wantH)
			})
		}
	}
}

// checkSVG asserts that svg is non-empty, well-formed XML and pure ASCII.
func checkSVG(t *testing.T, svg []byte) {
	t.Helper()
	if len(svg) == 0 {
		t.Fatal("empty SVG")
	}
	for i, b := range svg {
		if b > 0x7e {
			t.Fatalf("SVG byte %d is not ASCII: %#x", i, b)
		}
	}
	d := xml.NewDecoder(bytes.NewReader(svg))
	for {
		_, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("SVG does not parse: %v", err)
		}
	}
}

// checkPNG asserts that b decodes to an image of the given size.
func checkPNG(t *testing.T, b []byte, w, h int) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("PNG does not decode: %v", err)
	}
	if got := img.Bounds().Size(); got.X != w || got.Y != h {
		t.Fatalf("PNG is %dx%d, want %dx%d", got.X, got.Y, w, h)
	}
}

func TestDegenerateInputsRender(t *testing.T) {
	nan := math.NaN()
	one := []Series{{Name: "p", X: []float64{5}, Y: []float64{3}}}
	cases := []figureCase{
		{"CDF one sample", func(o Options) (*Figure, error) { return CDF("", "", []Series{{X: []float64{42}}}, o) }},
		{"CDF one sample log", func(o Options) (*Figure, error) {
			return CDF("", "", []Series{{X: []float64{42}}}, Options{LogX: true})
		}},
		{"CDF negative times", func(o Options) (*Figure, error) { return CDF("", "", []Series{{X: []float64{-5, 5}}}, o) }},
		{"Lines one point", func(o Options) (*Figure, error) { return Lines("", "", "", one, o) }},
		{"Lines one point log", func(o Options) (*Figure, error) { return Lines("", "", "", one, Options{LogX: true, LogY: true}) }},
		{"Lines many series", func(o Options) (*Figure, error) {
			var ss []Series
			for i := range 20 {
				ss = append(ss, Series{Name: fmt.Sprint("s", i), X: []float64{0, 1}, Y: []float64{float64(i), float64(i + 1)}})
			}
			return Lines("", "", "", ss, o)
		}},
		{"Gantt no bars", func(o Options) (*Figure, error) { return Gantt("", ganttRows, nil, o) }},
		{"Gantt bars beyond cap", func(o Options) (*Figure, error) {
			return Gantt("", ganttRows, ganttBars[2:3], Options{MaxRows: 1})
		}},
		{"Bars all NaN", func(o Options) (*Figure, error) {
			return Bars("", "", []string{"a"}, []BarSeries{{Values: []float64{nan}}}, o)
		}},
		{"Heatmap all NaN", func(o Options) (*Figure, error) {
			return Heatmap("", []string{"a"}, []string{"b"}, [][]float64{{nan}}, o)
		}},
		{"Heatmap constant", func(o Options) (*Figure, error) {
			return Heatmap("", heatLabels, heatLabels, [][]float64{{2, 2}, {2, 2}}, o)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := c.build(Options{})
			if err != nil {
				t.Fatal(err)
			}
			svg, err := f.SVG()
			if err != nil {
				t.Fatal(err)
			}
			checkSVG(t, svg)
			if _, err := f.PNG(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestDeterministic(t *testing.T) {
	for _, fc := range allFigures {
		t.Run(fc.name, func(t *testing.T) {
			a, err := fc.build(Options{})
			if err != nil {
				t.Fatal(err)
			}
			b, _ := fc.build(Options{})
			svgA1, _ := a.SVG()
			svgA2, _ := a.SVG() // rendering twice must not change the figure
			svgB, _ := b.SVG()
			pngA1, _ := a.PNG()
			pngA2, _ := a.PNG()
			pngB, _ := b.PNG()
			if !bytes.Equal(svgA1, svgA2) || !bytes.Equal(svgA1, svgB) {
				t.Error("SVG differs between renders of the same input")
			}
			if !bytes.Equal(pngA1, pngA2) || !bytes.Equal(pngA1, pngB) {
				t.Error("PNG differs between renders of the same input")
			}
		})
	}
}

func TestEmbedFonts(t *testing.T) {
	f, err := CDF("t", "JCT", cdfSeries, Options{EmbedFonts: true})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := f.SVG()
	b, _ := f.SVG()
	if !bytes.Equal(a, b) {
		t.Error("embedded-font SVG differs between renders")
	}
	checkSVG(t, a)
	if !bytes.Contains(a, []byte("@font-face")) {
		t.Error("EmbedFonts: no @font-face in the SVG")
	}
	plain, _ := (mustFigure(t)(CDF("t", "JCT", cdfSeries, Options{}))).SVG()
	if bytes.Contains(plain, []byte("@font-face")) {
		t.Error("fonts embedded without EmbedFonts")
	}
	if !bytes.Contains(plain, []byte("Arial")) {
		t.Error("SVG has no font fallback for browsers without Liberation Sans")
	}
}

// mustFigure fails the test on a construction error.
func mustFigure(t *testing.T) func(*Figure, error) *Figure {
	return func(f *Figure, err error) *Figure {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
}

func TestErrors(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		name  string
		build func() (*Figure, error)
		want  string
	}{
		{"CDF empty", func() (*Figure, error) { return CDF("", "", nil, Options{}) }, "plot.CDF: series is empty"},
		{"CDF no samples", func() (*Figure, error) { return CDF("", "", []Series{{Name: "a"}}, Options{}) }, `series[0] ("a") has no samples`},
		{"CDF NaN", func() (*Figure, error) { return CDF("", "", []Series{{X: []float64{1, nan}}}, Options{}) }, "series[0].X[1] must be finite"},
		{"CDF lengths", func() (*Figure, error) {
			return CDF("", "", []Series{{X: []float64{1, 2}, Y: []float64{1}}}, Options{})
		}, "X and Y have different lengths (2 and 1)"},
		{"CDF Y range", func() (*Figure, error) {
			return CDF("", "", []Series{{X: []float64{1, 2}, Y: []float64{0.5, 1.5}}}, Options{})
		}, "series[0].Y[1] must be within [0, 1]"},
		{"CDF X order", func() (*Figure, error) {
			return CDF("", "", []Series{{X: []float64{2, 1}, Y: []float64{0.5, 1}}}, Options{})
		}, "X must be non-decreasing"},
		{"CDF log zero", func() (*Figure, error) {
			return CDF("", "", []Series{{X: []float64{0, 1}}}, Options{LogX: true})
		}, "series[0].X[0] must be > 0 with Options.LogX"},
		{"CDF LogY", func() (*Figure, error) { return CDF("", "", cdfSeries, Options{LogY: true}) }, "Options.LogY is not supported"},
		{"size", func() (*Figure, error) { return CDF("", "", cdfSeries, Options{Width: -1}) }, "Options.Width must be between"},
		{"size NaN", func() (*Figure, error) { return Lines("", "", "", lineSeries, Options{Height: nan}) }, "Options.Height must be between"},
		{"Lines empty", func() (*Figure, error) { return Lines("", "", "", nil, Options{}) }, "plot.Lines: series is empty"},
		{"Lines Inf", func() (*Figure, error) {
			return Lines("", "", "", []Series{{Name: "p", X: []float64{1}, Y: []float64{inf}}}, Options{})
		}, `series[0] ("p").Y[0] must be finite`},
		{"Gantt no rows", func() (*Figure, error) { return Gantt("", nil, nil, Options{}) }, "plot.Gantt: rows is empty"},
		{"Gantt row range", func() (*Figure, error) {
			return Gantt("", ganttRows, []GanttBar{{Row: 3, End: 1}}, Options{})
		}, "bars[0].Row must be in [0, 3), got 3"},
		{"Gantt NaN", func() (*Figure, error) {
			return Gantt("", ganttRows, []GanttBar{{Start: nan, End: 1}}, Options{})
		}, "bars[0].Start must be finite"},
		{"Gantt reversed", func() (*Figure, error) {
			return Gantt("", ganttRows, []GanttBar{{Start: 5, End: 1}}, Options{})
		}, "bars[0]: End (1) is before Start (5)"},
		{"Gantt MaxRows", func() (*Figure, error) { return Gantt("", ganttRows, nil, Options{MaxRows: -1}) }, "Options.MaxRows must be >= 0"},
		{"Bars no categories", func() (*Figure, error) { return Bars("", "", nil, barSeries, Options{}) }, "plot.Bars: categories is empty"},
		{"Bars empty", func() (*Figure, error) { return Bars("", "", barCats, nil, Options{}) }, "plot.Bars: series is empty"},
		{"Bars length", func() (*Figure, error) {
			return Bars("", "", barCats, []BarSeries{{Name: "x", Values: []float64{1}}}, Options{})
		}, `series[0] ("x") has 1 values for 3 categories`},
		{"Bars Inf", func() (*Figure, error) {
			return Bars("", "", barCats, []BarSeries{{Values: []float64{1, inf, 2}}}, Options{})
		}, "series[0].Values[1] must be finite or NaN"},
		{"Heatmap rows", func() (*Figure, error) {
			return Heatmap("", heatLabels, heatLabels, heatValues[:1], Options{})
		}, "values has 1 rows for 2 rowLabels"},
		{"Heatmap cols", func() (*Figure, error) {
			return Heatmap("", heatLabels, heatLabels, [][]float64{{1}, {1, 2}}, Options{})
		}, "values[0] has 1 columns for 2 colLabels"},
		{"Heatmap Inf", func() (*Figure, error) {
			return Heatmap("", heatLabels, heatLabels, [][]float64{{1, 2}, {inf, 2}}, Options{})
		}, "values[1][0] must be finite or NaN"},
		{"Heatmap no labels", func() (*Figure, error) { return Heatmap("", nil, heatLabels, nil, Options{}) }, "rowLabels is empty"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := c.build()
			if err == nil {
				t.Fatalf("no error (figure %v)", f != nil)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q does not contain %q", err, c.want)
			}
		})
	}
}

func TestAssignLanes(t *testing.T) {
	cases := []struct {
		name  string
		iv    []interval
		lanes []int
		n     int
	}{
		{"empty", nil, []int{}, 1},
		{"one", []interval{{0, 1}}, []int{0}, 1},
		{"brief example", []interval{{0, 10}, {5, 15}, {12, 20}}, []int{0, 1, 0}, 2},
		{"touching is not overlapping", []interval{{0, 10}, {10, 20}}, []int{0, 0}, 1},
		{"input order kept", []interval{{12, 20}, {0, 10}, {5, 15}}, []int{0, 0, 1}, 2},
		{"three at once", []interval{{0, 9}, {1, 9}, {2, 9}, {9, 10}}, []int{0, 1, 2, 0}, 3},
		{"lowest free lane reused", []interval{{0, 10}, {0, 4}, {0, 20}, {5, 8}, {11, 12}}, []int{1, 0, 2, 0, 0}, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lanes, n := assignLanes(c.iv)
			if n != c.n || fmt.Sprint(lanes) != fmt.Sprint(c.lanes) {
				t.Fatalf("got lanes %v n=%d, want %v n=%d", lanes, n, c.lanes, c.n)
			}
		})
	}
}

func TestGanttSharedRowUsesLanes(t *testing.T) {
	kp := results.NewKeyPalette([]string{"job1", "job2", "job3"})
	bx := ganttBoxes(ganttBars, len(ganttRows), timeUnit{"h", 3600}, kp)
	j1, j2 := bx.items[0], bx.items[1]
	if j1.y0 < j2.y1 && j2.y0 < j1.y1 {
		t.Fatalf("overlapping jobs on one GPU share vertical space: %+v %+v", j1, j2)
	}
	if j1.y1 > rowCenter(0, 3)+0.5 || j2.y0 < rowCenter(0, 3)-0.5 {
		t.Fatalf("lanes leave their row: %+v %+v", j1, j2)
	}
	if bx.items[2].fill != kp.Color("job3") || j1.fill != kp.Color("job1") || j1.fill == bx.items[2].fill {
		t.Fatal("bar colours do not follow their keys")
	}
}

func TestChooseTimeUnit(t *testing.T) {
	cases := []struct {
		max  float64
		want string
	}{{0, "s"}, {59, "s"}, {119, "s"}, {120, "min"}, {3600, "min"}, {7199, "min"}, {7200, "h"}, {1e6, "h"}}
	for _, c := range cases {
		if got := chooseTimeUnit(c.max).name; got != c.want {
			t.Errorf("chooseTimeUnit(%v) = %s, want %s", c.max, got, c.want)
		}
	}
	f := mustFigure(t)(CDF("", "JCT", []Series{{X: []float64{10, 7200}}}, Options{}))
	if got := f.p.X.Label.Text; got != "JCT (h)" {
		t.Errorf("CDF x label = %q, want %q", got, "JCT (h)")
	}
	if f.p.X.Max != 2 {
		t.Errorf("CDF x max = %v h, want 2", f.p.X.Max)
	}
}

func TestGanttLarge(t *testing.T) {
	rows := make([]string, 1024)
	for i := range rows {
		rows[i] = fmt.Sprintf("gpu%d", i)
	}
	bars := make([]GanttBar, 10000)
	for i := range bars {
		start := float64(i%97) * 360
		bars[i] = GanttBar{Row: (i * 7) % len(rows), Start: start, End: start + 1800 + float64(i%13)*300,
			Label: fmt.Sprintf("job%d", i%500)}
	}
	begin := time.Now()
	f, err := Gantt("cluster", rows, bars, Options{})
	if err != nil {
		t.Fatal(err)
	}
	svg, err := f.SVG()
	if err != nil {
		t.Fatal(err)
	}
	pngBytes, err := f.PNG()
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(begin)
	t.Logf("1024 rows x 10000 bars: build+SVG+PNG in %v (SVG %d B, PNG %d B; about 0.4 s native)", took, len(svg), len(pngBytes))
	// The time is a figure to report; the bound, far above it, catches only
	// a drawing that grows with every bar instead of the 128 rows shown.
	limit := 60 * time.Second
	if runtime.GOOS == "js" {
		limit = 5 * time.Minute // node runs wasm several times slower
	}
	if took > limit {
		t.Errorf("took %v, want under %v", took, limit)
	}
	if want := "cluster (first 128 of 1024 GPUs)"; f.p.Title.Text != want {
		t.Errorf("title = %q, want %q", f.p.Title.Text, want)
	}
	checkSVG(t, svg)
}

func TestGanttMaxRows(t *testing.T) {
	f := mustFigure(t)(Gantt("", ganttRows, ganttBars, Options{MaxRows: 2}))
	if want := "first 2 of 3 GPUs"; f.p.Title.Text != want {
		t.Errorf("title = %q, want %q", f.p.Title.Text, want)
	}
	f = mustFigure(t)(Gantt("t", ganttRows, ganttBars, Options{MaxRows: 3}))
	if f.p.Title.Text != "t" {
		t.Errorf("uncapped title changed to %q", f.p.Title.Text)
	}
}

func TestEmpiricalCDF(t *testing.T) {
	pts, err := empiricalCDF("CDF", 0, Series{X: []float64{3, 1, 2, 2}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := plotter.XYs{{X: 1, Y: 0}, {X: 1, Y: 0}, {X: 1, Y: 0.25}, {X: 2, Y: 0.25}, {X: 2, Y: 0.75}, {X: 3, Y: 0.75}, {X: 3, Y: 1}}
	if fmt.Sprint(pts) != fmt.Sprint(want) {
		t.Fatalf("got %v, want %v", pts, want)
	}
}

func TestNiceTicks(t *testing.T) {
	cases := []struct {
		lo, hi float64
		n      int
		want   string
	}{
		{0, 1, 5, "0.0 0.2 0.4 0.6 0.8 1.0"},
		{0, 275, 5, "0 50 100 150 200 250"},
		{0, 2.15, 7, "0.00 0.25 0.50 0.75 1.00 1.25 1.50 1.75 2.00"},
		{-3, 3, 6, "-3 -2 -1 0 1 2 3"},
		{5, 5, 5, "5"},
	}
	for _, c := range cases {
		var labels []string
		for _, tk := range (niceTicks{n: c.n}).Ticks(c.lo, c.hi) {
			labels = append(labels, tk.Label)
		}
		if got := strings.Join(labels, " "); got != c.want {
			t.Errorf("ticks(%v, %v, %d) = %q, want %q", c.lo, c.hi, c.n, got, c.want)
		}
	}
}

func TestLogTicks(t *testing.T) {
	cases := []struct {
		lo, hi float64
		want   string
	}{
		{0.5, 20000, "1 10 100 1000 10000"},
		{1.5, 70, "2 5 10 20 50"},
		{1.5, 7, "2 3 4 5 6 7"},
		{0, 7, ""},
	}
	for _, c := range cases {
		var labels []string
		for _, tk := range (logTicks{}).Ticks(c.lo, c.hi) {
			labels = append(labels, tk.Label)
		}
		if got := strings.Join(labels, " "); got != c.want {
			t.Errorf("logTicks(%v, %v) = %q, want %q", c.lo, c.hi, got, c.want)
		}
	}
}

func TestRoundOut(t *testing.T) {
	if lo, hi := roundOut(-3, 20, 5); lo != -5 || hi != 20 {
		t.Errorf("roundOut(-3, 20) = %v, %v; want -5, 20", lo, hi)
	}
	if lo, hi := roundOut(0, 851, 5); lo != 0 || hi != 1000 {
		t.Errorf("roundOut(0, 851) = %v, %v; want 0, 1000", lo, hi)
	}
}

func TestSegmentHitsBox(t *testing.T) {
	box := [4]float64{0, 0, 10, 10}
	cases := []struct {
		x0, y0, x1, y1 float64
		want           bool
	}{
		{-5, 5, 15, 5, true},    // crosses
		{2, 2, 3, 3, true},      // inside
		{-5, -5, -1, 20, false}, // left of it
		{-5, 6, 6, -5, true},    // cuts the corner
		{-5, 2, 2, -5, false},   // misses the corner
		{5, 5, 5, 5, true},      // a point inside
	}
	for _, c := range cases {
		if got := segmentHitsBox(box, c.x0, c.y0, c.x1, c.y1); got != c.want {
			t.Errorf("segment (%v,%v)-(%v,%v): got %v, want %v", c.x0, c.y0, c.x1, c.y1, got, c.want)
		}
	}
}

func TestLegendAvoidsData(t *testing.T) {
	// CDF curves rise on the left and run flat at the top: the free corner
	// is bottom right.
	f := mustFigure(t)(CDF("", "JCT", cdfSeries, Options{}))
	lg := f.lg
	if k, n := lg.best(dataCanvas(f.p, f.lg, f.w, f.h), f.p); k != bottomRight || n != 0 {
		t.Errorf("CDF legend in corner %d covering %d segments, want bottom right covering none", k, n)
	}
	// Bars filling the whole plot: the figure makes room at the top.
	full := []BarSeries{{Name: "a", Values: []float64{10, 10, 10}}, {Name: "b", Values: []float64{10, 10, 10}}}
	f = mustFigure(t)(Bars("", "", barCats, full, Options{}))
	if f.p.Y.Max <= 10 {
		t.Errorf("no room made for the legend: y max %v", f.p.Y.Max)
	}
	lg = f.lg
	if _, n := lg.best(dataCanvas(f.p, f.lg, f.w, f.h), f.p); n != 0 {
		t.Errorf("legend still covers %d bars", n)
	}
}

func TestLegendBesideWhenTooTall(t *testing.T) {
	var ss []Series
	for i := range 20 {
		ss = append(ss, Series{Name: fmt.Sprint("policy-", i), X: []float64{0, 1}, Y: []float64{float64(i), float64(i + 1)}})
	}
	f := mustFigure(t)(Lines("", "", "", ss, Options{}))
	if !f.lg.outside {
		t.Fatal("a 20-entry legend over a full plot should move beside it")
	}
	svg, err := f.SVG()
	if err != nil {
		t.Fatal(err)
	}
	checkSVG(t, svg)
}

func TestASCII(t *testing.T) {
	if got := ascii("JCT – µs × 2\tok"); got != "JCT - us x 2 ok" {
		t.Errorf("ascii = %q", got)
	}
	f := mustFigure(t)(Bars("Délai ≥ 5 €", "s", []string{"modèle"}, []BarSeries{{Name: "politique ü", Values: []float64{1}}}, Options{}))
	svg, err := f.SVG()
	if err != nil {
		t.Fatal(err)
	}
	checkSVG(t, svg)
}

func TestFormatValue(t *testing.T) {
	cases := map[float64]string{0: "0", 0.85: "0.85", 1: "1.00", 12.345: "12.3", 250: "250", 0.004: "0.004", -0.5: "-0.50"}
	for v, want := range cases {
		if got := formatValue(v); got != want {
			t.Errorf("formatValue(%v) = %q, want %q", v, got, want)
		}
	}
}

// Time bars read in the unit the tables use: minutes for values of tens
// of minutes, hours beyond two hours.
func TestTimeBarsUnits(t *testing.T) {
	for _, c := range []struct {
		values []float64
		label  string
	}{
		{[]float64{1500, 2600}, "queuing delay (min)"},
		{[]float64{90, math.NaN()}, "queuing delay (s)"},
		{[]float64{9000, 100}, "queuing delay (h)"},
	} {
		f, err := TimeBars("delays", "queuing delay", []string{"bert", "ncf"}, []BarSeries{{Name: "FIFO", Values: c.values}}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		svg, err := f.SVG()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(svg), c.label) {
			t.Errorf("%v: no axis label %q", c.values, c.label)
		}
	}
}

// Related bar series share a colour: a GPU type's target (light) and
// received (full) shares.
func TestBarColors(t *testing.T) {
	f, err := Bars("shares", "share", []string{"j1", "j2"}, []BarSeries{
		{Name: "target V100", Values: []float64{.5, .2}, Color: 2, Light: true},
		{Name: "received V100", Values: []float64{.4, .3}, Color: 2},
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	svg, err := f.SVG()
	if err != nil {
		t.Fatal(err)
	}
	rgb := func(c color.RGBA) string { return fmt.Sprintf("#%02X%02X%02X", c.R, c.G, c.B) }
	full := results.SeriesColor(1)
	light := barColor(0, BarSeries{Color: 2, Light: true})
	if light == full || light.R < full.R || light.G < full.G || light.B < full.B {
		t.Errorf("light %v is not a tint of %v", light, full)
	}
	for _, c := range []color.RGBA{full, light} {
		if !strings.Contains(string(svg), rgb(c)) {
			t.Errorf("no bar in %s", rgb(c))
		}
	}
	if own := results.SeriesColor(0); strings.Contains(string(svg), rgb(own)) {
		t.Errorf("a bar kept its own colour %s", rgb(own))
	}
}
