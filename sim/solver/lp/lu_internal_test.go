package lp

import (
	"math"
	"testing"
)

// maxAbs agrees with math.Max bit for bit on absolute values, infinities
// and NaN.
func TestMaxAbsIsMathMax(t *testing.T) {
	vals := []float64{0, 1e-300, 0.5, 1, 2, math.MaxFloat64, math.Inf(1), math.NaN()}
	for _, m := range vals {
		for _, v := range vals {
			want, got := math.Max(m, v), maxAbs(m, v)
			if math.Float64bits(want) != math.Float64bits(got) && !(math.IsNaN(want) && math.IsNaN(got)) {
				t.Errorf("maxAbs(%v, %v) = %v, math.Max gives %v", m, v, got, want)
			}
		}
	}
}

// A nucleus column whose entries left after elimination are tiny against
// its entry in a row already pivoted is singular: the threshold compares
// with the largest entry of the whole column, pivoted rows included
// (kept as they are pivoted, in factor's uMax).
func TestFactorizeSingularAgainstPivotedRows(t *testing.T) {
	// Every row and column full (no singletons). Column 0 pivots first,
	// on row 0; column 1 is then left with 1 and 1 against 1e12 in row 0.
	rows := []int32{0, 1, 2}
	cols := [][]float64{{1, 1, 1}, {1e12, 1e12 + 1, 1e12 + 1}, {1, 2, 3}}
	var f factor
	singular, free := f.factorize(3, [][]int32{rows, rows, rows}, cols)
	if len(singular) != 1 || singular[0] != 1 || len(free) != 1 {
		t.Fatalf("singular positions %v, rows left %v; want position 1 singular and one row left", singular, free)
	}
	// The same column with its first entry 1e8 (1 is within 1e-9 of it):
	// nothing singular.
	cols[1] = []float64{1e8, 1e8 + 1, 1e8 + 3}
	if singular, _ := f.factorize(3, [][]int32{rows, rows, rows}, cols); len(singular) != 0 {
		t.Fatalf("singular positions %v, want none", singular)
	}
}
