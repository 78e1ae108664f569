package metrics

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortTimesIsSort: sortTimes gives what slices.Sort gives, on long
// and short lists of times with ties, zeros and a wide range of sizes,
// and on lists it must hand to slices.Sort (a negative number, -0, NaN).
func TestSortTimesIsSort(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var scratch []float64 // reused, as Stream does
	for run := range 60 {
		n := []int{0, 1, 5, radixFrom - 1, radixFrom, 3 * radixFrom, 50_000}[run%7]
		xs := make([]float64, n)
		for i := range xs {
			switch r.IntN(7) {
			case 6: // numbers that differ in their last bits only
				xs[i] = math.Float64frombits(math.Float64bits(1000) + uint64(r.IntN(1<<16)))
			case 0:
				xs[i] = 0
			case 1:
				xs[i] = float64(r.IntN(10)) // ties
			case 2:
				xs[i] = r.ExpFloat64() * 1e-6
			default:
				xs[i] = r.ExpFloat64() * math.Pow(10, float64(r.IntN(12)))
			}
		}
		if n > 0 && run%5 == 4 {
			xs[r.IntN(n)] = []float64{-1, math.Copysign(0, -1), math.NaN()}[run%3]
		}
		want := slices.Clone(xs)
		slices.Sort(want)
		scratch = sortTimes(xs, scratch)
		for i := range xs {
			if math.Float64bits(xs[i]) != math.Float64bits(want[i]) {
				t.Fatalf("run %d (%d numbers): at %d sortTimes gives %v, slices.Sort %v", run, n, i, xs[i], want[i])
			}
		}
	}
}
