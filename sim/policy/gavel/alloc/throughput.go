package alloc

import (
	"fmt"
	"math"

	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/solver/lp"
)

// linear: maximum total throughput (raw or normalised) or minimum cost in
// the reference's linear form Σ T_mj/c_j·X_mj, with SLO rows
// thr(m, X) ≥ N_m/(deadline − now) when asked. Jobs that cannot meet their
// deadline even alone on their fastest type get no row; if the other rows
// are infeasible together, all are dropped (as the reference does).
func (a *PerJob) linear(in *plan.Input, planned [][]float64) (*plan.Allocation, error) {
	f := buildJobLP(a.LPs, lp.New(a.Objective), in, planned, a.SpaceSharing && a.Aware, a.PairCandidates, a.PairThreshold)
	f.p.Maximize = true
	for m := range in.Jobs {
		switch {
		case a.Objective == "cost":
			for j, col := range f.x[m] {
				if col >= 0 {
					f.p.SetObj(col, planned[m][j]/a.Prices[j])
				}
			}
		case a.Normalized:
			if b := plan.Best(planned[m]); b > 0 {
				f.addThr(-1, m, planned, 1/b)
			}
		default:
			f.addThr(-1, m, planned, 1)
		}
	}
	if a.Objective == "cost" {
		for _, pr := range f.pairs {
			f.p.SetObj(pr.col, (pr.ta+pr.tb)/a.Prices[pr.j])
		}
	}
	slo := a.Objective == "cost" && a.SLO
	var sloRows []int
	hopeless := 0
	if slo {
		for m, p := range in.Jobs {
			// A job that cannot meet its deadline even alone on its fastest
			// type gets no SLO row: it would make every other row void.
			d := p.Job.DeadlineS
			if d <= 0 {
				continue
			}
			fastest := plan.Best(planned[m])
			if d <= in.Now || p.Rem/fastest > d-in.Now {
				hopeless++
				continue
			}
			// Plan to finish a margin early (a fraction of the time left
			// and one round), since rounds deliver X only on average; near
			// the deadline that means the job's fastest rate.
			left := math.Max((d-in.Now)*(1-a.SLOMargin)-a.RoundS, p.Rem/fastest)
			// thr(m, X)/N_m ≥ 1/left
			row := f.p.AddRow(f.names[m].row(sloRow), 1/left, lp.Inf)
			f.addThr(row, m, planned, 1/p.Rem)
			sloRows = append(sloRows, row)
		}
	}
	sol, err := a.LPs.solve(a.Objective, f.p, nil)
	if err != nil {
		return nil, err
	}
	dropped := false
	if sol.Status == lp.Infeasible && len(sloRows) > 0 {
		for _, r := range sloRows {
			f.p.SetRowBounds(r, math.Inf(-1), lp.Inf)
		}
		dropped = true
		if sol, err = a.LPs.solve(a.Objective, f.p, nil); err != nil {
			return nil, err
		}
	}
	if sol.Status != lp.Optimal {
		return nil, fmt.Errorf("%s LP is %v", a.Objective, sol.Status)
	}
	al := f.allocation(in, sol.X)
	al.Objective = sol.Objective
	switch {
	case a.Objective == "cost" && dropped:
		al.Why = fmt.Sprintf("minimum cost over %d jobs; the SLOs could not all be met and were dropped", len(in.Jobs))
	case a.Objective == "cost":
		al.Why = fmt.Sprintf("minimum cost over %d jobs (%d SLO rows; %d jobs can no longer meet theirs): throughput per dollar %.4g", len(in.Jobs), len(sloRows), hopeless, sol.Objective)
	default:
		al.Why = fmt.Sprintf("maximum total throughput over %d jobs: %.4g", len(in.Jobs), sol.Objective)
	}
	return al, nil
}
