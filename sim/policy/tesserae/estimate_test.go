package tesserae

import (
	"math"
	"testing"

	"github.com/schedlab/schedlab/sim/policy/tesserae/pack"
)

// A rank-1 matrix with a third of its entries hidden is recovered exactly.
func TestRank1Recovers(t *testing.T) {
	u0, v0 := []float64{0.5, 0.8, 1.1, 0.9}, []float64{1.2, 0.7, 0.9, 1.0}
	m := make([][]float64, 4)
	seen := make([][]bool, 4)
	for i := range m {
		m[i], seen[i] = make([]float64, 4), make([]bool, 4)
		for j := range m[i] {
			m[i][j] = u0[i] * v0[j]
			seen[i][j] = (i+2*j)%3 != 0
		}
	}
	u, v := rank1(m, seen)
	for i := range m {
		for j := range m[i] {
			if got := u[i] * v[j]; math.Abs(got-m[i][j]) > 1e-6 {
				t.Fatalf("entry %d,%d: %v, want %v", i, j, got, m[i][j])
			}
		}
	}
}

// The estimators change only what they estimate: the linear model copies
// 1-GPU values to larger counts, matrix completion keeps profiled and
// unmeasured entries, and a full budget reproduces the table.
func TestEstimators(t *testing.T) {
	truth, err := pack.Blox()
	if err != nil {
		t.Fatal(err)
	}
	lin := linear(truth)
	copied := 0
	for c := 1; c < len(truth.T); c++ {
		for i := range truth.T[c] {
			for j, v := range truth.T[c][i] {
				got := lin.T[c][i][j]
				switch {
				case v == 0 && got != 0:
					t.Fatalf("linear: unmeasured entry became %v", got)
				case v > 0 && truth.T[0][i][j] > 0 && truth.T[0][j][i] > 0:
					if got != truth.T[0][i][j] {
						t.Fatalf("linear: %d GPUs %s beside %s is %v, want the 1-GPU %v", truth.GPUs[c], truth.Models[i], truth.Models[j], got, truth.T[0][i][j])
					}
					copied++
				case got != v:
					t.Fatalf("linear: a pair without 1-GPU profile changed from %v to %v", v, got)
				}
			}
		}
	}
	if copied == 0 {
		t.Fatal("linear: nothing copied")
	}
	full := completed(truth, 1, 3)
	half := completed(truth, 0.5, 3)
	changed := 0
	for c := range truth.T {
		for i := range truth.T[c] {
			for j, v := range truth.T[c][i] {
				if full.T[c][i][j] != v {
					t.Fatalf("budget 1 changed an entry from %v to %v", v, full.T[c][i][j])
				}
				if v == 0 && half.T[c][i][j] != 0 {
					t.Fatalf("matrix completion gave an unmeasured pair %v", half.T[c][i][j])
				}
				if half.T[c][i][j] != v {
					changed++
				}
			}
		}
	}
	if changed == 0 {
		t.Fatal("budget 0.5 estimated nothing")
	}
}
