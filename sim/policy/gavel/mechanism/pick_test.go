package mechanism

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/sim/workload"
)

// pickStraight is the greedy choice done the straightforward way: every
// candidate of a list, sorted in full, visited in order with every rule
// checked at its turn. The picker must choose exactly what it chooses.
func pickStraight(keys []*combo, lists [][]cand, typed bool, free []float64, jobs int, fifo bool, ghost func(*combo) bool) (chosen, ghosts []entry) {
	free = slices.Clone(free)
	busy := make([]bool, jobs)
	for _, l := range lists {
		l = slices.Clone(l)
		slices.SortFunc(l, func(a, b cand) int { return candCmp(&a, &b) })
		for _, c := range l {
			if typed && free[c.j] <= 0 {
				break
			}
			k := keys[c.order]
			if free[c.j] < float64(k.sf) || (fifo && c.prio == 0) {
				continue
			}
			taken := false
			for _, id := range k.k.members() {
				taken = taken || busy[id]
			}
			if taken {
				continue
			}
			free[c.j] -= float64(k.sf)
			for _, id := range k.k.members() {
				busy[id] = true
			}
			e := entry{k: k.k, c: k, j: int(c.j), sf: k.sf, prio: c.prio, deficit: c.deficit, x: c.x, order: int(c.order)}
			if ghost != nil && ghost(k) {
				ghosts = append(ghosts, e)
				continue
			}
			chosen = append(chosen, e)
		}
	}
	return chosen, ghosts
}

// randomRound is a ledger of singles and pairs over a few jobs, and their
// candidates on each type, with keys drawn from small sets so that ties
// in priority, deficit and target are common.
func randomRound(r *rand.Rand, types int) (keys []*combo, perType [][]cand, jobs int) {
	jobs = 2 + r.IntN(40)
	for id := range jobs {
		keys = append(keys, &combo{k: ckey{workload.JobID(id), -1}, sf: []int{1, 1, 1, 2, 4}[r.IntN(5)]})
	}
	for range r.IntN(jobs) {
		a, b := workload.JobID(r.IntN(jobs)), workload.JobID(r.IntN(jobs))
		if a != b && keys[a].sf == keys[b].sf {
			keys = append(keys, &combo{k: ckey{min(a, b), max(a, b)}, sf: keys[a].sf})
		}
	}
	r.Shuffle(len(keys), func(a, b int) { keys[a], keys[b] = keys[b], keys[a] })
	perType = make([][]cand, types)
	vals := []float64{0, 0.25, 0.5, 1, 2, 1e9}
	for order := range keys {
		for j := range types {
			if r.IntN(5) == 0 {
				continue // cannot run on j
			}
			perType[j] = append(perType[j], cand{prio: vals[r.IntN(len(vals))], deficit: vals[r.IntN(3)] - 0.5,
				x: vals[r.IntN(4)], order: int32(order), j: int32(j)})
		}
	}
	return keys, perType, jobs
}

// TestPickerSameAsStraight: on random rounds, the picker (candidates that
// can no longer be taken dropped before ranking, a lazy heap) chooses the
// same entries, in the same order, as the full sort visited in order, with
// and without FIFO and ghosts, per type and over all types at once.
func TestPickerSameAsStraight(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	var p picker
	for round := range 3000 {
		types := 1 + r.IntN(3)
		keys, perType, jobs := randomRound(r, types)
		free := make([]float64, types)
		for j := range free {
			free[j] = float64(r.IntN(2 * jobs))
		}
		fifo := r.IntN(3) == 0
		var ghost func(*combo) bool
		if r.IntN(3) == 0 {
			ghost = func(c *combo) bool { return c.k.b < 0 && c.k.a%3 == 0 }
		}
		typed := r.IntN(4) != 0
		lists := perType
		if !typed {
			lists = [][]cand{slices.Concat(perType...)}
		}
		wantC, wantG := pickStraight(keys, lists, typed, free, jobs, fifo, ghost)

		p.keys, p.busy, p.fifo, p.ghost = keys, make([]bool, jobs), fifo, ghost
		p.free = append(p.free[:0], free...)
		p.chosen, p.ghosts = p.chosen[:0], p.ghosts[:0]
		for _, l := range lists {
			p.take(l, typed)
		}
		if !slices.Equal(p.chosen, wantC) || !slices.Equal(p.ghosts, wantG) {
			t.Fatalf("round %d (typed %v, fifo %v): chose %v and ghosts %v, want %v and %v", round, typed, fifo, p.chosen, p.ghosts, wantC, wantG)
		}
		p.release()
		if i := slices.Index(p.busy, true); i >= 0 {
			t.Fatalf("round %d: job %d still marked taken after release", round, i)
		}
	}
}

// randomMechanism is a mechanism whose ledger holds a random round's
// combinations, each with random types it can run on, service received
// and targets (with leftOut, some with no targets at all: jobs the last
// recompute left out), most of them live.
func randomMechanism(r *rand.Rand, types int, leftOut bool) (m *Mechanism, keys []*combo, jobs int) {
	keys, _, jobs = randomRound(r, types)
	m = &Mechanism{busy: make([]bool, jobs)}
	m.ledger.init(types, 360, false)
	m.ledger.keys = keys
	for i, c := range keys {
		c.runs, c.recv, c.x = make([]bool, types), make([]float64, types), make([]float64, types)
		for j := range types {
			c.runs[j] = r.IntN(4) != 0
			c.recv[j] = float64(r.IntN(3)) * 100
			c.x[j] = float64(r.IntN(3)) / 2
		}
		if leftOut && r.IntN(3) == 0 {
			c.x = nil
		}
		if r.IntN(2) == 0 {
			c.deficit = make([]float64, types)
			for j := range types {
				c.deficit[j] = float64(r.IntN(3)) * 50
			}
		}
		if r.IntN(5) != 0 {
			m.liveZero = append(m.liveZero, int32(i))
			if positive(c.x) {
				m.live = append(m.live, int32(i))
			}
		}
	}
	m.zeroAt = zeroStamp{ok: true} // liveZero is this round's
	m.zeroNow = m.zeroAt
	m.tiers, m.groups = buildTiers(nil, nil, keys, m.live, types, nil)
	for j := range types {
		m.ledger.total[j] = 1000
	}
	return m, keys, jobs
}

// TestTypeCandidatesLeaveOutTaken: a type's candidates, listed when its
// turn comes, are every live combination that can run on it, in the
// ledger's order, except those with a member already taken (which the
// picker could never take), with the same keys as the full list.
func TestTypeCandidatesLeaveOutTaken(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 4))
	for round := range 500 {
		types := 1 + r.IntN(3)
		m, keys, jobs := randomMechanism(r, types, false)
		for id := range jobs {
			m.busy[id] = r.IntN(3) == 0
		}
		for j := range types {
			var want []cand
			for _, order := range m.liveZero {
				c := keys[order]
				if !c.runs[j] || m.busy[c.k.a] || (c.k.b >= 0 && m.busy[c.k.b]) {
					continue
				}
				want = append(want, m.cand(c, order, j, 50))
			}
			for _, positive := range []bool{true, false} {
				tier := slices.DeleteFunc(slices.Clone(want), func(c cand) bool { return (c.prio > 0) != positive })
				live := m.liveZero
				if positive {
					live = m.live // the positive tier needs only positive targets
				}
				if got := m.typeCandidates(j, 50, positive, live); !slices.Equal(got, tier) {
					t.Fatalf("round %d, type %d, positive %v: %v, want %v", round, j, positive, got, tier)
				}
			}
		}
	}
}

// TestTakeTypeSameAsFullList: taking each type's candidates in two tiers,
// the second listed only when the first leaves room, chooses what the
// greedy choice over each type's full list chooses, with and without FIFO.
func TestTakeTypeSameAsFullList(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 8))
	for round := range 2000 {
		types := 1 + r.IntN(3)
		m, keys, jobs := randomMechanism(r, types, true)
		free := make([]float64, types)
		for j := range types {
			free[j] = float64(r.IntN(jobs))
		}
		fifo := r.IntN(2) == 0
		var lists [][]cand
		for j := range types {
			var l []cand
			for _, order := range m.liveZero {
				if c := keys[order]; c.runs[j] {
					l = append(l, m.cand(c, order, j, 50))
				}
			}
			lists = append(lists, l)
		}
		want, _ := pickStraight(keys, lists, true, free, jobs, fifo, nil)

		p := &m.picker
		p.keys, p.busy, p.fifo = keys, m.busy, fifo
		p.free = append(p.free[:0], free...)
		for j := range types {
			m.takeType(nil, j, 50)
		}
		if !slices.Equal(p.chosen, want) {
			t.Fatalf("round %d (fifo %v): chose %v, want %v", round, fifo, p.chosen, want)
		}
	}
}

// TestBeforeIsCandCmp: the heap's inlined comparison is candCmp's order,
// on pairs drawn from few values (ties at every level), NaNs and signed
// zeros included.
func TestBeforeIsCandCmp(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 2))
	vals := []float64{0, math.Copysign(0, -1), 1, 2.5, 1e9, math.NaN(), math.Inf(1)}
	draw := func() cand {
		return cand{prio: vals[r.IntN(len(vals))], deficit: vals[r.IntN(len(vals))], x: vals[r.IntN(len(vals))],
			order: int32(r.IntN(3)), j: int32(r.IntN(3))}
	}
	for range 200000 {
		x, y := draw(), draw()
		if got, want := before(&x, &y), candCmp(&x, &y) < 0; got != want {
			t.Fatalf("before(%+v, %+v) = %v, candCmp says %v", x, y, got, want)
		}
	}
}

// groupedLike is list stably grouped by size in the order of g's groups
// (as listTier lists a tier grouped so): list itself when g is mixed.
func groupedLike(list []cand, g *tierGroups, keys []*combo) []cand {
	if g.mixed {
		return list
	}
	var out []cand
	for k := range g.n {
		for _, c := range list {
			if float64(keys[c.order].sf) == g.sizes[k] {
				out = append(out, c)
			}
		}
	}
	return out
}

// TestListTierSameAsListType: the positive tier as takeType lists it
// (listTier, from buildTiers' lists) is the general listing's positive
// tier less what the picker could not take now, key for key and bit for
// bit, in the same order within each size (grouped by size as the
// tier's groups say), on targets,
// service and totals that round differently in another order (and totals
// of 0, tiny targets whose priority underflows, combinations without a
// target, and sizes left over).
func TestListTierSameAsListType(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 13))
	awkward := func() float64 { return r.Float64() * math.Pow(10, float64(r.IntN(9)-4)) }
	for round := range 2000 {
		types := 1 + r.IntN(3)
		m, keys, jobs := randomMechanism(r, types, true)
		for _, c := range keys {
			for j := range types {
				switch r.IntN(4) {
				case 0:
					c.recv[j] = 0
				default:
					c.recv[j] = awkward()
				}
				if c.x != nil && r.IntN(4) != 0 {
					c.x[j] = awkward()
					if r.IntN(20) == 0 {
						c.x[j] = 1e-320 // its priority underflows to 0
					}
				}
			}
		}
		for j := range types {
			m.ledger.total[j] = []float64{0, awkward(), 1e300}[r.IntN(3)]
		}
		for id := range jobs {
			m.busy[id] = r.IntN(4) == 0
		}
		p := &m.picker
		p.keys, p.busy, p.fifo = keys, m.busy, r.IntN(2) == 0
		p.free = p.free[:0]
		for range types {
			p.free = append(p.free, float64(r.IntN(5)))
		}
		tiers, groups := buildTiers(nil, nil, keys, m.liveZero, types, nil)
		for _, c := range keys {
			for j := range types {
				if r.IntN(4) == 0 {
					c.recv[j] = awkward() // received since the tiers were built
				}
			}
		}
		for j := range types {
			want := slices.DeleteFunc(slices.Clone(m.typeCandidates(j, 50, true, m.liveZero)), func(c cand) bool { return !p.open(&c) })
			want = groupedLike(want, &groups[j], keys)
			g := groups[j]
			if r.IntN(3) == 0 {
				// the same tier read as one group of sizes mixed
				g = tierGroups{n: 1, mixed: true}
				g.ends[0] = int32(len(tiers[j]))
			}
			if got := m.listTier(nil, j, tiers[j], &g, p); !slices.Equal(got, want) {
				t.Fatalf("round %d, type %d: %v, want %v", round, j, got, want)
			}
		}
	}
}

// TestVisitSplitSameAsVisit: visiting a type's candidates in two parts
// split at a sampled pivot (visitSplit) takes the same candidates in the
// same order, ends with the same GPUs left and reports the same as one
// heap of all, whatever k (too low, about right, too high), with and
// without FIFO; and the parts split the list in rank order.
func TestVisitSplitSameAsVisit(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 1))
	split, second := 0, 0 // lists split; visits that went on to the second part
	for round := range 5000 {
		keys, perType, jobs := randomRound(r, 1)
		list := perType[0]
		free := float64(r.IntN(2 * jobs))
		fifo := r.IntN(3) == 0
		k := r.IntN(len(list)/2 + 2)
		var ps [2]picker
		var rooms [2]bool
		for i := range ps {
			p := &ps[i]
			p.keys, p.busy, p.fifo = keys, make([]bool, jobs), fifo
			p.free = []float64{free}
			p.heap.cs = slices.Clone(list)
			if i == 0 {
				rooms[i] = p.visit(true)
			} else {
				rooms[i] = p.visitSplit(k)
			}
		}
		if !slices.Equal(ps[0].chosen, ps[1].chosen) || rooms[0] != rooms[1] || ps[0].free[0] != ps[1].free[0] {
			t.Fatalf("round %d (k %d of %d, fifo %v): chose %v (room %v), want %v (room %v)",
				round, k, len(list), fifo, ps[1].chosen, rooms[1], ps[0].chosen, rooms[0])
		}
		if k > 0 && 2*k < len(list) {
			cs := slices.Clone(list)
			n := splitAt(cs, k)
			if n < 1 || n > len(cs) {
				t.Fatalf("round %d: split at %d of %d", round, n, len(cs))
			}
			for _, a := range cs[:n] {
				for _, b := range cs[n:] {
					if !before(&a, &b) {
						t.Fatalf("round %d: %v first, ranks after %v", round, a, b)
					}
				}
			}
			if n < len(cs) {
				split++
				if ps[1].popped > n {
					second++
				}
			}
		}
	}
	if split < 500 || second < 50 {
		t.Errorf("%d lists split, %d visits into the second part: too few to tell", split, second)
	}
}

// TestVisitTierSameAsVisit: visiting a type's tier in two parts split at
// a pivot sampled from the tier, the second listed only after the first
// was taken (visitTier), takes the same candidates in the same order and
// leaves the same GPUs as one heap of the whole listed tier, whatever k,
// with members already taken, sizes left over, ties on priority (few
// values of received time and target) and with and without FIFO; and it
// reports room whenever the type has GPUs left.
func TestVisitTierSameAsVisit(t *testing.T) {
	defer func(n int) { bySizeMin = n }(bySizeMin)
	bySizeMin = 0 // every list of several sizes grouped by size
	r := rand.New(rand.NewPCG(21, 6))
	split, second := 0, 0 // visits split at a pivot; visits that listed the second part
	for round := range 4000 {
		types := 1 + r.IntN(3)
		m, keys, jobs := randomMechanism(r, types, true)
		for id := range jobs {
			m.busy[id] = r.IntN(6) == 0
		}
		free := make([]float64, types)
		for j := range free {
			free[j] = float64(r.IntN(jobs + 1))
		}
		fifo := r.IntN(3) == 0
		for j := range types {
			k := r.IntN(len(m.tiers[j])/2 + 2)
			var ps [2]*picker
			var rooms [2]bool
			var pivot cand
			splitThis := false
			for i := range ps {
				mm := *m // the same combinations, each with its own picker and marks
				p := &mm.picker
				p.keys, p.busy, p.fifo = keys, slices.Clone(m.busy), fifo
				p.free = slices.Clone(free)
				if i == 0 {
					p.heap.cs = mm.listTier(nil, j, mm.tiers[j], &mm.groups[j], p)
					rooms[i] = p.visit(true)
				} else {
					splitThis = k > 0 && 2*k < len(m.tiers[j]) && mm.tierPivot(j, mm.tiers[j], k, &pivot)
					rooms[i] = mm.visitTier(j, mm.tiers[j], &mm.groups[j], k)
				}
				ps[i] = p
			}
			if !slices.Equal(ps[0].chosen, ps[1].chosen) || ps[0].free[j] != ps[1].free[j] {
				t.Fatalf("round %d, type %d (k %d of %d, fifo %v): chose %v, want %v", round, j, k, len(m.tiers[j]), fifo, ps[1].chosen, ps[0].chosen)
			}
			if ps[1].free[j] > 0 && !(rooms[0] && rooms[1]) {
				t.Fatalf("round %d, type %d: room %v with %g GPUs left, one heap %v", round, j, rooms[1], ps[1].free[j], rooms[0])
			}
			if splitThis {
				split++
				if slices.ContainsFunc(ps[1].chosen, func(e entry) bool {
					return before(&pivot, &cand{prio: e.prio, deficit: e.deficit, x: e.x, order: int32(e.order), j: int32(e.j)})
				}) {
					second++ // it took from the second part
				}
			}
		}
	}
	if split < 500 || second < 50 {
		t.Errorf("%d visits split, %d into the second part: too few to tell", split, second)
	}
}

// TestTierPivotIsSampleRank: the pivot tierPivot picks is the sample's
// candidate of its rank in the whole sample sorted (the partial insertion
// sort keeps the same one), on tiers with members taken, ties and every
// k.
func TestTierPivotIsSampleRank(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 30))
	picked := 0
	for round := range 3000 {
		types := 1 + r.IntN(3)
		m, _, jobs := randomMechanism(r, types, true)
		for id := range jobs {
			m.busy[id] = r.IntN(5) == 0
		}
		p := &m.picker
		p.busy = m.busy
		p.free = p.free[:0]
		for range types {
			p.free = append(p.free, float64(r.IntN(6)))
		}
		for j := range types {
			tier := m.tiers[j]
			n := len(tier)
			const size = 16
			var sample []cand
			looked := 0
			for i := range size {
				for at := i * n / size; at < (i+1)*n/size; at++ {
					looked++
					e := &tier[at]
					c := cand{prio: e.x * 1e9, deficit: e.deficit, x: e.x, order: e.order, j: int32(j)}
					if r := *e.recv; r > 0 && m.ledger.total[j] > 0 {
						c.prio = e.x * m.ledger.total[j] / r
					}
					if !p.busy[e.a] && (e.b < 0 || !p.busy[e.b]) && p.free[j] >= float64(e.sf) && c.prio > 0 {
						sample = append(sample, c)
						break
					}
				}
			}
			slices.SortFunc(sample, func(a, b cand) int { return candCmp(&a, &b) })
			for k := 1; k <= n; k++ {
				var pivot cand
				ok := m.tierPivot(j, tier, k, &pivot)
				at := k * looked / max(n, 1)
				if want := len(sample) > 0 && at < len(sample)-1; ok != want {
					t.Fatalf("round %d, type %d, k %d: found %v, want %v", round, j, k, ok, want)
				}
				if ok {
					picked++
					if pivot != sample[at] {
						t.Fatalf("round %d, type %d, k %d: pivot %v, the sample's %d-th is %v (sample %v)", round, j, k, pivot, at, sample[at], sample)
					}
				}
			}
		}
	}
	if picked < 1000 {
		t.Errorf("%d pivots picked: too few to tell", picked)
	}
}
