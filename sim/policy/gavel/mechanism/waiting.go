package mechanism

import (
	"fmt"
	"math"
	"slices"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/workload"
)

// considered lists the jobs a recompute plans over, in arrival order:
// every active job or, with Config.MaxWaiting = K above 0 and more than K
// jobs waiting, the running jobs and only the first K waiting ones in the
// policy's order (Config.WaitingKey; arrival order without one). The
// waiting jobs after them get no row in the allocation, and no entry in
// the rounds, until a later recompute takes them in: an approximation
// that keeps a recompute and a round about as cheap however long the
// queue is.
func (m *Mechanism) considered(s *engine.State) []workload.JobID {
	k := m.cfg.MaxWaiting
	if k <= 0 || s.NumPending() <= k {
		return m.active(s)
	}
	var p []workload.JobID
	if m.cfg.WaitingKey == nil {
		p = make([]workload.JobID, 0, k)
		s.EachPending(func(id workload.JobID) bool {
			p = append(p, id)
			return len(p) < k
		})
	} else {
		p = m.firstByKey(s, k)
	}
	return mergeByID(p, s.Running())
}

// topUp, with MaxWaiting = K above 0, adds waiting jobs in arrival order
// to the ledger, with no target, until it holds K waiting jobs: as jobs
// finish between two recomputes, the rounds can then fill the GPUs they
// free with the next waiting jobs (a target of 0 runs on GPUs left idle,
// except under FIFO), as they would with every waiting job in the ledger.
// Without the bound every waiting job is in the ledger already.
func (m *Mechanism) topUp(s *engine.State) {
	k := m.cfg.MaxWaiting
	if k <= 0 || m.cfg.FIFO || s.NumPending() == 0 {
		return
	}
	if len(m.held) < s.NumJobs() {
		m.held = make([]bool, s.NumJobs())
	}
	waiting := 0
	for _, c := range m.ledger.keys {
		for _, id := range c.k.members() {
			m.held[id] = true
		}
		if c.k.b < 0 && s.Status(c.k.a) == engine.Pending {
			waiting++
		}
	}
	if waiting < k {
		s.EachPending(func(id workload.JobID) bool {
			if !m.held[id] {
				m.ledger.join(id)
				m.held[id] = true
				waiting++
			}
			return waiting < k
		})
	}
	for _, c := range m.ledger.keys {
		for _, id := range c.k.members() {
			m.held[id] = false
		}
	}
}

// active returns the unfinished arrived jobs in arrival order: the
// list of the last call and the arrivals since (arrive), less the jobs
// that completed since (complete sets their finish time; a job the
// cluster can never hold is never an arrival). Listing the engine's
// pending and running sets through their callbacks and merging them, or
// asking the engine each listed job's status, cost more at every
// recompute. The list is valid until the next arrival.
//
// The list is filtered only when a job completed since the last filter
// (completions): a long queue's recomputes mostly follow arrivals.
func (m *Mechanism) active(s *engine.State) []workload.JobID {
	if m.completions != m.activeDone {
		ids := m.activeIDs[:0]
		for _, id := range m.activeIDs {
			if m.jobs[id].finish < 0 {
				ids = append(ids, id)
			}
		}
		m.activeIDs = ids
		m.activeDone = m.completions
	}
	ids := m.activeIDs
	if m.selfCheck {
		m.checks.active++
		if full := m.activeFull(s); !slices.Equal(full, ids) {
			m.checkErr = fmt.Errorf("t=%g: the kept list of active jobs is %v, the engine's %v", s.Now(), ids, full)
		}
	}
	return ids
}

// listArrival adds an arrived job to the list active reads, in id
// (arrival) order.
func (m *Mechanism) listArrival(id workload.JobID) {
	ids := m.activeIDs
	if n := len(ids); n == 0 || ids[n-1] < id {
		m.activeIDs = append(ids, id)
		return
	}
	if i, found := slices.BinarySearch(ids, id); !found {
		m.activeIDs = slices.Insert(ids, i, id)
	}
}

// activeFull is active from the engine's pending and running sets, as it
// was found before the list was kept (selfCheck).
func (m *Mechanism) activeFull(s *engine.State) []workload.JobID {
	b := &m.idBufs
	b[0], b[1] = b[0][:0], b[1][:0]
	s.EachPending(func(id workload.JobID) bool { b[0] = append(b[0], id); return true })
	s.EachRunning(func(id workload.JobID) bool { b[1] = append(b[1], id); return true })
	b[2] = mergeInto(b[2][:0], b[0], b[1])
	return b[2]
}

// mergeByID merges two lists of job ids, each in arrival (id) order.
func mergeByID(p, r []workload.JobID) []workload.JobID {
	return mergeInto(make([]workload.JobID, 0, len(p)+len(r)), p, r)
}

// mergeInto is mergeByID appending to ids.
func mergeInto(ids, p, r []workload.JobID) []workload.JobID {
	for len(p) > 0 && len(r) > 0 {
		if p[0] < r[0] {
			ids, p = append(ids, p[0]), p[1:]
		} else {
			ids, r = append(ids, r[0]), r[1:]
		}
	}
	return append(append(ids, p...), r...)
}

// keyed is a waiting job and its place in the policy's order.
type keyed struct {
	key float64
	id  workload.JobID
}

// after: x comes after y in the order (larger key, then later arrival).
// Less is after, so that a minheap.Heap of keyed has the last of the
// first k at its root.
func (x keyed) Less(y keyed) bool { return x.after(y) }

func (x keyed) after(y keyed) bool {
	if x.key != y.key {
		return x.key > y.key
	}
	return x.id > y.id
}

// firstByKey is the k waiting jobs first by Config.WaitingKey (ties by
// arrival), in arrival order. It reads every waiting job once and keeps
// the k first so far in a heap whose root is the last of them.
func (m *Mechanism) firstByKey(s *engine.State, k int) []workload.JobID {
	h := m.firstHeap[:0]
	s.EachPending(func(id workload.JobID) bool {
		c := keyed{m.cfg.WaitingKey(s.Info(id).Remaining, m.jobs[id].thr), id}
		if c.key != c.key {
			c.key = math.Inf(1) // a job without a key goes last
		}
		if h.Len() < k {
			h.Push(c)
		} else if h.Top().after(c) {
			h.Pop()
			h.Push(c)
		}
		return true
	})
	m.firstHeap = h
	ids := make([]workload.JobID, len(h))
	for i, c := range h {
		ids[i] = c.id
	}
	slices.Sort(ids)
	return ids
}
