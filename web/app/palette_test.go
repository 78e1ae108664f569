package app_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/plot"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/web/app"
)

// A job has the same colour in the timeline grid as in the Gantt chart the
// engine draws: its model's, from one palette over the run's models, and
// different models have different colours (beyond the palette's size, the
// least common share the grey of "other"). Each model's job is drawn alone
// in a chart that knows every model, and its bar must be the grid's colour.
func TestTimelineColoursMatchGantt(t *testing.T) {
	bg := regexp.MustCompile(`background:(#[0-9a-f]{6})`)
	fill := regexp.MustCompile(`fill:(#[0-9A-Fa-f]{6})`)
	var models []string
	for i := range 10 {
		for range 10 - i {
			models = append(models, fmt.Sprintf("model%d", i))
		}
	}
	kp := results.NewKeyPalette(models)
	seen := map[string]string{}
	for i := range 10 {
		model := fmt.Sprintf("model%d", i)
		m := bg.FindStringSubmatch(app.ModelStyle(kp, model))
		if m == nil {
			t.Fatalf("ModelStyle(%q) = %q has no background colour", model, app.ModelStyle(kp, model))
		}
		want := strings.ToUpper(m[1])
		if other, ok := seen[want]; ok && i < results.PaletteSize-1 {
			t.Errorf("%s has the colour of %s", model, other)
		}
		seen[want] = model
		f, err := plot.Gantt("", []string{"gpu0"}, []plot.GanttBar{{Row: 0, Start: 0, End: 3600, Label: "j1", Key: model}}, plot.Options{Keys: models})
		if err != nil {
			t.Fatal(err)
		}
		svg, err := f.SVG()
		if err != nil {
			t.Fatal(err)
		}
		// The bar is the first filled shape after the white background
		// and the grey row band.
		found := false
		for _, m := range fill.FindAllStringSubmatch(string(svg), -1) {
			found = found || strings.ToUpper(m[1]) == want
		}
		if !found {
			t.Errorf("%s: the grid colours it %s, the Gantt chart does not use that colour", model, want)
		}
	}
}
