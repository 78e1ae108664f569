package policy

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// IDSet agrees with a plain list under random adds and removes, iterates
// in ascending order, and lets Each remove the member it is given.
func TestIDSet(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const size = 700
	s := NewIDSet(size)
	in := make([]bool, size)
	for step := range 20000 {
		i := r.IntN(size)
		if r.IntN(3) == 0 {
			s.Remove(i)
			in[i] = false
		} else {
			s.Add(i)
			in[i] = true
		}
		if step%500 != 0 {
			continue
		}
		var want, got []int
		for k, ok := range in {
			if ok {
				want = append(want, k)
			}
		}
		s.Each(func(k int) bool { got = append(got, k); return true })
		if !slices.Equal(got, want) || s.Len() != len(want) {
			t.Fatalf("step %d: Each gives %d members, want %d (Len %d)", step, len(got), len(want), s.Len())
		}
		for _, k := range want {
			if !s.Has(k) {
				t.Fatalf("step %d: %d missing", step, k)
			}
		}
	}
	// Removing while iterating, and stopping early.
	n := 0
	s.Each(func(k int) bool {
		if k%2 == 0 {
			s.Remove(k)
			in[k] = false
		}
		n++
		return n < 100
	})
	var rest []int
	s.Each(func(k int) bool { rest = append(rest, k); return true })
	for _, k := range rest {
		if !in[k] {
			t.Fatalf("%d was removed but is still listed", k)
		}
	}
	if len(rest) != s.Len() {
		t.Fatalf("Each lists %d members, Len says %d", len(rest), s.Len())
	}
}
