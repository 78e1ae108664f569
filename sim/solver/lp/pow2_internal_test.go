package lp

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPow2SameAsFrexp: the bit-reading pow2 gives what rounding through
// Frexp and Ldexp gives, on random values over the whole exponent range
// and at the edges: √2 times powers of two and their neighbours,
// subnormals, the largest floats; and pow2Normal the same where it answers.
func TestPow2SameAsFrexp(t *testing.T) {
	vals := []float64{1, 2, 0.5, math.Sqrt2, math.SmallestNonzeroFloat64, 0x1p-1022, 0x1p-1023, math.MaxFloat64, 0x1p1023, 0x1.6a09e667f3bcdp1022}
	for e := -1074; e <= 1023; e += 7 {
		v := math.Ldexp(math.Sqrt2, e)
		vals = append(vals, v, math.Nextafter(v, 0), math.Nextafter(v, math.Inf(1)))
	}
	r := rand.New(rand.NewPCG(2, 3))
	for range 100000 {
		vals = append(vals, math.Ldexp(1+r.Float64(), r.IntN(2098)-1075))
	}
	for _, v := range vals {
		if v <= 0 || math.IsInf(v, 0) {
			continue
		}
		if got, want := pow2(v), pow2Frexp(v); got != want {
			t.Fatalf("pow2(%v) = %v, want %v", v, got, want)
		}
		// pow2Normal answers alone exactly on the normal values below
		// 2^1023, and says 0 on the others (scale then asks pow2Frexp).
		normal := v >= 0x1p-1022 && v < 0x1p1023
		if got := pow2Normal(v); (normal && got != pow2Frexp(v)) || (!normal && got != 0) {
			t.Fatalf("pow2Normal(%v) = %v (normal: %v), pow2Frexp gives %v", v, got, normal, pow2Frexp(v))
		}
	}
}
