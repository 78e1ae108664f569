package mechanism

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/workload"
)

// recompute asks the allocator for a new allocation and restarts the
// ledger with it.
func (m *Mechanism) recompute(s *engine.State) error {
	now := s.Now()
	ids := m.considered(s)
	o := m.oracle(s)
	in := &plan.Input{Now: now, Types: m.gpu.types, Count: m.gpu.count, Rand: s.Rand(), Oracle: o,
		Active: s.NumPending() + s.NumRunning()}
	// No allocator keeps the input, so its job list is the last one's
	// storage.
	// Each job is written in place: a queue of thousands is listed at
	// every recompute, and building each record aside and appending it
	// copies it twice.
	in.Jobs = m.inJobs[:0]
	active := in.ActiveJobs()
	in.Jobs = slices.Grow(in.Jobs, len(ids))[:len(ids)]
	selfCheck := m.selfCheck
	for i, id := range ids {
		tr := m.jobs[id]
		// progress's kept values of a job seen waiting, read here: most
		// of a long queue (progress itself checks them under selfCheck)
		var rem, run float64
		if tr.seen && s.Status(id) == engine.Pending {
			rem, run = tr.seenRem, tr.seenRun
			if selfCheck {
				m.checkSeen(s, id, rem, run)
			}
		} else {
			rem, run = m.progress(s, id, tr)
		}
		// Every field is written, each once. max, not math.Max (a
		// call): the same value for every input, NaN and signed zeros
		// included.
		pj := &in.Jobs[i]
		pj.ID, pj.Job, pj.SF, pj.Weight, pj.Thr, pj.Rem = id, tr.job, tr.sf, tr.weight, tr.thr, rem
		pj.Elapsed, pj.Waited = now-tr.arrival, max(0, now-tr.arrival-run)
		// Finish-time fairness's isolated clock: the work done since the
		// last recompute, at the isolated share's throughput then.
		// A job that did no work adds 0 (the throughput is found only
		// when it did).
		if rem != tr.lastRem {
			if iso := m.isoThr(tr, tr.sf); iso > 0 {
				tr.isoTime += (tr.lastRem - rem) / iso
			}
		}
		if selfCheck {
			m.checkIsoTime(s, id, tr, (tr.lastRem-rem)/tr.shadowIsoThr)
		}
		tr.lastRem = rem
		tr.isoActive = active
		pj.IsoTime = tr.isoTime
	}
	m.inJobs = in.Jobs
	if m.selfCheck {
		for i := range in.Jobs {
			m.jobs[in.Jobs[i].ID].shadowIsoThr = plan.Dot(in.Jobs[i].Thr, in.IsoRow(&in.Jobs[i], active))
		}
	}
	al, err := m.cfg.Alloc.Allocate(in)
	if err != nil {
		return fmt.Errorf("%s: %w", m.cfg.Title, err)
	}
	x := &m.ledger.x
	keys := combinations(in, al, ids, x, m.keyBuf)
	m.keyBuf = keys
	m.ledger.restart(now, keys, len(al.Combos))
	// combinations put only the allocation's combinations, the keys'
	// head: the waiting jobs after it (most of a long queue) have none
	x.clear(keys[:len(al.Combos)])
	if m.selfCheck {
		m.checkTargetsCleared(keys)
	}
	m.record(s, in, al)
	return nil
}

// progress is job id's iterations left and seconds run, as s.Info has
// them. A waiting job's do not change until it starts again (only apply
// starts jobs, and it forgets what was seen), so they are kept from the
// last time it was seen waiting: most of a long queue waits from one
// recompute to the next, and Info's whole record costs several times
// more than the lookup.
func (m *Mechanism) progress(s *engine.State, id workload.JobID, tr *track) (rem, run float64) {
	pending := s.Status(id) == engine.Pending
	if pending && tr.seen {
		if m.selfCheck {
			m.checkSeen(s, id, tr.seenRem, tr.seenRun)
		}
		return tr.seenRem, tr.seenRun
	}
	info := s.Info(id)
	tr.seen = pending
	if pending {
		tr.seenRem, tr.seenRun = info.Remaining, info.RunTime
	}
	return info.Remaining, info.RunTime
}

// checkTargetsCleared checks that the recompute's scratch of targets
// holds none of keys once cleared (selfCheck), and sets checkErr if it
// does.
func (m *Mechanism) checkTargetsCleared(keys []ckey) {
	for _, k := range keys {
		if _, ok := m.ledger.x.get(k); ok && m.checkErr == nil {
			m.checkErr = fmt.Errorf("combination %v's target is left in the recompute's scratch", k)
		}
	}
}

// checkSeen compares the iterations left and seconds run kept of a job
// seen waiting with what the engine has (selfCheck), and sets checkErr
// if they differ.
func (m *Mechanism) checkSeen(s *engine.State, id workload.JobID, rem, run float64) {
	m.checks.progress++
	if info := s.Info(id); info.Remaining != rem || info.RunTime != run {
		m.checkErr = fmt.Errorf("t=%g: job %d kept %g left, %g s run; it has %g, %g s", s.Now(), id, rem, run, info.Remaining, info.RunTime)
	}
}

// isoThr is a job's throughput with an isolated share at the last
// recompute that planned for it, plan.Dot(Thr, IsoRow(job, active)) then;
// 0 before any. It is found only where it is used, when the job did work
// since.
func (m *Mechanism) isoThr(tr *track, sf int) float64 {
	if tr.isoActive == 0 {
		return 0
	}
	in := plan.Input{Types: m.gpu.types, Count: m.gpu.count}
	return plan.Dot(tr.thr, in.IsoRow(&plan.Job{SF: sf, Thr: tr.thr}, tr.isoActive))
}

// checkIsoTime follows a job's isolated clock the way every recompute
// once did, with its isolated-share throughput found for every job at
// every recompute, and compares (selfCheck).
func (m *Mechanism) checkIsoTime(s *engine.State, id workload.JobID, tr *track, add float64) {
	if tr.shadowIsoThr > 0 {
		tr.shadowIsoTime += add
	}
	if math.Float64bits(tr.isoTime) != math.Float64bits(tr.shadowIsoTime) {
		m.checkErr = fmt.Errorf("t=%g: job %d's isolated clock is %g s, the full rebuild's %g s", s.Now(), id, tr.isoTime, tr.shadowIsoTime)
	}
}

// combinations names the allocation's rows by job ids, with a row of
// X = 0 for every active job the allocation leaves out. x holds each
// key's target (the last row of a key named twice) until the caller
// clears it.
func combinations(in *plan.Input, al *plan.Allocation, ids []workload.JobID, x *byKey[[]float64], buf []ckey) []ckey {
	keys := slices.Grow(buf[:0], len(al.Combos)+len(ids))
	for _, c := range al.Combos {
		k := ckey{in.Jobs[c.A].ID, -1}
		if c.B >= 0 {
			a, b := in.Jobs[c.A].ID, in.Jobs[c.B].ID
			k = ckey{min(a, b), max(a, b)}
		}
		x.put(k, c.X)
		keys = append(keys, k)
	}
	for _, id := range ids {
		if _, ok := x.get(ckey{id, -1}); !ok {
			keys = append(keys, ckey{id, -1}) // X = 0 everywhere
		}
	}
	return keys
}

// record writes the learner's series and a log line.
func (m *Mechanism) record(s *engine.State, in *plan.Input, al *plan.Allocation) {
	if !s.Recording() {
		return
	}
	s.Record("gavel/objective", -1, finite(al.Objective))
	var total float64
	var shares []entityShare
	if m.everyActive(s, in) {
		total, shares = m.shares(in, al)
		if m.selfCheck {
			m.checks.shares++
			t, sh := sharesFull(in, al)
			if !sameShares(t, sh, total, shares) {
				m.checkErr = fmt.Errorf("t=%g: the shares from the allocation's jobs are %v %v, from every job %v %v", s.Now(), total, shares, t, sh)
			}
		}
	} else {
		total, shares = sharesFull(in, al)
	}
	s.Record("gavel/total_norm_thr", -1, total)
	s.Record("gavel/active_jobs", -1, float64(in.ActiveJobs()))
	for _, e := range shares {
		s.Record("gavel/entity_thr/"+e.name, -1, e.thr)
	}
	if len(m.cfg.Entities) > 0 && total > 0 {
		// How far each present entity's share is from its weight's share.
		entity := func(name string) (float64, bool) {
			i, ok := slices.BinarySearchFunc(shares, name, func(e entityShare, n string) int { return strings.Compare(e.name, n) })
			if !ok {
				return 0, false
			}
			return shares[i].thr, true
		}
		wsum := 0.0
		for _, e := range m.cfg.Entities {
			if _, ok := entity(e.Name); ok {
				wsum += e.Weight
			}
		}
		worst := 0.0
		for _, e := range m.cfg.Entities {
			if v, ok := entity(e.Name); ok {
				want := e.Weight / wsum
				worst = math.Max(worst, math.Abs(v/total-want)/want)
			}
		}
		s.Record("gavel/entity_share_error", -1, worst)
	}
	if m.tracing {
		rows := al.PerJob(len(in.Jobs), len(m.gpu.types))
		for i, p := range in.Jobs {
			tr := m.jobs[p.ID]
			age := s.Now() - tr.arrival
			for j, t := range m.gpu.types {
				s.Record("gavel/x/"+t, p.ID, rows[i][j])
				if age > 0 {
					s.Record("gavel/received/"+t, p.ID, tr.recv[j]/age)
				}
			}
		}
	}
	s.Log(-1, "%s: new allocation: %s", m.cfg.Title, al.Why)
}

// entityShare is an entity's total normalised throughput under an
// allocation.
type entityShare struct {
	name string
	thr  float64
}

// sharesFull is the total normalised throughput under al, Σ over the
// jobs of SF·(effective throughput ÷ throughput under X^equal), and each
// entity's part of it, by name, of every entity with a job in the input
// (whose throughput under X^equal is positive), from every job.
func sharesFull(in *plan.Input, al *plan.Allocation) (float64, []entityShare) {
	eff := in.Effective(al, func(i int) []float64 { return in.Jobs[i].Thr })
	total := 0.0
	entity := map[string]float64{}
	var names []string
	for i, p := range in.Jobs {
		eq := in.ThrEqual(p.Thr)
		if eq <= 0 {
			continue
		}
		v := float64(p.SF) * eff[i] / eq
		total += v
		if e := p.Job.Entity; e != "" {
			if _, ok := entity[e]; !ok {
				names = append(names, e)
			}
			entity[e] += v
		}
	}
	sort.Strings(names)
	out := make([]entityShare, len(names))
	for i, e := range names {
		out[i] = entityShare{e, entity[e]}
	}
	return total, out
}

// shares is sharesFull from the jobs the allocation gives a share and
// the entities' counts of active jobs (see arrive): every other job adds
// SF·0 ÷ eq = +0, which changes no sum. It needs every active job in
// the input (everyActive).
func (m *Mechanism) shares(in *plan.Input, al *plan.Allocation) (float64, []entityShare) {
	eff := m.effective(in, al)
	total := 0.0
	sums := reset(&m.entSums, len(m.entNames))
	for _, i := range m.effIdx {
		p := &in.Jobs[i]
		tr := m.jobs[p.ID]
		if tr.eq <= 0 {
			continue
		}
		v := float64(p.SF) * eff[i] / tr.eq
		total += v
		if tr.entity >= 0 {
			sums[tr.entity] += v
		}
	}
	out := m.entOut[:0]
	for e, n := range m.entCount {
		if n > 0 {
			out = append(out, entityShare{m.entNames[e], sums[e]})
		}
	}
	slices.SortFunc(out, func(a, b entityShare) int { return strings.Compare(a.name, b.name) })
	m.entOut = out
	return total, out
}

// effective is in.Effective, in the mechanism's storage (valid until the
// next call), with the indices of the jobs the
// allocation gives a share, ascending and once each, in m.effIdx: the
// jobs whose effective throughput may not be 0.
func (m *Mechanism) effective(in *plan.Input, al *plan.Allocation) []float64 {
	idx := m.effIdx[:0]
	for _, c := range al.Combos {
		for _, v := range c.X {
			if v != 0 {
				idx = append(idx, c.A)
				if c.B >= 0 {
					idx = append(idx, c.B)
				}
				break
			}
		}
	}
	slices.Sort(idx)
	m.effIdx = slices.Compact(idx)
	m.eff = in.EffectiveInto(m.eff, al, func(i int) []float64 { return in.Jobs[i].Thr })
	return m.eff
}

// everyActive: the input holds every active job and no job has a NaN
// throughput under X^equal, as shares needs.
func (m *Mechanism) everyActive(s *engine.State, in *plan.Input) bool {
	return m.nanEq == 0 && len(in.Jobs) == s.NumPending()+s.NumRunning() && len(in.Jobs) == m.numActive
}

func sameShares(t1 float64, s1 []entityShare, t2 float64, s2 []entityShare) bool {
	same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
	return same(t1, t2) && slices.EqualFunc(s1, s2, func(a, b entityShare) bool { return a.name == b.name && same(a.thr, b.thr) })
}

func finite(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}
