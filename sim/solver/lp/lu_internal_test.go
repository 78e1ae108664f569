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
