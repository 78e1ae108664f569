package engine

import "slices"

// wakeTimes is the set of wake-up times in the event queue, so that a
// time asked for twice is queued once. The queue hands wake-ups back in
// time order, so the set is a sorted slice whose front is the next one
// due: a policy that asks for times in order (Gavel's rounds and their
// micro-task stops, several per round) appends, and each wake-up applied
// takes the front. It replaced a map keyed by time, whose hashing,
// insertion and deletion were about 5% of the instructions of a Gavel
// FIFO run (docs/gavel-performance.md, seventeenth pass).
type wakeTimes struct {
	t    []float64 // t[head:] ascending, each time once
	head int
}

// add adds t and reports whether it was not there yet.
func (w *wakeTimes) add(t float64) bool {
	q := w.t[w.head:]
	if len(q) == 0 || t > q[len(q)-1] {
		if w.head > 0 && w.head == len(w.t) {
			w.t, w.head = w.t[:0], 0
		}
		w.t = append(w.t, t)
		return true
	}
	i, found := slices.BinarySearch(q, t)
	if found {
		return false
	}
	w.t = slices.Insert(w.t, w.head+i, t)
	return true
}

// remove removes t, the wake-up being applied: the earliest, as the event
// queue pops in time order.
func (w *wakeTimes) remove(t float64) {
	q := w.t[w.head:]
	if len(q) > 0 && q[0] == t {
		w.head++
		if w.head == len(w.t) {
			w.t, w.head = w.t[:0], 0
		} else if w.head >= 64 && 2*w.head >= len(w.t) {
			// Most of the slice is behind the front: move the rest down
			// so that the slice stays as long as the set.
			w.t = w.t[:copy(w.t, w.t[w.head:])]
			w.head = 0
		}
		return
	}
	if i, found := slices.BinarySearch(q, t); found {
		w.t = slices.Delete(w.t, w.head+i, w.head+i+1)
	}
}

// has reports whether t is in the set.
func (w *wakeTimes) has(t float64) bool {
	_, found := slices.BinarySearch(w.t[w.head:], t)
	return found
}

// len is the number of times in the set.
func (w *wakeTimes) len() int { return len(w.t) - w.head }
