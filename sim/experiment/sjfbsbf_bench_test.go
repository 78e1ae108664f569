package experiment_test

import (
	"context"
	"testing"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/scenario"
)

// The 480-job SJF-BSBF scenario (Table IV): all six policies on 5 seeds,
// one run at a time, with the decision log and the per-GPU intervals kept
// (the target: under 10 s natively).
func BenchmarkSJFBSBF480JobsSixPoliciesFiveSeeds(b *testing.B) {
	data, _ := scenarios.Read("sjf-bsbf-table4")
	sc, err := scenario.Parse(data) // its base: scale 2, 480 jobs
	if err != nil {
		b.Fatal(err)
	}
	if n := len(sc.Policies) * len(sc.RunSeeds()); n != 30 {
		b.Fatalf("%d runs, want 6 policies × 5 seeds", n)
	}
	for range b.N {
		rep, err := experiment.Execute(context.Background(), sc, experiment.Options{Workers: 1})
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range rep.Runs {
			if r.Err != nil || r.Summary.Finished != 480 {
				b.Fatalf("%s seed %d: %v, %d finished", r.Policy, r.Seed, r.Err, r.Summary.Finished)
			}
		}
	}
}
