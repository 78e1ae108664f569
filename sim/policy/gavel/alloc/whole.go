package alloc

import (
	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/workload"
)

// wholeGPUs is the allocation of policies that give a job all of its time
// on one type: X = 1 on held[job] for every job in held; its objective is
// the number of such jobs.
func wholeGPUs(in *plan.Input, held map[workload.JobID]int) *plan.Allocation {
	al := &plan.Allocation{}
	for i, p := range in.Jobs {
		if j, ok := held[p.ID]; ok {
			x := make([]float64, len(in.Types))
			x[j] = 1
			al.Combos = append(al.Combos, plan.Combo{A: i, B: -1, X: x})
		}
	}
	al.Objective = float64(len(al.Combos))
	return al
}
