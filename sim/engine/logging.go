package engine

// Logging reports whether the decision log keeps new entries, so that a
// policy can skip building entries nobody will read.
func (s *State) Logging() bool { return !s.cfg.NoLog && s.log.n < s.maxLog }

// decisionLog holds the decision log as it is written, in chunks that
// grow from 64 entries to 4,096: a policy logging every start of a large
// run never copies the log to grow one slice (growing a slice of 100,000
// entries by append copied them about five times over, each copy behind
// the collector's write barriers). finalize writes it out once.
type decisionLog struct {
	chunks [][]Decision
	n      int
}

func (l *decisionLog) add(d Decision) {
	k := len(l.chunks) - 1
	if k < 0 || len(l.chunks[k]) == cap(l.chunks[k]) {
		l.chunks = append(l.chunks, make([]Decision, 0, min(64<<len(l.chunks), 4096)))
		k++
	}
	l.chunks[k] = append(l.chunks[k], d)
	l.n++
}

// entries returns the log in one slice, nil when it is empty.
func (l *decisionLog) entries() []Decision {
	if l.n == 0 {
		return nil
	}
	out := make([]Decision, 0, l.n)
	for _, c := range l.chunks {
		out = append(out, c...)
	}
	return out
}
