package app

import (
	"reflect"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
)

// Stars go to the best value as displayed: every cell that shows it, and
// none when every finished policy shows the same.
func TestStarsFollowDisplayedValues(t *testing.T) {
	avg := Metrics[0] // average JCT, lower is better, shown in min/h
	policy := func(avgJCT float64, finished int) *PolicyResult {
		var out results.PolicyOutput
		out.Metrics.AvgJCT, out.Metrics.Finished, out.Metrics.Jobs = avgJCT, finished, 10
		return &PolicyResult{Out: out}
	}
	stars := func(ps ...*PolicyResult) (s string) {
		for _, c := range avg.cells(ps) {
			if c.Best {
				s += "*"
			} else {
				s += "."
			}
		}
		return s
	}
	for _, c := range []struct {
		name string
		ps   []*PolicyResult
		want string
	}{
		{"one best", []*PolicyResult{policy(3000, 10), policy(2400, 10), policy(6000, 10)}, ".*."},
		// 40.00 and 40.01 minutes both show as "40.0 min"
		{"equal as shown", []*PolicyResult{policy(2400.6, 10), policy(2400, 10), policy(6000, 10)}, "**."},
		{"all equal", []*PolicyResult{policy(2400, 10), policy(2400.2, 10)}, ".."},
		{"unfinished never best", []*PolicyResult{policy(100, 9), policy(2400, 10), policy(3000, 10)}, ".*."},
	} {
		if got := stars(c.ps...); got != c.want {
			t.Errorf("%s: stars %s, want %s (cells %+v)", c.name, got, c.want, avg.cells(c.ps))
		}
	}
}

// The gallery's light reading of a built-in scenario gives what a full
// parse gives for every field the gallery shows.
func TestGalleryInfoMatchesParse(t *testing.T) {
	for _, n := range scenarios.Names() {
		data, _ := scenarios.Read(n)
		full, err := scenario.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		light, err := galleryInfo(data)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		if light.Title != full.Title || light.Description != full.Description || !slices.Equal(light.Tags, full.Tags) || heavy(light) != heavy(full) {
			t.Errorf("%s: gallery info %q %q %v %v, full parse %q %q %v %v", n,
				light.Title, light.Description, light.Tags, heavy(light), full.Title, full.Description, full.Tags, heavy(full))
		}
		// The card (paper, figure or teaching preset, curve, thumbnail,
		// claim) is the same from either reading.
		if got, want := newCard(n, light), newCard(n, full); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the card from the light reading differs from a full parse's:\n%.300v\n%.300v", n, *got, *want)
		}
	}
}
