package protocol

import (
	"sort"

	"github.com/schedlab/schedlab/sim/results"
)

// EventTimes are the instants at which a run changes: its jobs' arrivals
// and finishes and the ends of its GPU intervals, in order, without
// repeats. The timeline and the lessons step through them.
func EventTimes(out results.PolicyOutput, ivs []Interval) []float64 {
	var ev []float64
	for _, j := range out.Jobs {
		ev = append(ev, j.ArrivalS)
		if j.FinishS != nil {
			ev = append(ev, *j.FinishS)
		}
	}
	for _, iv := range ivs {
		ev = append(ev, iv.StartS, iv.EndS)
	}
	sort.Float64s(ev)
	uniq := ev[:0]
	for i, t := range ev {
		if i == 0 || t != uniq[len(uniq)-1] {
			uniq = append(uniq, t)
		}
	}
	return uniq
}
