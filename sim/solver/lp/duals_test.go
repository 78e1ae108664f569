package lp_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/sim/solver/lp"
)

// TestRowDualsProveOptimality checks the row duals of random optimal LPs
// (scaled, maximised and minimised, cold and warm) against the optimality
// conditions they must satisfy with the primal solution: every column's
// reduced cost c_j − Σ_i a_ij y_i has the sign its position between its
// bounds requires, and every row's dual is 0 off its bounds and has the
// sign of the bound it sits at. Wrong signs, a missed scale factor or a
// dual from another basis break these on most of the LPs.
func TestRowDualsProveOptimality(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 5))
	checked, nonzero := 0, 0
	for trial := range 400 {
		p := scaleRows(r, randomLP(r, 3+r.IntN(8), 2+r.IntN(7), r.IntN(2) == 0))
		sol, err := lp.Solve(p, lp.Options{Duals: true})
		if err != nil {
			t.Fatal(err)
		}
		if sol.Status != lp.Optimal {
			if sol.RowDuals != nil {
				t.Fatalf("trial %d: %v solve returned duals", trial, sol.Status)
			}
			continue
		}
		checkDuals(t, trial, p, sol)
		checked++
		for _, y := range sol.RowDuals {
			if y != 0 {
				nonzero++
			}
		}
		// Warm from its own basis after a bound moves.
		i := r.IntN(p.NumRows())
		lo, hi := p.RowBounds(i)
		p.SetRowBounds(i, lo-1, hi+1)
		warm, err := lp.Solve(p, lp.Options{Duals: true, Warm: sol.Basis})
		if err != nil {
			t.Fatal(err)
		}
		if warm.Status == lp.Optimal {
			checkDuals(t, trial, p, warm)
		}
	}
	if checked < 100 || nonzero < checked {
		t.Fatalf("only %d optimal LPs with %d nonzero duals", checked, nonzero)
	}
}

// scaleRows returns p with some rows multiplied by powers of ten, so the
// solver's scaling has something to undo.
func scaleRows(r *rand.Rand, p *lp.Problem) *lp.Problem {
	q := lp.New(p.Name)
	q.Maximize = p.Maximize
	f := make([]float64, p.NumRows())
	for i := range f {
		f[i] = math.Pow(10, float64(r.IntN(7)-3))
		lo, hi := p.RowBounds(i)
		q.AddRow(p.RowName(i), lo*f[i], hi*f[i])
	}
	for j := range p.NumCols() {
		lo, hi := p.ColBounds(j)
		q.AddCol(p.ColName(j), lo, hi, p.Obj(j))
		rows, vals := p.Col(j)
		for k, i := range rows {
			q.Set(int(i), j, vals[k]*f[i])
		}
	}
	return q
}

func checkDuals(t *testing.T, trial int, p *lp.Problem, sol *lp.Solution) {
	t.Helper()
	y := sol.RowDuals
	if len(y) != p.NumRows() {
		t.Fatalf("trial %d: %d duals for %d rows", trial, len(y), p.NumRows())
	}
	sense := 1.0 // a dual's sign at an upper bound: ≥ 0 when maximising
	if !p.Maximize {
		sense = -1
	}
	const tol = 1e-7
	for i, yi := range y {
		lo, hi := p.RowBounds(i)
		a := sol.Row[i]
		size := tol * (1 + math.Abs(a))
		atLo, atHi := math.Abs(a-lo) <= size, math.Abs(a-hi) <= size
		bad := (!atLo && !atHi && math.Abs(yi) > tol) ||
			(sense*yi > tol && !atHi) || (sense*yi < -tol && !atLo)
		if bad {
			t.Fatalf("trial %d: row %d in [%g, %g] at %g has dual %g (maximise %v)", trial, i, lo, hi, a, yi, p.Maximize)
		}
	}
	for j := range p.NumCols() {
		d := p.Obj(j)
		rows, vals := p.Col(j)
		for k, i := range rows {
			d -= vals[k] * y[i]
		}
		lo, hi := p.ColBounds(j)
		x := sol.X[j]
		size := tol * (1 + math.Abs(x))
		atLo, atHi := math.Abs(x-lo) <= size, math.Abs(x-hi) <= size
		// Raising x_j changes the objective by d per unit: when that
		// helps, x_j must be at its upper bound; when it hurts, at its lower.
		if sense*d > tol*(1+math.Abs(p.Obj(j))) && !atHi || sense*d < -tol*(1+math.Abs(p.Obj(j))) && !atLo {
			t.Fatalf("trial %d: column %d in [%g, %g] at %g has reduced cost %g (maximise %v)", trial, j, lo, hi, x, d, p.Maximize)
		}
	}
}
