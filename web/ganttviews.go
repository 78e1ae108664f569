package web

import (
	"fmt"
	"strconv"

	"github.com/vugu/vugu"

	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/web/app"
)

// GanttChart is an interactive Gantt chart of a run (app.Gantt): hover,
// click for a job's story, find a job, zoom and pan in time, fold idle
// GPUs. ID names its elements; the engine's images of the same charts sit
// below it for downloads when Images is set.
type GanttChart struct {
	App *app.App
	G   *app.Gantt
	ID  string
	// NoImages leaves out the engine's images (the comparison view).
	NoImages bool
}

// Title names the chart.
func (c *GanttChart) Title() string {
	if p := c.run(); p != nil {
		return "Who held which GPU, and when: " + p.Label
	}
	return "Who held which GPU, and when"
}

func (c *GanttChart) run() *app.PolicyResult {
	r := c.App.Res
	if r == nil || c.G.Policy >= len(r.Policies) {
		return nil
	}
	return r.Policies[c.G.Policy]
}

// Policies counts the run's policies.
func (c *GanttChart) Policies() int {
	if c.App.Res == nil {
		return 0
	}
	return len(c.App.Res.Policies)
}

// Itoa prints an int.
func (c *GanttChart) Itoa(i int) string { return strconv.Itoa(i) }

// Pressed is aria-pressed of a policy button.
func (c *GanttChart) Pressed(i int) string { return boolString(c.G.Policy == i) }

// Zoomed reports whether only part of the run is shown.
func (c *GanttChart) Zoomed() bool { return c.G.To > 0 }

// WindowText says what time is shown.
func (c *GanttChart) WindowText() string {
	p := c.run()
	if p == nil {
		return ""
	}
	lo, hi := c.G.Window(p)
	return fmt.Sprintf("Showing %s to %s", results.Duration(lo), results.Duration(hi))
}

// PanPos is the pan slider's position.
func (c *GanttChart) PanPos() string { return strconv.Itoa(c.App.GanttPanPos(c.G)) }

// HoverText describes the bar under the pointer.
func (c *GanttChart) HoverText() string {
	if t := c.App.GanttHoverText(c.G); t != "" {
		return t
	}
	return "Point at a bar to see its job, model and times; click it for the job's story."
}

// SVG is the chart.
func (c *GanttChart) SVG() vugu.HTML {
	svg := c.App.GanttSVGInTurn(c.G, c.width())
	if svg == "" && c.run() != nil {
		return vugu.HTML(`<p class="muted">Drawing the chart…</p>`)
	}
	return vugu.HTML(svg)
}

// width is the chart's width in pixels: the page's, less its margins.
func (c *GanttChart) width() int {
	vw := c.App.P.ViewportWidth()
	if vw <= 0 {
		return 900
	}
	return max(300, min(vw-64, 1180))
}

// Note says what the chart leaves out.
func (c *GanttChart) Note() string { return c.App.GanttNote(c.G) }

// Legend is the run's models with their colours.
func (c *GanttChart) Legend() []app.ModelChip {
	p := c.run()
	if p == nil {
		return nil
	}
	return app.RunLegend(p)
}

// Images are the engine's Gantt charts, for downloads.
func (c *GanttChart) Images() []*app.Figure {
	if c.NoImages || c.App.Res == nil {
		return nil
	}
	var out []*app.Figure
	for _, p := range c.App.Res.Policies {
		if p.Gantt != nil {
			out = append(out, p.Gantt)
		}
	}
	return out
}

// SVGLabel is the SVG button's text.
func (c *GanttChart) SVGLabel(f *app.Figure) string {
	if f.Busy {
		return "SVG…"
	}
	return "SVG"
}
