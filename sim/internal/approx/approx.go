// Package approx is the tests' one tolerance check for floating-point
// results: hand-computed values from the papers, and two computations that
// should agree up to rounding.
package approx

import "math"

// Equal reports whether a and b agree within the absolute tolerance abs
// or the relative tolerance rel, whichever is looser:
// |a − b| ≤ max(abs, rel·max(|a|, |b|)), as Python's math.isclose and
// gonum's scalar.EqualWithinAbsOrRel. Give 0 for the one not wanted:
// Equal(x, 0.7, 1e-15, 0) is absolute, Equal(x, y, 0, 1e-9) relative. NaN
// equals nothing; an infinity equals only itself.
func Equal(a, b, abs, rel float64) bool {
	if a == b {
		return true
	}
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return false
	}
	d := math.Abs(a - b) // NaN fails both comparisons
	return d <= abs || d <= rel*max(math.Abs(a), math.Abs(b))
}
