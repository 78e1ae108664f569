package plan

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSinglesKeepsPositiveRows: Singles lists the rows whose sum is
// positive (not 0, negative or NaN), in order, each as job i alone with
// its own row, in a list made to measure.
func TestSinglesKeepsPositiveRows(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 7))
	vals := []float64{0, 0.5, -0.25, 1, math.NaN()}
	for round := range 500 {
		rows := make([][]float64, r.IntN(40))
		var want []Combo
		for i := range rows {
			if r.IntN(5) != 0 {
				rows[i] = make([]float64, 1+r.IntN(3))
				for j := range rows[i] {
					rows[i][j] = vals[r.IntN(len(vals))]
				}
			}
			if Sum(rows[i]) > 0 {
				want = append(want, Combo{A: i, B: -1, X: rows[i]})
			}
		}
		got := Singles(rows)
		if len(got) != len(want) || cap(got) != len(want) {
			t.Fatalf("round %d: %d combinations (room for %d), want %d", round, len(got), cap(got), len(want))
		}
		for k := range got {
			if got[k].A != want[k].A || got[k].B != -1 || &got[k].X[0] != &want[k].X[0] || !slices.Equal(got[k].X, want[k].X) {
				t.Fatalf("round %d, combination %d: %+v, want %+v", round, k, got[k], want[k])
			}
		}
	}
}
