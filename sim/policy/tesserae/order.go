package tesserae

import (
	"slices"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/workload"
)

// keyed is an active job with its order key, computed once per round.
type keyed struct {
	key, arrival float64
	id           workload.JobID
	ver          uint32 // kept: the job's version when filed (see kept)
}

func cmpKeyed(a, b keyed) int {
	switch {
	case a.key < b.key:
		return -1
	case a.key > b.key:
		return 1
	case a.arrival < b.arrival:
		return -1
	case a.arrival > b.arrival:
		return 1
	}
	return int(a.id - b.id)
}

// kept is the pending side of the las and fifo orders, carried from round
// to round instead of sorting every active job at every round (which made
// a round O(n log n) over a queue of tens of thousands on the Philly log).
// A pending job's key cannot change while it waits: its attained service
// grows only while it runs, and its arrival never changes. The jobs that
// never ran all have key 0 under las and come in arrival order, which is
// the engine's own pending order (job ids follow arrival); the jobs that
// ran and were preempted are filed here in key order, once, in the round
// after their preemption. Under fifo the key is the arrival, so the
// engine's pending order is the whole order. A round sorts only the
// running jobs and merges the three streams.
type kept struct {
	filed    []keyed  // preempted pending jobs in key order
	ver      []uint32 // per job: bumped at each filing; older entries are stale
	in       []bool   // per job: has a live entry in filed
	run, add []keyed  // scratch
}

// sync drops the filed jobs that have started since, and files the jobs
// preempted by the last round (they wait now, with their final key).
func (k *kept) sync(s *engine.State, preempted []workload.JobID, key func(workload.JobID) float64) {
	if len(k.ver) != s.NumJobs() { // first round (or another run's jobs)
		*k = kept{ver: make([]uint32, s.NumJobs()), in: make([]bool, s.NumJobs())}
	}
	k.add = k.add[:0]
	for _, id := range preempted {
		if s.Status(id) == engine.Pending {
			k.ver[id]++
			k.in[id] = true
			k.add = append(k.add, keyed{key(id), s.Job(id).ArrivalS, id, k.ver[id]})
		}
	}
	live := k.filed[:0]
	for _, e := range k.filed {
		switch {
		case e.ver != k.ver[e.id]:
		case s.Status(e.id) != engine.Pending:
			k.in[e.id] = false
		default:
			live = append(live, e)
		}
	}
	slices.SortFunc(k.add, cmpKeyed)
	k.filed = mergeKeyed(live, k.add)
}

// mergeKeyed merges b into a (both sorted), reusing a's array when it can.
func mergeKeyed(a, b []keyed) []keyed {
	if len(b) == 0 {
		return a
	}
	out := make([]keyed, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if cmpKeyed(a[i], b[j]) <= 0 {
			out = append(out, a[i])
			i++
		} else {
			out = append(out, b[j])
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// each calls fn on the active jobs in the order's priority (as active
// sorts them) until fn returns false.
func (k *kept) each(s *engine.State, las bool, key func(workload.JobID) float64, fn func(workload.JobID) bool) {
	k.run = k.run[:0]
	s.EachRunning(func(id workload.JobID) bool {
		k.run = append(k.run, keyed{key: key(id), arrival: s.Job(id).ArrivalS, id: id})
		return true
	})
	slices.SortFunc(k.run, cmpKeyed)
	r, f := 0, 0
	// emit yields the running and filed jobs that go before e (nil: all).
	emit := func(e *keyed) bool {
		for {
			var next *keyed
			if r < len(k.run) && (e == nil || cmpKeyed(k.run[r], *e) < 0) {
				next = &k.run[r]
			}
			if f < len(k.filed) && (e == nil || cmpKeyed(k.filed[f], *e) < 0) && (next == nil || cmpKeyed(k.filed[f], *next) < 0) {
				next = &k.filed[f]
				f++
			} else if next != nil {
				r++
			}
			if next == nil {
				return true
			}
			if !fn(next.id) {
				return false
			}
		}
	}
	going := true
	s.EachPending(func(id workload.JobID) bool {
		if las && k.in[id] {
			return true // filed: it comes from k.filed
		}
		e := keyed{key: key(id), arrival: s.Job(id).ArrivalS, id: id}
		going = emit(&e) && fn(id)
		return going
	})
	if going {
		emit(nil)
	}
}
