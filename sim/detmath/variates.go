package detmath

import (
	"math"
	"math/rand/v2"
)

// ExpVariate draws from the exponential distribution with mean 1, by
// inversion. (rand.ExpFloat64 calls math.Exp, which is not deterministic
// across platforms.)
func ExpVariate(r *rand.Rand) float64 {
	return -Log(1 - r.Float64()) // 1 − U is in (0, 1], so the log is finite
}

// NormVariate draws from the standard normal distribution with Marsaglia's
// polar method. (rand.NormFloat64 calls math.Exp and math.Log.)
func NormVariate(r *rand.Rand) float64 {
	for {
		u := 2*r.Float64() - 1
		v := 2*r.Float64() - 1
		s := float64(u*u) + float64(v*v)
		if s > 0 && s < 1 {
			return u * math.Sqrt(-2*Log(s)/s)
		}
	}
}
