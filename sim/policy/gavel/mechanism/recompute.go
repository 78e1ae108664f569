package mechanism

import (
	"fmt"
	"math"
	"sort"

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
	in.Jobs = m.inJobs[:0]
	for _, id := range ids {
		job := s.Job(id)
		tr := m.jobs[id]
		rem, run := m.progress(s, id, tr)
		pj := plan.Job{ID: id, Job: job, SF: job.GPUs, Weight: job.EffectiveWeight(), Thr: tr.thr, Rem: rem,
			Elapsed: now - job.ArrivalS, Waited: math.Max(0, now-job.ArrivalS-run)}
		// Finish-time fairness's isolated clock: the work done since the
		// last recompute, at the isolated share's throughput then.
		if tr.isoThr > 0 {
			tr.isoTime += (tr.lastRem - rem) / tr.isoThr
		}
		tr.lastRem = rem
		pj.IsoTime = tr.isoTime
		in.Jobs = append(in.Jobs, pj)
	}
	m.inJobs = in.Jobs
	active := in.ActiveJobs()
	for i := range in.Jobs {
		m.jobs[in.Jobs[i].ID].isoThr = m.isoThr(in, &in.Jobs[i], active)
	}
	al, err := m.cfg.Alloc.Allocate(in)
	if err != nil {
		return fmt.Errorf("%s: %w", m.cfg.Title, err)
	}
	x := &m.ledger.x
	keys := combinations(in, al, ids, x)
	m.ledger.restart(now, keys)
	x.clear(keys)
	m.record(s, in, al)
	return nil
}

// progress is job id's iterations left and seconds run, as s.Info has
// them. A waiting job's do not change until it starts again, so they are
// kept from the last time it was seen waiting: most of a long queue
// waits from one recompute to the next, and Info's whole record costs
// several times more than the lookup.
func (m *Mechanism) progress(s *engine.State, id workload.JobID, tr *track) (rem, run float64) {
	pending := s.Status(id) == engine.Pending
	if pending && tr.seen && tr.seenStarts == s.Starts(id) {
		return tr.seenRem, tr.seenRun
	}
	info := s.Info(id)
	tr.seen = pending
	if pending {
		tr.seenRem, tr.seenRun, tr.seenStarts = info.Remaining, info.RunTime, info.Starts
	}
	return info.Remaining, info.RunTime
}

// isoThr is plan.Dot(p.Thr, in.IsoRow(p, active)), the same operations
// in the same order, in a scratch row instead of a new one per job.
func (m *Mechanism) isoThr(in *plan.Input, p *plan.Job, active int) float64 {
	x := reset(&m.isoRow, len(in.Types))
	sum := 0.0
	for j := range x {
		if p.Thr[j] > 0 {
			x[j] = in.Count[j] / float64(active) / float64(p.SF)
			sum += x[j]
		}
	}
	if sum > 1 {
		for j := range x {
			x[j] /= sum
		}
	}
	return plan.Dot(p.Thr, x)
}

// combinations names the allocation's rows by job ids, with a row of
// X = 0 for every active job the allocation leaves out. x holds each
// key's target (the last row of a key named twice) until the caller
// clears it.
func combinations(in *plan.Input, al *plan.Allocation, ids []workload.JobID, x *byKey[[]float64]) []ckey {
	keys := make([]ckey, 0, len(al.Combos)+len(ids))
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
	s.Record("gavel/total_norm_thr", -1, total)
	s.Record("gavel/active_jobs", -1, float64(in.ActiveJobs()))
	sort.Strings(names)
	for _, e := range names {
		s.Record("gavel/entity_thr/"+e, -1, entity[e])
	}
	if len(m.cfg.Entities) > 0 && total > 0 {
		// How far each present entity's share is from its weight's share.
		wsum := 0.0
		for _, e := range m.cfg.Entities {
			if _, ok := entity[e.Name]; ok {
				wsum += e.Weight
			}
		}
		worst := 0.0
		for _, e := range m.cfg.Entities {
			if v, ok := entity[e.Name]; ok {
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

func finite(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}
