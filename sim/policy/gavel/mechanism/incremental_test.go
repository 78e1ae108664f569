package mechanism

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy/gavel/alloc"
	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/policy/policytest"
)

// TestIncrementalSameAsFullRebuild: in long queues, under FIFO, an LP
// policy (whose rounds also run targets of 0), pairs, mode clean,
// entities and max_waiting, every recompute's incremental bookkeeping (the
// ledger's records kept or found by job id, its totals and positive
// targets; waiting jobs' progress kept from the last recompute; the list
// of active jobs kept from the last recompute and the arrivals since; the
// learner's shares from the jobs with a share; a round's live
// combinations and each type's tier kept from an earlier round) equals what the full
// rebuild makes, and each kind of comparison was made.
func TestIncrementalSameAsFullRebuild(t *testing.T) {
	lps := func(objective string) plan.Allocator {
		return &alloc.PerJob{Objective: objective, Aware: true, TieBreak: true, LPs: &alloc.LPs{}}
	}
	cases := []struct {
		name    string
		a       plan.Allocator
		fifo    bool
		mode    string
		pairs   bool
		waiting int
	}{
		{"fifo", &alloc.FIFO{Aware: true}, true, "ref-compat", false, 0},
		{"max throughput", lps("throughput"), false, "ref-compat", false, 0},
		{"ftf clean", lps("ftf"), false, "clean", false, 0},
		{"las with pairs", &alloc.Fair{Aware: true, SpaceSharing: true, PairThreshold: 1, TieBreak: true, LPs: &alloc.LPs{}}, false, "ref-compat", true, 0},
		{"fifo max_waiting", &alloc.FIFO{Aware: true}, true, "ref-compat", false, 3},
		{"makespan max_waiting", lps("makespan"), false, "ref-compat", false, 3},
		// most iterations left first: a job that ran goes back in the
		// order, out of the planned jobs, and comes back later
		{"fifo max_waiting by key", &alloc.FIFO{Aware: true}, true, "ref-compat", false, 3},
		{"ftf max_waiting by key", lps("ftf"), false, "ref-compat", false, 3},
	}
	zeros := 0 // kept lists of all running combinations compared
	for _, c := range cases {
		cfg := testConfig(c.a, c.fifo, c.waiting)
		cfg.Mode, cfg.SpaceSharing = c.mode, c.pairs
		if c.mode == "clean" {
			cfg.Quirks = Quirks{}
		}
		if strings.HasSuffix(c.name, "by key") {
			cfg.WaitingKey = func(remaining float64, _ []float64) float64 { return -remaining }
		}
		m := New(cfg)
		m.selfCheck = true
		jobs := overloaded(60)
		for i := range jobs {
			if i%4 != 3 {
				jobs[i].Entity = fmt.Sprintf("e%d", i%4)
			}
		}
		res := policytest.Run(t, policytest.Servers(t, 2, 2, "V100", 0), nil, m, jobs)
		for _, j := range res.Jobs {
			if j.Status != engine.Finished {
				t.Fatalf("%s: job %s %s", c.name, j.Name, j.Status)
			}
		}
		if m.ledger.checks == 0 || m.checks.progress == 0 || m.checks.live == 0 || (c.waiting == 0 && (m.checks.shares == 0 || m.checks.active == 0)) {
			t.Errorf("%s: compared %d restarts, %d kept progresses, %d shares, %d lists of active jobs and %d kept live lists: some bookkeeping went unchecked", c.name, m.ledger.checks, m.checks.progress, m.checks.shares, m.checks.active, m.checks.live)
		}
		zeros += m.checks.zero
	}
	if zeros == 0 {
		t.Error("no kept list of all running combinations was compared")
	}
}

// TestRecomputeWritesEveryJobField: recompute writes each plan.Job of
// the input field by field over last recompute's storage, so a field
// added to plan.Job and not written there would keep a stale value. It
// fails when plan.Job's fields change: write the new one in recompute,
// then update the list.
func TestRecomputeWritesEveryJobField(t *testing.T) {
	var names []string
	for f := range reflect.TypeFor[plan.Job]().Fields() {
		names = append(names, f.Name)
	}
	want := []string{"ID", "Job", "SF", "Weight", "Thr", "Rem", "Elapsed", "IsoTime", "Waited"}
	if !slices.Equal(names, want) {
		t.Fatalf("plan.Job's fields are %v; recompute writes %v", names, want)
	}
}
