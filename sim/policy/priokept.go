package policy

import (
	"math"
	"slices"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/internal/minheap"
	"github.com/schedlab/schedlab/sim/workload"
)

// runningOrder is the running jobs of a PriorityScheduler in priority
// order, kept from decision to decision when their keys change only at
// times the scheduler is told (PriorityScheduler.RunningKeyUntil). A job
// enters when it starts and leaves when it is preempted or completes; a
// job whose key may have changed is asked again at the first decision at
// or after the time it gave.
type runningOrder struct {
	// list is the running jobs by key, then job ID, among the entries of
	// jobs that left (gpus -1, key and ID kept, so the order holds),
	// which are dropped once they outnumber the live ones: removing a
	// job from the middle of a long list moved half of it (at a million
	// jobs under Tiresias, the largest cost of a decision), and an entry
	// added beside a dead one takes its place without moving any.
	list   []prioEntry
	n      int     // entries of running jobs in list
	slot   []int32 // by job: 1 + the index of its record in recs, 0 when not in list
	recs   []runRec
	free   []int32 // unused records of recs
	due    minheap.Heap[recheck]
	buf    []recheck // scratch of refresh
	serial uint32
	gpus   int // GPUs the listed jobs hold
	// compactAt is the length of due at which its stale rechecks are
	// dropped (see push); compactions counts the times they were.
	compactAt, compactions int
	sweeps                 int // times the dead entries of list were dropped
	// next is the index after the last entry add put: jobs start mostly
	// in arrival order, each entry just after the last one, so add
	// looks there before it searches
	next int
}

// runRec is what the order keeps of a running job.
type runRec struct {
	key    float64
	serial uint32 // tells its current recheck from those of earlier runs
	// pos is where its entry was put in list, or moved to by the last
	// sweep: still its place unless an insertion before it has moved it
	// since, so remove looks there before it searches
	pos int32
}

// recheck is a job whose key is to be asked again at time t; it is stale
// once the job has left the order or started again since.
type recheck struct {
	t      float64
	id     workload.JobID
	serial uint32
}

// Less orders by time, then job ID.
func (a recheck) Less(b recheck) bool {
	if a.t != b.t {
		return a.t < b.t
	}
	return a.id < b.id
}

// has reports whether job id is in the order.
func (o *runningOrder) has(id workload.JobID) bool {
	return int(id) < len(o.slot) && o.slot[id] != 0
}

// add puts a job that starts to run in its place, with its key e.key,
// asking for it again at until.
func (o *runningOrder) add(s *engine.State, e prioEntry, until float64) {
	if len(o.slot) < s.NumJobs() {
		o.slot = append(o.slot, make([]int32, s.NumJobs()-len(o.slot))...)
	}
	var k int32
	if n := len(o.free); n > 0 {
		k, o.free = o.free[n-1], o.free[:n-1]
	} else {
		o.recs = append(o.recs, runRec{})
		k = int32(len(o.recs) - 1)
	}
	o.serial++
	o.recs[k] = runRec{key: e.key, serial: o.serial}
	o.slot[e.id] = k + 1
	// i is the first entry not before e: list[i-1] < e <= list[i], so e
	// may replace a dead entry on either side without breaking the order
	i := o.next
	if !(i <= len(o.list) && (i == 0 || o.list[i-1].Less(e)) && (i == len(o.list) || !o.list[i].Less(e))) {
		i = o.search(e) // the one index with those two properties in a sorted list
	}
	switch {
	case i > 0 && o.list[i-1].gpus < 0:
		i--
		o.list[i] = e
	case i < len(o.list) && o.list[i].gpus < 0:
		o.list[i] = e
	default:
		o.list = slices.Insert(o.list, i, e)
	}
	o.recs[k].pos = int32(i)
	o.next = i + 1
	o.n++
	o.gpus += int(e.gpus)
	if !math.IsInf(until, 1) {
		o.push(recheck{t: until, id: e.id, serial: o.serial})
	}
}

// push files a recheck. Most rechecks go stale before their time (under
// Tiresias a job asks to be looked at again when it would cross 16
// GPU-hours, and most jobs finish long before), and a stale one stayed
// in the heap until its time came: at a million jobs the heap held the
// jobs of the last 16 hours, thousands, against a few hundred running,
// and popping the stale ones was the largest part of refreshing. So once
// the heap has doubled since it was last compacted, the stale rechecks
// are dropped in one linear pass (a constant cost per push). A stale
// recheck never becomes live again and the heap's order is by value, so
// the live ones pop in the same order.
func (o *runningOrder) push(r recheck) {
	if o.due.Len() >= o.compactAt {
		live := o.due[:0]
		for _, x := range o.due {
			if o.live(x) {
				live = append(live, x)
			}
		}
		o.due = live
		o.due.Init()
		o.compactAt = max(2*len(live), minRecheckCompact)
		o.compactions++
	}
	o.due.Push(r)
}

// minDeadEntries is the most dead entries the running order keeps however
// few jobs run (a variable for the tests, which drop them far more often
// to check that nothing changes).
var minDeadEntries = 64

// minRecheckCompact is the smallest heap of rechecks worth compacting (a
// variable for the tests, which compact far more often to check that
// nothing changes).
var minRecheckCompact = 256

// live reports whether a recheck is still due: its job is in the order
// and has not started again since it was filed.
func (o *runningOrder) live(r recheck) bool {
	return o.has(r.id) && o.recs[o.slot[r.id]-1].serial == r.serial
}

// remove takes job id out of the order (it was preempted or completed);
// a job not in it is ignored.
func (o *runningOrder) remove(id workload.JobID) {
	if !o.has(id) {
		return
	}
	k := o.slot[id] - 1
	key := o.recs[k].key
	// A job has one live entry, so a live entry of its at pos is the one.
	// Otherwise: dead entries of the job's earlier runs may equal its live
	// one in key and ID, but never come before it: add puts an entry
	// before every entry equal to it, or in the place of a dead one just
	// before.
	i := int(o.recs[k].pos)
	if !(i < len(o.list) && o.list[i].id == id && o.list[i].gpus >= 0) {
		i = o.search(prioEntry{key: key, id: id})
	}
	if i < len(o.list) && o.list[i].id == id && o.list[i].gpus >= 0 {
		o.gpus -= int(o.list[i].gpus)
		o.list[i].gpus = -1
		o.n--
	}
	o.slot[id] = 0
	o.free = append(o.free, k)
	if dead := len(o.list) - o.n; dead > max(o.n, minDeadEntries) {
		o.list = slices.DeleteFunc(o.list, func(e prioEntry) bool { return e.gpus < 0 })
		for i, e := range o.list {
			o.recs[o.slot[e.id]-1].pos = int32(i)
		}
		o.sweeps++
	}
}

// search is the index of the first entry of list not before e (by key,
// then job ID): a binary search whose comparisons inline.
func (o *runningOrder) search(e prioEntry) int {
	lo, hi := 0, len(o.list)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if o.list[m].Less(e) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// appendLive appends the running jobs' entries, in order, to dst.
func (o *runningOrder) appendLive(dst []prioEntry) []prioEntry {
	for _, e := range o.list {
		if e.gpus >= 0 {
			dst = append(dst, e)
		}
	}
	return dst
}

// refresh asks again for the keys that may have changed by now, moving
// the jobs whose keys did. A job asked again that gives a time not after
// now is asked at the next decision, not again in this one.
func (o *runningOrder) refresh(s *engine.State, p *PriorityScheduler) error {
	now := s.Now()
	o.buf = o.buf[:0]
	for o.due.Len() > 0 && o.due.Top().t <= now {
		o.buf = append(o.buf, o.due.Pop())
	}
	for _, r := range o.buf {
		if !o.live(r) {
			continue // stale
		}
		k, err := p.priority(s, r.id)
		if err != nil {
			return err
		}
		until := p.RunningKeyUntil(s, r.id)
		rec := &o.recs[o.slot[r.id]-1]
		if k == rec.key {
			o.serial++
			rec.serial = o.serial
			if !math.IsInf(until, 1) {
				o.push(recheck{t: until, id: r.id, serial: o.serial})
			}
			continue
		}
		o.remove(r.id)
		o.add(s, prioEntry{key: k, id: r.id, gpus: int32(s.Job(r.id).GPUs)}, until)
	}
	return nil
}

// gpusAfter is the number of GPUs of the running jobs ordered after e,
// counted from the last one and no further than need: the scan reads at
// most need jobs.
func (o *runningOrder) gpusAfter(e prioEntry, need int) int {
	sum := 0
	for k := len(o.list) - 1; k >= 0 && sum < need && e.Less(o.list[k]); k-- {
		sum += int(max(o.list[k].gpus, 0)) // a dead entry holds none
	}
	return sum
}

// fastPicks pops the waiting jobs in order and picks each that fits in
// the free GPUs, stopping once no later job could be picked, and reports
// whether that is provably the decision the full order makes. It is when
// the full order preempts no one: walking the full order (running and
// waiting jobs by key), while every running job so far was kept and the
// waiting ones picked were those that fit in the free GPUs, the GPUs left
// at a waiting job are the free ones left plus those of the running jobs
// after it. A waiting job that fits in the free GPUs left is picked in
// both; one that fits only with the running jobs' GPUs after it is picked
// by the full order, which must then preempt one of them (false); one
// that fits in neither is skipped in both (or, without backfilling, ends
// the picking, which preempts the running jobs after it, if any). A
// running job is always kept: the GPUs left at it are at least its own.
// The picks are p.picks, the popped jobs p.popped.
func (p *PriorityScheduler) fastPicks(s *engine.State) bool {
	p.popped, p.picks = p.popped[:0], p.picks[:0]
	left := s.FreeGPUs()
	after := func(e prioEntry, need int) int {
		if p.NoPreempt {
			return 0 // running jobs are not in the order
		}
		return p.run.gpusAfter(e, need)
	}
	for p.waiting.Len() > 0 {
		e := p.waiting.Pop()
		p.popped = append(p.popped, e)
		if g := int(e.gpus); g <= left {
			left -= g
			p.picks = append(p.picks, e)
		} else {
			more := after(e, g-left)
			if more >= g-left {
				return false
			}
			if p.NoBackfill {
				return more == 0
			}
		}
		if left == 0 && after(e, 1) == 0 {
			break
		}
	}
	return true
}
