package mechanism

import (
	"fmt"
	"math"
	"sort"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/workload"
)

// active returns the unfinished arrived jobs in arrival order.
func (m *Mechanism) active(s *engine.State) []workload.JobID {
	ids := append(s.Pending(), s.Running()...)
	sort.Slice(ids, func(a, b int) bool { return ids[a] < ids[b] })
	return ids
}

// recompute asks the allocator for a new allocation and resets the time
// accounting: deficit += X·(time since the last reset) − (received − R/2);
// received goes back to R/2 (0 for a pair that is new).
func (m *Mechanism) recompute(s *engine.State) error {
	now := s.Now()
	ids := m.active(s)
	o := m.oracle(s)
	in := &plan.Input{Now: now, Types: m.gpu.types, Count: m.gpu.count, Rand: s.Rand(), Oracle: o}
	M := len(ids)
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
		m.jobs[in.Jobs[i].ID].isoThr = plan.Dot(in.Jobs[i].Thr, in.IsoRow(&in.Jobs[i], M))
	}
	al, err := m.cfg.Alloc.Allocate(in)
	if err != nil {
		return fmt.Errorf("%s: %w", m.cfg.Title, err)
	}
	elapsed := now - m.ledger.reset
	if m.ledger.resets == 0 {
		elapsed = 0
	}
	newX := map[ckey][]float64{}
	var keys []ckey
	for _, c := range al.Combos {
		k := ckey{in.Jobs[c.A].ID, -1}
		if c.B >= 0 {
			a, b := in.Jobs[c.A].ID, in.Jobs[c.B].ID
			k = ckey{min(a, b), max(a, b)}
		}
		newX[k] = c.X
		keys = append(keys, k)
	}
	for _, id := range ids {
		if _, ok := newX[ckey{id, -1}]; !ok {
			keys = append(keys, ckey{id, -1}) // X = 0 everywhere
		}
	}
	newRecv := map[ckey][]float64{}
	newDef := map[ckey][]float64{}
	for j := range m.ledger.total {
		m.ledger.total[j] = 0
	}
	for _, k := range keys {
		d := make([]float64, len(m.gpu.types))
		if old, ok := m.ledger.deficit[k]; ok {
			copy(d, old)
		}
		if r, ok := m.ledger.recv[k]; ok {
			x := m.ledger.x[k]
			for j := range d {
				xv := 0.0
				if x != nil {
					xv = x[j]
				}
				d[j] += xv*elapsed - (r[j] - m.cfg.RoundS/2)
			}
			newRecv[k] = fill(len(m.gpu.types), m.cfg.RoundS/2)
		} else if k.b >= 0 {
			newRecv[k] = make([]float64, len(m.gpu.types)) // a new pair starts at 0
		} else {
			newRecv[k] = fill(len(m.gpu.types), m.cfg.RoundS/2)
		}
		newDef[k] = d
		for j, v := range newRecv[k] {
			m.ledger.total[j] += v
		}
	}
	m.ledger.keys, m.ledger.x, m.ledger.recv, m.ledger.deficit = keys, newX, newRecv, newDef
	m.ledger.own = map[ckey][]float64{}
	for k, x := range newX {
		o := make([]float64, len(x))
		for j, v := range x {
			o[j] = v * m.cfg.RoundS / 2
		}
		m.ledger.own[k] = o
	}
	runs := map[ckey][]bool{}
	for _, k := range keys {
		if r, ok := m.runs[k]; ok {
			runs[k] = r
		}
	}
	m.runs = runs
	m.ledger.reset, m.ledger.due = now, false
	m.ledger.resets++
	m.record(s, in, al)
	return nil
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
	s.Record("gavel/active_jobs", -1, float64(len(in.Jobs)))
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
