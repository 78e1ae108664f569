package policy

import (
	"sort"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

// Consolidated picks n free GPUs on as few servers as possible, all of one
// type (gpuType, or whichever type fits on the fewest servers when it is
// empty). Servers are taken with the most free GPUs first (spec 000's
// ConsolidatedPick); with bestFit, a job that fits on one server goes to
// the server with the fewest free GPUs that still fits it, which keeps
// large holes for large jobs. It returns nil when n GPUs are not free.
// mem is the memory per GPU the job needs (0 for none).
func Consolidated(s *engine.State, n int, gpuType string, mem float64, bestFit bool) []cluster.GPUID {
	if n <= 0 || s.FreeGPUs() < n {
		return nil
	}
	c := s.Cluster()
	if gpuType != "" || len(c.Types()) == 1 {
		t := gpuType
		if t == "" {
			t = c.Types()[0]
		}
		if s.FreeGPUsOfType(t) < n {
			return nil
		}
		return pickOfType(s, n, t, mem, bestFit)
	}
	var best []cluster.GPUID
	bestServers := 0
	for _, t := range c.Types() {
		if s.FreeGPUsOfType(t) < n {
			continue
		}
		g := pickOfType(s, n, t, mem, bestFit)
		if g == nil {
			continue
		}
		if k := c.ServersSpanned(g); best == nil || k < bestServers {
			best, bestServers = g, k
		}
	}
	return best
}

func pickOfType(s *engine.State, n int, t string, mem float64, bestFit bool) []cluster.GPUID {
	c := s.Cluster()
	fits := func(g cluster.GPUID) bool {
		return s.NumJobsOn(g) == 0 && (mem == 0 || s.MemoryFreeGB(g) >= mem)
	}
	// One server, if any can hold the whole job.
	if n <= c.MaxGPUsPerServer() {
		one := make([]cluster.GPUID, 0, n)
		try := func(id cluster.ServerID, free int) bool {
			srv := &c.Servers[id]
			if srv.Type != t {
				return true
			}
			one = takeFree(one[:0], srv, n, fits)
			return len(one) < n
		}
		// direct calls, not a method value, so that the closures need
		// no allocation
		if bestFit {
			s.EachServerByFreeAsc(n, try)
		} else {
			s.EachServerByFree(n, try)
		}
		if len(one) == n {
			return one
		}
	}
	// Otherwise as few servers as possible: fullest-free first.
	out := make([]cluster.GPUID, 0, n)
	s.EachServerByFree(1, func(id cluster.ServerID, free int) bool {
		srv := &c.Servers[id]
		if srv.Type == t {
			out = takeFree(out, srv, n-len(out), fits)
		}
		return len(out) < n
	})
	if len(out) < n {
		return nil
	}
	return out
}

// takeFree appends up to want GPUs of srv that pass fits, in slot order.
func takeFree(out []cluster.GPUID, srv *cluster.Server, want int, fits func(cluster.GPUID) bool) []cluster.GPUID {
	for i := 0; i < srv.NumGPUs && want > 0; i++ {
		g := srv.FirstGPU + cluster.GPUID(i)
		if fits(g) {
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
