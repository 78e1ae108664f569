package sjfbco

import (
	"math/rand/v2"
	"slices"

	"github.com/schedlab/schedlab/sim/cluster"
)

// rule names, as the decision log prints them.
const (
	ruleFAFFP = "FA-FFP"
	ruleLBSGF = "LBSGF"
	ruleFF    = "FF"
	ruleLS    = "LS"
	ruleRAND  = "RAND"
)

// view is what a placement rule reads: which GPUs are idle, each GPU's
// accumulated assigned busy time U (spec 004 §2.1), the servers in use
// (the first n of the cluster) and the cap θ_u.
type view struct {
	c       *cluster.Cluster
	servers int // only servers [0, servers) are used
	idle    func(g cluster.GPUID) bool
	u       []float64
	theta   float64

	buf  []cluster.GPUID // scratch
	sbuf []cluster.ServerID
	avg  []float64
}

// eligible reports whether g may take a job of load w: idle and U + w ≤ θ.
func (v *view) eligible(g cluster.GPUID, w float64) bool {
	return v.idle(g) && v.u[g]+w <= v.theta
}

// gpuEnd is one past the last GPU of the servers in use.
func (v *view) gpuEnd() cluster.GPUID {
	s := &v.c.Servers[v.servers-1]
	return s.FirstGPU + cluster.GPUID(s.NumGPUs)
}

// leastU is FA-FFP's literal rule (spec 004 §2.3) and LS's: the n eligible
// GPUs with least U, ties by (server, GPU) index, which GPU IDs follow.
//
// It keeps the n best seen so far in order while scanning the GPUs by
// index (a later GPU goes behind those of equal U), which is the stable
// sort's prefix at O(N·n) for the small n of a job.
func (v *view) leastU(n int, w float64) []cluster.GPUID {
	best := make([]cluster.GPUID, 0, n)
	count := 0
	for g := range v.gpuEnd() {
		if !v.eligible(g, w) {
			continue
		}
		count++
		if len(best) == n && v.u[g] >= v.u[best[n-1]] {
			continue
		}
		i := len(best)
		for i > 0 && v.u[best[i-1]] > v.u[g] {
			i--
		}
		if len(best) < n {
			best = append(best, 0)
		}
		copy(best[i+1:], best[i:len(best)-1])
		best[i] = g
	}
	if count < n {
		return nil
	}
	return best
}

// firstFit is FF (spec 004 §2.5): the first n eligible GPUs by index.
func (v *view) firstFit(n int, w float64) []cluster.GPUID {
	out := make([]cluster.GPUID, 0, n)
	for g := range v.gpuEnd() {
		if v.eligible(g, w) {
			out = append(out, g)
			if len(out) == n {
				return out
			}
		}
	}
	return nil
}

// bestFit is FA-FFP's fragment-aware variant (spec 004 §2.3, option
// bestfit): the server with the fewest eligible GPUs that still holds the
// job, else servers by most eligible GPUs first (fewest servers); least-U
// GPUs inside each server (ties by index either way).
func (v *view) bestFit(n int, w float64) []cluster.GPUID {
	count := make([]int, v.servers)
	total, best := 0, -1
	for i := range v.servers {
		s := &v.c.Servers[i]
		for k := range s.NumGPUs {
			if v.eligible(s.FirstGPU+cluster.GPUID(k), w) {
				count[i]++
			}
		}
		total += count[i]
		if count[i] >= n && (best < 0 || count[i] < count[best]) {
			best = i
		}
	}
	if total < n {
		return nil
	}
	order := []int{best}
	if best < 0 {
		order = order[:0]
		for i := range v.servers {
			order = append(order, i)
		}
		slices.SortStableFunc(order, func(a, b int) int { return count[b] - count[a] })
	}
	out := make([]cluster.GPUID, 0, n)
	for _, i := range order {
		out = append(out, v.serverLeastU(cluster.ServerID(i), n-len(out), w)...)
		if len(out) == n {
			break
		}
	}
	return out
}

// serverLeastU returns up to n eligible GPUs of server id, least U first.
func (v *view) serverLeastU(id cluster.ServerID, n int, w float64) []cluster.GPUID {
	s := &v.c.Servers[id]
	var e []cluster.GPUID
	for k := range s.NumGPUs {
		if g := s.FirstGPU + cluster.GPUID(k); v.eligible(g, w) {
			e = append(e, g)
		}
	}
	slices.SortStableFunc(e, func(a, b cluster.GPUID) int { return cmpF(v.u[a], v.u[b]) })
	return e[:min(n, len(e))]
}

// spread takes eligible GPUs round-robin over the servers (slot 0 of
// every server, then slot 1, ...): each ring as far apart as possible, the
// placement of the measurement the paper quotes from Wang et al. A
// teaching option of FF, not one of the paper's algorithms.
func (v *view) spread(n int, w float64) []cluster.GPUID {
	out := make([]cluster.GPUID, 0, n)
	for k := range v.c.MaxGPUsPerServer() {
		for i := range v.servers {
			s := &v.c.Servers[i]
			if g := s.FirstGPU + cluster.GPUID(k); k < s.NumGPUs && v.eligible(g, w) {
				out = append(out, g)
				if len(out) == n {
					return out
				}
			}
		}
	}
	return nil
}

// lbsgf is Algorithm 3 (spec 004 §2.4): servers by average U ascending
// (ties by index), the shortest prefix whose capacity reaches λ·n (every
// server when none does), then each server's eligible GPUs by U in that
// order; the first n of that list, so the job lands on the least busy
// servers and is consolidated there.
//
// With capacityTie, servers of equal average U go larger first (fewer
// splits at the start); with pickLeastU, the job takes the least-U GPUs of
// the whole candidate list rather than its server-major prefix.
func (v *view) lbsgf(n int, w, lambda float64, capacityTie, pickLeastU bool) []cluster.GPUID {
	srv := v.sbuf[:0]
	v.avg = v.avg[:0]
	for i := range v.servers {
		s := &v.c.Servers[i]
		sum := 0.0
		for k := range s.NumGPUs {
			sum += v.u[s.FirstGPU+cluster.GPUID(k)]
		}
		srv = append(srv, cluster.ServerID(i))
		v.avg = append(v.avg, sum/float64(s.NumGPUs))
	}
	v.sbuf = srv
	slices.SortStableFunc(srv, func(a, b cluster.ServerID) int {
		if c := cmpF(v.avg[a], v.avg[b]); c != 0 || !capacityTie {
			return c
		}
		return v.c.Servers[b].NumGPUs - v.c.Servers[a].NumGPUs
	})
	need, capSum, m := lambda*float64(n), 0, 0
	for m < len(srv) && float64(capSum) < need {
		capSum += v.c.Servers[srv[m]].NumGPUs
		m++
	}
	l := v.buf[:0]
	for _, id := range srv[:m] {
		s := &v.c.Servers[id]
		from := len(l)
		for k := range s.NumGPUs {
			if g := s.FirstGPU + cluster.GPUID(k); v.eligible(g, w) {
				l = append(l, g)
			}
		}
		slices.SortStableFunc(l[from:], func(a, b cluster.GPUID) int { return cmpF(v.u[a], v.u[b]) })
	}
	v.buf = l
	if len(l) < n {
		return nil
	}
	if pickLeastU {
		slices.SortStableFunc(l, func(a, b cluster.GPUID) int { return cmpF(v.u[a], v.u[b]) })
	}
	return slices.Clone(l[:n])
}

// random is RAND (spec 004 §2.5): servers shuffled, the eligible GPUs of
// each shuffled, the first n of the concatenation. It draws only when the
// job fits, so a failed attempt leaves the stream untouched.
func (v *view) random(n int, w float64, r *rand.Rand) []cluster.GPUID {
	count := 0
	for g := range v.gpuEnd() {
		if v.eligible(g, w) {
			count++
		}
	}
	if count < n {
		return nil
	}
	order := r.Perm(v.servers)
	out := make([]cluster.GPUID, 0, n)
	for _, i := range order {
		s := &v.c.Servers[i]
		e := v.buf[:0]
		for k := range s.NumGPUs {
			if g := s.FirstGPU + cluster.GPUID(k); v.eligible(g, w) {
				e = append(e, g)
			}
		}
		v.buf = e
		r.Shuffle(len(e), func(a, b int) { e[a], e[b] = e[b], e[a] })
		for _, g := range e {
			if len(out) == n {
				return out
			}
			out = append(out, g)
		}
	}
	return out
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
