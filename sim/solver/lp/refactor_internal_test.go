package lp

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// sameSlice reports whether a and b are the same slice: the same array,
// length and capacity.
func sameSlice[T any](a, b []T) bool {
	return unsafe.SliceData(a) == unsafe.SliceData(b) && len(a) == len(b) && cap(a) == cap(b)
}

// basisColumnsAsColumn reports the first position whose bRows or bVals
// is not what s.column gives for its basic variable.
func basisColumnsAsColumn(s *solver) error {
	for k, j := range s.head {
		rows, vals := s.column(int(j))
		if !sameSlice(s.bRows[k], rows) || !sameSlice(s.bVals[k], vals) {
			return fmt.Errorf("position %d (variable %d): bRows/bVals are not column's", k, j)
		}
	}
	return nil
}

// basisColumns must point every position at what column gives, and so
// must refactor after swapping logicals in for a singular basis's
// columns (it sets the swapped positions alone): random heads of water
// filling's step LPs, some with a structural twice (singular).
func TestBasisColumnsSameAsColumn(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	var w Workspace
	repaired := 0
	for k, p := range waterfillProblems(t) {
		if _, err := w.Solve(p, Options{}); err != nil {
			t.Fatalf("LP %d: %v", k, err)
		}
		s := &w.s
		n, m := s.n, s.m
		for trial := range 40 {
			for pos := range m {
				j := n + pos
				if r.IntN(3) > 0 {
					j = r.IntN(n + m)
				}
				s.head[pos] = int32(j)
			}
			s.basisColumns()
			if err := basisColumnsAsColumn(s); err != nil {
				t.Fatalf("LP %d, basis %d: %v", k, trial, err)
			}
			// refactor's repair: reset the statuses and positions as
			// start would, then factor.
			for j := range s.stat {
				s.stat[j], s.posOf[j] = AtLower, -1
			}
			for pos, j := range s.head {
				s.stat[j], s.posOf[j] = Basic, int32(pos)
			}
			before := s.factors
			s.refactor()
			if s.factors > before+1 {
				repaired++
			}
			if err := basisColumnsAsColumn(s); err != nil {
				t.Fatalf("LP %d, basis %d, after refactor: %v", k, trial, err)
			}
		}
	}
	if repaired == 0 {
		t.Fatal("no basis needed a repair: the test wants some")
	}
	t.Logf("%d bases repaired", repaired)
}
