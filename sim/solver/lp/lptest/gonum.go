// Package lptest solves schedlab LPs with gonum's dense simplex, the
// independent oracle that tests compare schedlab's solver with. It is too
// slow for production (spec 001 §2.11) and is imported by tests only.
package lptest

import (
	"math"

	"gonum.org/v1/gonum/mat"
	gonumlp "gonum.org/v1/gonum/optimize/convex/lp"

	"github.com/schedlab/schedlab/sim/solver/lp"
)

// Errors gonum reports for infeasible and unbounded problems.
var (
	ErrInfeasible = gonumlp.ErrInfeasible
	ErrUnbounded  = gonumlp.ErrUnbounded
)

// Solve returns the optimal objective of p by gonum's simplex: bounds and
// ranged rows become inequality rows, then gonum's standard-form
// conversion.
func Solve(p *lp.Problem) (float64, error) {
	n := p.NumCols()
	var G, A [][]float64
	var h, b []float64
	dense := make([][]float64, p.NumRows())
	for i := range dense {
		dense[i] = make([]float64, n)
	}
	for j := 0; j < n; j++ {
		rows, vals := p.Col(j)
		for k, i := range rows {
			dense[i][j] = vals[k]
		}
	}
	for i, row := range dense {
		lo, hi := p.RowBounds(i)
		if lo == hi {
			A, b = append(A, row), append(b, lo)
			continue
		}
		if !math.IsInf(hi, 1) {
			G, h = append(G, row), append(h, hi)
		}
		if !math.IsInf(lo, -1) {
			neg := make([]float64, n)
			for j, v := range row {
				neg[j] = -v
			}
			G, h = append(G, neg), append(h, -lo)
		}
	}
	for j := 0; j < n; j++ {
		lo, hi := p.ColBounds(j)
		if !math.IsInf(hi, 1) {
			e := make([]float64, n)
			e[j] = 1
			G, h = append(G, e), append(h, hi)
		}
		if !math.IsInf(lo, -1) {
			e := make([]float64, n)
			e[j] = -1
			G, h = append(G, e), append(h, -lo)
		}
	}
	c := make([]float64, n)
	for j := range c {
		c[j] = p.Obj(j)
		if p.Maximize {
			c[j] = -c[j]
		}
	}
	toMat := func(rows [][]float64) mat.Matrix {
		if len(rows) == 0 {
			return nil
		}
		d := mat.NewDense(len(rows), n, nil)
		for i, r := range rows {
			d.SetRow(i, r)
		}
		return d
	}
	cs, as, bs := gonumlp.Convert(c, toMat(G), h, toMat(A), b)
	f, _, err := gonumlp.Simplex(cs, as, bs, 1e-10, nil)
	if p.Maximize {
		f = -f
	}
	return f, err
}
