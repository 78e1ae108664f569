package alloc

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMinMaxSameAsMath checks fmax and fmin against math.Max and
// math.Min bit for bit on the special values (each infinity with NaN
// among them, whose order of checks differs from the builtins') and on
// random ones.
func TestMinMaxSameAsMath(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), 1, -1, 2.5, math.Inf(1), math.Inf(-1), math.NaN(), math.MaxFloat64, math.SmallestNonzeroFloat64}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		vals = append(vals, r.NormFloat64()*1e3)
	}
	same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) || (a != a && b != b) }
	for _, x := range vals {
		for _, y := range vals {
			if got, want := fmax(x, y), math.Max(x, y); !same(got, want) {
				t.Fatalf("fmax(%v, %v) = %v, math.Max %v", x, y, got, want)
			}
			if got, want := fmin(x, y), math.Min(x, y); !same(got, want) {
				t.Fatalf("fmin(%v, %v) = %v, math.Min %v", x, y, got, want)
			}
		}
	}
}
