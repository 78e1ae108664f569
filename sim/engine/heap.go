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

// eventQueue is the event queue: minheap.Heap's binary heap, step for
// step, written out for events so that its comparisons inline (the
// generic heap calls Less through its type's dictionary, a call per
// comparison on the engine's busiest path). Sifting moves a hole rather
// than swapping, writing each moved event once. (A 4-ary heap was tried:
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
	i := len(a) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !x.Less(a[p]) {
			break
		}
		a[i] = a[p]
		i = p
	}
	a[i] = x
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
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && a[c+1].Less(a[c]) {
			c++
		}
		if !a[c].Less(x) {
			break
		}
		a[i] = a[c]
		i = c
	}
	a[i] = x
}
