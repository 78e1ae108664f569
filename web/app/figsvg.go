package app

import (
	"fmt"
	"html"
	"math"
	"strings"

	"github.com/schedlab/schedlab/sim/results"
)

// ChartSeries is one line of a figure drawn by the page: ours as a line
// with dots, the paper's as hollow diamonds on a thin dashed line.
type ChartSeries struct {
	Name  string
	Color string
	X     []float64
	Y     []*float64
	// SD, when set, draws an error bar of ± SD[i] at point i.
	SD    []*float64
	Paper bool
}

// sd is the standard deviation at point i, 0 when there is none.
func (s ChartSeries) sd(i int) float64 {
	if i >= len(s.SD) || s.SD[i] == nil || math.IsNaN(*s.SD[i]) || math.IsInf(*s.SD[i], 0) {
		return 0
	}
	return *s.SD[i]
}

// chartBox is a figure's size and margins in SVG units.
type chartBox struct {
	w, h, left, right, top, bottom float64
}

// lineChart draws series as an SVG (scaled to its container's width):
// with axes, ticks and labels when box has margins, a bare sparkline
// otherwise. It returns "" when no series has a point.
func lineChart(box chartBox, series []ChartSeries, xlabel, ylabel, id string) string {
	x0, x1, y1 := math.Inf(1), math.Inf(-1), 0.0
	n := 0
	for _, s := range series {
		for i, y := range s.Y {
			if y == nil || math.IsNaN(*y) || math.IsInf(*y, 0) {
				continue
			}
			x0, x1, y1 = math.Min(x0, s.X[i]), math.Max(x1, s.X[i]), math.Max(y1, *y+s.sd(i))
			n++
		}
	}
	if n == 0 {
		return ""
	}
	if x1 == x0 {
		x0, x1 = x0-1, x1+1
	}
	yt := ticks(0, y1, 5)
	y1 = yt[len(yt)-1]
	if y1 <= 0 {
		y1 = 1
	}
	pw, ph := box.w-box.left-box.right, box.h-box.top-box.bottom
	px := func(x float64) float64 { return box.left + pw*(x-x0)/(x1-x0) }
	py := func(y float64) float64 { return box.top + ph*(1-y/y1) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %g %g" class="chart"`, box.w, box.h)
	if id != "" {
		fmt.Fprintf(&b, ` id="%s" role="img" aria-label="%s"`, id, html.EscapeString(ylabel+" against "+xlabel))
	} else {
		b.WriteString(` aria-hidden="true"`)
	}
	b.WriteString(">")
	axes := box.left > 0
	if axes {
		b.WriteString(`<g class="axes" font-size="12" fill="#444">`)
		for _, t := range yt {
			y := py(t)
			fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#e3e3e3"/>`, box.left, box.w-box.right, y, y)
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>`, box.left-6, y, tickText(t))
		}
		for _, t := range ticks(x0, x1, 6) {
			if t < x0-1e-9 || t > x1+1e-9 {
				continue
			}
			x := px(t)
			fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#999"/>`, x, x, box.h-box.bottom, box.h-box.bottom+5)
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, x, box.h-box.bottom+18, tickText(t))
		}
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#999"/>`, box.left, box.w-box.right, box.h-box.bottom, box.h-box.bottom)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle" font-size="13">%s</text>`, box.left+pw/2, box.h-6, html.EscapeString(xlabel))
		fmt.Fprintf(&b, `<text transform="translate(14 %.1f) rotate(-90)" text-anchor="middle" font-size="13">%s</text>`, box.top+ph/2, html.EscapeString(ylabel))
		b.WriteString(`</g>`)
	}
	r := 3.5
	if !axes {
		r = 2
	}
	for _, s := range series {
		cls := "ours"
		if s.Paper {
			cls = "paper"
		}
		fmt.Fprintf(&b, `<g class="%s" data-series="%s">`, cls, html.EscapeString(s.Name))
		var path []string
		for i, y := range s.Y {
			if y == nil || math.IsNaN(*y) || math.IsInf(*y, 0) {
				path = append(path, "")
				continue
			}
			path = append(path, fmt.Sprintf("%.1f %.1f", px(s.X[i]), py(*y)))
		}
		if d := pathData(path); d != "" {
			width, dash := "2.2", ""
			if s.Paper {
				width, dash = "1.2", ` stroke-dasharray="4 3"`
			}
			if !axes {
				width = "1.5"
			}
			fmt.Fprintf(&b, `<path d="%s" fill="none" stroke="%s" stroke-width="%s"%s/>`, d, s.Color, width, dash)
		}
		for i, y := range s.Y {
			if y == nil || math.IsNaN(*y) || math.IsInf(*y, 0) {
				continue
			}
			cx, cy := px(s.X[i]), py(*y)
			title := fmt.Sprintf("<title>%s at %s: %s</title>", html.EscapeString(s.Name), tickText(s.X[i]), tickText(*y))
			if sd := s.sd(i); sd > 0 && axes {
				// ± one standard deviation over seeds, cut at zero as
				// the axis is.
				lo, hi := py(math.Max(0, *y-sd)), py(*y+sd)
				title = fmt.Sprintf("<title>%s at %s: %s ± %s</title>", html.EscapeString(s.Name), tickText(s.X[i]), tickText(*y), tickText(sd))
				fmt.Fprintf(&b, `<path class="err" d="M%.1f %.1fV%.1fM%.1f %.1fh%gM%.1f %.1fh%g" stroke="%s" stroke-width="1.2" fill="none"/>`,
					cx, lo, hi, cx-r, lo, 2*r, cx-r, hi, 2*r, s.Color)
			}
			if s.Paper {
				fmt.Fprintf(&b, `<path class="mark" d="M%.1f %.1fl%g %gl%g %gl%g %gz" fill="#fff" stroke="%s" stroke-width="1.6">%s</path>`,
					cx, cy-r-1.5, r+1.5, r+1.5, -(r + 1.5), r+1.5, -(r + 1.5), -(r + 1.5), s.Color, title)
			} else {
				fmt.Fprintf(&b, `<circle class="mark" cx="%.1f" cy="%.1f" r="%g" fill="%s">%s</circle>`, cx, cy, r, s.Color, title)
			}
		}
		b.WriteString(`</g>`)
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// pathData joins points into an SVG path, breaking it at gaps ("").
func pathData(pts []string) string {
	var b strings.Builder
	pen := false
	for _, p := range pts {
		if p == "" {
			pen = false
			continue
		}
		if pen {
			b.WriteString(" L")
		} else {
			if b.Len() > 0 {
				b.WriteString(" ")
			}
			b.WriteString("M")
			pen = true
		}
		b.WriteString(p)
	}
	return b.String()
}

// ticks are about n round values covering [lo, hi].
func ticks(lo, hi float64, n int) []float64 {
	if hi <= lo {
		return []float64{lo}
	}
	raw := (hi - lo) / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	var out []float64
	for t := math.Floor(lo/step) * step; t <= hi+step*0.999; t += step {
		out = append(out, math.Round(t/step)*step)
		if len(out) > 3*n {
			break
		}
	}
	return out
}

// tickText prints an axis number without needless digits.
func tickText(v float64) string {
	if a := math.Abs(v); a >= 1000 && a < 1e7 {
		return results.Thousands(int(math.Round(v)))
	}
	return fmt.Sprintf("%.3g", v)
}

// seriesColor is the colour of policy i of a figure (sim/results' palette,
// as the figures the engine draws).
func seriesColor(i int) string { return results.CSSColor(results.SeriesColor(i)) }
