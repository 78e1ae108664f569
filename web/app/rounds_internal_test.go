package app

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/results"
)

// The round view picks up decision times by phase when a run records them
// (series tesserae/decision_ms/PHASE, one point per round) and says so
// when it does not.
func TestDecisionTiming(t *testing.T) {
	p := &PolicyResult{}
	if got, note := decisionTiming(p, 360); got != "" || !strings.Contains(note, DecisionSeriesPrefix) {
		t.Errorf("no series: %q, %q", got, note)
	}
	p.Out.Series = []results.Series{
		{Name: DecisionSeriesPrefix + "scheduling", Job: -1, T: []float64{0, 360}, V: []float64{0.5, 0.25}},
		{Name: DecisionSeriesPrefix + "packing", Job: -1, T: []float64{0, 360}, V: []float64{1, 2}},
		{Name: DecisionSeriesPrefix + "migration", Job: -1, T: []float64{0, 360}, V: []float64{3, 0.75}},
		{Name: "tesserae/other", Job: -1, T: []float64{360}, V: []float64{99}},
	}
	got, note := decisionTiming(p, 360)
	if want := "Decision time 3.00 ms: scheduling 0.25 ms, packing 2.00 ms, migration 0.75 ms."; got != want || note != "" {
		t.Errorf("got %q (%q), want %q", got, note, want)
	}
	// A round the series has no point for is not given another's time.
	if got, _ := decisionTiming(p, 720); got != "" {
		t.Errorf("at a time without points: %q", got)
	}
}
