package lp

import (
	"math"
	"slices"
	"testing"
)

// TestEtaListWaysSameBits solves the dumped LPs, cold and warm, with
// ftranSparse always listing every position once the product-form
// updates hold an entry, and never: the same iterations, statuses, bases
// and solution bits either way, and every sparse solve the full sweep's
// bits with every nonzero listed.
func TestEtaListWaysSameBits(t *testing.T) {
	defer func(v int) { etaListAbove = v }(etaListAbove)
	verifySparse, sparseChecked, sparseMismatches = true, 0, 0
	defer func() { verifySparse = false }()
	for _, name := range []string{"gavel-small-13", "gavel-cost-71", "gavel-makespan-x300-12", "fig12-makespan-512-2", "fig12-ftf-512-1", "fig12-cost-512-1"} {
		p := readDumped(t, name)
		var sols [2][]*Solution
		for way, above := range []int{0, math.MaxInt32} {
			etaListAbove = above
			before := sparseMismatches
			for _, o := range []Options{{Primal: true}, {}} {
				sol, err := Solve(p, o)
				if err != nil {
					t.Fatal(err)
				}
				sols[way] = append(sols[way], sol)
			}
			if base := sols[way][0]; base.Status == Optimal {
				q := p.Clone()
				for j := 0; j < q.NumCols(); j += 7 {
					q.SetObj(j, q.Obj(j)/2)
				}
				for _, o := range []Options{{Warm: base.Basis}, {Warm: base.Basis, Dual: true}} {
					sol, err := Solve(q, o)
					if err != nil {
						t.Fatal(err)
					}
					sols[way] = append(sols[way], sol)
				}
			}
			if n := sparseMismatches - before; n > 0 {
				t.Errorf("%s, limit %d: %d sparse solves differ from the full sweep", name, above, n)
			}
		}
		if len(sols[0]) != len(sols[1]) {
			t.Fatalf("%s: %d solves one way, %d the other", name, len(sols[0]), len(sols[1]))
		}
		for k, a := range sols[0] {
			b := sols[1][k]
			if a.Status != b.Status || a.Iterations != b.Iterations || !sameBits(a.X, b.X) || !sameBits(a.Row, b.Row) ||
				!slices.Equal(a.Basis.Cols, b.Basis.Cols) || !slices.Equal(a.Basis.Rows, b.Basis.Rows) {
				t.Errorf("%s, solve %d: listing every position gives %v after %d pivots, marking %v after %d",
					name, k, a.Status, a.Iterations, b.Status, b.Iterations)
			}
		}
	}
}
