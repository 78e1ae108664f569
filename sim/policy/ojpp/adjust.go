package ojpp

import (
	"sort"

	"github.com/schedlab/schedlab/sim/workload"
)

// move is one worker of a job moved between devices.
type move struct {
	job      workload.JobID
	from, to int
	cost     float64
}

// adjust is Algorithm 4, OJPAP (spec 002 §3.5): the more interfered half
// of the active devices, most interfered first, each hands its cheapest
// worker to the feasible device (τ, θ and balance all checked) where it
// would suffer least, when that lowers the worse of the two devices' θ
// (balance: whether the move must also keep θ′);
// the migration costs of one round stay within budget. With retry (the
// spec's "retry cheaper-next", off by default to stay literal) a device
// whose cheapest worker cannot move offers its next-cheapest, and so on.
// rank orders the
// devices (the observed EWMA online); nil ranks by the believed θ_k.
func (p *planner) adjust(budget float64, idleTargets, retry, balance bool, rank []float64) (moves []move) {
	saved := p.cfg
	p.cfg.Tau, p.cfg.Theta, p.cfg.Bal = true, true, balance
	defer func() { p.cfg = saved }()
	score := func(k int) float64 {
		if rank != nil {
			return rank[k]
		}
		return p.theta(k)
	}
	var pq []int
	for k := range p.dev {
		if len(p.dev[k].w) > 0 {
			pq = append(pq, k)
		}
	}
	sortByScore(pq, score)
	pq = pq[:(len(pq)+1)/2]
	spent := 0.0
	for len(pq) > 0 {
		sortByScore(pq, score)
		src := pq[0]
		pq = pq[1:]
		for _, j := range p.byCost(src, retry) {
			if spent+p.info[j].c > budget+eps {
				continue
			}
			if m, ok := p.tryMove(j, src, idleTargets); ok {
				spent += m.cost
				moves = append(moves, m)
				break
			}
		}
	}
	return moves
}

// tryMove moves worker j off src to its best target when that lowers the
// worse of the two devices' θ below src's θ before; else it leaves it.
func (p *planner) tryMove(j workload.JobID, src int, idleTargets bool) (move, bool) {
	before := p.theta(src)
	p.remove(j, src)
	after := p.theta(src)
	dst, pr := p.target(j, src, idleTargets)
	if dst >= 0 && max(after, pr.theta) < before-eps {
		p.add(j, dst)
		return move{job: j, from: src, to: dst, cost: p.info[j].c}, true
	}
	p.add(j, src)
	return move{}, false
}

// byCost lists the candidates to move off device k: its cheapest worker
// only, or with all every distinct job on it, cheapest first.
func (p *planner) byCost(k int, all bool) []workload.JobID {
	first := p.cheapest(k)
	if first < 0 {
		return nil
	}
	if !all {
		return []workload.JobID{first}
	}
	var js []workload.JobID
	for _, j := range p.dev[k].w {
		if !containsJob(js, j) {
			js = append(js, j)
		}
	}
	sort.SliceStable(js, func(a, b int) bool {
		if js[a] == first || js[b] == first {
			return js[a] == first && js[b] != first
		}
		return p.info[js[a]].c < p.info[js[b]].c
	})
	return js
}

func sortByScore(ks []int, score func(int) float64) {
	sort.SliceStable(ks, func(a, b int) bool {
		if sa, sb := score(ks[a]), score(ks[b]); sa != sb {
			return sa > sb
		}
		return ks[a] < ks[b]
	})
}

// cheapest is the worker on device k with the least migration cost; ties
// go to the most interfered, then the lowest job id. -1 if k is empty.
func (p *planner) cheapest(k int) workload.JobID {
	d := &p.dev[k]
	best := -1
	for x, j := range d.w {
		if best < 0 {
			best = x
			continue
		}
		b := d.w[best]
		cj, cb := p.info[j].c, p.info[b].c
		switch {
		case cj != cb:
			if cj < cb {
				best = x
			}
		case d.slow[x] != d.slow[best]:
			if d.slow[x] > d.slow[best] {
				best = x
			}
		case j < b:
			best = x
		}
	}
	if best < 0 {
		return -1
	}
	return d.w[best]
}

// available is a device's dominant free resource, min(1 − Σα, 1 − M_k).
func (p *planner) available(k int) float64 {
	return min(1-p.compute(p.dev[k].w), 1-p.memory(p.dev[k].w))
}

// target is the feasible device other than src with the lowest potential
// θ for one more worker of job j; ties go to the most available device,
// then the lowest index. Idle devices count only when idleTargets.
func (p *planner) target(j workload.JobID, src int, idleTargets bool) (int, probe) {
	best, bestK := probe{}, -1
	bestAvail := 0.0
	for k := range p.dev {
		if k == src || (len(p.dev[k].w) == 0 && !idleTargets) {
			continue
		}
		pr := p.try(j, k)
		if pr.fail != okFit {
			continue
		}
		av := p.available(k)
		if bestK < 0 || pr.theta < best.theta || (pr.theta == best.theta && av > bestAvail) {
			best, bestK, bestAvail = pr, k, av
		}
	}
	return bestK, best
}
