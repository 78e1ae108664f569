package gavel_test

import (
	"context"
	"testing"

	"github.com/schedlab/schedlab/sim/experiment"
)

// interferenceScenario has six 1-GPU jobs on four GPUs under the constant
// model with a pairwise slowdown table: A and B pair well (combined 1.6),
// C pairs with nobody; pol is the Gavel policy entry.
func interferenceScenario(pol string) string {
	return `{"name": "ss-interference",
	 "cluster": {"servers": [{"count": 2, "gpus": 2, "gpu_type": "A100"}]},
	 "workload": {"jobs": [
	   {"id": "a1", "arrival_s": 0, "model": "A", "gpus": 1, "duration_s": 20000},
	   {"id": "a2", "arrival_s": 0, "model": "A", "gpus": 1, "duration_s": 24000},
	   {"id": "b1", "arrival_s": 0, "model": "B", "gpus": 1, "duration_s": 28000},
	   {"id": "b2", "arrival_s": 0, "model": "B", "gpus": 1, "duration_s": 32000},
	   {"id": "c1", "arrival_s": 0, "model": "C", "gpus": 1, "duration_s": 36000},
	   {"id": "c2", "arrival_s": 0, "model": "C", "gpus": 1, "duration_s": 40000}]},
	 "perf": {"model": "constant", "interference": {"models": ["A", "B", "C"],
	   "matrix": [[1.5, 1.25, 100], [1.25, 1.5, 100], [100, 100, 100]]}},
	 "engine": {"restart_s": 30, "migration_s": 30},
	 "policies": [` + pol + `]}`
}

// Space sharing plans with the pair rates of any perf model, not only
// Gavel's throughput table: under a pairwise interference table the
// packed plan finishes the same jobs sooner than the unpacked one. The
// jobs are running all the time, so the work is the same; only pairing
// (A with B at 0.8 + 0.8) can shorten the run.
func TestSpaceSharingWithInterferenceTable(t *testing.T) {
	prices := `"prices": [{"gpu_type": "A100", "usd_per_hour": 1}]`
	run := func(ss string) float64 {
		sc := parse(t, interferenceScenario(`{"name": "gavel-las", "params": {"mode": "clean", "space_sharing": `+ss+`, `+prices+`}}`))
		rep, err := experiment.Execute(context.Background(), sc, experiment.Options{Paranoid: true})
		if err != nil || rep.Runs[0].Err != nil {
			t.Fatal(err, rep.Runs[0].Err)
		}
		sum := 0.0
		for _, j := range rep.Runs[0].Result.Jobs {
			sum += j.FinishS
		}
		return sum
	}
	packed, alone := run("true"), run("false")
	if !(packed < 0.95*alone) {
		t.Fatalf("space sharing under an interference table: sum of finish times %.0f s, not below the unpacked %.0f s", packed, alone)
	}
}

// With migrate_moves, a job that runs on in the next round on other GPUs
// moves by an engine migration; without it, by a preemption and a restart
// (the reference's accounting). 60 jobs of 1-8 GPUs on 8 GPUs, so leases
// rotate, pairs change, and jobs change GPUs between rounds.
func TestMigrateMoves(t *testing.T) {
	count := func(moves string) (mig, pre int) {
		sc := parse(t, `{"name": "moves",
		 "cluster": {"servers": [{"count": 2, "gpus": 4, "gpu_type": "A100"}]},
		 "workload": {"generator": {"kind": "tesserae", "style": "shockwave", "jobs": 60, "jobs_per_hour": 80}},
		 "engine": {"restart_s": 30, "migration_s": 30},
		 "policies": [{"name": "gavel-las", "params": {"mode": "clean", "space_sharing": true, "migrate_moves": `+moves+`, "prices": [{"gpu_type": "A100", "usd_per_hour": 1}]}}]}`)
		rep, err := experiment.Execute(context.Background(), sc, experiment.Options{Paranoid: true})
		if err != nil || rep.Runs[0].Err != nil {
			t.Fatal(err, rep.Runs[0].Err)
		}
		for _, j := range rep.Runs[0].Result.Jobs {
			mig += j.Migrations
			pre += j.Preemptions
		}
		return mig, pre
	}
	m0, p0 := count("false")
	m1, p1 := count("true")
	if m0 != 0 {
		t.Fatalf("without migrate_moves the mechanism migrated %d times", m0)
	}
	if m1 == 0 || p1 >= p0 {
		t.Fatalf("with migrate_moves: %d migrations, %d preemptions (without: %d preemptions); want migrations and fewer preemptions", m1, p1, p0)
	}
	t.Logf("without: %d preemptions; with: %d migrations, %d preemptions", p0, m1, p1)
}
