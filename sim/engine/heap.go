package engine

import "github.com/schedlab/schedlab/sim/workload"

// event is one entry of the event queue: 16 bytes, so that a step of
// the heap's sifting moves two words, not three.
type event struct {
	t float64
	// key is the kind, the job and the version in one word, ordered as
	// (kind, job) are, so that a tie at equal times costs one comparison,
	// not two: the kind in the top 3 bits, then 1 + the job (-1 for
	// wake-ups) in 29 bits (newState refuses runs of more than maxJobs
	// jobs), then the version, which invalidates completion and
	// rate-change events whose job has since been rescheduled, in the
	// low 32.
	key uint64
}

// maxJobs is the most jobs a run may have: 1 + the largest job ID must
// fit in the 29 bits an event's key gives it (a run of half a billion
// jobs would need far more memory than a run has anyway).
const maxJobs = 1<<29 - 1

// mkEvent is the event of a kind for job at time t.
func mkEvent(t float64, kind EventKind, job workload.JobID, ver uint32) event {
	return event{t: t, key: uint64(kind)<<61 | uint64(uint32(job+1))<<32 | uint64(ver)}
}

// kind is the event's kind.
func (e event) kind() EventKind { return EventKind(e.key >> 61) }

// job is the event's job, -1 for wake-ups.
func (e event) job() workload.JobID { return workload.JobID(e.key>>32&(1<<29-1)) - 1 }

// ver is the version of the job's running state the event was made for.
func (e event) ver() uint32 { return uint32(e.key) }

// Less orders events by time, then kind, then job: the deterministic
// tie-break of the engine.
func (a event) Less(b event) bool {
	return a.t < b.t || a.t == b.t && a.key < b.key
}

// before orders events by time alone: the queue's order. Events of one
// instant leave the queue together and are sorted by (kind, job) after
// (see collect), so the queue need not break ties, and one comparison of
// floats is all a step of its sifting costs.
func (a event) before(b event) bool { return a.t < b.t }

// eventQueue is the event queue: a 4-ary min-heap on time (the children
// of slot i are slots 4i+1 to 4i+4), written out for events so that its
// comparisons inline (the generic heap calls Less through its type's
// dictionary, a call per comparison on the engine's busiest path). A pop
// sifts bottom-up: the hole left by the top goes down to a leaf along the
// earliest child, and the last event then rises from there, rarely more
// than a step or two. Each step down picks the earliest of four children
// in a tournament of three comparisons whose outcomes become indices, not
// branches (the outcomes are as hard to predict as a coin toss), and the
// two first comparisons do not wait on each other. A binary heap, whose
// steps are one comparison each, took twice as many steps, each waiting on
// the last: at a thousand queued events, nine steps of load, compare and
// move, about 300 instructions a pop. (A 4-ary heap that branched on each
// comparison was tried before, and was no faster than the binary one.)
type eventQueue []event

// Len is the number of events.
func (h eventQueue) Len() int { return len(h) }

// Top returns the first event; the queue must not be empty.
func (h eventQueue) Top() event { return h[0] }

// Push adds an event.
func (h *eventQueue) Push(x event) {
	*h = append(*h, x)
	a := *h
	a.rise(len(a)-1, 0, x)
}

// Pop removes and returns the first event; the queue must not be empty.
func (h *eventQueue) Pop() event {
	a := *h
	top := a[0]
	last := len(a) - 1
	x := a[last]
	a = a[:last]
	*h = a
	if last > 0 {
		a.place(0, x)
	}
	return top
}

// Init restores the heap order after events were removed in place.
func (h eventQueue) Init() {
	if len(h) < 2 {
		return
	}
	for i := (len(h) - 2) / 4; i >= 0; i-- {
		h.place(i, h[i])
	}
}

// b2i is 1 for true and 0 for false, without a branch.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// place puts x at slot i, or below it where the heap order wants it.
func (a eventQueue) place(i int, x event) {
	n := len(a)
	top := i
	for {
		c := 4*i + 1
		if c+4 > n {
			if c < n { // one to three children
				m := c
				for k := c + 1; k < n; k++ {
					if a[k].before(a[m]) {
						m = k
					}
				}
				a[i] = a[m]
				i = m
			}
			break
		}
		ch := a[c : c+4 : c+4]
		d := b2i(ch[1].before(ch[0]))
		e := 2 + b2i(ch[3].before(ch[2]))
		d ^= (d ^ e) & -b2i(ch[e].before(ch[d]))
		a[i] = ch[d&3]
		i = c + d
	}
	a.rise(i, top, x)
}

// rise puts x at slot i, or above it, but not above slot top, where the
// heap order wants it.
func (a eventQueue) rise(i, top int, x event) {
	for i > top {
		p := (i - 1) / 4
		if !x.before(a[p]) {
			break
		}
		a[i] = a[p]
		i = p
	}
	a[i] = x
}
