// Package minheap is a binary min-heap over a slice of values that know
// how to compare themselves. It is a small, allocation-free alternative to
// container/heap for the engine's event queue and the policies' queues.
package minheap

// Ordered is a type whose values can be compared; Less must be a strict
// weak order.
type Ordered[T any] interface {
	Less(other T) bool
}

// Heap is a min-heap; its zero value is empty and ready to use.
type Heap[T Ordered[T]] []T

// Len is the number of values.
func (h Heap[T]) Len() int { return len(h) }

// Top returns the smallest value; the heap must not be empty.
func (h Heap[T]) Top() T { return h[0] }

// Push adds a value.
func (h *Heap[T]) Push(x T) {
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

// Pop removes and returns the smallest value; the heap must not be empty.
func (h *Heap[T]) Pop() T {
	a := *h
	top := a[0]
	last := len(a) - 1
	a[0] = a[last]
	a = a[:last]
	a.down(0)
	*h = a
	return top
}

// Init restores the heap order of a slice whose values were changed or
// removed in place, in linear time.
func (h Heap[T]) Init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

// down sifts the value at i down to its place.
func (a Heap[T]) down(i int) {
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
