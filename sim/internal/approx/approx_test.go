package approx

import (
	"math"
	"testing"
)

func TestEqual(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	for _, c := range []struct {
		a, b, abs, rel float64
		want           bool
	}{
		{1.667, 1.6672, 5e-4, 0, true},   // absolute
		{1.667, 1.6676, 5e-4, 0, false},  // just over
		{31.677, 31.69, 5e-4, 0, false},  // absolute does not grow with the value
		{1000, 1000.9, 0, 1e-3, true},    // relative: 0.9 ≤ 1e-3 × 1000.9
		{1000, 1001.1, 0, 1e-3, false},   // 1.1 > 1.0011
		{1e-12, 2e-12, 0, 1e-3, false},   // relative alone is strict near 0
		{1e-12, 2e-12, 1e-9, 1e-3, true}, // the absolute part covers it
		{-2, 2, 1, 1, false},             // 4 > max(1, 1 × 2)
		{inf, inf, 0, 0, true},
		{inf, -inf, 1, 1, false},
		{inf, 1e308, 1, 1, false},
		{nan, nan, 1, 1, false},
		{nan, 0, 1, 1, false},
	} {
		if got := Equal(c.a, c.b, c.abs, c.rel); got != c.want {
			t.Errorf("Equal(%v, %v, %v, %v) = %v, want %v", c.a, c.b, c.abs, c.rel, got, c.want)
		}
		if got := Equal(c.b, c.a, c.abs, c.rel); got != c.want {
			t.Errorf("Equal(%v, %v, %v, %v) = %v, want %v (swapped)", c.b, c.a, c.abs, c.rel, got, c.want)
		}
	}
}
