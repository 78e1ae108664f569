package mechanism

import (
	"cmp"
	"math"
	"slices"
)

// stopSlots is the size of stopSorter's table of distinct times; it holds
// at most half as many times, so that a probe rarely goes past one slot.
const stopSlots = 256

// stopSorter sorts a round's micro-task stops by time (the order of equal
// times does not matter: stopMicroTasks takes every stop due at once and
// pauses them in job order). A round's hundred or so stops share a few
// dozen times, one per job type and GPU type, so it finds each stop's time
// in a small open-addressing table, sorts only the distinct times and
// places the stops by a counting sort on their time's rank: a fraction of
// a comparison sort's work. A round with more distinct times than the
// table holds is sorted by the library's sort instead.
type stopSorter struct {
	slot   [stopSlots]int32 // 1 + index into times, by hash of the time; 0: empty
	used   []int32          // the slots set by this sort, to empty again
	times  []float64        // the distinct times, as first seen
	sorted []float64        // the distinct times, ascending
	rank   []int32          // by index into times: its position in order, then a count
	group  []int32          // by stop: the index of its time
	buf    []stop
}

// sort sorts st by time.
func (o *stopSorter) sort(st []stop) {
	if len(st) < 2 {
		return
	}
	defer o.clear()
	o.times, o.group = o.times[:0], o.group[:0]
	for _, s := range st {
		g, ok := o.find(s.t)
		if !ok {
			slices.SortFunc(st, func(a, b stop) int { return cmp.Compare(a.t, b.t) })
			return
		}
		o.group = append(o.group, g)
	}
	n := len(o.times)
	// The distinct times sorted as values (no comparison function to
	// call), each found again in the table for its index.
	o.sorted = append(o.sorted[:0], o.times...)
	slices.Sort(o.sorted)
	// rank[g]: where the stops of time g start in the sorted list
	o.rank = slices.Grow(o.rank[:0], n)[:n]
	clear(o.rank)
	for _, g := range o.group {
		o.rank[g]++
	}
	at := int32(0)
	for _, t := range o.sorted {
		g, _ := o.find(t)
		c := o.rank[g]
		o.rank[g] = at
		at += c
	}
	o.buf = slices.Grow(o.buf[:0], len(st))[:len(st)]
	for i, s := range st {
		g := o.group[i]
		o.buf[o.rank[g]] = s
		o.rank[g]++
	}
	copy(st, o.buf)
}

// find returns the index of time t in o.times, adding it if new; false
// when the table is full.
func (o *stopSorter) find(t float64) (int32, bool) {
	h := int32((math.Float64bits(t) * 0x9e3779b97f4a7c15) >> 56) // top 8 bits: stopSlots = 256
	for {
		k := o.slot[h]
		if k == 0 {
			break
		}
		if o.times[k-1] == t {
			return k - 1, true
		}
		h = (h + 1) & (stopSlots - 1)
	}
	if len(o.times) >= stopSlots/2 {
		return 0, false
	}
	o.times = append(o.times, t)
	o.slot[h] = int32(len(o.times))
	o.used = append(o.used, h)
	return int32(len(o.times) - 1), true
}

// clear empties the table for the next sort.
func (o *stopSorter) clear() {
	for _, h := range o.used {
		o.slot[h] = 0
	}
	o.used = o.used[:0]
}
