package lp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
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

// computeXBPlain is computeXB as first written: every variable's column
// through column.
func computeXBPlain(s *solver) {
	rhs, N := s.rhs, s.n+s.m
	clear(rhs)
	stat, x := s.stat[:N], s.x[:N]
	for j := range N {
		if stat[j] == Basic || x[j] == 0 {
			continue
		}
		rows, vals := s.column(j)
		vals = vals[:len(rows)]
		xj := x[j]
		for k, i := range rows {
			rhs[i] -= vals[k] * xj
		}
	}
	s.f.ftran(rhs, s.alpha)
	for k, j := range s.head {
		x[j] = s.alpha[k]
	}
	s.lscoreOK = false
}

// computeXB must give computeXBPlain's basic values, bit for bit: water
// filling's step LPs at the basis their solve ends at, the nonbasic
// values drawn at random (zeros of both signs, bounds, tiny and large
// values).
func TestComputeXBSameAsPlain(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	var w Workspace
	vals := []float64{0, math.Copysign(0, -1), 1, -1, 1e-300, -3.5e7}
	bits := func(v []float64) []uint64 {
		out := make([]uint64, len(v))
		for i, x := range v {
			out[i] = math.Float64bits(x)
		}
		return out
	}
	for k, p := range waterfillProblems(t) {
		if _, err := w.Solve(p, Options{}); err != nil {
			t.Fatalf("LP %d: %v", k, err)
		}
		s := &w.s
		s.refactor() // a fresh factorisation of the final basis
		for trial := range 30 {
			for j := range s.x {
				if s.stat[j] == Basic {
					continue
				}
				s.x[j] = vals[r.IntN(len(vals))]
				if r.IntN(2) == 0 {
					s.x[j] = r.NormFloat64() * math.Ldexp(1, r.IntN(40)-20)
				}
			}
			x0 := slices.Clone(s.x)
			computeXBPlain(s)
			want, wantRHS := bits(s.x), bits(s.rhs)
			copy(s.x, x0)
			s.computeXB()
			if got := bits(s.x); !slices.Equal(got, want) || !slices.Equal(bits(s.rhs), wantRHS) {
				t.Fatalf("LP %d, trial %d: computeXB gives x %v, plain %v", k, trial, s.x, x0)
			}
		}
	}
}
