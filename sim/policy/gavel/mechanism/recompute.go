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
	M := len(ids)
	in.Jobs = make([]plan.Job, 0, M)
	for _, id := range ids {
		job := s.Job(id)
		info := s.Info(id)
		tr := m.jobs[id]
		pj := plan.Job{ID: id, Job: job, SF: job.GPUs, Weight: job.EffectiveWeight(), Thr: tr.thr, Rem: info.Remaining,
			Elapsed: now - job.ArrivalS, Waited: math.Max(0, now-job.ArrivalS-info.RunTime)}
		// Finish-time fairness's isolated clock: the work done since the
		// last recompute, at the isolated share's throughput then.
		if tr.isoThr > 0 {
			tr.isoTime += (tr.lastRem - info.Remaining) / tr.isoThr
		}
		tr.lastRem = info.Remaining
		pj.IsoTime = tr.isoTime
		in.Jobs = append(in.Jobs, pj)
	}
	for i := range in.Jobs {
		m.jobs[in.Jobs[i].ID].isoThr = plan.Dot(in.Jobs[i].Thr, in.IsoRow(&in.Jobs[i], in.ActiveJobs()))
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
