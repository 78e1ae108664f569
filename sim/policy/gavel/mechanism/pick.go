package mechanism

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/workload"
)

// entry is a (combination, type) candidate a round chose.
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

// cand is a (combination, type) candidate as the ranking compares it:
// its keys and where to find the rest. It is small, so that the heap
// moves values instead of chasing indices into a list.
type cand struct {
	prio, deficit, x float64
	order            int32 // the combination's index in the ledger's keys
	j                int32 // the GPU type
}

// pick ranks the entries and chooses greedily (spec 001 §3.3).
func (m *Mechanism) pick(s *engine.State) []entry {
	if len(m.busy) < s.NumJobs() {
		m.busy = make([]bool, s.NumJobs())
		m.liveAt = liveStamp{} // the finished jobs' marks are gone: list anew
	}
	m.keepLive(s)
	m.zeroNow = zeroStamp{m.ledger.resets, len(m.ledger.keys), s.NumFinished(), true}
	p := &m.picker
	p.keys, p.busy, p.fifo = m.ledger.keys, m.busy, m.cfg.FIFO
	p.free = append(p.free[:0], m.gpu.count...)
	p.chosen, p.ghosts = p.chosen[:0], p.ghosts[:0]
	p.ghost = nil
	if m.cfg.Quirks.UnallocatedWait {
		// The reference takes the GPUs of a job that arrived after the
		// last recompute but gives it no workers. A job the last
		// recompute saw and gave no row (Gandiva's pairs) is not one:
		// holding it back would wait for a recompute that nothing makes
		// due.
		p.ghost = func(c *combo) bool { return c.x == nil && m.jobs[c.k.a].arrival > m.ledger.reset }
	}
	now := s.Now()
	if m.cfg.Mode == "clean" {
		p.take(m.cleanCandidates(now), false)
	} else {
		// the fixed order, copied: a shuffle starts from it every round
		order := append(m.order[:0], m.gpu.order...)
		m.order = order
		if m.cfg.Shuffle {
			s.Rand().Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
		}
		for _, j := range order {
			m.takeType(s, j, now)
		}
	}
	p.release()
	return p.chosen
}

// liveCombos lists in *live the ledger's combinations whose jobs are all
// unfinished, of those at the indices from (in the ledger's order), or of
// all when from is nil, and learns where each new one can run.
//
// The live list of a round holds only those with a positive target
// (ledger.pos), kept from round to round (keepLive): they are all it
// needs for the candidates of positive priority, which are all FIFO runs
// and, in a long queue, nearly all the others run.
// Candidates of priority 0 are listed from all combinations, only when a
// type has room after the positive ones (see takeType).
func (m *Mechanism) liveCombos(s *engine.State, from []int32, live *[]int32) {
	var o plan.Oracle
	out := (*live)[:0]
	defer func() { *live = out }()
	n := len(from)
	if from == nil {
		n = len(m.ledger.keys)
	}
	for i := range n {
		order := int32(i)
		if from != nil {
			order = from[i]
		}
		c := m.ledger.keys[order]
		k := c.k
		if s.Status(k.a) == engine.Finished || (k.b >= 0 && s.Status(k.b) == engine.Finished) {
			continue
		}
		if c.runs == nil {
			if o.Model == nil {
				o = m.oracle(s)
			}
			c.runs = make([]bool, len(m.gpu.types))
			for j := range m.gpu.types {
				c.runs[j] = m.canRun(s, o, k, j)
			}
			c.sf = s.Job(k.a).GPUs
		}
		out = append(out, order)
	}
}

// keepLive brings the live list and the tiers up to date. A combination
// leaves the list only when a member finishes, and the list changes
// otherwise only when the ledger restarts: most rounds list the same as
// the last, and most others only lose the combinations of the jobs that
// finished since (the mechanism saw each complete). Those are dropped
// from the live list; the tiers keep them, but their finished members
// are marked taken (busy) for good, so that listTier leaves them out as
// it leaves out a member taken this round: marking a few jobs costs less
// than filtering every tier.
func (m *Mechanism) keepLive(s *engine.State) {
	at := liveStamp{m.ledger.resets, s.NumFinished(), true}
	kept := m.liveAt == at
	switch {
	case kept:
	case m.liveAt.ok && at.resets == m.liveAt.resets && at.finished-m.liveAt.finished == len(m.doneSince):
		m.dropDone()
		kept = true
	default:
		m.liveCombos(s, m.ledger.pos, &m.live)
		if !m.ledger.clean {
			m.tiers, m.groups = buildTiers(m.tiers, m.groups, m.ledger.keys, m.live, len(m.gpu.types), &m.liveSized)
		}
	}
	m.liveAt = at
	m.doneSince = m.doneSince[:0]
	if kept && m.selfCheck {
		m.checkKeptLive(s)
	}
}

// dropDone drops from the live list the combinations with a member in
// doneSince, keeping the order of the rest, and marks those jobs taken
// for good (see keepLive). A finished job is never chosen again, so no
// round's release clears its mark.
func (m *Mechanism) dropDone() {
	if len(m.doneSince) == 0 {
		return
	}
	busy := m.busy
	for _, id := range m.doneSince {
		busy[id] = true
	}
	keys, live, n := m.ledger.keys, m.live, 0
	for _, order := range live {
		if k := keys[order].k; !busy[k.a] && (k.b < 0 || !busy[k.b]) {
			live[n] = order
			n++
		}
	}
	m.live = live[:n]
}

// checkKeptLive compares the live list and the tiers kept from an
// earlier round with those made anew (selfCheck), and sets checkErr at
// the first difference.
func (m *Mechanism) checkKeptLive(s *engine.State) {
	m.checks.live++
	var live []int32
	m.liveCombos(s, m.ledger.pos, &live)
	if !slices.Equal(live, m.live) && m.checkErr == nil {
		m.checkErr = fmt.Errorf("t=%g: the kept live combinations are %v, made anew %v", s.Now(), m.live, live)
	}
	if m.ledger.clean {
		return
	}
	// what listTier reads of the kept tiers: less the finished jobs'
	// combinations, marked taken
	finished := func(id int32) bool {
		if s.Status(workload.JobID(id)) != engine.Finished {
			return false
		}
		if !m.busy[id] && m.checkErr == nil {
			m.checkErr = fmt.Errorf("t=%g: finished job %d is not marked taken", s.Now(), id)
		}
		return true
	}
	tiers, _ := buildTiers(nil, nil, m.ledger.keys, live, len(m.gpu.types), nil)
	for j := range tiers {
		kept := slices.DeleteFunc(slices.Clone(m.tiers[j]), func(e tierEntry) bool { return finished(e.a) || (e.b >= 0 && finished(e.b)) })
		if !slices.Equal(tiers[j], kept) && m.checkErr == nil {
			m.checkErr = fmt.Errorf("t=%g: type %d's kept tier is %v, made anew %v", s.Now(), j, kept, tiers[j])
		}
	}
}

// keepZero brings liveZero up to date: it is listed again only when the
// ledger's combinations changed (a restart, an arrival) or a job
// finished since it was. Rounds whose types keep room list the
// candidates of priority 0 from it, in long ledgers of pairs rounds
// after rounds with the same combinations.
//
// pick stamps the round (zeroNow), so that a round with several types
// left with room lists it once.
func (m *Mechanism) keepZero(s *engine.State) {
	at := m.zeroNow
	if m.zeroAt == at {
		if m.selfCheck {
			m.checkKeptZero(s)
		}
		return
	}
	m.liveCombos(s, nil, &m.liveZero)
	m.zeroAt = at
}

// checkKeptZero compares the kept liveZero with the list made anew
// (selfCheck), and sets checkErr at the first difference.
func (m *Mechanism) checkKeptZero(s *engine.State) {
	m.checks.zero++
	var live []int32
	m.liveCombos(s, nil, &live)
	if !slices.Equal(live, m.liveZero) && m.checkErr == nil {
		m.checkErr = fmt.Errorf("t=%g: the kept combinations still running are %v, made anew %v", s.Now(), m.liveZero, live)
	}
}

// zeroStamp is when liveZero was made: the ledger's restarts and
// combinations and the engine's finished jobs then.
type zeroStamp struct {
	resets, keys, finished int
	ok                     bool
}

// liveStamp is when the live list was made: the ledger's restarts and
// the engine's finished jobs then.
type liveStamp struct {
	resets, finished int
	ok               bool
}

// tierEntry is a combination on a type where it has a positive target
// and can run, with what listTier reads of it: what stays the same until
// the ledger's next restart, and where its received time on the type is
// (which rounds add to).
type tierEntry struct {
	recv       *float64 // &c.recv[j]
	x, deficit float64
	a, b       int32 // members; b < 0 for a job alone
	sf         int32
	order      int32
}

// buildTiers lists, for each of types, the combinations at the indices
// live of keys that have a positive target on it and can run on it: the
// positive tier's candidates before what changes in a round (members
// taken, GPUs left, time received) is checked. Each tier is grouped by
// size, ascending, in live's order within a size (it is built from live
// so ordered: liveBySize), and groups[j] says where type j's groups are.
// The order within a tier changes no choice: the picker takes its
// candidates by rank, a total order. It reuses tiers' and groups'
// storage, and *bySize's for live so ordered (nil: none to reuse).
func buildTiers(tiers [][]tierEntry, groups []tierGroups, keys []*combo, live []int32, types int, bySize *[]int32) ([][]tierEntry, []tierGroups) {
	for len(tiers) < types {
		tiers = append(tiers, nil)
	}
	tiers = tiers[:types]
	groups = slices.Grow(groups[:0], types)[:types]
	for j := range tiers {
		tiers[j] = tiers[j][:0]
		groups[j] = tierGroups{}
	}
	for _, order := range liveBySize(keys, live, bySize) {
		c := keys[order]
		if c.x == nil {
			continue // no target: priority 0 everywhere (ledger.priority)
		}
		for j, x := range c.x[:types] {
			if !c.runs[j] || x <= 0 {
				continue // no target here: priority 0
			}
			e := tierEntry{recv: &c.recv[j], x: x, a: int32(c.k.a), b: int32(c.k.b), sf: int32(c.sf), order: order}
			if c.deficit != nil {
				e.deficit = c.deficit[j]
			}
			if n := len(tiers[j]); n == 0 || tiers[j][n-1].sf != e.sf {
				groups[j].begin(float64(e.sf), n)
			}
			tiers[j] = append(tiers[j], e)
		}
	}
	for j := range tiers {
		groups[j].end(len(tiers[j]))
	}
	return tiers, groups
}

// liveBySize is live ordered by the combinations' sizes, ascending and
// stably (a counting sort of up to maxSizes sizes; a stable sort past
// that), written to *scratch (or a new list when scratch is nil). live
// itself is left in the ledger's order, which the live list keeps.
func liveBySize(keys []*combo, live []int32, scratch *[]int32) []int32 {
	var sizes [maxSizes]int
	var at [maxSizes]int
	n := 0
	for _, order := range live {
		g := sizeGroup(&sizes, &n, keys[order].sf)
		if g < 0 {
			out := slices.Clone(live)
			slices.SortStableFunc(out, func(a, b int32) int { return keys[a].sf - keys[b].sf })
			return out
		}
		at[g]++
	}
	if n <= 1 {
		return live
	}
	// the groups' starts, by size ascending
	var idx [maxSizes]int
	for k := range idx {
		idx[k] = k
	}
	for k := 1; k < n; k++ {
		for i := k; i > 0 && sizes[idx[i]] < sizes[idx[i-1]]; i-- {
			idx[i], idx[i-1] = idx[i-1], idx[i]
		}
	}
	start := 0
	for _, g := range idx[:n] {
		start, at[g] = start+at[g], start
	}
	var out []int32
	if scratch != nil {
		out = slices.Grow((*scratch)[:0], len(live))[:len(live)]
		*scratch = out
	} else {
		out = make([]int32, len(live))
	}
	for _, order := range live {
		g := sizeGroup(&sizes, &n, keys[order].sf)
		out[at[g]] = order
		at[g]++
	}
	return out
}

// tierGroups is how a tier is grouped by size: group g is the entries
// from ends[g-1] (0 for the first) to ends[g], every one taking sizes[g]
// GPUs, unless mixed (a tier of more than maxSizes sizes: one group of
// size 0, its entries' sizes checked one by one).
//
// A group too large for what its type has left is passed over whole, and
// the listed groups are the heaps visitBySize pops from, without a pass
// that groups the listed candidates again every visit.
type tierGroups struct {
	n     int
	mixed bool
	sizes [maxSizes]float64
	ends  [maxSizes]int32
}

// begin starts a group of size sf at entry at of the tier, ending the
// last; past maxSizes groups the tier is mixed.
func (g *tierGroups) begin(sf float64, at int) {
	if g.mixed {
		return
	}
	if g.n == maxSizes {
		g.mixed = true
		return
	}
	if g.n > 0 {
		g.ends[g.n-1] = int32(at)
	}
	g.sizes[g.n] = sf
	g.n++
}

// end ends the last group at the tier's length n.
func (g *tierGroups) end(n int) {
	if g.mixed {
		*g = tierGroups{n: 1, mixed: true}
	}
	if g.n > 0 {
		g.ends[g.n-1] = int32(n)
	}
}

// takeType takes what fits of type j's candidates in mode ref-compat. Its
// candidates of positive priority rank before all others and usually
// fill the type, so the others are listed only if room is left after
// them (and never for FIFO, which does not run them). Listing them then
// rather than at once changes nothing: the ones left out since are those
// with a member taken meanwhile, which picker.open would reject anyway.
//
// It lists each tier straight into the heap, only the candidates the
// picker could take now (picker.open), which is what take would keep of
// typeCandidates' list, in the same order: one pass over a long list
// instead of two, and no copy of it.
//
// A long queue's type usually fills with the first few dozen of hundreds
// of positive candidates, so that tier is visited in two parts (visitSplit).
func (m *Mechanism) takeType(s *engine.State, j int, now float64) {
	p := &m.picker
	for len(p.keep) <= j {
		p.keep = append(p.keep, 0)
	}
	p.popped = 0
	var room bool
	if m.ledger.clean {
		p.heap.cs = m.listType(p.heap.cs[:0], j, now, true, m.live, p)
		room = p.visitSplit(p.keep[j])
	} else {
		room = m.visitTier(j, m.tiers[j], &m.groups[j], p.keep[j])
	}
	// Whether a visit that took the type's last GPU reports room depends
	// on what was left in its heap (visitTier's second part leaves out
	// what could no longer be taken); with no GPU left the priority-0
	// candidates take nothing, so they are visited only with GPUs left.
	room = room && p.free[j] > 0
	// The next round likely visits about as many of this type, other
	// candidates; every one if the type kept room.
	p.keep[j] = 0
	if !room {
		p.keep[j] = 2*p.popped + 8
	}
	if room && !p.fifo {
		m.keepZero(s)
		p.heap.cs = m.listType(p.heap.cs[:0], j, now, false, m.liveZero, p)
		p.visit(true)
	}
}

// typeCandidates lists the candidates of type j in mode ref-compat of
// positive priority (or, with positive false, of priority 0), with their
// priorities, in the ledger's order. It is called when type j's turn
// comes, after the earlier types were chosen: a combination with a member
// chosen already could never be taken (picker.open), so it is left out
// before its priority is computed.
func (m *Mechanism) typeCandidates(j int, now float64, positive bool, live []int32) []cand {
	m.list = m.listType(m.list[:0], j, now, positive, live, nil)
	return m.list
}

// listType appends typeCandidates' list to list; with p, only the
// candidates p could take now (picker.open).
//
// It is cand written out (a call per candidate of a long list cost more
// than the candidate's priority).
func (m *Mechanism) listType(list []cand, j int, now float64, positive bool, live []int32, p *picker) []cand {
	l := &m.ledger
	keys, busy := l.keys, m.busy
	for _, order := range live {
		c := keys[order]
		if !c.runs[j] || busy[c.k.a] || (c.k.b >= 0 && busy[c.k.b]) {
			continue
		}
		if positive && (c.x == nil || c.x[j] <= 0) {
			continue // no target here: priority 0 (ledger.priority)
		}
		e := cand{order: order, j: int32(j)}
		if c.x != nil {
			e.x = c.x[j]
		}
		if c.deficit != nil {
			e.deficit = c.deficit[j]
		}
		e.prio = l.priority(c, j, e.x, now)
		if (e.prio > 0) == positive && (p == nil || p.open(&e)) {
			list = append(list, e)
		}
	}
	return list
}

// listTier is listType of the positive tier in mode ref-compat for
// picker p, the tier that nearly every round lists whole, from type j's
// tier (buildTiers of the live combinations) and its groups by size: the
// same candidates with the same keys, grouped by size in the tier's
// order, each group in the ledger's order. What the tier fixed until the
// next restart (the type, the target, the deficit, the size) is not
// tested again, what is the same for every candidate (the type's total
// and GPUs left) is read once, and ledger.priority and picker.open are
// written out for x > 0, less the checks they repeat (a member taken,
// FIFO's priority 0). p.listed says where each listed group ends.
func (m *Mechanism) listTier(list []cand, j int, tier []tierEntry, g *tierGroups, p *picker) []cand {
	list, _ = m.listTierPart(list, j, tier, g, p, nil, false)
	return list
}

// listTierPart is listTier of the candidates that rank after pivot
// (after) or at or before it (!after), and counts the others; with pivot
// nil, listTier. A group too large for what the type has left is passed
// over whole: the visit could take none of it.
func (m *Mechanism) listTierPart(list []cand, j int, tier []tierEntry, g *tierGroups, p *picker, pivot *cand, after bool) ([]cand, int) {
	busy := p.busy
	others := 0
	total, free := m.ledger.total[j], p.free[j]
	// the pivot's priority, read once: most candidates differ from it
	// there, and only a tie goes on to its other keys; with no pivot,
	// every candidate ranks before -Inf
	pp := math.Inf(-1)
	if pivot != nil {
		pp = pivot.prio
	}
	// room for the whole tier, written by index: append's test of the
	// capacity and its bookkeeping cost as much as the priority
	n := len(list)
	out := slices.Grow(list, len(tier))
	out = out[:n+len(tier)]
	p.listed.g = g
	from := 0
	for k := range g.n {
		to := int(g.ends[k])
		group := tier[from:to]
		from = to
		if free >= g.sizes[k] { // else too large now: none listed
			var o int
			n, o = listGroup(out, n, group, busy, total, free, pp, pivot, after, g.mixed, int32(j))
			others += o
		}
		p.listed.ends[k] = n
	}
	return out[:n], others
}

// listGroup is listTierPart's pass over one group of a tier: it writes
// the candidates listed from out[n] on, and returns where they end and
// how many were left to the other part. A loop of its own, with only
// what it reads live, keeps its variables in registers.
func listGroup(out []cand, n int, group []tierEntry, busy []bool, total, free, pp float64, pivot *cand, after, mixed bool, j int32) (int, int) {
	others := 0
	for i := range group {
		e := &group[i]
		if busy[e.a] || (e.b >= 0 && busy[e.b]) || (mixed && free < float64(e.sf)) {
			continue // a member taken, or too large for what is left
		}
		x := e.x
		prio := x * 1e9
		if r := *e.recv; r > 0 && total > 0 {
			prio = x * total / r
		}
		if !(prio > 0) {
			continue
		}
		// before(pivot, c), by priority first
		if behind := prio < pp || (prio == pp && ranksAfter(pivot, prio, e.deficit, x, e.order)); behind != after {
			others++
			continue
		}
		o := &out[n]
		o.prio, o.deficit, o.x, o.order, o.j = prio, e.deficit, x, e.order, j
		n++
	}
	return n, others
}

// ranksAfter reports whether a candidate of pivot's type with these keys
// ranks after pivot, before(pivot, c), without writing the candidate out.
func ranksAfter(pivot *cand, prio, deficit, x float64, order int32) bool {
	switch {
	case pivot.prio != prio:
		return pivot.prio > prio
	case pivot.deficit != deficit:
		return pivot.deficit > deficit
	case pivot.x != x:
		return pivot.x > x
	}
	return pivot.order < order // the same order: pivot itself, not after
}

// visitTier lists type j's positive tier and visits it, in two parts when
// it is longer than 2k (k > 0), as visitSplit does a listed tier: the
// candidates ranking at or before a pivot sampled from the tier, then,
// only if the type has room after them, the others, listed only then.
// Those are all the tier's candidates that rank after the pivot less
// those that could not be taken now (picker.open: a member taken by the
// first part, too large for what it left), which the visit would have
// popped and passed over. So the candidates are taken in the order of
// one heap of all, and most rounds neither write out nor move the
// hundreds that rank after the few dozen the type takes.
//
// It reports whether the visit ended with room left, as visit does,
// except when the type has no GPU left (see takeType).
func (m *Mechanism) visitTier(j int, tier []tierEntry, g *tierGroups, k int) bool {
	p := &m.picker
	var pivot cand
	if k <= 0 || 2*k >= len(tier) || !m.tierPivot(j, tier, k, &pivot) {
		p.heap.cs = m.listTier(p.heap.cs[:0], j, tier, g, p)
		return p.visitBySize()
	}
	var behind int
	p.heap.cs, behind = m.listTierPart(p.heap.cs[:0], j, tier, g, p, &pivot, false)
	if !p.visitBySize() {
		return false
	}
	if behind == 0 {
		return true
	}
	if p.free[j] <= 0 {
		return false
	}
	p.heap.cs, _ = m.listTierPart(p.heap.cs[:0], j, tier, g, p, &pivot, true)
	return p.visitBySize()
}

// tierPivot sets pivot to a candidate of type j's tier about k of the
// candidates listTier would list rank at or before, and reports whether
// it found one. It samples the first listed candidate at or after each of
// a few even positions of the tier; how far it looked for them estimates
// how many the tier lists.
func (m *Mechanism) tierPivot(j int, tier []tierEntry, k int, pivot *cand) bool {
	const size = 16
	var sample [size]cand
	n, found, looked := len(tier), 0, 0
	busy, total, free := m.picker.busy, m.ledger.total[j], m.picker.free[j]
	for i := range size {
		for at := i * n / size; at < (i+1)*n/size; at++ {
			looked++
			e := &tier[at]
			if busy[e.a] || (e.b >= 0 && busy[e.b]) || free < float64(e.sf) {
				continue
			}
			c := cand{prio: e.x * 1e9, deficit: e.deficit, x: e.x, order: e.order, j: int32(j)}
			if r := *e.recv; r > 0 && total > 0 {
				c.prio = e.x * total / r
			}
			if !(c.prio > 0) {
				continue
			}
			sample[found] = c
			found++
			break
		}
	}
	// about found*k/listed of the sample rank at or before the pivot,
	// where listed = n*found/looked
	at := k * looked / n
	if found == 0 || at >= found-1 {
		return false
	}
	// The sample's at-th in rank order: its best at+1 kept in order at
	// its front (an insertion sort that drops what ranks after them; at
	// is usually a few of the sample).
	kept := 1
	for i := 1; i < found; i++ {
		c := sample[i]
		if kept > at && !before(&c, &sample[at]) {
			continue
		}
		s := min(kept, at)
		for ; s > 0 && before(&c, &sample[s-1]); s-- {
			sample[s] = sample[s-1]
		}
		sample[s] = c
		kept = min(kept+1, at+1)
	}
	*pivot = sample[at]
	return true
}

// cleanCandidates lists the candidates with a target in mode clean, with
// their priorities, in the ledger's order.
func (m *Mechanism) cleanCandidates(now float64) []cand {
	all := m.list[:0]
	for _, order := range m.live {
		c := m.ledger.keys[order]
		for j, ok := range c.runs {
			if !ok {
				continue
			}
			if e := m.cand(c, order, j, now); e.x > 0 {
				all = append(all, e)
			}
		}
	}
	m.list = all
	return all
}

// cand is combination c (at index order of the ledger) on type j.
func (m *Mechanism) cand(c *combo, order int32, j int, now float64) cand {
	e := cand{order: order, j: int32(j)}
	if c.x != nil {
		e.x = c.x[j]
	}
	if c.deficit != nil {
		e.deficit = c.deficit[j]
	}
	e.prio = m.ledger.priority(c, j, e.x, now)
	return e
}

// picker chooses a round's entries greedily in rank order: an entry is
// taken if its type has GPUs enough left, none of its jobs is taken yet
// and (FIFO) its priority is not 0.
type picker struct {
	keys   []*combo
	free   []float64 // GPUs left per type
	busy   []bool    // by job: in a taken entry
	fifo   bool
	ghost  func(*combo) bool // takes GPUs but does not run (quirk UnallocatedWait); nil: none
	heap   candHeap
	rest   []cand  // candidates of priority 0 (see take)
	chosen []entry // valid until the next round
	ghosts []entry
	listed listedGroups // where listTierPart's list ends each group (see visitBySize)
	keep   []int        // by type: about how many positive candidates takeType visits first; 0: all
	popped int          // candidates visited since takeType began the type
}

// take visits cs in rank order and takes what fits. typed: every
// candidate is of one type, and the visit ends when that type is full
// (the rest of its list cannot run).
//
// A candidate that could not be taken now can never be taken later in
// the round (GPUs left only shrink, taken jobs stay taken), so those are
// dropped before ranking: the heap holds only what may still be taken,
// and a late type's list, whose jobs mostly ran on an earlier type,
// shrinks to a few.
//
// Every candidate of positive priority ranks before every other, and
// the others (about half a list: no target on the type, or its share
// already received) are rarely reached before the type is full, so they
// are ranked only if the visit of the positive ones ends with room left.
//
// take reports whether the visit ended with room left on the type (with
// typed) or every candidate visited.
func (p *picker) take(cs []cand, typed bool) bool {
	h := &p.heap
	top, rest := h.cs[:0], p.rest[:0]
	for i := range cs {
		if c := &cs[i]; p.open(c) {
			if c.prio > 0 {
				top = append(top, *c)
			} else {
				rest = append(rest, *c)
			}
		}
	}
	h.cs, p.rest = top, rest
	if !p.visit(typed) {
		return false
	}
	if len(p.rest) == 0 {
		return true
	}
	h.cs = append(h.cs[:0], p.rest...)
	return p.visit(typed)
}

// visit pops the heap in rank order and takes what fits; it reports false
// when it stopped because the type was full.
func (p *picker) visit(typed bool) bool {
	h := &p.heap
	h.init()
	// open and entry written out, the candidate's record read once, and
	// its members marked without a list of them: a long queue's rounds
	// take tens of candidates per type
	free, busy := p.free, p.busy
	for len(h.cs) > 0 {
		if typed && free[h.cs[0].j] <= 0 {
			return false
		}
		c := h.pop()
		p.popped++
		k := p.keys[c.order]
		a, b, sf := k.k.a, k.k.b, float64(k.sf)
		if free[c.j] < sf || (p.fifo && c.prio == 0) || busy[a] || (b >= 0 && busy[b]) {
			continue
		}
		p.takeCand(c, k)
	}
	return true
}

// takeCand gives candidate c, whose combination is k, the GPUs of its type
// that it takes and marks its jobs busy: it is chosen, or a ghost.
func (p *picker) takeCand(c cand, k *combo) {
	p.free[c.j] -= float64(k.sf)
	p.busy[k.k.a] = true
	if b := k.k.b; b >= 0 {
		p.busy[b] = true
	}
	e := entry{k: k.k, c: k, j: int(c.j), sf: k.sf, prio: c.prio, deficit: c.deficit, x: c.x, order: int(c.order)}
	if p.ghost != nil && p.ghost(k) {
		p.ghosts = append(p.ghosts, e)
		return
	}
	p.chosen = append(p.chosen, e)
}

// maxSizes is how many sizes (GPUs a candidate takes) visitBySize
// groups; a list of more is visited as one heap.
const maxSizes = 8

// bySizeMin is the shortest list visitBySize groups by size.
var bySizeMin = 96

// listedGroups is where listTierPart's list ends each group of its
// tier's groups g: the heaps of visitBySize.
type listedGroups struct {
	g    *tierGroups
	ends [maxSizes]int
}

// visitBySize is visit(true) of a heap not yet built, listTierPart's
// list of one type's candidates, with the candidates grouped by size
// (p.listed), each group a heap: it pops the best of the groups' first
// candidates among the groups that still fit in what the type has left.
// A candidate too large for what is left stays so for the rest of the
// visit (GPUs left only shrink), and visit would pop it and pass over
// it: in a cluster of jobs of 1 to 8 GPUs, most of what a type's visit
// popped once few GPUs were left. So the candidates are taken in the
// same order, and it reports what visit does: false when the type is
// full with candidates left, true when every candidate that fits was
// visited with room left.
//
// A short list, or one of a single size or of sizes mixed, is visited
// as one heap: passing over the few too large costs less than the
// groups' bookkeeping.
func (p *picker) visitBySize() bool {
	cs := p.heap.cs
	l := &p.listed
	if len(cs) < bySizeMin || l.g.n <= 1 || l.g.mixed {
		return p.visit(true)
	}
	var heaps [maxSizes]candHeap
	var sizes [maxSizes]float64
	n, from := 0, 0
	for k := range l.g.n {
		if to := l.ends[k]; to > from {
			heaps[n].cs = cs[from:to:to]
			sizes[n] = l.g.sizes[k]
			n++
			from = to
		}
	}
	if n <= 1 {
		return p.visit(true)
	}
	for g := range n {
		heaps[g].init()
	}
	p.heap.cs = cs[:0]
	j := cs[0].j
	free, busy := p.free, p.busy
	for {
		best, left := -1, false
		for g := range n {
			if len(heaps[g].cs) == 0 {
				continue
			}
			left = true
			if free[j] < sizes[g] {
				continue // too large now, and for the rest of the visit
			}
			if best < 0 || before(&heaps[g].cs[0], &heaps[best].cs[0]) {
				best = g
			}
		}
		switch {
		case !left:
			return true
		case free[j] <= 0:
			return false
		case best < 0:
			return true // visit would pop what is left and take none
		}
		c := heaps[best].pop()
		p.popped++
		k := p.keys[c.order]
		a, b := k.k.a, k.k.b
		if (p.fifo && c.prio == 0) || busy[a] || (b >= 0 && busy[b]) {
			continue
		}
		p.takeCand(c, k)
	}
}

// sizeGroup is the index of size sf among the first *n of sizes, added
// if new; -1 if there is no room for it.
func sizeGroup(sizes *[maxSizes]int, n *int, sf int) int {
	for g := range *n {
		if sizes[g] == sf {
			return g
		}
	}
	if *n == maxSizes {
		return -1
	}
	sizes[*n] = sf
	*n++
	return *n - 1
}

// visitSplit is visit(true) of a heap not yet built, in two parts when it
// is longer than 2k (k > 0): the candidates ranking at or before a pivot
// chosen so that about k of them do, then, only if the type has room
// after them, the others. Every candidate of the first part ranks before
// every one of the second, so the candidates are visited in the same
// order as by one heap, and the usual round builds and pops a heap of a
// few dozen instead of hundreds; a low k costs a second heap, never
// another choice.
func (p *picker) visitSplit(k int) bool {
	cs := p.heap.cs
	defer func() { p.heap.cs = cs[:0] }() // the whole buffer, for the next list
	if k > 0 && 2*k < len(cs) {
		if n := splitAt(cs, k); n < len(cs) {
			p.heap.cs = cs[:n]
			if !p.visit(true) {
				return false
			}
			p.heap.cs = cs[n:]
		}
	}
	return p.visit(true)
}

// splitAt moves the candidates of cs ranking at or before a pivot to its
// front and returns how many they are. The pivot is the candidate of a
// small even sample of cs whose rank in the sample is about k's in cs, so
// that about k candidates (and at least one) come first.
func splitAt(cs []cand, k int) int {
	const size = 8
	n := len(cs)
	var sample [size]cand
	for i := range sample {
		c := cs[i*n/size]
		at := i // insertion sort: few, and usually in no order
		for ; at > 0 && before(&c, &sample[at-1]); at-- {
			sample[at] = sample[at-1]
		}
		sample[at] = c
	}
	pivot := sample[size*k/n]
	front := 0
	for i := range cs {
		if !before(&pivot, &cs[i]) {
			cs[front], cs[i] = cs[i], cs[front]
			front++
		}
	}
	return front
}

// open: c fits in what its type has left, no member is taken, and FIFO
// does not rule it out.
func (p *picker) open(c *cand) bool {
	k := p.keys[c.order]
	if p.free[c.j] < float64(k.sf) || (p.fifo && c.prio == 0) || p.busy[k.k.a] {
		return false
	}
	return k.k.b < 0 || !p.busy[k.k.b]
}

// release frees the taken jobs' marks for the next round.
func (p *picker) release() {
	unmark(p.busy, p.chosen)
	unmark(p.busy, p.ghosts)
}

func unmark(busy []bool, es []entry) {
	for i := range es {
		k := &es[i].k
		busy[k.a] = false
		if k.b >= 0 {
			busy[k.b] = false
		}
	}
}

// candHeap yields candidates in candCmp order, lazily: a round usually
// needs only the first few of a long list.
type candHeap struct{ cs []cand }

func (h *candHeap) init() {
	for i := len(h.cs)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

// pop takes the first candidate out. The hole it leaves moves down to a
// leaf along the better child (one comparison a level), and the last
// candidate fills it from there upwards (usually at once): fewer
// comparisons than sifting the last candidate down from the root.
func (h *candHeap) pop() cand {
	cs := h.cs
	top := cs[0]
	n := len(cs) - 1
	last := cs[n]
	cs = cs[:n]
	h.cs = cs
	if n == 0 {
		return top
	}
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		c := l
		if r := l + 1; r < n && before(&cs[r], &cs[l]) {
			c = r
		}
		cs[i] = cs[c]
		i = c
	}
	for i > 0 {
		p := (i - 1) / 2
		if !before(&last, &cs[p]) {
			break
		}
		cs[i] = cs[p]
		i = p
	}
	cs[i] = last
	return top
}

func (h *candHeap) down(i int) {
	cs := h.cs
	for {
		l := 2*i + 1
		if l >= len(cs) {
			return
		}
		c := l
		if r := l + 1; r < len(cs) && before(&cs[r], &cs[l]) {
			c = r
		}
		if !before(&cs[c], &cs[i]) {
			return
		}
		cs[i], cs[c] = cs[c], cs[i]
		i = c
	}
}

// before reports whether x ranks before y, candCmp(x, y) < 0, written out
// so that it inlines in the heap's loops: agnostic policies' priorities
// tie often (equal targets, nothing received since the reset), and a call
// for the rest of the order cost as much as the heap's own work.
func before(x, y *cand) bool {
	switch {
	case x.prio != y.prio:
		return x.prio > y.prio
	case x.deficit != y.deficit:
		return x.deficit > y.deficit
	case x.x != y.x:
		return x.x > y.x
	case x.order != y.order:
		return x.order < y.order
	}
	return x.j < y.j
}

// candCmp orders by priority, then deficit, then target, all
// descending, then by combination age and type: a total order, so the
// heap's result does not depend on its input order.
func candCmp(x, y *cand) int {
	switch {
	case x.prio != y.prio:
		return cmpDesc(x.prio, y.prio)
	case x.deficit != y.deficit:
		return cmpDesc(x.deficit, y.deficit)
	case x.x != y.x:
		return cmpDesc(x.x, y.x)
	case x.order != y.order:
		return int(x.order - y.order)
	}
	return int(x.j - y.j)
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
