package lp_test

import (
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/internal/cputime"
	"github.com/schedlab/schedlab/sim/solver/lp"
)

// The LPs in testdata were written by `schedlab run --dump-lp` (gavel-small,
// gavel-makespan and gavel-cost, quick) and by Gavel's Figure 12 allocators
// at 512 and 2,048 active jobs. want is each one's optimum as HiGHS 1.15
// reports it (NaN: infeasible), a check on our solver, never an input.
var dumped = []struct {
	file string
	want float64
}{
	{"gavel-small-13", 0.8657995791190047},
	{"gavel-cost-71", 474.6993521627626},
	{"gavel-makespan-x300-2", 93.44727134493277},
	{"gavel-makespan-x300-12", 84.48500975799271},
	{"fig12-makespan-512-2", 281.320129140941},
	{"fig12-ftf-512-1", math.NaN()},
	{"fig12-cost-512-1", 57754.95321791614},
	{"fig12-las-2048-1", 0.9181521944282391},
	{"fig12-hierarchical-2048-1", 241.91946051196885},
	{"fig12-hierarchical-2048-5", 0.2027999999999999},
	{"fig12-hierarchical-2048-11", 0.2000999999999999},
}

// Every dumped LP has HiGHS's optimum to 1e-7 relative, with a feasible
// point.
func TestDumpedLPsAgainstHiGHS(t *testing.T) {
	for _, d := range dumped {
		// The Figure 12 LPs take seconds in all; under wasm the smaller
		// ones suffice (the solver is deterministic across platforms).
		if (testing.Short() || runtime.GOARCH == "wasm") && strings.HasPrefix(d.file, "fig12") {
			continue
		}
		p := lp.ReadDumped(t, d.file)
		sol, err := lp.Solve(p, lp.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if math.IsNaN(d.want) {
			if sol.Status != lp.Infeasible {
				t.Errorf("%s: HiGHS says infeasible, we say %v", d.file, sol)
			}
			continue
		}
		rel := math.Abs(sol.Objective-d.want) / math.Max(1, math.Abs(d.want))
		if sol.Status != lp.Optimal || rel > 1e-7 || p.Violation(sol.X) > 1e-7 {
			t.Errorf("%s: HiGHS %.15g, ours %v (relative difference %.2g, violation %.2g)", d.file, d.want, sol, rel, p.Violation(sol.X))
		}
		t.Logf("%s: %d×%d, %d iterations", d.file, p.NumRows(), p.NumCols(), sol.Iterations)
	}
}

// Cold solves start with the dual simplex method, and each of its pieces
// shows in the pivots of one dumped LP: the dual start proves Figure 12's
// FTF LP infeasible at once (the primal method takes 514 pivots), the
// bound-flipping ratio test passes the makespan LP's boxed columns in
// long steps (1,894 pivots without it, 498 with), and the cost
// perturbation keeps the dual method from stalling on the hierarchical LP
// whose costs are mostly 0 (1,045 pivots without it, 418 with). Each
// optimum is also checked against HiGHS's by TestDumpedLPsAgainstHiGHS.
func TestColdDualPivots(t *testing.T) {
	for _, c := range []struct {
		file      string
		status    lp.Status
		maxPivots int
	}{
		{"fig12-ftf-512-1", lp.Infeasible, 10},
		{"fig12-makespan-512-2", lp.Optimal, 800},
		{"fig12-hierarchical-2048-5", lp.Optimal, 600},
	} {
		p := lp.ReadDumped(t, c.file)
		sol, err := lp.Solve(p, lp.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if sol.Status != c.status || sol.Iterations > c.maxPivots {
			t.Errorf("%s: %v, want %v in at most %d pivots", c.file, sol, c.status, c.maxPivots)
		}
		primal, err := lp.Solve(p, lp.Options{Primal: true})
		if err != nil {
			t.Fatal(err)
		}
		if primal.Status != sol.Status || primal.Iterations <= sol.Iterations {
			t.Errorf("%s: the primal start gives %v, the dual one %v", c.file, primal, sol)
		}
	}
}

// BenchmarkDumped solves each dumped LP from the slack basis; iterations/op
// is the simplex pivot count.
func BenchmarkDumped(b *testing.B) {
	for _, d := range dumped {
		p := lp.ReadDumped(b, d.file)
		b.Run(d.file, func(b *testing.B) {
			// One untimed solve first: wasm runtimes compile lazily.
			if _, err := lp.Solve(p, lp.Options{}); err != nil {
				b.Fatal(err)
			}
			iters := 0
			b.ResetTimer()
			cpu0 := cputime.Process()
			for i := 0; i < b.N; i++ {
				sol, err := lp.Solve(p, lp.Options{})
				if err != nil {
					b.Fatal(err)
				}
				iters = sol.Iterations
			}
			b.ReportMetric(float64(iters), "iterations/op")
			if cpu := cputime.Process() - cpu0; cpu > 0 {
				b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
			}
		})
	}
}
