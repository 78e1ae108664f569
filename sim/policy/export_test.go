package policy

// Decisions reports how many decisions of p the waiting jobs alone made
// and how many the full order made (with RunningKeyUntil).
func (p *PriorityScheduler) Decisions() (fast, full int) { return p.fastDecisions, p.fullDecisions }

// Compactions is how many times p's stale rechecks were dropped.
func (p *PriorityScheduler) Compactions() int { return p.run.compactions }

// CompactRechecksFrom sets the smallest heap of rechecks that is
// compacted and returns a function that restores it.
func CompactRechecksFrom(n int) (restore func()) {
	old := minRecheckCompact
	minRecheckCompact = n
	return func() { minRecheckCompact = old }
}
