package alloc

import (
	"fmt"
	"math"

	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/solver/lp"
)

// Fair is max-min fairness (LAS, weighted LAS), water filling and
// hierarchical fairness.
type Fair struct {
	Aware         bool          // plan with measured throughputs; off, with 1 on every type
	SpaceSharing  bool          // pairs of single-GPU jobs may share GPUs (with Aware)
	WaterFilling  bool          // raise every job until it is bottlenecked, not only the worst-off
	TieBreak      bool          // among max-min optima, the most total normalised throughput
	Clean         bool          // mode clean: the agnostic plan's even spread over usable types
	PairThreshold float64       // least α+β for a pair
	Entities      []plan.Entity // hierarchical fairness (implies water filling)
	LPs           *LPs
}

// plan is what the policy believes each job's throughputs are: the
// measured ones (aware) or 1 on every type (agnostic, see agnostic.go).
func (a *Fair) plan(in *plan.Input) [][]float64 {
	if !a.Aware {
		return agnosticPlan(in)
	}
	out := make([][]float64, len(in.Jobs))
	for i, p := range in.Jobs {
		out[i] = append([]float64(nil), p.Thr...)
	}
	return out
}

func (a *Fair) Allocate(in *plan.Input) (*plan.Allocation, error) {
	if len(in.Jobs) == 0 {
		return &plan.Allocation{}, nil
	}
	planned := a.plan(in)
	if a.WaterFilling || len(a.Entities) > 0 {
		return a.waterFilling(in, planned)
	}
	n := len(in.Jobs)
	w := make([]float64, n)
	for i, p := range in.Jobs {
		w[i] = p.Weight
	}
	cls := classify(in, planned, w, make([]float64, n), make([]bool, n), a.SpaceSharing, false, a.LPs.classNames())
	// The problem of the recompute before last is free (reusable): its
	// storage is kept rather than allocated again.
	f := buildFair(a.LPs.reusable("las", "las"), in, cls, a.SpaceSharing && a.Aware, a.PairThreshold)
	sol, err := a.LPs.solve("las", f.p, nil)
	if err != nil {
		return nil, err
	}
	if sol.Status != lp.Optimal {
		return nil, fmt.Errorf("max-min fairness LP is %v", sol.Status)
	}
	tstar := sol.X[f.t]
	x := sol.X
	if a.TieBreak && a.Aware {
		// Among the max-min optima, the one with the most total normalised
		// throughput (spec 001 §2.11: break the simplex's arbitrary ties).
		f.p.SetColBounds(f.t, tstar-1e-9*math.Max(1, tstar), lp.Inf)
		f.p.SetObj(f.t, 0)
		for c, cl := range cls {
			if cl.w > 0 {
				f.addObjNorm(c, float64(cl.sf)/cl.w*float64(len(cl.members)))
			}
		}
		if s2, err := a.LPs.solve("las-tiebreak", f.p, sol.Basis); err == nil && s2.Status == lp.Optimal {
			x = s2.X
		}
	}
	var al *plan.Allocation
	if a.Aware {
		al = f.disaggregate(in, x)
	} else if al, err = a.agnosticAllocation(in, cls, centralTotals(in, cls, tstar)); err != nil {
		return nil, err
	}
	al.Objective = tstar
	al.Why = fmt.Sprintf("max-min fairness over %d jobs in %d classes: the worst-off job gets %.4g× its equal-share throughput", n, len(cls), tstar)
	return al, nil
}
