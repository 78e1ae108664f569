package lp

import (
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
