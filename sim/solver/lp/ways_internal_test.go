package lp

import (
	"slices"
	"testing"
)

// coldAndWarmSolves solves p cold, by the primal method and then the dual,
// and, when the primal solve is optimal, warm from its basis with every
// seventh objective coefficient halved, by each method again: the solves
// on which the tests of a solver's two internal ways compare them.
func coldAndWarmSolves(t *testing.T, p *Problem) []*Solution {
	t.Helper()
	var sols []*Solution
	solve := func(p *Problem, o Options) {
		sol, err := Solve(p, o)
		if err != nil {
			t.Fatal(err)
		}
		sols = append(sols, sol)
	}
	solve(p, Options{Primal: true})
	solve(p, Options{})
	if base := sols[0]; base.Status == Optimal {
		q := p.Clone()
		for j := 0; j < q.NumCols(); j += 7 {
			q.SetObj(j, q.Obj(j)/2)
		}
		solve(q, Options{Warm: base.Basis})
		solve(q, Options{Warm: base.Basis, Dual: true})
	}
	return sols
}

// sameSolves reports each solve in which a and b, the same solves done
// two ways named wayA and wayB, differ in status, iterations, basis or
// the bits of the solution and the rows' activities.
func sameSolves(t *testing.T, name, wayA, wayB string, a, b []*Solution) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("%s: %d solves %s, %d %s", name, len(a), wayA, len(b), wayB)
	}
	for k := range a {
		x, y := a[k], b[k]
		if x.Status != y.Status || x.Iterations != y.Iterations || !sameBits(x.X, y.X) || !sameBits(x.Row, y.Row) ||
			!slices.Equal(x.Basis.Cols, y.Basis.Cols) || !slices.Equal(x.Basis.Rows, y.Basis.Rows) {
			t.Errorf("%s, solve %d: %s gives %v after %d pivots, %s %v after %d",
				name, k, wayA, x.Status, x.Iterations, wayB, y.Status, y.Iterations)
		}
	}
}
