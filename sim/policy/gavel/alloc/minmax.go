package alloc

import "math"

// fmax is math.Max and fmin math.Min, the same result for every input,
// with the common case (one argument strictly greater: neither is NaN,
// and an infinity wins as it should) inlined: water filling's proofs
// (room) take them for every class, type and partner, and math.Max is a
// call to an assembly routine on amd64. Equal arguments (±0) and NaNs go
// to math's own.
func fmax(x, y float64) float64 {
	if x > y {
		return x
	}
	if y > x {
		return y
	}
	return mathMax(x, y)
}

func fmin(x, y float64) float64 {
	if x < y {
		return x
	}
	if y < x {
		return y
	}
	return mathMin(x, y)
}

//go:noinline
func mathMax(x, y float64) float64 { return math.Max(x, y) }

//go:noinline
func mathMin(x, y float64) float64 { return math.Min(x, y) }
