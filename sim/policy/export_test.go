package policy

import (
	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
)

// Decisions reports how many decisions of p the waiting jobs alone made
// and how many the full order made (with RunningKeyUntil).
func (p *PriorityScheduler) Decisions() (fast, full int) { return p.fastDecisions, p.fullDecisions }

// Compactions is how many times p's stale rechecks were dropped, and
// how many times the dead entries of its running order were.
func (p *PriorityScheduler) Compactions() (rechecks, dead int) {
	return p.run.compactions, p.run.sweeps
}

// CompactRechecksFrom sets the smallest heap of rechecks that is
// compacted, and the most dead entries the running order keeps, and
// returns a function that restores them.
func CompactRechecksFrom(n int) (restore func()) {
	old, oldDead := minRecheckCompact, minDeadEntries
	minRecheckCompact, minDeadEntries = n, n
	return func() { minRecheckCompact, minDeadEntries = old, oldDead }
}

// GeneralPick is the consolidated placement without PickInto's direct
// case (emptiestPick), for tests that compare the two.
func GeneralPick(p *Placement, r Request) []cluster.GPUID { return consolidatedPick(p, &r, nil) }

// EmptiestPlaces says whether PickInto's direct case places a job of n
// GPUs on s (not only says that too few are free).
func EmptiestPlaces(s *engine.State, n int) bool {
	gpus, ok := emptiestPick(s, n, nil)
	return ok && gpus != nil
}
