package engine

// Logging reports whether the decision log keeps new entries, so that a
// policy can skip building entries nobody will read.
func (s *State) Logging() bool { return !s.cfg.NoLog && len(s.res.Log) < s.maxLog }
