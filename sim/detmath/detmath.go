// Package detmath holds the elementary functions and random variates the
// simulation uses, written so that they give bit-identical results on every
// platform. The standard library's math.Exp and math.Log run assembly on
// amd64 and pure Go in WebAssembly, and their results differ in the last
// bit; a simulation that used them would not give the same numbers in the
// browser and on the command line. Everything here is built from IEEE
// addition, multiplication and division only, with explicit conversions
// that forbid fused multiply-adds, so each result is fully determined.
//
// Accuracy is within a few units in the last place of the true value,
// which is far below anything a simulation can notice.
package detmath

import "math"

// ln2 split in two so that k·ln2Hi is exact for |k| < 2^20 (Cody–Waite
// range reduction).
const (
	ln2Hi = 6.93147180369123816490e-01 // the first 32 bits of ln 2
	ln2Lo = 1.90821492927058770002e-10 // ln 2 − ln2Hi
	log2e = 1.44269504088896338700e+00
	ln10  = 2.30258509299404568402e+00
)

// invFact[i] = 1/i!, for the Taylor series of exp.
var invFact = func() [15]float64 {
	var f [15]float64
	f[0] = 1
	for i := 1; i < len(f); i++ {
		f[i] = f[i-1] / float64(i)
	}
	return f
}()

// Exp returns e**x.
func Exp(x float64) float64 {
	switch {
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x
	case math.IsInf(x, -1):
		return 0
	case x > 709.782712893384:
		return math.Inf(1)
	case x < -745.1332191019412:
		return 0
	}
	// x = k·ln2 + r with |r| <= ln2/2, so e**x = 2**k · e**r.
	k := math.Floor(float64(x*log2e) + 0.5)
	r := float64(x-float64(k*ln2Hi)) - float64(k*ln2Lo)
	// Taylor series to r**14/14!: the next term is below 2**-60 of the sum
	// for |r| <= 0.347.
	p := invFact[14]
	for i := 13; i >= 0; i-- {
		p = float64(p*r) + invFact[i]
	}
	return math.Ldexp(p, int(k))
}

// Log returns the natural logarithm of x.
func Log(x float64) float64 {
	switch {
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x
	case x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	}
	// x = m·2**e with m in [√½, √2); ln m = 2·atanh(s), s = (m−1)/(m+1).
	// m in [½, 1), as math.Frexp gives it; for a normal x read from
	// its bits here, without the call (every generated job draws two
	// logarithms)
	var m float64
	var e int
	if bits := math.Float64bits(x); bits>>52 != 0 {
		m, e = math.Float64frombits(bits&^(0x7ff<<52)|1022<<52), int(bits>>52)-1022
	} else {
		m, e = math.Frexp(x) // subnormal
	}
	if m < math.Sqrt2/2 {
		m *= 2
		e--
	}
	f := m - 1
	s := f / (2 + f)
	s2 := float64(s * s)
	// 2·atanh(s) = f − (f²/2 − s·(f²/2 + R)) with R = Σ_{i≥1} 2·s^{2i}/(2i+1):
	// the large term f is exact and only small corrections round.
	// |s| <= 0.1716, so terms to s^24 suffice.
	// Horner's rule written out, with the coefficients 2/(2i+1) as
	// constants: the same roundings as a loop dividing at each step (a
	// constant quotient is the correctly rounded one, as IEEE division's
	// is), without eleven divisions a call. The workload's generators
	// draw every arrival and duration through here.
	r := 2.0 / 25
	r = float64(r*s2) + 2.0/23
	r = float64(r*s2) + 2.0/21
	r = float64(r*s2) + 2.0/19
	r = float64(r*s2) + 2.0/17
	r = float64(r*s2) + 2.0/15
	r = float64(r*s2) + 2.0/13
	r = float64(r*s2) + 2.0/11
	r = float64(r*s2) + 2.0/9
	r = float64(r*s2) + 2.0/7
	r = float64(r*s2) + 2.0/5
	r = float64(r*s2) + 2.0/3
	r = float64(r * s2)
	hfsq := float64(0.5 * float64(f*f))
	fe := float64(e)
	return float64(fe*ln2Hi) + (f - (hfsq - (float64(s*(hfsq+r)) + float64(fe*ln2Lo))))
}

// Log10 returns the decimal logarithm of x.
func Log10(x float64) float64 { return Log(x) * (1 / ln10) }

// Pow returns x**y. Negative x is allowed only with whole y.
func Pow(x, y float64) float64 {
	switch {
	case y == 0:
		return 1
	case y == 1:
		return x
	case y == 0.5 && x >= 0:
		return math.Sqrt(x) // IEEE square root is exact on every platform
	case math.IsNaN(x) || math.IsNaN(y):
		return math.NaN()
	case x == 0:
		if y < 0 {
			return math.Inf(1)
		}
		return 0
	case y == math.Trunc(y) && math.Abs(y) <= 1024:
		return powInt(x, int(y))
	case x < 0:
		if y != math.Trunc(y) {
			return math.NaN()
		}
		v := Exp(y * Log(-x))
		if math.Mod(y, 2) != 0 {
			return -v
		}
		return v
	}
	return Exp(y * Log(x))
}

// powInt is x**n by binary exponentiation: exact while the powers are
// representable (10**3 is 1000, not 1000.0000000000007).
func powInt(x float64, n int) float64 {
	neg := n < 0
	if neg {
		n = -n
	}
	result := 1.0
	for n > 0 {
		if n&1 == 1 {
			result *= x
		}
		x *= x
		n >>= 1
	}
	if neg {
		return 1 / result
	}
	return result
}
