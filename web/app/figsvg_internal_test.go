package app

import (
	"strings"
	"testing"
)

// Error bars are ± one standard deviation in the chart's own scale,
// computed here by hand: a 400 × 300 box with margins 50 (left), 10
// (right), 10 (top) and 40 (bottom) plots 340 × 250; y runs 0 to 4.
func TestLineChartErrorBars(t *testing.T) {
	box := chartBox{w: 400, h: 300, left: 50, right: 10, top: 10, bottom: 40}
	f := func(v float64) *float64 { return &v }
	s := ChartSeries{Name: "FIFO", Color: "#123456", X: []float64{1, 2}, Y: []*float64{f(2), f(4)}, SD: []*float64{f(1), nil}}
	svg := lineChart(box, []ChartSeries{s}, "load", "JCT", "c")
	// Point 1 at (50, 135): 2 ± 1 spans y = 197.5 (1) to 72.5 (3), caps 7 wide.
	if want := `d="M50.0 197.5V72.5M46.5 197.5h7M46.5 72.5h7"`; !strings.Contains(svg, want) {
		t.Errorf("no error bar %s in %s", want, svg)
	}
	if n := strings.Count(svg, `class="err"`); n != 1 {
		t.Errorf("%d error bars, want 1 (the second point has no spread)", n)
	}
	if !strings.Contains(svg, "<title>FIFO at 1: 2 ± 1</title>") {
		t.Error("the tooltip does not give the spread")
	}
	// The axis reaches the top of a bar (3 + 3 = 6), and a bar stops at
	// zero: 1 ± 2 from y = 0 (bottom, 260) up to 3.
	s = ChartSeries{Name: "SJF", Color: "#000", X: []float64{0, 1}, Y: []*float64{f(3), f(1)}, SD: []*float64{f(3), f(2)}}
	svg = lineChart(box, []ChartSeries{s}, "load", "JCT", "c")
	if !strings.Contains(svg, `dominant-baseline="middle">6</text>`) {
		t.Errorf("the y axis does not reach 6: %s", svg)
	}
	if want := `d="M390.0 260.0V135.0`; !strings.Contains(svg, want) {
		t.Errorf("no bar cut at zero %s in %s", want, svg)
	}
}
