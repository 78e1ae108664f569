package alloc

import (
	"fmt"

	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/solver/lp"
)

// Minimum cost in the reference's per-dollar form, with SLOs, is the
// throughput LP with each type's throughput divided by its price
// (PerJob.linear, throughput.go); this file holds the paper's ratio form.

// costRatio is the paper's fractional form, Σ thr / Σ cost, made linear by
// the Charnes–Cooper transform Y = u·X (spec 001 §2.8).
func (a *PerJob) costRatio(in *plan.Input, planned [][]float64) (*plan.Allocation, error) {
	f := buildJobLP(a.LPs, lp.New("cost-ratio"), in, planned, false, 0, 0)
	p := f.p
	p.Maximize = true
	u := p.AddCol("u", 0, lp.Inf, 0)
	// X ≤ 1 becomes Y ≤ u: move the bounds into the time and cap rows.
	for m := range in.Jobs {
		for _, col := range f.x[m] {
			if col >= 0 {
				p.SetColBounds(col, 0, lp.Inf)
			}
		}
		f.addThr(-1, m, planned, 1)
	}
	for i := 0; i < p.NumRows(); i++ {
		lo, hi := p.RowBounds(i)
		p.SetRowBounds(i, lo, 0)
		p.Set(i, u, -hi)
	}
	norm := p.AddRow("cost", 1, 1)
	for m, pj := range in.Jobs {
		for j, col := range f.x[m] {
			if col >= 0 {
				p.Set(norm, col, a.Prices[j]*float64(pj.SF))
			}
		}
		if d := pj.Job.DeadlineS; a.SLO && d > in.Now {
			row := p.AddRow("slo|"+pj.Job.Name, 0, lp.Inf)
			f.addThr(row, m, planned, 1/pj.Rem)
			p.Set(row, u, -1/(d-in.Now))
		}
	}
	sol, err := a.LPs.solve("cost-ratio", p, nil)
	if err != nil {
		return nil, err
	}
	if sol.Status != lp.Optimal || sol.X[u] <= 0 {
		return nil, fmt.Errorf("cost ratio LP is %v", sol.Status)
	}
	x := make([]float64, len(sol.X))
	for i, v := range sol.X {
		x[i] = v / sol.X[u]
	}
	al := f.allocation(in, x)
	al.Objective = sol.Objective
	al.Why = fmt.Sprintf("throughput per dollar (ratio form) over %d jobs: %.4g", len(in.Jobs), sol.Objective)
	return al, nil
}
