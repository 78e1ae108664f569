package protocol

import (
	"slices"
	"testing"

	"github.com/schedlab/schedlab/sim/results"
)

// Arrivals, finishes and interval ends merge into one sorted list with
// each instant once; a job that has not finished adds only its arrival.
func TestEventTimes(t *testing.T) {
	fin := func(v float64) *float64 { return &v }
	out := results.PolicyOutput{Jobs: []results.JobOutput{
		{ArrivalS: 30, FinishS: fin(95)},
		{ArrivalS: 0, FinishS: fin(40)},
		{ArrivalS: 30}, // still running
	}}
	ivs := []Interval{{StartS: 0, EndS: 40}, {StartS: 40, EndS: 95}, {StartS: 30, EndS: 62.5}}
	want := []float64{0, 30, 40, 62.5, 95}
	if got := EventTimes(out, ivs); !slices.Equal(got, want) {
		t.Errorf("EventTimes = %v, want %v", got, want)
	}
}
