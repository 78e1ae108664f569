package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestWakeTimesIsASet drives wakeTimes the way the engine does (times
// added in order and out of order, repeated ones, the earliest removed as
// its wake-up is applied, now and then a time that is not the earliest)
// and compares it with a map after every step.
func TestWakeTimesIsASet(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	var w wakeTimes
	set := map[float64]bool{}
	now := 0.0
	for step := range 20000 {
		switch r := rng.IntN(10); {
		case r < 5: // ask for a wake-up: mostly later than all, sometimes between, sometimes again
			t0 := now + float64(1+rng.IntN(40))
			if rng.IntN(3) == 0 {
				t0 = now + float64(1+rng.IntN(4))
			}
			if got, want := w.add(t0), !set[t0]; got != want {
				t.Fatalf("step %d: add(%v) = %v, want %v", step, t0, got, want)
			}
			set[t0] = true
		case r < 9 && len(set) > 2: // apply the earliest (the set never empties, as in a long run)
			earliest := slices.Min(mapKeys(set))
			now = earliest
			w.remove(earliest)
			delete(set, earliest)
		case len(set) > 2: // remove one that is not the earliest
			k := mapKeys(set)
			slices.Sort(k)
			x := k[rng.IntN(len(k))]
			w.remove(x)
			delete(set, x)
		}
		if w.len() != len(set) {
			t.Fatalf("step %d: %d times, want %d", step, w.len(), len(set))
		}
		for x := range set {
			if !w.has(x) {
				t.Fatalf("step %d: %v lost", step, x)
			}
		}
		if !slices.IsSorted(w.t[w.head:]) {
			t.Fatalf("step %d: %v not sorted", step, w.t[w.head:])
		}
	}
	if cap(w.t) > 1024 {
		t.Errorf("the slice grew to %d for a set of at most a few dozen", cap(w.t))
	}
}

func mapKeys(m map[float64]bool) []float64 {
	var k []float64
	for x := range m {
		k = append(k, x)
	}
	return k
}
