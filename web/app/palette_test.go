package app_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/plot"
	"github.com/schedlab/schedlab/web/app"
)

// A job has the same colour in the timeline grid as in the Gantt chart the
// engine draws: the grid's JobStyle and the chart take it from one palette.
// Each job is drawn alone, and its bar's fill must be the grid's colour,
// with no other job colour in the figure.
func TestTimelineColoursMatchGantt(t *testing.T) {
	bg := regexp.MustCompile(`background:(#[0-9a-f]{6})`)
	fill := regexp.MustCompile(`fill:(#[0-9A-Fa-f]{6})`)
	unstyledBox := regexp.MustCompile(`<path d="[^"]*Z"\s*/>`)
	jobColour := map[string]string{} // job name -> the grid's colour
	colours := map[string]bool{}
	for i := range 40 {
		name := fmt.Sprintf("job%d", i)
		m := bg.FindStringSubmatch(app.JobStyle(name))
		if m == nil {
			t.Fatalf("JobStyle(%q) = %q has no background colour", name, app.JobStyle(name))
		}
		jobColour[name] = strings.ToUpper(m[1])
		colours[jobColour[name]] = true
	}
	if len(colours) < 8 {
		t.Fatalf("40 jobs use only %d colours; the test would not cover the palette", len(colours))
	}
	for name, want := range jobColour {
		f, err := plot.Gantt("", []string{"gpu0"}, []plot.GanttBar{{Row: 0, Start: 0, End: 3600, Label: name}}, plot.Options{})
		if err != nil {
			t.Fatal(err)
		}
		svg, err := f.SVG()
		if err != nil {
			t.Fatal(err)
		}
		// SVG's default fill is black, so a black bar is a closed path
		// without a style.
		found := want == "#000000" && unstyledBox.Match(svg)
		for _, m := range fill.FindAllStringSubmatch(string(svg), -1) {
			c := strings.ToUpper(m[1])
			found = found || c == want
			if c != want && colours[c] && c != "#000000" { // black is also the text's colour
				t.Errorf("%s: the Gantt chart fills with %s, a colour of other jobs; the grid uses %s", name, c, want)
			}
		}
		if !found {
			t.Errorf("%s: the grid colours it %s, the Gantt chart does not use that colour", name, want)
		}
	}
}
