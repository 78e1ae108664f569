package engine

// compactEvents drops the stale events from the queue once they outnumber
// the live ones by far. A preempted or rescheduled job leaves its old
// completion event in the queue until that event's time comes; under a
// round-based policy that restarts jobs every few minutes, those events
// piled up (about 69,000 in a Gavel Figure 8 run, against a few hundred
// live ones), so every push and pop walked a deep heap. An event once
// stale stays stale (a job's version only grows), and the queue's order
// is by value, so dropping them changes no event's order.
func (s *State) compactEvents() {
	if s.events.Len() >= s.compactAt { // inlines: most instants skip the call
		s.compact()
	}
}

func (s *State) compact() {
	live := s.events[:0]
	for _, e := range s.events {
		if !s.stale(e) {
			live = append(live, e)
		}
	}
	clear(s.events[len(live):])
	s.events = live
	s.events.Init()
	// The next compaction waits until the queue has doubled, so the
	// linear passes cost a constant per push.
	s.compactAt = max(2*len(live), minCompact)
}

// minCompact is the smallest queue worth compacting (a variable for the
// tests, which compact far more often to check that nothing changes).
var minCompact = 1024
