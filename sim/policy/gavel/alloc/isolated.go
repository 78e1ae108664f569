package alloc

import (
	"fmt"

	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
)

// Isolated gives every job X^isolated, 1/M of the cluster.
type Isolated struct{}

func (Isolated) Allocate(in *plan.Input) (*plan.Allocation, error) {
	rows := make([][]float64, len(in.Jobs))
	for i := range in.Jobs {
		rows[i] = in.IsoRow(&in.Jobs[i], len(in.Jobs))
	}
	return &plan.Allocation{Combos: plan.Singles(rows), Objective: float64(len(in.Jobs)),
		Why: fmt.Sprintf("isolated: each of %d jobs gets 1/%d of the cluster", len(in.Jobs), len(in.Jobs))}, nil
}
