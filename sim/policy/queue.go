package policy

import (
	"sort"

	"github.com/schedlab/schedlab/sim/internal/minheap"
	"github.com/schedlab/schedlab/sim/workload"
)

// SizeQueues holds pending jobs bucketed by GPU count, each bucket a
// min-heap on (key, job ID). Best finds the job with the smallest key among
// those that need at most a given number of GPUs in O(number of distinct
// sizes), so a backfilling scheduler never rescans a long queue.
type SizeQueues struct {
	sizes   []int // sorted distinct GPU counts
	buckets map[int]*minheap.Heap[keyed]
	n       int
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
func NewSizeQueues() *SizeQueues { return &SizeQueues{buckets: map[int]*minheap.Heap[keyed]{}} }

// Len is the number of queued jobs.
func (q *SizeQueues) Len() int { return q.n }

// Push queues job id needing gpus GPUs with priority key (smaller first).
func (q *SizeQueues) Push(id workload.JobID, gpus int, key float64) {
	h, ok := q.buckets[gpus]
	if !ok {
		h = &minheap.Heap[keyed]{}
		q.buckets[gpus] = h
		i := sort.SearchInts(q.sizes, gpus)
		q.sizes = append(q.sizes, 0)
		copy(q.sizes[i+1:], q.sizes[i:])
		q.sizes[i] = gpus
	}
	h.Push(keyed{key, id})
	q.n++
}

// Reset empties the queues, keeping their storage.
func (q *SizeQueues) Reset() {
	for _, h := range q.buckets {
		*h = (*h)[:0]
	}
	q.n = 0
}

// Best returns the queued job with the smallest key among those needing
// at most maxGPUs GPUs, its GPU count and its key.
func (q *SizeQueues) Best(maxGPUs int) (id workload.JobID, gpus int, key float64, ok bool) {
	var best keyed
	for _, sz := range q.sizes {
		if sz > maxGPUs {
			break
		}
		h := q.buckets[sz]
		if h.Len() == 0 {
			continue
		}
		if top := h.Top(); !ok || top.Less(best) {
			best, gpus, ok = top, sz, true
		}
	}
	return best.id, gpus, best.key, ok
}

// Pop removes the head of the bucket for gpus (the job Best returned).
func (q *SizeQueues) Pop(gpus int) workload.JobID {
	q.n--
	return q.buckets[gpus].Pop().id
}
