package alloc

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// symmetrize groups jobs by a key of their floats; appendKeyFloat's bytes
// must be equal exactly when the floats' shortest decimal forms are (the
// key the groups were first made with), so that the same jobs are grouped.
func TestKeyFloatSameGroupsAsDecimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 1))
	vals := []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), math.NaN(),
		math.Float64frombits(math.Float64bits(math.NaN()) ^ 1), math.Nextafter(1, 2), 0.1, 0.1 + 0.2, 0.3,
		math.SmallestNonzeroFloat64, math.MaxFloat64}
	for range 2000 {
		vals = append(vals, rng.Float64()*1e6, float64(rng.IntN(8)), math.Float64frombits(rng.Uint64()))
	}
	keys, decs := make([]string, len(vals)), make([]string, len(vals))
	for i, v := range vals {
		keys[i], decs[i] = string(appendKeyFloat(nil, v)), strconv.FormatFloat(v, 'g', -1, 64)
	}
	for i := range vals {
		for j := i; j < len(vals); j++ {
			if (keys[i] == keys[j]) != (decs[i] == decs[j]) {
				t.Fatalf("%v (%q) and %v (%q): same key %v, same decimal %v",
					vals[i], decs[i], vals[j], decs[j], keys[i] == keys[j], decs[i] == decs[j])
			}
		}
	}
}
