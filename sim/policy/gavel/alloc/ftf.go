package alloc

import (
	"fmt"
	"math"

	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/solver/lp"
)

// ftf minimises the largest finish-time fairness ρ (spec 001 §2.3) by
// bisection on ρ: at a fixed ρ, feasibility is an LP with
// thr(m, X) ≥ N_m/(ρ·D_m − t_m) for every job, D_m = t^iso_m + N_m/thr(m,X^iso).
func (a *PerJob) ftf(in *plan.Input, planned [][]float64) (*plan.Allocation, error) {
	// The problem of the recompute before last is free (reusable).
	f := buildJobLP(a.LPs, a.LPs.reusable("ftf", "ftf"), in, planned, a.SpaceSharing && a.Aware, a.PairCandidates, a.PairThreshold)
	M := len(in.Jobs)
	// D and the jobs' ages by job: at reads them at every step, and a
	// range over in.Jobs would copy each job.
	D, age := make([]float64, M), make([]float64, M)
	lo, hi := 0.0, 0.0
	rows := make([]int, M)
	for m, p := range in.Jobs {
		age[m] = p.Elapsed
		iso := plan.Dot(planned[m], in.IsoRow(&in.Jobs[m], in.ActiveJobs()))
		if iso <= 0 {
			return nil, fmt.Errorf("job %s cannot run anywhere", p.Job.Name)
		}
		D[m] = p.IsoTime + p.Rem/iso
		lo = math.Max(lo, p.Elapsed/D[m])
		hi = math.Max(hi, (p.Elapsed+p.Rem/iso)/D[m])
		rows[m] = f.p.AddRow(f.names[m].row(ftfRow), 0, lp.Inf)
		f.addThr(rows[m], m, planned, 1/p.Rem)
	}
	f.p.Maximize = true
	// at sets every job's row to ρ; false when some job cannot meet it
	// (its deadline has passed).
	at := func(rho float64) bool {
		for m, d := range D {
			slack := rho*d - age[m]
			if slack <= 0 {
				return false
			}
			f.p.SetRowBounds(rows[m], 1/slack, lp.Inf)
		}
		return true
	}
	feasible := func(rho float64, warm *lp.Basis) (*lp.Solution, bool, error) {
		if !at(rho) {
			return nil, false, nil
		}
		sol, err := a.LPs.solve("ftf", f.p, warm)
		if err != nil {
			return nil, false, err
		}
		return sol, sol.Status == lp.Optimal, nil
	}
	var last *lp.Solution
	var warm *lp.Basis
	// ρ to 1e-4 relative: far below what the rounds can realise.
	for it := 0; it < 40 && hi-lo > 1e-4*hi; it++ {
		mid := (lo + hi) / 2
		sol, ok, err := feasible(mid, warm)
		if err != nil {
			return nil, err
		}
		if sol != nil {
			warm = sol.Basis
		}
		// The values of a solve the bisection drops (infeasible, or a
		// feasible one a later ρ supersedes) are read no more: their
		// arrays serve later solves.
		if ok {
			a.LPs.ws.Recycle(last)
			hi, last = mid, sol
		} else {
			lo = mid
			a.LPs.ws.Recycle(sol)
		}
	}
	if last == nil {
		sol, ok, err := feasible(hi, warm)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("finish-time fairness: the isolated allocation's ρ = %.4g is infeasible", hi)
		}
		last = sol
	}
	x := last.X
	if a.TieBreak {
		// At the ρ found: the rows hold the last ρ the bisection tried,
		// which may have been infeasible.
		at(hi)
		for m := range in.Jobs {
			if b := plan.Best(planned[m]); b > 0 {
				f.addThr(-1, m, planned, 1/b)
			}
		}
		if s2, err := a.LPs.solve("ftf-tiebreak", f.p, last.Basis); err == nil && s2.Status == lp.Optimal {
			x = s2.X
		}
	}
	al := f.allocation(in, x)
	al.Objective = hi
	al.Why = fmt.Sprintf("finish-time fairness over %d jobs: the worst job finishes %.4g× as late as with an isolated share", M, hi)
	return al, nil
}
