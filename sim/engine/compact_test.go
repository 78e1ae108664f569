package engine_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/workload"
)

// Dropping stale events from the queue changes no result: runs of a
// preempting policy that compact the queue whenever it has doubled (from
// one event on) and runs that never compact it agree exactly.
func TestCompactedQueueSameResult(t *testing.T) {
	compacted := 0
	for seed := uint64(0); seed < 40; seed++ {
		rc := randomScenario(t, seed)
		run := func(min int) *engine.Result {
			defer engine.SetMinCompact(min)()
			cfg := engine.Config{Cluster: rc.c, Jobs: append([]workload.Job(nil), rc.jobs...), Perf: rc.m,
				Policy:    &chaos{limit: 1 + int(seed%3), r: rand.New(rand.NewPCG(seed, 2))},
				Overheads: engine.Overheads{RestartS: float64(seed % 7), MigrationS: float64(seed % 5)},
				Paranoid:  true, Seed: seed}
			res, err := engine.Run(context.Background(), cfg)
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			return res
		}
		often, never := run(1), run(1<<62)
		if !sameResult(often, never) {
			t.Fatalf("seed %d: compacting the queue changed the result", seed)
		}
		for _, r := range often.Jobs {
			compacted += r.Preemptions + r.Migrations
		}
	}
	if compacted < 50 {
		t.Errorf("only %d preemptions and migrations: too few stale events to test", compacted)
	}
}
