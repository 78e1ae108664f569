package engine

import "github.com/schedlab/schedlab/sim/workload"

// event is one entry of the event queue. ver invalidates completion and
// rate-change events whose job has since been rescheduled.
type event struct {
	t    float64
	kind EventKind
	job  workload.JobID
	ver  uint32
}

// Less orders events by time, then kind, then job: the deterministic
// tie-break of the engine.
func (a event) Less(b event) bool {
	if a.t != b.t {
		return a.t < b.t
	}
	if a.kind != b.kind {
		return a.kind < b.kind
	}
	return a.job < b.job
}

// eventQueue is the event queue: minheap.Heap's binary heap, step for
// step, written out for events so that its comparisons inline (the
// generic heap calls Less through its type's dictionary, a call per
// comparison on the engine's busiest path).
type eventQueue []event

// Len is the number of events.
func (h eventQueue) Len() int { return len(h) }

// Top returns the first event; the queue must not be empty.
func (h eventQueue) Top() event { return h[0] }

// Push adds an event.
func (h *eventQueue) Push(x event) {
	*h = append(*h, x)
	a := *h
	for i := len(a) - 1; i > 0; {
		p := (i - 1) / 2
		if !a[i].Less(a[p]) {
			break
		}
		a[i], a[p] = a[p], a[i]
		i = p
	}
}

// Pop removes and returns the first event; the queue must not be empty.
func (h *eventQueue) Pop() event {
	a := *h
	top := a[0]
	last := len(a) - 1
	a[0] = a[last]
	a = a[:last]
	a.down(0)
	*h = a
	return top
}

// Init restores the heap order after events were removed in place.
func (h eventQueue) Init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

// down sifts the event at i down to its place.
func (a eventQueue) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(a) {
			break
		}
		m := l
		if r := l + 1; r < len(a) && a[r].Less(a[l]) {
			m = r
		}
		if !a[m].Less(a[i]) {
			break
		}
		a[i], a[m] = a[m], a[i]
		i = m
	}
}
