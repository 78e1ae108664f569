package pollux

import (
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/workload"
)

// fresh calls add on the waiting jobs that may get GPUs this round,
// leaving out waiting jobs that never ran and provably get none, with the
// same allocation as if every waiting job took part. On a long queue (the
// whole Philly log on 64 GPUs keeps tens of thousands waiting) a round
// then reads a few more jobs than there are GPUs, not the whole queue.
//
// It is called when the fair share is one GPU (at least as many active
// jobs as GPUs) and growth_factor is above 0. A job that never ran then
// may have 0 or 1 GPU: its options are 0 (cost term(0), as for every job
// left without GPUs) and 1, whose cost is term(scale · restart factor)
// since its goodput on one GPU over its fair share of one GPU is 1. Two
// such jobs x before y in the round's order (which among them is arrival
// order, as none has attained service) with cost(x) ≤ cost(y): if y got
// a GPU and x none, giving y's GPU to x would cost no more, and with equal
// costs the program prefers it (it keeps the later job's first option, 0,
// among equally good allocations; see solve). The same holds with
// cost(x) < cost(y) whatever their order. So the jobs that never ran and
// get a GPU are the first few in the order of (cost, position), at most
// one per GPU; the others get nothing, and leaving them out of the program
// leaves it the same optimum (its sums are exact, see exact) and the same
// tie-breaks among the remaining jobs. Their cost never falls as their
// arrival gets later (a younger job has a smaller restart factor), so the
// scan in arrival order stops once it holds one job per GPU and the
// worst of them costs no more than a bound on every later job (lowest).
//
// The waiting jobs that ran before (preempted, listed in p.ran) all take
// part, as their options are not 0 or 1.
func (p *pollux) fresh(s *engine.State, scale float64, add func(workload.JobID) bool) error {
	p.ran.each(s, func(id workload.JobID) { add(id) })
	n := s.Cluster().NumGPUs()
	h := p.cand[:0]
	idle := term(0)
	var err error
	seen := 0
	s.EachPending(func(id workload.JobID) bool {
		if p.ran.listed(id) {
			return true // added above
		}
		if seen++; seen%1024 == 0 {
			if err = s.Interrupted(); err != nil {
				return false
			}
		}
		j := active{id: id, arrival: s.Job(id).ArrivalS, restart: p.restartFactor(s, id)}
		p.prepare(s, &j, 1)
		if s.Info(id).Starts > 0 || j.maxA > 1 {
			add(id) // not a choice between 0 and 1 GPU (never so, but then it takes part)
			return true
		}
		if j.maxA == 1 {
			if c := p.cost(s, &j, 1, scale); c < idle { // as prune keeps the option
				h = h.push(candidate{cost: c, id: id}, n)
			}
		}
		if len(h) < n {
			return true
		}
		return n > 0 && h[0].cost > p.lowest(&j, scale)
	})
	p.cand = h
	if err != nil {
		return err
	}
	for _, c := range h {
		add(c.id)
	}
	return nil
}

// lowest is a bound below the cost of one GPU of every job that never ran
// and arrived no earlier than j, which never ran: their age is at most j's
// (now − arrival, rounded, grows with the arrival), so their restart
// factor age/(age + restart_s) is at most j's, give or take its rounding
// (a few parts in 10¹⁶, allowed for with 10⁻¹²), and never above 1.
func (p *pollux) lowest(j *active, scale float64) float64 {
	up := 1.0
	if p.p.RestartPenalty && p.p.RestartS > 0 {
		up = min(1, j.restart*(1+1e-12))
	}
	return term(scale * up)
}

// candidate is a job that never ran, with its cost of one GPU.
type candidate struct {
	cost float64
	id   workload.JobID
}

// worse orders candidates: higher cost, then later arrival (a higher id).
func (x candidate) worse(y candidate) bool {
	return x.cost > y.cost || (x.cost == y.cost && x.id > y.id)
}

// candidates is a heap of at most n candidates, the worst first.
type candidates []candidate

// push adds c, then drops the worst if there are more than n.
func (h candidates) push(c candidate, n int) candidates {
	if len(h) == n {
		if n == 0 || !h[0].worse(c) {
			return h // c is no better than the worst held
		}
		h[0] = c
		h.down(0)
		return h
	}
	h = append(h, c)
	for i := len(h) - 1; i > 0; {
		up := (i - 1) / 2
		if !h[i].worse(h[up]) {
			break
		}
		h[i], h[up] = h[up], h[i]
		i = up
	}
	return h
}

func (h candidates) down(i int) {
	for {
		w, l, r := i, 2*i+1, 2*i+2
		if l < len(h) && h[l].worse(h[w]) {
			w = l
		}
		if r < len(h) && h[r].worse(h[w]) {
			w = r
		}
		if w == i {
			return
		}
		h[i], h[w] = h[w], h[i]
		i = w
	}
}
