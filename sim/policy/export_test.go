package policy

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
