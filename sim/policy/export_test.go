package policy

// Decisions reports how many decisions of p the waiting jobs alone made
// and how many the full order made (with RunningKeyUntil).
func (p *PriorityScheduler) Decisions() (fast, full int) { return p.fastDecisions, p.fullDecisions }
