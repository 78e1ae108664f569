package app

import (
	"fmt"
	"html"
	"math"
	"strings"

	"github.com/schedlab/schedlab/sim/metrics"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
)

// A figure without a sweep (a paper's table or bar chart) is drawn as the
// reproduction's figures draw it (sim/experiment/reproduce): a group of
// bars per policy of its main metric (Scenario.MainMetric), ours filled
// in the policy's colour with a whisker of ± one standard deviation over
// the seeds, and the paper's value beside it, outlined in the same
// colour, as the paper's values are hollow marks on the line charts.

// barGroup is one policy's bars; a nil value draws no bar.
type barGroup struct {
	Policy, Color   string
	Mean, SD, Paper *float64
}

// studyBars is what a bar chart draws.
type studyBars struct {
	YLabel string
	Groups []barGroup
	// Paper: some policy has a paper's value, so each group keeps room
	// for one.
	Paper bool
}

// barsOf are the bars of sc's main metric over the whole study: ours
// from values (the record's, or a run's, in the reference unit), the
// paper's from the scenario. It is nil when there is nothing to draw.
func barsOf(sc *scenario.Scenario, values []results.ValueRepro) *studyBars {
	if sc == nil || sc.Sweep != nil {
		return nil
	}
	metric, group := sc.MainMetric()
	b := &studyBars{}
	unit, drawn := "", false
	paper := sc.PaperValues(metric, group)
	for i := range sc.Policies {
		g := barGroup{Policy: sc.PolicyLabel(i), Color: seriesColor(i)}
		for _, v := range values {
			if v.X == nil && v.Policy == g.Policy && v.Metric == metric && v.Group == group {
				g.Mean, g.SD = finite(v.Mean), finite(v.SD)
				unit = v.Unit
				break
			}
		}
		for _, p := range paper {
			if p.X == nil && p.Label == g.Policy {
				y := p.Value
				g.Paper, b.Paper = &y, true
				break
			}
		}
		drawn = drawn || g.Mean != nil || g.Paper != nil
		b.Groups = append(b.Groups, g)
	}
	if !drawn {
		return nil
	}
	if unit == "" && durationMetric(metric) {
		// No value of ours yet to say which unit the reference values
		// are in: the scenario's own (seconds by default).
		unit = "s"
		if sc.Reference != nil && sc.Reference.Unit != "" {
			unit = sc.Reference.Unit
		}
	}
	b.YLabel = metrics.AxisLabel(metric)
	if group != "all" {
		b.YLabel += " [" + group + "]"
	}
	if unit != "" {
		b.YLabel += " (" + unit + ")"
	}
	return b
}

// durationMetric reports a metric measured in seconds before conversion.
func durationMetric(metric string) bool {
	d, err := metrics.Lookup(metric)
	return err == nil && d.Unit == "s" || strings.HasSuffix(metric, "_s")
}

// finite is v, or nil when it is absent or not a finite number.
func finite(v *float64) *float64 {
	if v == nil || math.IsNaN(*v) || math.IsInf(*v, 0) {
		return nil
	}
	return v
}

// BarChart draws the main metric of sc, a study without a sweep, from
// values as the figure view does: at a desktop's width, or a phone's when
// narrow. It is "" when sc has a sweep or nothing to draw.
func BarChart(sc *scenario.Scenario, values []results.ValueRepro, narrow bool) string {
	return barChart(figureBox(narrow), barsOf(sc, values), "figure-bars")
}

// Bar label geometry: the policies' names under the bars are cut to
// labelChars characters (the full name is in a tooltip) and slanted when
// they do not fit side by side, about charWidth of the font size each.
const (
	labelChars = 30
	charWidth  = 0.6
	slant      = 45 // degrees
)

// barChart draws b as an SVG with the stable id; "" when b is nil.
func barChart(box chartBox, b *studyBars, id string) string {
	if b == nil {
		return ""
	}
	y0, y1 := 0.0, 0.0
	for _, g := range b.Groups {
		for _, v := range []*float64{g.Mean, g.Paper} {
			if v != nil {
				y0, y1 = math.Min(y0, *v), math.Max(y1, *v)
			}
		}
		if g.Mean != nil && g.SD != nil {
			y0, y1 = math.Min(y0, *g.Mean-*g.SD), math.Max(y1, *g.Mean+*g.SD)
		}
	}
	if y1 == y0 {
		y1 = y0 + 1
	}
	yt := ticks(y0, y1, 5)
	y0, y1 = math.Min(y0, yt[0]), yt[len(yt)-1]

	font := 12.0
	if box.w < 500 {
		font = 11
	}
	labels := make([]string, len(b.Groups))
	widths := make([]float64, len(b.Groups))
	widest := 0.0
	for i, g := range b.Groups {
		labels[i] = cut(g.Policy, labelChars)
		widths[i] = float64(len([]rune(labels[i]))) * font * charWidth
		widest = math.Max(widest, widths[i])
	}
	n := float64(len(b.Groups))
	gw := (box.w - box.left - box.right) / n
	slanted := widest > gw-6
	ph := box.h - box.top - box.bottom
	if slanted {
		// A slanted name reaches down and to the left of its group:
		// make room below the axis, and left of the first group.
		s, c := math.Sin(slant*math.Pi/180), math.Cos(slant*math.Pi/180)
		box.bottom = math.Max(box.bottom, 14+widest*s+font*c+24)
		for range 2 { // a wider margin narrows the groups: twice will do
			need := 0.0
			for i, w := range widths {
				need = math.Max(need, w*c-gw*(float64(i)+0.5)+4)
			}
			if need <= box.left {
				break
			}
			box.left = need
			gw = (box.w - box.left - box.right) / n
		}
		box.h = box.top + ph + box.bottom
	}
	pw := box.w - box.left - box.right
	py := func(y float64) float64 { return box.top + ph*(1-(y-y0)/(y1-y0)) }

	var sb strings.Builder
	fmt.Fprintf(&sb, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %g %g" class="chart bars" id="%s" role="img" aria-label="%s">`,
		box.w, math.Ceil(box.h), id, html.EscapeString(barsAria(b)))
	sb.WriteString(`<g class="axes" font-size="12" fill="#444">`)
	for _, t := range yt {
		y := py(t)
		fmt.Fprintf(&sb, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#e3e3e3"/>`, box.left, box.w-box.right, y, y)
		fmt.Fprintf(&sb, `<text x="%.1f" y="%.3f" text-anchor="end" dominant-baseline="middle">%s</text>`, box.left-6, y, tickText(t))
	}
	base := py(0)
	fmt.Fprintf(&sb, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#999"/>`, box.left, box.w-box.right, base, base)
	fmt.Fprintf(&sb, `<text transform="translate(14 %.1f) rotate(-90)" text-anchor="middle" font-size="13">%s</text>`, box.top+ph/2, html.EscapeString(b.YLabel))
	fmt.Fprintf(&sb, `<text x="%.1f" y="%.1f" text-anchor="middle" font-size="13">policy</text>`, box.left+pw/2, box.h-6)
	sb.WriteString(`</g>`)

	// Each group: ours, then the paper's when some policy has one.
	bw := math.Min(gw*0.6, 56)
	if b.Paper {
		bw = math.Min(gw*0.36, 40)
	}
	for i, g := range b.Groups {
		cx := box.left + gw*(float64(i)+0.5)
		xOurs := cx - bw/2
		if b.Paper {
			xOurs = cx - bw - 1
		}
		fmt.Fprintf(&sb, `<g class="group" data-policy="%s">`, html.EscapeString(g.Policy))
		if g.Mean != nil {
			top, bot := math.Min(py(*g.Mean), base), math.Max(py(*g.Mean), base)
			tip := fmt.Sprintf("%s, ours: %s", g.Policy, meanSD(g.Mean, g.SD))
			fmt.Fprintf(&sb, `<rect class="bar ours" x="%.2f" y="%.3f" width="%.2f" height="%.3f" fill="%s"><title>%s</title></rect>`,
				xOurs, top, bw, bot-top, g.Color, html.EscapeString(tip))
			if bot-top < 1 {
				// A value of (about) zero: say so above the axis, where
				// a bar would not show.
				fmt.Fprintf(&sb, `<text class="zero" x="%.2f" y="%.1f" text-anchor="middle" font-size="11" fill="#333">%s</text>`, xOurs+bw/2, top-4, tickText(*g.Mean))
			}
			if g.SD != nil && *g.SD > 0 {
				// A white halo under the whisker keeps it visible on a
				// dark bar (the palette has black).
				wx, lo, hi := xOurs+bw/2, py(*g.Mean-*g.SD), py(*g.Mean+*g.SD)
				d := fmt.Sprintf("M%.2f %.2fV%.2fM%.2f %.2fh%.2fM%.2f %.2fh%.2f", wx, lo, hi, wx-bw/4, lo, bw/2, wx-bw/4, hi, bw/2)
				fmt.Fprintf(&sb, `<path class="halo" d="%s" stroke="#fff" stroke-width="3.3" fill="none"/><path class="whisker" d="%s" stroke="#222" stroke-width="1.3" fill="none"/>`, d, d)
			}
		} else {
			fmt.Fprintf(&sb, `<text class="none" x="%.2f" y="%.1f" text-anchor="middle" font-size="11" fill="#555">–<title>%s, ours: no value (the runs saturated, failed or are not done)</title></text>`,
				xOurs+bw/2, base-4, html.EscapeString(g.Policy))
		}
		if g.Paper != nil {
			top, bot := math.Min(py(*g.Paper), base), math.Max(py(*g.Paper), base)
			fmt.Fprintf(&sb, `<rect class="bar paper" x="%.2f" y="%.3f" width="%.2f" height="%.3f" fill="#fff" stroke="%s" stroke-width="2"><title>%s, the paper: %s</title></rect>`,
				cx+1, top, bw, bot-top, g.Color, html.EscapeString(g.Policy), num(*g.Paper))
		}
		ty := box.h - box.bottom + 14
		title := ""
		if labels[i] != g.Policy {
			title = "<title>" + html.EscapeString(g.Policy) + "</title>"
		}
		if slanted {
			fmt.Fprintf(&sb, `<text class="label" x="%.1f" y="%.1f" font-size="%g" fill="#333" text-anchor="end" transform="rotate(-%d %.1f %.1f)">%s%s</text>`,
				cx, ty, font, slant, cx, ty, html.EscapeString(labels[i]), title)
		} else {
			fmt.Fprintf(&sb, `<text class="label" x="%.1f" y="%.1f" font-size="%g" fill="#333" text-anchor="middle">%s%s</text>`,
				cx, ty, font, html.EscapeString(labels[i]), title)
		}
		sb.WriteString(`</g>`)
	}
	sb.WriteString(`</svg>`)
	return sb.String()
}

// barsAria describes the chart to a screen reader.
func barsAria(b *studyBars) string {
	s := "Bar chart of " + b.YLabel + " by policy: ours, the mean over the seeds with ± one standard deviation"
	if b.Paper {
		s += ", beside the paper's value"
	}
	return s
}

// cut shortens s to n characters, ending in "…".
func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// figureBox is the figure's size: a desktop's, or a phone's narrower box
// with its labels kept at a readable size rather than scaled down.
func figureBox(narrow bool) chartBox {
	if narrow {
		return chartBox{w: 360, h: 300, left: 56, right: 10, top: 10, bottom: 42}
	}
	return chartBox{w: 640, h: 380, left: 70, right: 16, top: 14, bottom: 46}
}
