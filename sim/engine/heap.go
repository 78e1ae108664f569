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

func (a event) less(b event) bool {
	if a.t != b.t {
		return a.t < b.t
	}
	if a.kind != b.kind {
		return a.kind < b.kind
	}
	return a.job < b.job
}

// eventHeap is a binary min-heap ordered by (time, kind, job).
type eventHeap []event

func (h *eventHeap) push(e event) {
	*h = append(*h, e)
	a := *h
	i := len(a) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !a[i].less(a[p]) {
			break
		}
		a[i], a[p] = a[p], a[i]
		i = p
	}
}

func (h *eventHeap) pop() event {
	a := *h
	top := a[0]
	last := len(a) - 1
	a[0] = a[last]
	a = a[:last]
	i := 0
	for {
		l := 2*i + 1
		if l >= len(a) {
			break
		}
		m := l
		if r := l + 1; r < len(a) && a[r].less(a[l]) {
			m = r
		}
		if !a[m].less(a[i]) {
			break
		}
		a[i], a[m] = a[m], a[i]
		i = m
	}
	*h = a
	return top
}
