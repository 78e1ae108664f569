package policy

import (
	"math/bits"
	"sort"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

// consolidatedPick is the consolidated placement: n free GPUs of one type
// on as few servers as possible (the type that needs the fewest servers,
// the first on a tie). A job that fits on one server goes to the server
// its scores rank first (the emptiest under FewestServers, spec 000's
// ConsolidatedPick; the fullest that holds it under BestFit); a larger
// one, or one no server holds, spreads over the servers with the most
// free GPUs first. It returns nil when n usable GPUs are not free.
func consolidatedPick(p *Placement, r *Request, dst []cluster.GPUID) []cluster.GPUID {
	if r.gpus <= 0 || r.s.FreeGPUs() < r.gpus {
		return nil
	}
	if types := r.s.Cluster().Types(); len(types) == 1 && r.gpuType == "" {
		// one type to try, and every free GPU is of it: bestOfTypes
		// without its closure, at every start on a homogeneous cluster
		if !r.TypeOK(types[0]) {
			return nil
		}
		return pickOfType(p, r, types[0], dst)
	}
	return bestOfTypes(*r, dst, func(t string, dst []cluster.GPUID) []cluster.GPUID { return pickOfType(p, r, t, dst) })
}

// pickOfType is the consolidated placement on GPUs of type t, written
// into dst's array when it has room.
func pickOfType(p *Placement, r *Request, t string, dst []cluster.GPUID) []cluster.GPUID {
	s, n := r.s, r.gpus
	c := s.Cluster()
	// One server, if any can hold the whole job.
	if n <= c.MaxGPUsPerServer() {
		if one := oneServerRanked(p, r, t, n, nil, dst); one != nil {
			return one
		}
	}
	// Otherwise as few servers as possible: fullest-free first.
	out := gpuBuffer(dst, n)
	s.EachServerByFree(1, func(id cluster.ServerID, free int) bool {
		srv := &c.Servers[id]
		if srv.Type == t && (p.extra == nil || p.extraOK(*r, srv)) {
			out = takeFree(out, srv, n-len(out), r.fit())
		}
		return len(out) < n
	})
	if len(out) < n {
		return nil
	}
	return out
}

// oneServerRanked takes n usable GPUs on the server of type t (not one of
// skip) that the placement's scores rank first: by free GPUs through the
// engine's buckets when the scores order by them alone, otherwise by
// scoring every server that holds the job. They are written into dst's
// array when it has room.
func oneServerRanked(p *Placement, r *Request, t string, n int, skip []cluster.ServerID, dst []cluster.GPUID) []cluster.GPUID {
	if p.order == mostFree && skip == nil && p.extra == nil {
		// the walk's first server of type t, asked directly: it takes
		// the job unless memory refuses some of its GPUs (before the
		// walk's closure is made: this is the usual start)
		s := r.s
		id, _, ok := s.MostFreeServer(n, t)
		if !ok {
			return nil
		}
		if one := takeFree(gpuBuffer(dst, n), &s.Cluster().Servers[id], n, r.fit()); len(one) == n {
			return one
		}
	}
	return oneServerWalk(p, *r, t, n, skip, dst)
}

// oneServerWalk is oneServerRanked walking the servers in the order of
// the placement's scores.
func oneServerWalk(p *Placement, r Request, t string, n int, skip []cluster.ServerID, dst []cluster.GPUID) []cluster.GPUID {
	s := r.s
	c := s.Cluster()
	one := gpuBuffer(dst, n)
	try := func(id cluster.ServerID, free int) bool {
		srv := &c.Servers[id]
		if srv.Type != t || (skip != nil && containsServer(skip, id)) || (p.extra != nil && !p.extraOK(r, srv)) {
			return true
		}
		one = takeFree(one[:0], srv, n, r.fit())
		return len(one) < n
	}
	// direct calls, not a method value, so that the closures need no
	// allocation
	switch p.order {
	case mostFree:
		s.EachServerByFree(n, try)
	case leastFree:
		s.EachServerByFreeAsc(n, try)
	case byID:
		for _, id := range c.ServersOfType(t) {
			if s.ServerFree(id) >= n && !try(id, s.ServerFree(id)) {
				break
			}
		}
	default:
		if id, ok := bestScored(p, r, t, n, skip); ok {
			return takeFree(one, &c.Servers[id], n, r.fit())
		}
		return nil
	}
	if len(one) == n {
		return one
	}
	return nil
}

// gpuBuffer is dst emptied, or a new slice when dst has no room for n
// GPUs.
func gpuBuffer(dst []cluster.GPUID, n int) []cluster.GPUID {
	if cap(dst) < n {
		return make([]cluster.GPUID, 0, n)
	}
	return dst[:0]
}

// bestScored is the server of type t (not in skip) passing the
// placement's filters with n usable GPUs that its scores rank first, the
// lowest ID on a tie.
func bestScored(p *Placement, r Request, t string, n int, skip []cluster.ServerID) (cluster.ServerID, bool) {
	c := r.s.Cluster()
	var best cluster.ServerID
	var bestScores []float64
	found := false
	for _, id := range c.ServersOfType(t) {
		srv := &c.Servers[id]
		if r.s.ServerFree(id) < n || containsServer(skip, id) || !p.extraOK(r, srv) || countFree(srv, r.fit()) < n {
			continue
		}
		sc := make([]float64, len(p.scores))
		for i, f := range p.scores {
			sc[i] = f.Score(r, srv)
		}
		if !found || better(sc, bestScores) {
			best, bestScores, found = id, sc, true
		}
	}
	return best, found
}

// better compares score vectors: the first score decides, the next ones
// break its ties.
func better(a, b []float64) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] > b[i]
		}
	}
	return false
}

// takeFree appends up to want GPUs of srv that f accepts, in slot order.
func takeFree(out []cluster.GPUID, srv *cluster.Server, want int, f fitter) []cluster.GPUID {
	if free, ok := f.s.FreeSlots(srv.ID); ok {
		// the free slots alone, in the same order: at high load most of
		// a server's GPUs are busy
		for ; free != 0 && want > 0; free &= free - 1 {
			g := srv.FirstGPU + cluster.GPUID(bits.TrailingZeros64(free))
			if f.memOK(g) {
				out = append(out, g)
				want--
			}
		}
		return out
	}
	for i := 0; i < srv.NumGPUs && want > 0; i++ {
		g := srv.FirstGPU + cluster.GPUID(i)
		if f.ok(g) {
			out = append(out, g)
			want--
		}
	}
	return out
}

// SoloDuration estimates how long job id takes alone on a consolidated set
// of its GPUs under the policy's believed model: its L_k, the key of
// shortest-job-first policies.
func SoloDuration(s *engine.State, id workload.JobID) float64 {
	job := s.Job(id)
	c := s.Cluster()
	gpus := make([]cluster.GPUID, 0, job.GPUs)
	for _, srv := range c.Servers {
		if job.GPUType != "" && srv.Type != job.GPUType {
			continue
		}
		for i := 0; i < srv.NumGPUs && len(gpus) < job.GPUs; i++ {
			gpus = append(gpus, srv.FirstGPU+cluster.GPUID(i))
		}
		if len(gpus) == job.GPUs {
			break
		}
	}
	r := perf.SoloRate(s.Perf(), c, job, gpus)
	if r <= 0 {
		return job.DurationS
	}
	return job.Iterations / r
}

// ConsolidatedOrder sorts GPUs so that servers holding more of them come
// first (then by server and GPU ID): taking a prefix packs a job on as
// few servers as possible (spec 000's ConsolidatedPick).
func ConsolidatedOrder(c *cluster.Cluster, gpus []cluster.GPUID) []cluster.GPUID {
	count := map[cluster.ServerID]int{}
	for _, g := range gpus {
		count[c.GPUs[g].Server]++
	}
	out := append([]cluster.GPUID(nil), gpus...)
	sort.SliceStable(out, func(a, b int) bool {
		sa, sb := c.GPUs[out[a]].Server, c.GPUs[out[b]].Server
		if count[sa] != count[sb] {
			return count[sa] > count[sb]
		}
		if sa != sb {
			return sa < sb
		}
		return out[a] < out[b]
	})
	return out
}
