package alloc

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/solver/lp"
)

// TestFTFTieBreakAtTheRhoFound: finish-time fairness's tie-break LP is
// the bisection's LP at the ρ it found, so it is feasible, and the
// allocation is its optimum: solved afresh, the LP the tie-break solved
// is optimal with the allocation's total normalised throughput. (The
// rows used to keep the last ρ the bisection tried, infeasible in about
// half the recomputes, and the tie-break was then skipped.)
func TestFTFTieBreakAtTheRhoFound(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	for trial := range 40 {
		in := randomInput(r, false)
		a := &PerJob{Objective: "ftf", Aware: true, TieBreak: true, LPs: &LPs{}}
		var last *lp.Problem
		a.LPs.DumpLPs(func(p *lp.Problem) { last = p })
		al, err := a.Allocate(in)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		sol, err := lp.Solve(last, lp.Options{})
		if err != nil || sol.Status != lp.Optimal {
			t.Fatalf("trial %d: the tie-break LP is %v (%v)", trial, sol, err)
		}
		planned := a.plan(in)
		x := al.PerJob(len(in.Jobs), len(in.Types))
		got := 0.0
		for m := range in.Jobs {
			if b := plan.Best(planned[m]); b > 0 {
				for j, v := range x[m] {
					got += v * planned[m][j] / b
				}
			}
		}
		if math.Abs(got-sol.Objective) > 1e-6*math.Max(1, sol.Objective) {
			t.Fatalf("trial %d: the allocation's total normalised throughput is %.9g, the tie-break's optimum %.9g", trial, got, sol.Objective)
		}
	}
}
