package policy

import (
	"math/bits"
	"slices"

	"github.com/schedlab/schedlab/sim/workload"
)

// SizeQueues holds pending jobs bucketed by GPU count, each bucket a
// min-heap on (key, job ID). Best finds the job with the smallest key among
// those that need at most a given number of GPUs in O(number of distinct
// sizes), so a backfilling scheduler never rescans a long queue.
//
// The buckets are a slice beside the sorted sizes, not a map, and each is
// a heap of keyed values whose comparison inlines: a scheduling pass looks
// at every bucket, and map lookups and calls through a generic heap's
// dictionary cost several times more in WebAssembly than natively.
type SizeQueues struct {
	sizes   []int       // sorted distinct GPU counts
	buckets []keyedHeap // buckets[i] holds the jobs of sizes[i] GPUs
	n       int
	// full has bit i set when buckets[i] is not empty, while there are
	// at most 64 sizes (wide: more). Best visits the non-empty buckets
	// alone: the queue of a lightly loaded cluster holds a job or two,
	// and skipping each empty bucket was a branch as hard to predict as
	// the size of the job that waits.
	full uint64
	wide bool
}

type keyed struct {
	key float64
	id  workload.JobID
}

// Less orders by key, then job ID.
func (a keyed) Less(b keyed) bool {
	if a.key != b.key {
		return a.key < b.key
	}
	return a.id < b.id
}

// NewSizeQueues returns empty queues.
func NewSizeQueues() *SizeQueues { return &SizeQueues{} }

// Len is the number of queued jobs.
func (q *SizeQueues) Len() int { return q.n }

// bucket returns the index of the bucket for gpus, adding it if new.
func (q *SizeQueues) bucket(gpus int) int {
	i, ok := q.find(gpus)
	if !ok {
		q.sizes = slices.Insert(q.sizes, i, gpus)
		q.buckets = slices.Insert(q.buckets, i, nil)
		low := uint64(1)<<(i&63) - 1
		q.full = q.full&low | (q.full&^low)<<1 // the buckets from i on move up one
		q.wide = q.wide || len(q.sizes) > 64
	}
	return i
}

// find is the index of size gpus in sizes, or where it would go, and
// whether it is there: a linear scan, as a workload has a handful of
// sizes (a binary search cost more at every push and pop).
func (q *SizeQueues) find(gpus int) (int, bool) {
	for i, sz := range q.sizes {
		if sz >= gpus {
			return i, sz == gpus
		}
	}
	return len(q.sizes), false
}

// Push queues job id needing gpus GPUs with priority key (smaller first).
func (q *SizeQueues) Push(id workload.JobID, gpus int, key float64) {
	i := q.bucket(gpus)
	q.buckets[i].push(keyed{key, id})
	q.full |= 1 << (i & 63)
	q.n++
}

// Reset empties the queues, keeping their storage.
func (q *SizeQueues) Reset() {
	for i := range q.buckets {
		q.buckets[i] = q.buckets[i][:0]
	}
	q.n, q.full = 0, 0
}

// Best returns the queued job with the smallest key among those needing
// at most maxGPUs GPUs, its GPU count and its key.
func (q *SizeQueues) Best(maxGPUs int) (id workload.JobID, gpus int, key float64, ok bool) {
	var best keyed
	if !q.wide {
		for m := q.full; m != 0; m &= m - 1 {
			i := bits.TrailingZeros64(m)
			sz := q.sizes[i]
			if sz > maxGPUs {
				break
			}
			if top := q.buckets[i][0]; !ok || top.Less(best) {
				best, gpus, ok = top, sz, true
			}
		}
		return best.id, gpus, best.key, ok
	}
	for i, sz := range q.sizes {
		if sz > maxGPUs {
			break
		}
		h := q.buckets[i]
		if len(h) == 0 {
			continue
		}
		if top := h[0]; !ok || top.Less(best) {
			best, gpus, ok = top, sz, true
		}
	}
	return best.id, gpus, best.key, ok
}

// Pop removes the head of the bucket for gpus (the job Best returned).
func (q *SizeQueues) Pop(gpus int) workload.JobID {
	q.n--
	i, _ := q.find(gpus)
	id := q.buckets[i].pop().id
	if len(q.buckets[i]) == 0 {
		q.full &^= 1 << (i & 63)
	}
	return id
}

// keyedHeap is a binary min-heap of keyed values: minheap.Heap's steps,
// written out so that Less inlines.
type keyedHeap []keyed

func (h *keyedHeap) push(x keyed) {
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

func (h *keyedHeap) pop() keyed {
	a := *h
	top := a[0]
	last := len(a) - 1
	a[0] = a[last]
	a = a[:last]
	for i := 0; ; {
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
	*h = a
	return top
}
