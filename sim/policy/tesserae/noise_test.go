package tesserae

import (
	"testing"

	"github.com/schedlab/schedlab/sim/policy/tesserae/pack"
)

// The noisy belief table keeps every measured entry within [1−ε, 1+ε] of
// the truth, moves most of them, leaves unmeasured ones at 0, leaves the
// truth alone, and is the same for the same seed.
func TestNoisyTable(t *testing.T) {
	truth, err := pack.Blox()
	if err != nil {
		t.Fatal(err)
	}
	const eps = 0.5
	a, b := noisy(truth, eps, 7), noisy(truth, eps, 7)
	moved, measured := 0, 0
	for c := range truth.T {
		for i := range truth.T[c] {
			for j, v := range truth.T[c][i] {
				got := a.T[c][i][j]
				if got != b.T[c][i][j] {
					t.Fatalf("seed 7 gave two tables")
				}
				if v == 0 {
					if got != 0 {
						t.Fatalf("unmeasured entry became %v", got)
					}
					continue
				}
				measured++
				if got < (1-eps)*v-1e-12 || got > (1+eps)*v+1e-12 {
					t.Fatalf("entry %v became %v, outside ±%v", v, got, eps)
				}
				if got != v {
					moved++
				}
			}
		}
	}
	if moved < measured*9/10 {
		t.Fatalf("only %d of %d measured entries moved", moved, measured)
	}
	fresh, _ := pack.Blox()
	if truth.T[0][0][0] != fresh.T[0][0][0] {
		t.Fatalf("the truth table changed")
	}
}
