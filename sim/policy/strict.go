package policy

import (
	"fmt"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
)

// strict is Tiresias' consolidated placement ("yarn" in its simulator,
// switch.py's ms_yarn_alloc_res): a job that fits on one server runs on
// one server or waits; a larger job takes whole free servers and puts
// the rest (its GPUs modulo the server size) on one more server, or
// waits. Servers are taken in ID order (first fit), as there; with
// BestFit the one-server part goes to the fullest server that holds it.
// Servers may differ in size: "fits on one server" means on the largest
// server of the job's type, and a whole server is taken only while it is
// no larger than what the job still needs. Tiresias also keeps a job
// under one switch; schedlab's racks are not a constraint here.
type strict struct{}

func (strict) Pick(s *engine.State, r Request) []cluster.GPUID {
	if r.GPUs <= 0 || s.FreeGPUs() < r.GPUs {
		return nil
	}
	c := s.Cluster()
	if r.Types != nil && r.GPUType == "" {
		return bestOfTypes(s, r.Types, func(t string) []cluster.GPUID { return strictOfType(s, r, t) })
	}
	if r.GPUType != "" || len(c.Types()) == 1 {
		t := r.GPUType
		if t == "" {
			t = c.Types()[0]
		}
		return strictOfType(s, r, t)
	}
	var best []cluster.GPUID
	bestServers := 0
	for _, t := range c.Types() { // the type needing the fewest servers, then by name
		if s.FreeGPUsOfType(t) < r.GPUs {
			continue
		}
		if g := strictOfType(s, r, t); g != nil {
			if k := c.ServersSpanned(g); best == nil || k < bestServers {
				best, bestServers = g, k
			}
		}
	}
	return best
}

func strictOfType(s *engine.State, r Request, t string) []cluster.GPUID {
	if s.FreeGPUsOfType(t) < r.GPUs {
		return nil
	}
	c := s.Cluster()
	fits := fitsFree(s, r.MemoryGB)
	if r.GPUs <= largestServer(c, t) {
		return oneServer(s, t, r.GPUs, r.BestFit, fits, nil)
	}
	out := make([]cluster.GPUID, 0, r.GPUs)
	var whole []cluster.ServerID
	for _, id := range c.ServersOfType(t) {
		srv := &c.Servers[id]
		if left := r.GPUs - len(out); left == 0 || srv.NumGPUs > left || countFree(srv, fits) < srv.NumGPUs {
			continue
		}
		out = takeFree(out, srv, srv.NumGPUs, fits)
		whole = append(whole, id)
	}
	if left := r.GPUs - len(out); left > 0 {
		rest := oneServer(s, t, left, r.BestFit, fits, whole)
		if rest == nil {
			return nil
		}
		out = append(out, rest...)
	}
	return out
}

// oneServer takes n GPUs on one server of type t, not one of skip: the
// first such server by ID, or with bestFit the one with the fewest free
// GPUs (then by ID).
func oneServer(s *engine.State, t string, n int, bestFit bool, fits func(cluster.GPUID) bool, skip []cluster.ServerID) []cluster.GPUID {
	c := s.Cluster()
	var pick *cluster.Server
	pickFree := 0
	for _, id := range c.ServersOfType(t) {
		if s.ServerFree(id) < n || containsServer(skip, id) {
			continue
		}
		srv := &c.Servers[id]
		k := countFree(srv, fits)
		if k < n || (pick != nil && (!bestFit || k >= pickFree)) {
			continue
		}
		pick, pickFree = srv, k
		if !bestFit {
			break
		}
	}
	if pick == nil {
		return nil
	}
	return takeFree(make([]cluster.GPUID, 0, n), pick, n, fits)
}

func containsServer(list []cluster.ServerID, id cluster.ServerID) bool {
	for _, x := range list {
		if x == id {
			return true
		}
	}
	return false
}

// largestServer is the most GPUs one server of type t has.
func largestServer(c *cluster.Cluster, t string) int {
	n := 0
	for _, id := range c.ServersOfType(t) {
		n = max(n, c.Servers[id].NumGPUs)
	}
	return n
}

func (strict) WhyNot(s *engine.State, r Request) string {
	free, onOne := freeStats(s, r)
	if free < r.GPUs {
		return tooFew(s, r, free)
	}
	c := s.Cluster()
	big := 0
	for _, t := range c.Types() {
		if r.GPUType == "" || t == r.GPUType {
			big = max(big, largestServer(c, t))
		}
	}
	if r.GPUs <= big {
		return fmt.Sprintf("%d %s free but no server has %d (at most %d on one); strict placement keeps a job on one server", free, gpuWords(r), r.GPUs, onOne)
	}
	need := fmt.Sprintf("%d whole servers", r.GPUs/big)
	if rest := r.GPUs % big; rest > 0 {
		need += fmt.Sprintf(" and %d GPUs on one more", rest)
	}
	return fmt.Sprintf("%d %s free, %d whole servers free; strict placement needs %s", free, gpuWords(r), wholeFree(s, r), need)
}

// wholeFree counts the servers whose GPUs are all free and fit the job.
func wholeFree(s *engine.State, r Request) int {
	c := s.Cluster()
	fits := fitsFree(s, r.MemoryGB)
	n := 0
	for i := range c.Servers {
		srv := &c.Servers[i]
		if (r.GPUType == "" || srv.Type == r.GPUType) && countFree(srv, fits) == srv.NumGPUs {
			n++
		}
	}
	return n
}
