package sjf

import (
	"testing"

	"github.com/schedlab/schedlab/sim/policy/policytest"
	"github.com/schedlab/schedlab/sim/workload"
)

// The SJF-BSBF authors' SJF (preempt) is shortest remaining time first.
// On one GPU, A (100 s) starts at 0; B (50 s) arrives at 10 s, when A has
// 90 s left, so B preempts A and runs 10–60 s, and A ends at 150 s. C
// (95 s) arrives at 20 s: it never overtakes A, whose time left (90 s)
// is shorter, and runs 150–245 s. Without preemption: A 0–100, B
// 100–150, C 150–245.
func TestPreemptShortestRemaining(t *testing.T) {
	jobs := []workload.Job{
		{Name: "A", GPUs: 1, DurationS: 100, Model: "m"},
		{Name: "B", GPUs: 1, DurationS: 50, Model: "m", ArrivalS: 10},
		{Name: "C", GPUs: 1, DurationS: 95, Model: "m", ArrivalS: 20},
	}
	one := func(p Params) *policytest.Result {
		return policytest.Run(t, policytest.Servers(t, 1, 1, "V100", 0), nil, New(p), jobs)
	}
	plain := one(Params{Key: "duration", Backfill: true})
	plain.WantRan("A", 0, 100)
	plain.WantRan("B", 100, 150)
	pre := one(Params{Key: "duration", Backfill: true, Preempt: true})
	pre.WantRan("B", 10, 60)
	pre.WantFinish("A", 150)
	pre.WantRan("C", 150, 245)
}
