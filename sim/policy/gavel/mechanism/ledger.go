package mechanism

import (
	"fmt"
	"math"
	"slices"

	"github.com/schedlab/schedlab/sim/workload"
)

// ckey names a combination: a job alone (b = -1) or a pair.
type ckey struct{ a, b workload.JobID }

func (k ckey) members() []workload.JobID {
	if k.b < 0 {
		return []workload.JobID{k.a}
	}
	return []workload.JobID{k.a, k.b}
}

// combo is what the ledger holds for one combination. Rounds read it
// through the pointer their entries carry, with no lookup by key.
type combo struct {
	k       ckey
	x       []float64 // the target: its share of each type; nil if it has no row
	recv    []float64 // seconds on each type since the reset, from R/2
	own     []float64 // clean mode: seconds on each type since the reset, from a prior of X·R/2; nil without a row
	deficit []float64 // time owed by earlier allocations, a tie-breaker; nil until the first reset that saw it
	runs    []bool    // whether it can run on each type; nil until a round asked
	sf      int       // GPUs it takes, set with runs
	gen     int32     // a pair's: the ledger's generation when it was last in its keys (ledger.genOf)
}

// ledger is the target allocation and what each combination received
// since it was computed, from which each round's priorities follow
// (spec 001 §3.2).
type ledger struct {
	types  int       // GPU types
	roundS float64   // round length
	clean  bool      // mode clean
	keys   []*combo  // combinations in the current allocation, then singles added since
	total  []float64 // the types' time since the reset, over all combinations
	due    bool      // jobs arrived or finished since the last recompute
	resets int       // recomputes so far
	reset  float64   // time of the last recompute

	resetAtZero bool // quirk ResetAtZero: a last recompute at t = 0 does not hold the next one back
	force       bool // quirk IdleUntilArrival: the next recompute may not wait

	// pos are the indices into keys of the combinations with a positive
	// target, in order: the only ones with a candidate of positive
	// priority, all a FIFO round looks at (see pick).
	pos      []int32
	spare    []*combo  // the keys before the last restart, storage for the next
	halfSums []float64 // halves's sums so far

	buf  []float64 // carry's allocation for the records' vectors, what is left of it
	slab []combo   // carry's allocation for the records, what is left of it
	// Records a restart replaced, and their vectors, which nothing reads
	// once the restart is over: carry reuses them from the next restart
	// on (free, vecs) instead of allocating (freed: this restart's).
	free, freed []*combo
	vecs        [][]float64
	x           byKey[[]float64] // scratch of recompute: the new targets
	// at is each combination's latest record, in the ledger or not (see
	// gen), so that restart finds the record a key had without a map of
	// the whole ledger.
	at  byKey[*combo]
	gen int32 // the generation of the records in keys (genOf)
	// By job id, of its record alone: its generation, and whether it is
	// quiet (quietIn). A pair's generation is in its record.
	singleGen []int32
	quiet     []bool

	selfCheck bool  // restart compares its records with the full rebuild (tests)
	checkErr  error // the first difference it found
	checks    int   // restarts it compared
}

// slabRecords is how many records carry allocates at once.
const slabRecords = 256

func (l *ledger) init(types int, roundS float64, clean bool) {
	l.types, l.roundS, l.clean = types, roundS, clean
	l.total = make([]float64, types)
}

// arrive adds a job alone, with no target yet and R/2 received on every
// type, and asks for a recompute.
func (l *ledger) arrive(id workload.JobID) {
	l.join(id)
	l.due = true
}

// join adds a job alone, with no target and R/2 received on every type,
// as a restart holds a job whose target is 0.
func (l *ledger) join(id workload.JobID) {
	recv := make([]float64, l.types)
	for j := range recv {
		recv[j] = l.roundS / 2
	}
	c := &combo{k: ckey{id, -1}, recv: recv}
	l.keys = append(l.keys, c)
	l.at.put(c.k, c)
	l.setGen(c.k, c, l.gen)
	for j := range l.total {
		l.total[j] += l.roundS / 2
	}
}

// ran adds exec seconds of combination c on type j.
func (l *ledger) ran(c *combo, j int, exec float64) {
	if exec != 0 && c.k.b < 0 {
		l.quiet[c.k.a] = false
	}
	c.recv[j] += exec
	if c.own != nil {
		c.own[j] += exec
	}
	l.total[j] += exec
}

// dueAt: a recompute was asked for and the last one is at least minS old
// (or there was none).
func (l *ledger) dueAt(now, minS float64) bool {
	return l.due && (l.resets == 0 || l.force || (l.resetAtZero && l.reset == 0) || now >= l.reset+minS)
}

// restart begins the allocation l.x over the combinations keys at time
// now: deficit += X·(time since the last reset) − (received − R/2);
// received goes back to R/2 (0 for a pair that is new). A combination the
// ledger already held keeps what rounds learnt of where it can run.
func (l *ledger) restart(now float64, keys []ckey, head int) {
	elapsed := now - l.reset
	if l.resets == 0 {
		elapsed = 0
	}
	prev := l.keys
	// A record is in the ledger (prev) when its generation is the
	// ledger's; the generation after this restart marks those made or
	// kept for keys, so that a key named twice gets one record.
	was := l.gen
	l.gen++
	l.recycle()
	next := slices.Grow(l.spare[:0], len(keys))
	l.pos = l.pos[:0]
	n := 0 // records whose received time is R/2 (see below)
	for i := 0; i < len(keys); i++ {
		k := keys[i]
		if i >= head && l.quietIn(k.a, was) {
			// A waiting job's record that had no target, gets none
			// (it is past the head) and ran nothing since the last
			// reset stays as it is (see idle), found without reading
			// it: most of a long queue, so the run of such keys
			// that begins here is kept in a loop of its own.
			end := l.keepQuiet(keys, i, was, &next)
			n += end - i
			i = end - 1
			continue
		}
		c, _ := l.at.get(k)
		gen := l.genOf(k, c)
		switch {
		case c != nil && gen == l.gen: // named twice
		case c != nil && gen == was && l.idle(c, k):
			l.setGen(k, c, l.gen)
		default:
			old := c
			if c != nil && gen != was {
				c = nil // left the ledger at a restart before (max_waiting)
			}
			c = l.carry(k, c, l.xOf(k), elapsed)
			l.at.put(k, c)
			l.setGen(k, c, l.gen)
			if old != nil {
				// no longer the key's record: nothing reaches it
				// but prev, which only this restart reads
				l.freed = append(l.freed, old)
			}
		}
		if positive(c.x) {
			l.pos = append(l.pos, int32(len(next)))
		}
		if c.recv[0] != 0 {
			n++
		}
		next = append(next, c)
	}
	// Every record's received time is now R/2 on each type (0 for a new
	// pair), so the types' totals are R/2 added up once per record that
	// is not a new pair: a sum of equal terms, the same in any order.
	for j := range l.total {
		l.total[j] = l.halves(n)
	}
	if l.selfCheck && l.checkErr == nil {
		l.checkErr = l.verify(prev, keys, next, elapsed)
		l.checks++
	}
	l.spare = prev[:0]
	l.keys = next
	l.reset, l.due, l.force = now, false, false
	l.resets++
}

// keepQuiet keeps, as restart does, the records of the keys from
// keys[i] on that are quiet in generation was (quietIn; every key past
// the head is a job alone), appending them to next, and returns the
// index of the first key that is not. The arrays it reads are not
// reallocated meanwhile, so it reads them once.
func (l *ledger) keepQuiet(keys []ckey, i int, was int32, next *[]*combo) int {
	quiet, gens, single, g := l.quiet, l.singleGen, l.at.single, l.gen
	out := *next
	for ; i < len(keys); i++ {
		a := keys[i].a
		if int(a) >= len(quiet) || !quiet[a] || gens[a] != was {
			break
		}
		gens[a] = g
		out = append(out, single[a])
	}
	*next = out
	return i
}

// verify checks restart's records against the full rebuild it replaced:
// each key's record is what carry makes of the record the key had in
// prev (found in a map of prev), the first for a key named twice, the
// totals are the sums of every record's received time in order, and pos
// lists every record with a positive target.
func (l *ledger) verify(prev []*combo, keys []ckey, next []*combo, elapsed float64) error {
	old := map[ckey]*combo{}
	for _, c := range prev {
		old[c.k] = c
	}
	made := map[ckey]*combo{}
	total := make([]float64, l.types)
	var pos []int32
	for i, k := range keys {
		c := next[i]
		if first, ok := made[k]; ok {
			if c != first {
				return fmt.Errorf("key %v named twice has two records", k)
			}
		} else {
			made[k] = c
			want := l.carry(k, old[k], l.xOf(k), elapsed)
			if !sameRecord(c, want) {
				return fmt.Errorf("key %v: record %+v, the full rebuild makes %+v", k, *c, *want)
			}
		}
		for j, v := range c.recv {
			total[j] += v
		}
		if positive(c.x) {
			pos = append(pos, int32(i))
		}
	}
	if !slices.Equal(total, l.total) {
		return fmt.Errorf("totals %v, the full rebuild sums %v", l.total, total)
	}
	if !slices.Equal(pos, l.pos) {
		return fmt.Errorf("positive targets at %v, want %v", l.pos, pos)
	}
	return nil
}

// sameRecord: a and b hold the same values where rounds read them (a
// missing deficit reads as zeros).
func sameRecord(a, b *combo) bool {
	same := func(x, y []float64) bool {
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if math.Float64bits(x[i]) != math.Float64bits(y[i]) {
				return false
			}
		}
		return true
	}
	deficit := func(c *combo) []float64 {
		if c.deficit == nil {
			return make([]float64, len(c.recv))
		}
		return c.deficit
	}
	xa, xb := a.x != nil, b.x != nil
	return a.k == b.k && xa == xb && (!xa || &a.x[0] == &b.x[0]) && same(a.recv, b.recv) && (a.own == nil) == (b.own == nil) &&
		same(a.own, b.own) && same(deficit(a), deficit(b)) && slices.Equal(a.runs, b.runs) && a.sf == b.sf
}

// genOf is the generation of combination k's record c (ledger.gen).
func (l *ledger) genOf(k ckey, c *combo) int32 {
	if c == nil {
		return -1
	}
	if k.b < 0 {
		return l.singleGen[k.a]
	}
	return c.gen
}

func (l *ledger) setGen(k ckey, c *combo, g int32) {
	if k.b >= 0 {
		c.gen = g
		return
	}
	if int(k.a) >= len(l.singleGen) {
		n := max(int(k.a)+1, 2*len(l.singleGen))
		l.singleGen = append(l.singleGen, make([]int32, n-len(l.singleGen))...)
		l.quiet = append(l.quiet, make([]bool, n-len(l.quiet))...)
	}
	l.singleGen[k.a] = g
	// A job's record alone is quiet when it has no target and received
	// R/2 on every type: as join and carry make it without a target.
	l.quiet[k.a] = c.x == nil && c.own == nil
}

// quietIn: job id's record alone is in the ledger of generation g and,
// as far as its job's arrays tell, idle if it gets no target: it had none
// and ran nothing since it was made (ran clears quiet; a record that ran
// for a time too short to change its sums is just not known to be idle).
func (l *ledger) quietIn(id workload.JobID, g int32) bool {
	return int(id) < len(l.quiet) && l.quiet[id] && l.singleGen[id] == g
}

// idle: combination k's record before a reset, prev, stays as it is
// after it, because carry would change nothing that is read. It is a job
// alone that had no target, gets none now (so it has no own time), and
// received nothing since the last reset: its deficit grows by
// 0·elapsed − (R/2 − R/2) = 0 and its received time stays R/2. (A record
// without a deficit yet reads as a deficit of 0, the zeros carry would
// give it.)
func (l *ledger) idle(prev *combo, k ckey) bool {
	if prev == nil || k.b >= 0 || prev.x != nil || prev.own != nil || l.xOf(k) != nil {
		return false
	}
	for _, v := range prev.recv {
		if v != l.roundS/2 {
			return false
		}
	}
	return true
}

// xOf is combination k's new target in restart; nil if it has none.
func (l *ledger) xOf(k ckey) []float64 {
	x, _ := l.x.get(k)
	return x
}

// positive: a target with a positive share of some type. Only such
// records have a candidate of positive priority (ledger.priority).
func positive(x []float64) bool {
	for _, v := range x {
		if v > 0 {
			return true
		}
	}
	return false
}

// halves is R/2 added up n times from 0, one addition at a time, as
// restart's totals once summed every record: each sum is remembered, as
// n moves by a few records from one reset to the next.
func (l *ledger) halves(n int) float64 {
	if len(l.halfSums) == 0 {
		l.halfSums = append(l.halfSums, 0)
	}
	for len(l.halfSums) <= n {
		l.halfSums = append(l.halfSums, l.halfSums[len(l.halfSums)-1]+l.roundS/2)
	}
	return l.halfSums[n]
}

// carry is combination k's record after a reset, from its record before
// (nil if it had none) and its new target x.
func (l *ledger) carry(k ckey, prev *combo, x []float64, elapsed float64) *combo {
	var c *combo
	if n := len(l.free); n > 0 {
		c, l.free = l.free[n-1], l.free[:n-1]
	} else {
		if len(l.slab) == 0 {
			// The records, and their vectors (three per record at
			// most), share an allocation per so many records.
			l.slab = make([]combo, slabRecords)
			l.buf = make([]float64, 3*l.types*slabRecords)
		}
		c = &l.slab[0]
		l.slab = l.slab[1:]
	}
	*c = combo{k: k, x: x, deficit: l.floats()}
	switch {
	case prev != nil:
		if prev.deficit != nil {
			copy(c.deficit, prev.deficit)
		}
		for j := range c.deficit {
			xv := 0.0
			if prev.x != nil {
				xv = prev.x[j]
			}
			c.deficit[j] += xv*elapsed - (prev.recv[j] - l.roundS/2)
		}
		c.recv = l.fill(l.roundS / 2)
		c.runs, c.sf = prev.runs, prev.sf
	case k.b >= 0:
		c.recv = l.floats() // a new pair starts at 0
	default:
		c.recv = l.fill(l.roundS / 2)
	}
	if x != nil {
		c.own = l.floats()
		if len(x) != len(c.own) {
			c.own = make([]float64, len(x))
		}
		for j, v := range x {
			c.own[j] = v * l.roundS / 2
		}
	}
	return c
}

// recycle makes the records the last restart replaced, and their own
// vectors, free for carry: the targets (x) are the allocation's, and the
// types a combination runs on (runs) are handed on to its next record.
func (l *ledger) recycle() {
	for _, c := range l.freed {
		// carry writes every field of the record it reuses
		l.keepVec(c.recv)
		l.keepVec(c.own)
		l.keepVec(c.deficit)
	}
	l.free = append(l.free, l.freed...)
	l.freed = l.freed[:0]
}

// keepVec keeps a replaced record's vector for floats, if it has one
// value per type.
func (l *ledger) keepVec(v []float64) {
	if len(v) == l.types {
		l.vecs = append(l.vecs, v)
	}
}

// floats is a zero vector of one value per type, from the vectors of
// records replaced before, or restart's shared allocation.
func (l *ledger) floats() []float64 {
	n := l.types
	if k := len(l.vecs); k > 0 {
		v := l.vecs[k-1]
		l.vecs = l.vecs[:k-1]
		clear(v)
		return v
	}
	if len(l.buf) < n {
		return make([]float64, n)
	}
	v := l.buf[:n:n]
	l.buf = l.buf[n:]
	return v
}

func (l *ledger) fill(v float64) []float64 {
	x := l.floats()
	for i := range x {
		x[i] = v
	}
	return x
}

// byKey maps combinations to values: singles by job id in a slice, pairs
// in a map (most combinations are singles, and a map per recompute cost
// more than the rest of the ledger's restart).
type byKey[V any] struct {
	single []V
	has    []bool
	pairs  map[ckey]V
}

func (b *byKey[V]) put(k ckey, v V) {
	if k.b >= 0 {
		if b.pairs == nil {
			b.pairs = map[ckey]V{}
		}
		b.pairs[k] = v
		return
	}
	if int(k.a) >= len(b.single) {
		n := max(int(k.a)+1, 2*len(b.single))
		b.single = append(b.single, make([]V, n-len(b.single))...)
		b.has = append(b.has, make([]bool, n-len(b.has))...)
	}
	b.single[k.a], b.has[k.a] = v, true
}

func (b *byKey[V]) get(k ckey) (V, bool) {
	if k.b >= 0 {
		v, ok := b.pairs[k]
		return v, ok
	}
	if int(k.a) >= len(b.single) {
		var zero V
		return zero, false
	}
	return b.single[k.a], b.has[k.a]
}

func (b *byKey[V]) del(k ckey) {
	if k.b >= 0 {
		delete(b.pairs, k)
		return
	}
	if int(k.a) < len(b.single) {
		var zero V
		b.single[k.a], b.has[k.a] = zero, false
	}
}

// clear deletes keys, leaving the map empty if they were all it held.
func (b *byKey[V]) clear(keys []ckey) {
	for _, k := range keys {
		b.del(k)
	}
}

// priority is X over the fraction received since the last reset; 0 where
// X = 0. ref-compat uses the reference's fraction, the combination's share
// of the type's time (X·1e9 before anything was received). clean uses the
// paper's X ÷ rounds received: the fraction of the combination's own time
// since the reset spent on the type, from a prior of X, so that a job whose
// target is split between types gets each share (the reference's fraction
// is 1 for a job alone on its type, whatever its target there).
func (l *ledger) priority(c *combo, j int, x, now float64) float64 {
	if x <= 0 {
		return 0
	}
	if l.clean {
		if o := c.own; o != nil && o[j] > 0 {
			return x * (now - l.reset + l.roundS/2) / o[j]
		}
		return x * 1e9
	}
	r := c.recv
	if r[j] <= 0 || l.total[j] <= 0 {
		return x * 1e9
	}
	return x * l.total[j] / r[j]
}
