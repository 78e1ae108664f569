package tesserae

import (
	"math/rand/v2"

	"github.com/schedlab/schedlab/sim/policy/tesserae/pack"
)

// noisy is the belief table of spec 003 §4.3 [ours]: every measured
// entry times a factor drawn from U(1−eps, 1+eps), in a fixed order so
// that a seed gives the same table everywhere. Unmeasured entries (0)
// stay unmeasured; an entry the noise takes to 0 or below loses its edge.
func noisy(t *pack.Table, eps float64, seed uint64) *pack.Table {
	r := rand.New(rand.NewPCG(seed, 0x7e55e4ae))
	out := *t
	out.T = make([][][]float64, len(t.T))
	for c := range t.T {
		out.T[c] = make([][]float64, len(t.T[c]))
		for i := range t.T[c] {
			out.T[c][i] = make([]float64, len(t.T[c][i]))
			for j, v := range t.T[c][i] {
				f := 1 - eps + 2*eps*r.Float64()
				if v > 0 {
					out.T[c][i][j] = max(0, v*f)
				}
			}
		}
	}
	return &out
}
