package engine

import "github.com/schedlab/schedlab/internal/hugepages"

// Logging reports whether the decision log keeps new entries, so that a
// policy can skip building entries nobody will read.
func (s *State) Logging() bool { return !s.cfg.NoLog && s.log.n < s.maxLog }

// decisionLog holds the decision log as it is written, in chunks: a
// policy logging every start of a large run never copies the log to grow
// one slice (growing a slice of 100,000 entries by append copied them
// about five times over, each copy behind the collector's write
// barriers). The first chunk has room for first entries, one per job of
// the run up to the log's cap, which is what a policy that logs each
// start writes: the log then stays one chunk, which is the result's log
// as it is. Later chunks double in size up to 4,096 entries, and finalize
// writes them out once. (Memory that is reserved but never written costs
// nothing; at a million jobs the copy of 100,000 entries cost 12 MB of
// fresh memory, whose first touch is the dear part.)
type decisionLog struct {
	chunks [][]Decision
	n      int
	first  int // capacity of the first chunk
}

func (l *decisionLog) add(d Decision) {
	k := len(l.chunks) - 1
	if k < 0 || len(l.chunks[k]) == cap(l.chunks[k]) {
		size := min(64<<len(l.chunks), 4096)
		if k < 0 {
			size = max(l.first, 64)
		}
		l.chunks = append(l.chunks, hugepages.Make[Decision](size)[:0]) // the first chunk may be large (see first)
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
	if len(l.chunks) == 1 {
		return l.chunks[0][:l.n:l.n]
	}
	out := make([]Decision, 0, l.n)
	for _, c := range l.chunks {
		out = append(out, c...)
	}
	return out
}
