package engine

import "github.com/schedlab/schedlab/sim/workload"

// event is one entry of the event queue. ver invalidates completion and
// rate-change events whose job has since been rescheduled.
type event struct {
	t float64
	// key is the kind and the job in one word, ordered as (kind, job)
	// are: a tie at equal times costs one comparison, not two
	key uint64
	ver uint32
}

// mkEvent is the event of a kind for job at time t.
func mkEvent(t float64, kind EventKind, job workload.JobID, ver uint32) event {
	// flipping the sign bit maps int32's order onto uint32's (-1, a
	// wake-up's job, comes before job 0)
	return event{t: t, key: uint64(kind)<<32 | uint64(uint32(job)^1<<31), ver: ver}
}

// kind is the event's kind.
func (e event) kind() EventKind { return EventKind(e.key >> 32) }

// job is the event's job, -1 for wake-ups.
func (e event) job() workload.JobID { return workload.JobID(int32(uint32(e.key) ^ 1<<31)) }

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

// eventQueue is the event queue: a binary min-heap on time, written out
// for events so that its comparisons inline (the generic heap calls Less
// through its type's dictionary, a call per comparison on the engine's
// busiest path). A pop sifts bottom-up: the hole left by the top goes
// down to a leaf along the earlier child, a choice the compiler makes
// without a branch, and the last event then rises from there, rarely
// more than a step or two. A sift that compared each child with the
// sinking event (two comparisons a level, each as hard to predict as a
// coin toss) cost about twice as much. (A 4-ary heap was tried too:
// fewer instructions, but no faster, its extra comparisons among
// children as hard to predict.)
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
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.place(i, h[i])
	}
}

// place puts x at slot i, or below it where the heap order wants it.
func (a eventQueue) place(i int, x event) {
	n := len(a)
	top := i
	for {
		c := 2*i + 1
		if c+1 >= n {
			if c < n { // one child
				a[i] = a[c]
				i = c
			}
			break
		}
		d := 0
		if a[c+1].before(a[c]) {
			d = 1
		}
		c += d
		a[i] = a[c]
		i = c
	}
	a.rise(i, top, x)
}

// rise puts x at slot i, or above it, but not above slot top, where the
// heap order wants it.
func (a eventQueue) rise(i, top int, x event) {
	for i > top {
		p := (i - 1) / 2
		if !x.before(a[p]) {
			break
		}
		a[i] = a[p]
		i = p
	}
	a[i] = x
}
