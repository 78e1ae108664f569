package gavel

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/solver/lp"
	"github.com/schedlab/schedlab/sim/workload"
)

// allocator computes an allocation for the active jobs.
type allocator interface {
	allocate(in *planInput) (*allocation, error)
}

// ckey names a combination: a job alone (b = -1) or a pair.
type ckey struct{ a, b workload.JobID }

func (k ckey) members() []workload.JobID {
	if k.b < 0 {
		return []workload.JobID{k.a}
	}
	return []workload.JobID{k.a, k.b}
}

// track is what the mechanism remembers about one job.
type track struct {
	arrival  float64
	finish   float64   // -1 until it finishes
	recv     []float64 // seconds it ran on each type
	isoTime  float64   // seconds its work would have taken with an isolated share
	lastRem  float64
	isoThr   float64 // its isolated-share throughput since the last recompute
	thr      []float64
	gpus     []cluster.GPUID // where it ran last round
	lastType int
}

// placement is one combination running on GPUs of one type for a round.
type placement struct {
	k    ckey
	j    int
	gpus []cluster.GPUID
	prio float64
	x    float64
	kept bool
}

// mechanism is Gavel's round-based scheduling mechanism (spec 001 §3)
// around an allocator; it is the engine.Policy of every Gavel policy.
type mechanism struct {
	p        Common
	title    string
	alloc    allocator
	shuffle  bool // visit types in a fresh random order each round (agnostic policies)
	fifo     bool // never run entries with priority 0
	ss       bool
	run      *lpRunner
	entities []Entity // for the hierarchical share record
	// setPrices hands the cluster's prices to a cost-aware allocator.
	setPrices func(types []string) error

	ready   bool
	types   []string
	count   []float64
	prices  []float64
	servers [][]cluster.ServerID // per type
	tracing bool                 // record per-job series and log every lease (small runs)

	keys    []ckey // combinations in the current allocation, then singles added since
	x       map[ckey][]float64
	recv    map[ckey][]float64
	own     map[ckey][]float64 // clean mode: seconds on each type since the reset, from a prior of X·R/2
	deficit map[ckey][]float64
	total   []float64
	jobs    map[workload.JobID]*track
	need    bool
	resets  int
	reset   float64

	roundStart, roundEnd float64
	rounds               int
	prev                 []placement // to account at the end of the round
	last                 []placement // for lease renewal
	cost                 float64
	busy                 []bool // scratch of pick, by job
	runs                 map[ckey][]bool
}

func newMechanism(p Common, title string, a allocator, run *lpRunner) *mechanism {
	return &mechanism{p: p, title: title, alloc: a, run: run}
}

// Options implements engine.Policy.
func (m *mechanism) Options() engine.Options {
	limit := 1
	if m.ss {
		limit = 2
	}
	return engine.Options{MaxJobsPerGPU: limit, Subscribe: engine.Mask(engine.Arrival, engine.Completion, engine.WakeUp)}
}

// DumpLPs implements lp.Dumper.
func (m *mechanism) DumpLPs(sink func(p *lp.Problem)) {
	if m.run != nil {
		m.run.sink = sink
	}
}

func (m *mechanism) setup(s *engine.State) error {
	c := s.Cluster()
	m.types = append([]string(nil), c.Types()...)
	m.count = make([]float64, len(m.types))
	m.servers = make([][]cluster.ServerID, len(m.types))
	idx := map[string]int{}
	for j, t := range m.types {
		idx[t] = j
	}
	for _, g := range c.GPUs {
		m.count[idx[g.Type]]++
	}
	for _, srv := range c.Servers {
		m.servers[idx[srv.Type]] = append(m.servers[idx[srv.Type]], srv.ID)
	}
	prices, err := m.p.priceList(m.types)
	if err != nil {
		return err
	}
	m.prices = prices
	if m.setPrices != nil {
		if err := m.setPrices(m.types); err != nil {
			return err
		}
	}
	m.total = make([]float64, len(m.types))
	m.x, m.recv, m.deficit, m.own = map[ckey][]float64{}, map[ckey][]float64{}, map[ckey][]float64{}, map[ckey][]float64{}
	m.jobs = map[workload.JobID]*track{}
	m.runs = map[ckey][]bool{}
	m.tracing = s.NumJobs() <= m.p.TraceJobs && s.Recording()
	m.roundEnd = math.Inf(-1)
	m.ready = true
	return nil
}

func (m *mechanism) oracle(s *engine.State) oracle { return oracle{model: s.Perf(), c: s.Cluster()} }

// Decide implements engine.Policy.
func (m *mechanism) Decide(s *engine.State, triggers []engine.Trigger) error {
	if !m.ready {
		if err := m.setup(s); err != nil {
			return err
		}
	}
	now := s.Now()
	roundOver := false
	for _, t := range triggers {
		switch t.Kind {
		case engine.Arrival:
			m.arrive(s, t.Job)
		case engine.Completion:
			m.complete(s, t.Job)
		case engine.WakeUp:
			roundOver = roundOver || now >= m.roundEnd
		}
	}
	// An idle cluster does not wait for the round to end (the reference
	// jumps to the next arrival; a round whose jobs all finished early
	// ends at the last finish).
	if !roundOver && !(s.NumRunning() == 0 && s.NumPending() > 0) {
		return nil
	}
	return m.round(s)
}

func (m *mechanism) arrive(s *engine.State, id workload.JobID) {
	o := m.oracle(s)
	job := s.Job(id)
	tr := &track{arrival: job.ArrivalS, finish: -1, recv: make([]float64, len(m.types)), lastRem: job.Iterations, thr: make([]float64, len(m.types)), lastType: -1}
	for j, t := range m.types {
		tr.thr[j] = o.solo(job, t)
	}
	m.jobs[id] = tr
	k := ckey{id, -1}
	m.keys = append(m.keys, k)
	m.recv[k] = fill(len(m.types), m.p.RoundS/2)
	for j := range m.total {
		m.total[j] += m.p.RoundS / 2
	}
	m.need = true
}

func (m *mechanism) complete(s *engine.State, id workload.JobID) {
	tr := m.jobs[id]
	tr.finish = s.Now()
	if tr.isoThr > 0 {
		tr.isoTime += tr.lastRem / tr.isoThr
	}
	if tr.isoTime > 0 {
		s.Record("gavel/iso_time_s", id, tr.isoTime)
	}
	m.need = true
}

func fill(n int, v float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = v
	}
	return x
}

// round ends the current round and starts the next: account for the time
// each combination ran, recompute the allocation if due, pick and place.
func (m *mechanism) round(s *engine.State) error {
	now := s.Now()
	m.account(s, now)
	if m.need && (m.resets == 0 || now >= m.reset+m.p.ResetMinS) {
		if err := m.recompute(s); err != nil {
			return err
		}
	}
	m.rounds++
	chosen := m.pick(s)
	placed := m.place(s, chosen)
	if err := m.apply(s, placed); err != nil {
		return err
	}
	m.prev = placed
	m.roundStart, m.roundEnd = now, now+m.p.RoundS
	if s.NumPending()+s.NumRunning() > 0 {
		return s.WakeAt(m.roundEnd)
	}
	return nil
}

// account adds last round's execution times: to each combination's time
// on its type (the longer member's time for a pair), to the type's total,
// to each job's received time, and to the cost.
func (m *mechanism) account(s *engine.State, now float64) {
	if len(m.prev) == 0 {
		return
	}
	defer func() { s.Record("gavel/cost_usd", -1, m.cost) }()
	for _, pl := range m.prev {
		exec := 0.0
		for _, id := range pl.k.members() {
			tr := m.jobs[id]
			end := now
			if tr.finish >= 0 && tr.finish < now {
				end = tr.finish
			}
			e := math.Max(0, end-m.roundStart)
			tr.recv[pl.j] += e
			exec = math.Max(exec, e)
		}
		if r, ok := m.recv[pl.k]; ok {
			r[pl.j] += exec
		}
		if o, ok := m.own[pl.k]; ok {
			o[pl.j] += exec
		}
		m.total[pl.j] += exec
		m.cost += m.prices[pl.j] * float64(len(pl.gpus)) * exec / 3600
	}
	m.prev = nil
}

// active returns the unfinished arrived jobs in arrival order.
func (m *mechanism) active(s *engine.State) []workload.JobID {
	ids := append(s.Pending(), s.Running()...)
	sort.Slice(ids, func(a, b int) bool { return ids[a] < ids[b] })
	return ids
}

// recompute asks the allocator for a new allocation and resets the time
// accounting: deficit += X·(time since the last reset) − (received − R/2);
// received goes back to R/2 (0 for a pair that is new).
func (m *mechanism) recompute(s *engine.State) error {
	now := s.Now()
	ids := m.active(s)
	o := m.oracle(s)
	in := &planInput{now: now, types: m.types, count: m.count, rng: s.Rand(), oracle: o}
	M := len(ids)
	for _, id := range ids {
		job := s.Job(id)
		info := s.Info(id)
		tr := m.jobs[id]
		pj := planJob{id: id, job: job, sf: job.GPUs, weight: job.EffectiveWeight(), thr: tr.thr, rem: info.Remaining,
			elapsed: now - job.ArrivalS, waited: math.Max(0, now-job.ArrivalS-info.RunTime)}
		// Finish-time fairness's isolated clock: the work done since the
		// last recompute, at the isolated share's throughput then.
		if tr.isoThr > 0 {
			tr.isoTime += (tr.lastRem - info.Remaining) / tr.isoThr
		}
		tr.lastRem = info.Remaining
		pj.isoTime = tr.isoTime
		in.jobs = append(in.jobs, pj)
	}
	for i := range in.jobs {
		m.jobs[in.jobs[i].id].isoThr = dot(in.jobs[i].thr, in.isoRow(&in.jobs[i], M))
	}
	al, err := m.alloc.allocate(in)
	if err != nil {
		return fmt.Errorf("%s: %w", m.title, err)
	}
	elapsed := now - m.reset
	if m.resets == 0 {
		elapsed = 0
	}
	newX := map[ckey][]float64{}
	var keys []ckey
	for _, c := range al.combos {
		k := ckey{in.jobs[c.a].id, -1}
		if c.b >= 0 {
			a, b := in.jobs[c.a].id, in.jobs[c.b].id
			k = ckey{min(a, b), max(a, b)}
		}
		newX[k] = c.x
		keys = append(keys, k)
	}
	for _, id := range ids {
		if _, ok := newX[ckey{id, -1}]; !ok {
			keys = append(keys, ckey{id, -1}) // X = 0 everywhere
		}
	}
	newRecv := map[ckey][]float64{}
	newDef := map[ckey][]float64{}
	for j := range m.total {
		m.total[j] = 0
	}
	for _, k := range keys {
		d := make([]float64, len(m.types))
		if old, ok := m.deficit[k]; ok {
			copy(d, old)
		}
		if r, ok := m.recv[k]; ok {
			x := m.x[k]
			for j := range d {
				xv := 0.0
				if x != nil {
					xv = x[j]
				}
				d[j] += xv*elapsed - (r[j] - m.p.RoundS/2)
			}
			newRecv[k] = fill(len(m.types), m.p.RoundS/2)
		} else if k.b >= 0 {
			newRecv[k] = make([]float64, len(m.types)) // a new pair starts at 0
		} else {
			newRecv[k] = fill(len(m.types), m.p.RoundS/2)
		}
		newDef[k] = d
		for j, v := range newRecv[k] {
			m.total[j] += v
		}
	}
	m.keys, m.x, m.recv, m.deficit = keys, newX, newRecv, newDef
	m.own = map[ckey][]float64{}
	for k, x := range newX {
		o := make([]float64, len(x))
		for j, v := range x {
			o[j] = v * m.p.RoundS / 2
		}
		m.own[k] = o
	}
	runs := map[ckey][]bool{}
	for _, k := range keys {
		if r, ok := m.runs[k]; ok {
			runs[k] = r
		}
	}
	m.runs = runs
	m.reset, m.need = now, false
	m.resets++
	m.record(s, in, al)
	return nil
}

// record writes the learner's series and a log line.
func (m *mechanism) record(s *engine.State, in *planInput, al *allocation) {
	if !s.Recording() {
		return
	}
	s.Record("gavel/objective", -1, finite(al.objective))
	eff := in.effective(al, func(i int) []float64 { return in.jobs[i].thr })
	total := 0.0
	entity := map[string]float64{}
	var names []string
	for i, p := range in.jobs {
		eq := in.thrEqual(p.thr)
		if eq <= 0 {
			continue
		}
		v := float64(p.sf) * eff[i] / eq
		total += v
		if e := p.job.Entity; e != "" {
			if _, ok := entity[e]; !ok {
				names = append(names, e)
			}
			entity[e] += v
		}
	}
	s.Record("gavel/total_norm_thr", -1, total)
	s.Record("gavel/active_jobs", -1, float64(len(in.jobs)))
	sort.Strings(names)
	for _, e := range names {
		s.Record("gavel/entity_thr/"+e, -1, entity[e])
	}
	if len(m.entities) > 0 && total > 0 {
		// How far each present entity's share is from its weight's share.
		wsum := 0.0
		for _, e := range m.entities {
			if _, ok := entity[e.Name]; ok {
				wsum += e.Weight
			}
		}
		worst := 0.0
		for _, e := range m.entities {
			if v, ok := entity[e.Name]; ok {
				want := e.Weight / wsum
				worst = math.Max(worst, math.Abs(v/total-want)/want)
			}
		}
		s.Record("gavel/entity_share_error", -1, worst)
	}
	if m.tracing {
		rows := al.perJob(len(in.jobs), len(m.types))
		for i, p := range in.jobs {
			tr := m.jobs[p.id]
			age := s.Now() - tr.arrival
			for j, t := range m.types {
				s.Record("gavel/x/"+t, p.id, rows[i][j])
				if age > 0 {
					s.Record("gavel/received/"+t, p.id, tr.recv[j]/age)
				}
			}
		}
	}
	s.Log(-1, "%s: new allocation: %s", m.title, al.why)
}

func finite(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

// entry is a (combination, type) candidate of one round.
type entry struct {
	k       ckey
	j       int
	sf      int
	prio    float64
	deficit float64
	x       float64
	order   int
}

// pick ranks the entries and chooses greedily (spec 001 §3.3).
func (m *mechanism) pick(s *engine.State) []entry {
	var perType = make([][]entry, len(m.types))
	var all []entry
	o := m.oracle(s)
	for order, k := range m.keys {
		ok := true
		for _, id := range k.members() {
			ok = ok && s.Status(id) != engine.Finished
		}
		if !ok {
			continue
		}
		sf := s.Job(k.a).GPUs
		ok2 := m.runs[k]
		if ok2 == nil {
			ok2 = make([]bool, len(m.types))
			for j := range m.types {
				ok2[j] = m.canRun(s, o, k, j)
			}
			m.runs[k] = ok2
		}
		for j := range m.types {
			if !ok2[j] {
				continue
			}
			e := entry{k: k, j: j, sf: sf, order: order}
			if x := m.x[k]; x != nil {
				e.x = x[j]
			}
			if d := m.deficit[k]; d != nil {
				e.deficit = d[j]
			}
			e.prio = m.priority(k, j, e.x, s.Now())
			if m.p.Mode == "clean" {
				if e.x > 0 {
					all = append(all, e)
				}
				continue
			}
			perType[j] = append(perType[j], e)
		}
	}
	free := append([]float64(nil), m.count...)
	if len(m.busy) < s.NumJobs() {
		m.busy = make([]bool, s.NumJobs())
	}
	busy := m.busy
	var chosen []entry
	defer func() {
		for _, e := range chosen {
			for _, id := range e.k.members() {
				busy[id] = false
			}
		}
	}()
	take := func(h *entryHeap) {
		for h.len() > 0 {
			if m.p.Mode != "clean" && free[h.es[0].j] <= 0 {
				return // this type is full: the rest of its list cannot run
			}
			e := h.pop()
			if free[e.j] < float64(e.sf) || (m.fifo && e.prio == 0) {
				continue
			}
			taken := false
			for _, id := range e.k.members() {
				taken = taken || busy[id]
			}
			if taken {
				continue
			}
			chosen = append(chosen, e)
			free[e.j] -= float64(e.sf)
			for _, id := range e.k.members() {
				busy[id] = true
			}
		}
	}
	if m.p.Mode == "clean" {
		take(newEntryHeap(all))
	} else {
		order := typeOrder(m.types)
		if m.shuffle {
			s.Rand().Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
		}
		for _, j := range order {
			take(newEntryHeap(perType[j]))
		}
	}
	return chosen
}

// entryHeap yields entries in entryCmp order, lazily: a round usually
// needs only the first few of a long list.
type entryHeap struct{ es []entry }

func newEntryHeap(es []entry) *entryHeap {
	h := &entryHeap{es: es}
	for i := len(es)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
	return h
}

func (h *entryHeap) len() int { return len(h.es) }

func (h *entryHeap) pop() entry {
	top := h.es[0]
	n := len(h.es) - 1
	h.es[0] = h.es[n]
	h.es = h.es[:n]
	h.down(0)
	return top
}

func (h *entryHeap) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h.es) {
			return
		}
		c := l
		if r := l + 1; r < len(h.es) && entryCmp(h.es[r], h.es[l]) < 0 {
			c = r
		}
		if entryCmp(h.es[c], h.es[i]) >= 0 {
			return
		}
		h.es[i], h.es[c] = h.es[c], h.es[i]
		i = c
	}
}

// entryCmp orders by priority, then deficit, then target, all
// descending, then by combination age and type: a total order, so the
// heap's result does not depend on its input order.
func entryCmp(x, y entry) int {
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

// priority is X over the fraction received since the last reset; 0 where
// X = 0. ref-compat uses the reference's fraction, the combination's share
// of the type's time (X·1e9 before anything was received). clean uses the
// paper's X ÷ rounds received: the fraction of the combination's own time
// since the reset spent on the type, from a prior of X, so that a job whose
// target is split between types gets each share (the reference's fraction
// is 1 for a job alone on its type, whatever its target there).
func (m *mechanism) priority(k ckey, j int, x, now float64) float64 {
	if x <= 0 {
		return 0
	}
	if m.p.Mode == "clean" {
		if o := m.own[k]; o != nil && o[j] > 0 {
			return x * (now - m.reset + m.p.RoundS/2) / o[j]
		}
		return x * 1e9
	}
	r := m.recv[k]
	if r == nil || r[j] <= 0 || m.total[j] <= 0 {
		return x * 1e9
	}
	return x * m.total[j] / r[j]
}

// canRun: every member has throughput on the type (as a pair for pairs).
func (m *mechanism) canRun(s *engine.State, o oracle, k ckey, j int) bool {
	if k.b < 0 {
		return m.jobs[k.a].thr[j] > 0
	}
	ja, jb := s.Job(k.a), s.Job(k.b)
	if ja.GPUs != jb.GPUs {
		return false
	}
	ta, tb := o.pair(ja, jb, m.types[j])
	return ta > 0 && tb > 0
}

// place gives the chosen entries GPUs, per type and largest first: last
// round's GPUs when they are all free (lease renewal), else a consolidated
// set, on one server if any fits (the fullest that fits).
func (m *mechanism) place(s *engine.State, chosen []entry) []placement {
	c := s.Cluster()
	taken := make([]bool, c.NumGPUs())
	slices.SortStableFunc(chosen, func(a, b entry) int {
		if a.j != b.j {
			return a.j - b.j
		}
		return b.sf - a.sf
	})
	prevGPUs := map[ckey]placement{}
	for _, pl := range m.last {
		prevGPUs[pl.k] = pl
	}
	out := make([]placement, len(chosen))
	done := make([]bool, len(chosen))
	for i, e := range chosen {
		out[i] = placement{k: e.k, j: e.j, prio: e.prio, x: e.x}
		if pl, ok := prevGPUs[e.k]; ok && pl.j == e.j && allFree(taken, pl.gpus) {
			out[i].gpus, out[i].kept, done[i] = pl.gpus, true, true
			for _, g := range pl.gpus {
				taken[g] = true
			}
		}
	}
	for i, e := range chosen {
		if !done[i] {
			out[i].gpus = m.consolidated(c, taken, e.j, e.sf)
		}
	}
	return out
}

func allFree(taken []bool, gpus []cluster.GPUID) bool {
	for _, g := range gpus {
		if taken[g] {
			return false
		}
	}
	return len(gpus) > 0
}

func (m *mechanism) consolidated(c *cluster.Cluster, taken []bool, j, n int) []cluster.GPUID {
	freeOn := func(id cluster.ServerID) int {
		srv := &c.Servers[id]
		k := 0
		for g := srv.FirstGPU; g < srv.FirstGPU+cluster.GPUID(srv.NumGPUs); g++ {
			if !taken[g] {
				k++
			}
		}
		return k
	}
	bestSrv, bestFree := cluster.ServerID(-1), math.MaxInt
	for _, id := range m.servers[j] {
		if f := freeOn(id); f >= n && f < bestFree {
			bestSrv, bestFree = id, f
		}
	}
	var out []cluster.GPUID
	take := func(id cluster.ServerID) {
		srv := &c.Servers[id]
		for g := srv.FirstGPU; g < srv.FirstGPU+cluster.GPUID(srv.NumGPUs); g++ {
			if len(out) < n && !taken[g] {
				out = append(out, g)
				taken[g] = true
			}
		}
	}
	if bestSrv >= 0 {
		take(bestSrv)
		return out
	}
	if n == 1 {
		return out // no server has a free GPU: cannot happen, pick counts GPUs
	}
	srvs := append([]cluster.ServerID(nil), m.servers[j]...)
	sort.SliceStable(srvs, func(a, b int) bool { return freeOn(srvs[a]) > freeOn(srvs[b]) })
	for _, id := range srvs {
		if len(out) == n {
			break
		}
		take(id)
	}
	return out
}

// apply preempts the jobs that lost or changed their GPUs and starts the
// others, and logs why.
func (m *mechanism) apply(s *engine.State, placed []placement) error {
	want := map[workload.JobID][]cluster.GPUID{}
	why := map[workload.JobID]*placement{}
	for i := range placed {
		for _, id := range placed[i].k.members() {
			want[id] = placed[i].gpus
			why[id] = &placed[i]
		}
	}
	for _, id := range s.Running() {
		g, ok := want[id]
		if ok && sameGPUs(g, s.GPUsOf(id)) {
			continue
		}
		if err := s.Preempt(id); err != nil {
			return err
		}
		if !ok && m.tracing {
			s.Log(id, "round %d: %s preempted: not picked this round", m.rounds, s.Job(id).Name)
		}
	}
	for i := range placed {
		pl := &placed[i]
		for _, id := range pl.k.members() {
			if s.Status(id) == engine.Running {
				if m.tracing {
					how := "lease renewed"
					if !pl.kept {
						how = "same GPUs, new combination"
					}
					s.Log(id, "round %d: %s keeps %s (%s): %s", m.rounds, s.Job(id).Name, m.where(s, pl), how, m.reason(pl))
				}
				continue
			}
			if err := s.Start(id, pl.gpus, engine.ActionOptions{}); err != nil {
				return err
			}
			if m.tracing {
				s.Log(id, "round %d: %s runs on %s: %s", m.rounds, s.Job(id).Name, m.where(s, pl), m.reason(pl))
			}
		}
		for _, id := range pl.k.members() {
			m.jobs[id].gpus = pl.gpus
			m.jobs[id].lastType = pl.j
		}
	}
	m.last = placed
	return nil
}

func (m *mechanism) where(s *engine.State, pl *placement) string {
	what := fmt.Sprintf("%d %s", len(pl.gpus), m.types[pl.j])
	if pl.k.b >= 0 {
		what += fmt.Sprintf(" shared by %s and %s", s.Job(pl.k.a).Name, s.Job(pl.k.b).Name)
	}
	ids := make([]string, len(pl.gpus))
	for i, g := range pl.gpus {
		ids[i] = fmt.Sprint(g)
	}
	return what + " (GPU " + strings.Join(ids, ",") + ")"
}

func (m *mechanism) reason(pl *placement) string {
	switch {
	case pl.x == 0:
		return "its target share here is 0, but the GPUs were free (work-conserving backfill)"
	case pl.prio >= 1e9*pl.x*0.999:
		return fmt.Sprintf("target share %.3g of %s time, none received yet", pl.x, m.types[pl.j])
	case m.p.Mode == "clean":
		return fmt.Sprintf("priority %.3g = target share %.3g ÷ share of its time on %s since the last recompute %.3g", pl.prio, pl.x, m.types[pl.j], pl.x/pl.prio)
	}
	return fmt.Sprintf("priority %.3g = target share %.3g ÷ its share of all %s time received %.3g", pl.prio, pl.x, m.types[pl.j], pl.x/pl.prio)
}

func sameGPUs(a, b []cluster.GPUID) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
