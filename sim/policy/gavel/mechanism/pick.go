package mechanism

import (
	"sort"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
)

// entry is a (combination, type) candidate of one round.
type entry struct {
	k       ckey
	c       *combo
	j       int
	sf      int
	prio    float64
	deficit float64
	x       float64
	order   int
}

// pick ranks the entries and chooses greedily (spec 001 §3.3).
func (m *Mechanism) pick(s *engine.State) []entry {
	if len(m.perType) != len(m.gpu.types) {
		m.perType = make([][]entry, len(m.gpu.types))
	}
	perType := m.perType
	for j := range perType {
		perType[j] = perType[j][:0]
	}
	all := m.all[:0]
	defer func() { m.all = all }()
	o := m.oracle(s)
	now := s.Now()
	for order, c := range m.ledger.keys {
		k := c.k
		ok := true
		for _, id := range k.members() {
			ok = ok && s.Status(id) != engine.Finished
		}
		if !ok {
			continue
		}
		sf := s.Job(k.a).GPUs
		if c.runs == nil {
			c.runs = make([]bool, len(m.gpu.types))
			for j := range m.gpu.types {
				c.runs[j] = m.canRun(s, o, k, j)
			}
		}
		for j := range m.gpu.types {
			if !c.runs[j] {
				continue
			}
			e := entry{k: k, c: c, j: j, sf: sf, order: order}
			if c.x != nil {
				e.x = c.x[j]
			}
			if c.deficit != nil {
				e.deficit = c.deficit[j]
			}
			e.prio = m.ledger.priority(c, j, e.x, now)
			if m.cfg.Mode == "clean" {
				if e.x > 0 {
					all = append(all, e)
				}
				continue
			}
			perType[j] = append(perType[j], e)
		}
	}
	free := append([]float64(nil), m.gpu.count...)
	if len(m.busy) < s.NumJobs() {
		m.busy = make([]bool, s.NumJobs())
	}
	busy := m.busy
	chosen, ghosts := m.chosen[:0], m.ghosts[:0]
	defer func() {
		for _, es := range [][]entry{chosen, ghosts} {
			for _, e := range es {
				for _, id := range e.k.members() {
					busy[id] = false
				}
			}
		}
		m.chosen, m.ghosts = chosen, ghosts
	}()
	take := func(h *entryHeap) {
		for h.len() > 0 {
			if m.cfg.Mode != "clean" && free[h.top().j] <= 0 {
				return // this type is full: the rest of its list cannot run
			}
			e := h.pop()
			if free[e.j] < float64(e.sf) || (m.cfg.FIFO && e.prio == 0) {
				continue
			}
			taken := false
			for _, id := range e.k.members() {
				taken = taken || busy[id]
			}
			if taken {
				continue
			}
			free[e.j] -= float64(e.sf)
			for _, id := range e.k.members() {
				busy[id] = true
			}
			if m.cfg.Quirks.UnallocatedWait && e.c.x == nil && s.Job(e.k.a).ArrivalS > m.ledger.reset {
				// The reference takes the GPUs of a job that arrived
				// after the last recompute but gives it no workers. A
				// job the last recompute saw and gave no row (Gandiva's
				// pairs) is not one: holding it back would wait for a
				// recompute that nothing makes due.
				ghosts = append(ghosts, e)
				continue
			}
			chosen = append(chosen, e)
		}
	}
	if m.cfg.Mode == "clean" {
		take(newEntryHeap(all, m.heapIdx))
	} else {
		order := typeOrder(m.gpu.types)
		if m.cfg.Shuffle {
			s.Rand().Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
		}
		for _, j := range order {
			h := newEntryHeap(perType[j], m.heapIdx)
			take(h)
			m.heapIdx = h.idx
		}
	}
	return chosen
}

// entryHeap yields entries in entryCmp order, lazily: a round usually
// needs only the first few of a long list. It orders indices into the
// list, as entries are large to move.
type entryHeap struct {
	es  []entry
	idx []int32
}

func newEntryHeap(es []entry, idx []int32) *entryHeap {
	idx = idx[:0]
	for i := range es {
		idx = append(idx, int32(i))
	}
	h := &entryHeap{es: es, idx: idx}
	for i := len(idx)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
	return h
}

func (h *entryHeap) len() int { return len(h.idx) }

// top is the first entry left.
func (h *entryHeap) top() *entry { return &h.es[h.idx[0]] }

func (h *entryHeap) pop() entry {
	top := h.es[h.idx[0]]
	n := len(h.idx) - 1
	h.idx[0] = h.idx[n]
	h.idx = h.idx[:n]
	h.down(0)
	return top
}

func (h *entryHeap) less(a, b int32) bool { return entryCmp(&h.es[a], &h.es[b]) < 0 }

func (h *entryHeap) down(i int) {
	idx := h.idx
	for {
		l := 2*i + 1
		if l >= len(idx) {
			return
		}
		c := l
		if r := l + 1; r < len(idx) && h.less(idx[r], idx[l]) {
			c = r
		}
		if !h.less(idx[c], idx[i]) {
			return
		}
		idx[i], idx[c] = idx[c], idx[i]
		i = c
	}
}

// entryCmp orders by priority, then deficit, then target, all
// descending, then by combination age and type: a total order, so the
// heap's result does not depend on its input order.
func entryCmp(x, y *entry) int {
	{
		switch {
		case x.prio != y.prio:
			return cmpDesc(x.prio, y.prio)
		case x.deficit != y.deficit:
			return cmpDesc(x.deficit, y.deficit)
		case x.x != y.x:
			return cmpDesc(x.x, y.x)
		case x.order != y.order:
			return x.order - y.order
		}
		return x.j - y.j
	}
}

func cmpDesc(a, b float64) int {
	if a > b {
		return -1
	}
	return 1
}

// canRun: every member has throughput on the type (as a pair for pairs).
func (m *Mechanism) canRun(s *engine.State, o plan.Oracle, k ckey, j int) bool {
	if k.b < 0 {
		return m.jobs[k.a].thr[j] > 0
	}
	ja, jb := s.Job(k.a), s.Job(k.b)
	if ja.GPUs != jb.GPUs {
		return false
	}
	ta, tb := o.Pair(ja, jb, m.gpu.types[j])
	return ta > 0 && tb > 0
}

// typeOrder is the reference's fixed visiting order: V100, P100, K80,
// i.e. type names in descending order.
func typeOrder(types []string) []int {
	idx := make([]int, len(types))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return types[idx[a]] > types[idx[b]] })
	return idx
}
