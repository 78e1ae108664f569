package tesserae

import (
	"math"
	"slices"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/workload"
)

// ftfOrder is the ftf order of the active jobs, sorted at every round
// (its keys move with the clock) but cheaper than from scratch:
//
//   - A waiting job's key, (now − arrival + left) / solo, changes only
//     through now: its solo time and what it has left are fixed while it
//     waits, so they are computed once per wait (the solo time asks the
//     perf model), not at every round.
//   - The sort starts from the last round's order, which the new one
//     mostly keeps, with pdqsort, which is fast on nearly sorted input.
//     The comparison (key, then arrival, then id) is a strict total order
//     when no key is NaN, so any sort gives the one order a stable sort of
//     the engine's order gave before; with a NaN key it falls back to that
//     stable sort.
//
// On the Philly log's queues of tens of thousands this was most of a
// round.
type ftfOrder struct {
	solo, left []float64 // per job, while it waits (see fresh)
	fresh      []bool    // per job: solo and left hold for its current wait
	stamp      []uint32  // per job: the last round that listed it
	round      uint32
	ids        []workload.JobID // the last round's order
	ks         []keyed
}

// order lists the active jobs by ftf: furthest behind its fair finish
// time first (the lowest −ρ), then earliest arrival, then lowest id. With
// k > 0 (max_waiting) it lists the running jobs and only the first k
// waiting ones.
func (o *ftfOrder) order(s *engine.State, k int) []workload.JobID {
	if n := s.NumJobs(); len(o.fresh) != n {
		*o = ftfOrder{solo: make([]float64, n), left: make([]float64, n), fresh: make([]bool, n), stamp: make([]uint32, n)}
	}
	if k > 0 && s.NumPending() > k {
		return o.first(s, k)
	}
	o.round++
	o.ks = o.ks[:0]
	nan := false
	add := func(id workload.JobID) {
		key := -o.rho(s, id)
		nan = nan || math.IsNaN(key)
		o.ks = append(o.ks, keyed{key: key, arrival: s.Job(id).ArrivalS, id: id})
		o.stamp[id] = o.round
	}
	for _, id := range o.ids {
		if st := s.Status(id); st == engine.Pending || st == engine.Running {
			add(id)
		}
	}
	each := func(id workload.JobID) bool {
		if o.stamp[id] != o.round {
			add(id)
		}
		return true
	}
	s.EachRunning(each)
	s.EachPending(each)
	if nan {
		o.ks = o.ks[:0]
		keep := func(id workload.JobID) bool {
			o.ks = append(o.ks, keyed{key: -o.rho(s, id), arrival: s.Job(id).ArrivalS, id: id})
			return true
		}
		s.EachRunning(keep)
		s.EachPending(keep)
		slices.SortStableFunc(o.ks, cmpKeyed)
	} else {
		slices.SortFunc(o.ks, cmpKeyed)
	}
	o.ids = o.ids[:0]
	for _, k := range o.ks {
		o.ids = append(o.ids, k.id)
	}
	return o.ids
}

// rho is ftfRho, with a waiting job's solo time and time left kept for
// the rest of its wait (the same arithmetic, so the same bits). A job
// seen running has them computed again when it next waits: what it has
// left changes while it runs, and every start and preemption happens in
// a round, where the order sees every active job.
func (o *ftfOrder) rho(s *engine.State, id workload.JobID) float64 {
	if s.Status(id) != engine.Pending {
		o.fresh[id] = false
		return ftfRho(s, id)
	}
	j := s.Job(id)
	if !o.fresh[id] {
		o.fresh[id] = true
		o.solo[id] = policy.SoloDuration(s, id)
		if o.solo[id] > 0 && j.Iterations > 0 {
			o.left[id] = o.solo[id] * s.Info(id).Remaining / j.Iterations
		}
	}
	if !(o.solo[id] > 0) || !(j.Iterations > 0) {
		return 0
	}
	return (s.Now() - j.ArrivalS + o.left[id]) / o.solo[id]
}

// first is order with only the first k waiting jobs: every waiting job's
// key is computed (cheap, see rho), the k lowest kept in a heap whose top
// is the last of them, then those and the running jobs sorted.
func (o *ftfOrder) first(s *engine.State, k int) []workload.JobID {
	o.ks = o.ks[:0]
	s.EachPending(func(id workload.JobID) bool {
		e := keyed{key: -o.rho(s, id), arrival: s.Job(id).ArrivalS, id: id}
		switch {
		case len(o.ks) < k:
			o.ks = append(o.ks, e)
			up(o.ks, len(o.ks)-1)
		case cmpKeyed(e, o.ks[0]) < 0:
			o.ks[0] = e
			down(o.ks, 0)
		}
		return true
	})
	s.EachRunning(func(id workload.JobID) bool {
		o.ks = append(o.ks, keyed{key: -o.rho(s, id), arrival: s.Job(id).ArrivalS, id: id})
		return true
	})
	slices.SortStableFunc(o.ks, cmpKeyed)
	o.ids = o.ids[:0]
	for _, e := range o.ks {
		o.ids = append(o.ids, e.id)
	}
	return o.ids
}

// up and down keep h a heap with the latest entry in the order at h[0].
func up(h []keyed, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if cmpKeyed(h[i], h[p]) <= 0 {
			return
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func down(h []keyed, i int) {
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if c+1 < len(h) && cmpKeyed(h[c+1], h[c]) > 0 {
			c++
		}
		if cmpKeyed(h[c], h[i]) <= 0 {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}
