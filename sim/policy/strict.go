package policy

import (
	"fmt"

	"github.com/schedlab/schedlab/sim/cluster"
)

// strictPick is Tiresias' consolidated placement ("yarn" in its simulator,
// switch.py's ms_yarn_alloc_res): a job that fits on one server runs on
// one server or waits; a larger job takes whole free servers and puts
// the rest (its GPUs modulo the server size) on one more server, or
// waits. Servers are taken in ID order (first fit), as there; with
// BestFit the one-server part goes to the fullest server that holds it.
// Servers may differ in size: "fits on one server" means on the largest
// server of the job's type, and a whole server is taken only while it is
// no larger than what the job still needs. Tiresias also keeps a job
// under one switch; schedlab's racks are not a constraint here.
//
// StrictShapeFilter describes this rule server by server, for
// explanations; strictPick applies it to the whole set at once.
func strictPick(p *Placement, r Request, dst []cluster.GPUID) []cluster.GPUID {
	if r.gpus <= 0 || r.s.FreeGPUs() < r.gpus {
		return nil
	}
	return bestOfTypes(r, dst, func(t string, dst []cluster.GPUID) []cluster.GPUID { return strictOfType(p, r, t, dst) })
}

// strictOfType is the strict placement on GPUs of type t, written into
// dst's array when it has room.
func strictOfType(p *Placement, r Request, t string, dst []cluster.GPUID) []cluster.GPUID {
	s := r.s
	c := s.Cluster()
	if r.gpus <= largestServer(c, t) {
		return oneServerRanked(p, &r, t, r.gpus, nil, dst)
	}
	out := gpuBuffer(dst, r.gpus)
	var whole []cluster.ServerID
	for _, id := range c.ServersOfType(t) {
		srv := &c.Servers[id]
		if left := r.gpus - len(out); left == 0 || srv.NumGPUs > left || countFree(srv, r.fit()) < srv.NumGPUs || (p.extra != nil && !p.extraOK(r, srv)) {
			continue
		}
		out = takeFree(out, srv, srv.NumGPUs, r.fit())
		whole = append(whole, id)
	}
	if left := r.gpus - len(out); left > 0 {
		rest := oneServerRanked(p, &r, t, left, whole, nil)
		if rest == nil {
			return nil
		}
		out = append(out, rest...)
	}
	return out
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
	if len(c.Types()) == 1 && t == c.Types()[0] {
		return c.MaxGPUsPerServer()
	}
	n := 0
	for _, id := range c.ServersOfType(t) {
		n = max(n, c.Servers[id].NumGPUs)
	}
	return n
}

func strictWhyNot(r Request) string {
	free, onOne := freeStats(r)
	if free < r.gpus {
		return tooFew(r, free)
	}
	c := r.s.Cluster()
	big := 0
	for _, t := range c.Types() {
		if r.gpuType == "" || t == r.gpuType {
			big = max(big, largestServer(c, t))
		}
	}
	if r.gpus <= big {
		return fmt.Sprintf("%d %s free but no server has %d (at most %d on one); strict placement keeps a job on one server", free, gpuWords(r), r.gpus, onOne)
	}
	need := fmt.Sprintf("%d whole servers", r.gpus/big)
	if rest := r.gpus % big; rest > 0 {
		need += fmt.Sprintf(" and %d GPUs on one more", rest)
	}
	return fmt.Sprintf("%d %s free, %d whole servers free; strict placement needs %s", free, gpuWords(r), wholeFree(r), need)
}

// wholeFree counts the servers whose GPUs are all free and fit the job.
func wholeFree(r Request) int {
	c := r.s.Cluster()
	n := 0
	for i := range c.Servers {
		srv := &c.Servers[i]
		if (r.gpuType == "" || srv.Type == r.gpuType) && countFree(srv, r.fit()) == srv.NumGPUs {
			n++
		}
	}
	return n
}
