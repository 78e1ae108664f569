package lp

import (
	"math"
	"math/rand/v2"
	"testing"
)

// marksFollowBasis checks, at a pivotRow, that every variable is marked
// markBasic exactly when it is basic, and that the others are unmarked
// but for the list from before (markListed, or markBasic for the
// entering variable it may hold), counting the checks and mismatches.
func marksFollowBasis(checked, wrong *int) func(s *solver) {
	return func(s *solver) {
		*checked++
		listed := make([]bool, len(s.mark))
		for _, j := range s.touch {
			listed[j] = true
		}
		for j, m := range s.mark {
			basic := s.stat[j] == Basic
			switch {
			case basic && m == markBasic:
			case !basic && m == markNone:
			case !basic && m == markListed && listed[j]:
			default:
				*wrong++
				return
			}
		}
	}
}

// Every pivot row of the dumped and random LPs' solves (cold and warm,
// each method, phase 1 after the rows tighten) finds the basics marked,
// and nothing else
// but the list from before: what pivotRow's one load per entry relies
// on, now that the marks are kept at every change of basis rather than
// set and cleared around each product.
func TestMarksFollowBasis(t *testing.T) {
	checked, wrong := 0, 0
	checkMarks = marksFollowBasis(&checked, &wrong)
	defer func() { checkMarks = nil }()
	solveVariety(t, func() int { return wrong }, "pivot rows found marks that differ from the basis")
	if checked < 5000 {
		t.Errorf("only %d pivot rows checked", checked)
	}
	t.Logf("%d pivot rows checked", checked)
}

// unlist clears a pivot row's entries and listed marks and leaves the
// mark of a listed variable that became basic since (the entering one,
// when no dual update cleared the list) markBasic, on random lists.
func TestUnlistKeepsBasics(t *testing.T) {
	r := rand.New(rand.NewPCG(39, 40))
	for round := range 2000 {
		N := 1 + r.IntN(50)
		alphaR, mark := make([]float64, N), make([]uint8, N)
		var touch []int32
		basic := make([]bool, N)
		for j := range N {
			switch r.IntN(3) {
			case 0:
				mark[j], basic[j] = markBasic, true
			case 1:
				mark[j], alphaR[j] = markListed, someFloat(r)
				touch = append(touch, int32(j))
			}
		}
		if len(touch) > 0 { // the entering variable, listed, then made basic
			q := touch[r.IntN(len(touch))]
			mark[q], basic[q] = markBasic, true
		}
		unlist(touch, alphaR, mark)
		for j := range N {
			want := markNone
			if basic[j] {
				want = markBasic
			}
			if mark[j] != want || math.Float64bits(alphaR[j]) != 0 {
				t.Fatalf("round %d: variable %d marked %d (want %d), alphaR %v", round, j, mark[j], want, alphaR[j])
			}
		}
	}
}
