package ojpp

import (
	"cmp"
	"container/heap"
	"math"
	"slices"
	"sort"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/workload"
)

// The placement pass walks the waiting jobs in the algorithm's order and
// skips a job whose kind (type, workers, compute: all the planner sees of
// it) failed since the last start, since a failed placement leaves the
// planner as it was. Walked job by job, that costs the whole queue at
// every arrival and departure: on a trace that keeps thousands of jobs
// waiting, most of each pass is skipping. The queue below keeps the
// waiting jobs by kind across decisions, each kind's in the order of the
// walk, so that a pass visits only the jobs it tries: at each step the
// next job of every kind not failed, the first of those in the walk's
// order. The jobs it tries, in that order, and so every placement, are
// the whole walk's (TestLazyWalkMatchesTheFullWalk).
//
// The walk's order is BFD (one rank over all jobs), or the Heuristic's
// gregarious order, which groups jobs by their collision probability p:
// a round takes the head of the group of least τ = p·top (the largest p
// waiting), so the groups go in ascending p, each in BFD order, but for
// the case where the top group holds a single job: its τ is top times the
// second largest p, the same as that group's, and it takes its BFD place
// among that group's jobs (see gregarious). That holds when the products
// p·top order as the p do, which the pass checks; when two values of p
// are so close that their products tie, it walks the whole queue.

// queue is the waiting jobs by kind.
type queue struct {
	kindOf []int32 // by job
	kinds  []kindQueue
	in     []bool // by job: waiting in the queue
	n      int    // jobs in the queue
}

// kindQueue is the waiting jobs of one kind, as BFD ranks in ascending
// order (within a kind BFD order is job id order); ranks[head:] are live.
type kindQueue struct {
	info  jobInfo
	ranks []int32
	head  int
}

// newQueue sorts the jobs the planner knows into kinds; the queue is
// empty.
func newQueue(pl *planner) *queue {
	if len(pl.bfdRank) != len(pl.info) {
		pl.rankAll()
	}
	q := &queue{kindOf: make([]int32, len(pl.info)), in: make([]bool, len(pl.info))}
	index := map[jobInfo]int32{}
	for j, in := range pl.info {
		k, ok := index[in]
		if !ok {
			k = int32(len(q.kinds))
			index[in] = k
			q.kinds = append(q.kinds, kindQueue{info: in})
		}
		q.kindOf[j] = k
	}
	return q
}

// add puts job j (of BFD rank r) in the queue, if it is not there.
func (q *queue) add(j workload.JobID, r int32) {
	if q.in[j] {
		return
	}
	q.in[j], q.n = true, q.n+1
	kq := &q.kinds[q.kindOf[j]]
	if n := len(kq.ranks); n == kq.head || kq.ranks[n-1] < r {
		kq.ranks = append(kq.ranks, r) // jobs mostly arrive in id order
		return
	}
	i := kq.head + sort.Search(len(kq.ranks)-kq.head, func(i int) bool { return kq.ranks[kq.head+i] > r })
	kq.ranks = slices.Insert(kq.ranks, i, r)
}

// remove takes job j (of BFD rank r) out of the queue, if it is there. A
// pass starts the first jobs of a kind more often than the last, so the
// shorter side of the slice moves.
func (q *queue) remove(j workload.JobID, r int32) {
	if !q.in[j] {
		return
	}
	q.in[j], q.n = false, q.n-1
	kq := &q.kinds[q.kindOf[j]]
	i, _ := slices.BinarySearch(kq.ranks[kq.head:], r)
	i += kq.head
	if i-kq.head < len(kq.ranks)-i {
		copy(kq.ranks[kq.head+1:i+1], kq.ranks[kq.head:i])
		kq.head++
	} else {
		kq.ranks = append(kq.ranks[:i], kq.ranks[i+1:]...)
	}
	if kq.head == len(kq.ranks) {
		kq.ranks, kq.head = kq.ranks[:0], 0
	} else if kq.head > 64 && 2*kq.head > len(kq.ranks) {
		kq.ranks = kq.ranks[:copy(kq.ranks, kq.ranks[kq.head:])]
		kq.head = 0
	}
}

// sync brings the queue up to the engine's waiting jobs: the arrivals
// among triggers join it (the pass removes the jobs it starts, and
// nothing else leaves the pending set of an OJPP run). Should the counts
// disagree, it is rebuilt from the engine's list.
func (q *queue) sync(s *engine.State, pl *planner, triggers []engine.Trigger) {
	for _, t := range triggers {
		if t.Kind == engine.Arrival && s.Status(t.Job) == engine.Pending {
			q.add(t.Job, pl.bfdRank[t.Job])
		}
	}
	if q.n == s.NumPending() {
		return
	}
	for k := range q.kinds {
		q.kinds[k].ranks, q.kinds[k].head = q.kinds[k].ranks[:0], 0
	}
	clear(q.in)
	q.n = 0
	s.EachPending(func(j workload.JobID) bool {
		q.add(j, pl.bfdRank[j])
		return true
	})
}

// cand is the next job of one kind in the walk: its place (key, then BFD
// rank) and where it is in its kind's ranks.
type cand struct {
	key  float64
	rank int32
	kind int32
}

type candHeap []cand

func (h candHeap) Len() int { return len(h) }
func (h candHeap) Less(a, b int) bool {
	if h[a].key != h[b].key {
		return h[a].key < h[b].key
	}
	return h[a].rank < h[b].rank
}
func (h candHeap) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *candHeap) Push(x any)   { *h = append(*h, x.(cand)) }
func (h *candHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// walk is one pass over the queue in the algorithm's order.
type walk struct {
	q    *queue
	keys []float64 // by kind: the place of its jobs in the order, before rank
	// lone is the kind of the top group's single job, whose key is that
	// of the next group, or -1.
	lone   int32
	h      candHeap
	failed []int32 // kinds failed since the last start, in the order they failed
	// the last job handed out: later ones come after it
	key  float64
	rank int32
}

// newWalk prepares a pass over q in the order of pl's configuration, or
// returns false when that order is not the simple one (products of p
// that tie), for the caller to walk the whole queue instead.
func newWalk(q *queue, pl *planner) (*walk, bool) {
	w := &walk{q: q, keys: make([]float64, len(q.kinds)), lone: -1, key: math.Inf(-1), rank: -1}
	if pl.cfg.Order == "gregarious" {
		// The distinct p waiting, with how many jobs each.
		type group struct {
			p    float64
			n    int
			kind int32
		}
		var groups []group
		for k := range q.kinds {
			kq := &q.kinds[k]
			n := len(kq.ranks) - kq.head
			if n == 0 {
				continue
			}
			p := kq.info.p
			if math.IsNaN(p) {
				return nil, false
			}
			w.keys[k] = p
			i := slices.IndexFunc(groups, func(g group) bool { return g.p == p })
			if i < 0 {
				groups = append(groups, group{p: p, kind: int32(k)})
				i = len(groups) - 1
			}
			groups[i].n += n
		}
		slices.SortFunc(groups, func(a, b group) int { return cmp.Compare(a.p, b.p) })
		if m := len(groups); m >= 2 {
			top := groups[m-1].p
			for i := 1; i < m; i++ {
				if !(groups[i-1].p*top < groups[i].p*top) {
					return nil, false
				}
			}
			if groups[m-1].n == 1 {
				w.lone = groups[m-1].kind
				w.keys[w.lone] = groups[m-2].p
			}
		}
	}
	for k := range q.kinds {
		w.push(int32(k))
	}
	return w, true
}

// push puts kind k's first job after the last one handed out, if any, in
// the heap.
func (w *walk) push(k int32) {
	kq := &w.q.kinds[k]
	key := w.keys[k]
	if kq.head == len(kq.ranks) || key < w.key {
		return
	}
	i := kq.head
	if key == w.key {
		i += sort.Search(len(kq.ranks)-kq.head, func(i int) bool { return kq.ranks[kq.head+i] > w.rank })
		if i == len(kq.ranks) {
			return
		}
	}
	heap.Push(&w.h, cand{key: key, rank: kq.ranks[i], kind: k})
}

// next returns the BFD rank and the kind of the next job to try, or
// false at the end of the pass.
func (w *walk) next() (int32, int32, bool) {
	if len(w.h) == 0 {
		return 0, 0, false
	}
	c := heap.Pop(&w.h).(cand)
	w.key, w.rank = c.key, c.rank
	return c.rank, c.kind, true
}

// fail records that the kind of the job just handed out found no room:
// its other jobs are skipped until a start.
func (w *walk) fail(k int32) { w.failed = append(w.failed, k) }

// started records that the job just handed out, of kind k, started (the
// caller has removed it from the queue): every kind is tried again.
func (w *walk) started(k int32) {
	w.push(k)
	for _, f := range w.failed {
		w.push(f)
	}
	w.failed = w.failed[:0]
}
