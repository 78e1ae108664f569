package alloc

import (
	"fmt"
	"math"

	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/solver/lp"
)

// makespan: maximise z subject to thr(m, X) ≥ N_m·z, the exact single-LP
// form of minimising the largest remaining duration (spec 001 §2.6), with
// z scaled by the longest best-case remaining time S.
func (a *PerJob) makespan(in *plan.Input, planned [][]float64) (*plan.Allocation, error) {
	f := buildJobLP(a.LPs, lp.New("makespan"), in, planned, a.SpaceSharing && a.Aware, a.PairCandidates, a.PairThreshold)
	S := 0.0
	for m, p := range in.Jobs {
		if b := plan.Best(planned[m]); b > 0 {
			S = math.Max(S, p.Rem/b)
		}
	}
	z := f.p.AddCol("z", 0, lp.Inf, 1)
	f.p.Maximize = true
	for m, p := range in.Jobs {
		row := f.p.AddRow("finish|"+p.Job.Name, 0, lp.Inf)
		f.addThr(row, m, planned, 1)
		f.p.Set(row, z, -p.Rem/S)
	}
	sol, err := a.LPs.solve("makespan", f.p, nil)
	if err != nil {
		return nil, err
	}
	if sol.Status != lp.Optimal || sol.X[z] <= 0 {
		return nil, fmt.Errorf("makespan LP is %v", sol.Status)
	}
	ms := S / sol.X[z]
	al := f.allocation(in, a.tieBreakSum(f, in, planned, sol, z))
	al.Objective = ms
	al.Why = fmt.Sprintf("minimum makespan: every one of %d jobs can finish within %.4g h", len(in.Jobs), ms/3600)
	return al, nil
}
