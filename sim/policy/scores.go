package policy

import (
	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

// A Score rates a server that passed every filter, higher is better: the
// score stage of the Kubernetes scheduler framework. A placement ranks
// the servers a job that fits on one server may take by its scores, the
// first deciding and the next breaking ties, then by server ID.
type Score interface {
	// Name names the score in explanations, e.g. "best-fit".
	Name() string
	// Score rates server srv for job r.
	Score(r Request, srv *cluster.Server) float64
}

// FewestServers rates a server by its free GPUs: a job spreads over the
// emptiest servers first, so it spans as few as possible, and a job that
// fits on one goes to the emptiest (spec 000's ConsolidatedPick).
type FewestServers struct{}

// Name implements Score.
func (FewestServers) Name() string { return "fewest-servers" }

// Score implements Score.
func (FewestServers) Score(r Request, srv *cluster.Server) float64 {
	return float64(r.s.ServerFree(srv.ID))
}

// BestFit rates a server by minus its free GPUs: a job goes to the
// fullest server that still holds it, which keeps large holes for large
// jobs.
type BestFit struct{}

// Name implements Score.
func (BestFit) Name() string { return "best-fit" }

// Score implements Score.
func (BestFit) Score(r Request, srv *cluster.Server) float64 {
	return -float64(r.s.ServerFree(srv.ID))
}

// Interference rates a server by minus the slowdown the job would suffer
// beside the jobs already on the server's GPUs, from the believed perf
// model's pair slowdowns (ξ, the largest over those jobs; 1 on an empty
// server): quieter neighbours rank first. In schedlab's perf models only
// jobs that share a GPU slow each other down, so it matters to
// placements that share GPUs; on free GPUs it only reads who is near.
type Interference struct{}

// Name implements Score.
func (Interference) Name() string { return "interference" }

// Score implements Score.
func (Interference) Score(r Request, srv *cluster.Server) float64 {
	job := r.s.Job(r.id)
	xi := 1.0
	eachResident(r, srv, func(x workload.JobID) {
		xi = max(xi, perf.PairSlowdown(r.s.Perf(), job, r.s.Job(x)))
	})
	return -xi
}

// PairMatch rates a server by the best pair the job would make with a job
// already on it: the pair's combined normalised throughput (each job's
// rate beside the other over its rate alone on the same GPUs, summed, as
// Tesserae's packing matching weighs pairs), under the believed perf
// model; 0 on a server with no job. Above 1, sharing gets more done than
// either job alone.
type PairMatch struct{}

// Name implements Score.
func (PairMatch) Name() string { return "pair-match" }

// Score implements Score.
func (PairMatch) Score(r Request, srv *cluster.Server) float64 {
	s := r.s
	m, c, job := s.Perf(), s.Cluster(), s.Job(r.id)
	best := 0.0
	eachResident(r, srv, func(x workload.JobID) {
		other := s.Job(x)
		gpus := s.GPUsOf(x)
		ra, rb := perf.PairRates(m, c, job, other, gpus)
		sa, sb := perf.SoloRate(m, c, job, gpus), perf.SoloRate(m, c, other, gpus)
		if sa > 0 && sb > 0 {
			best = max(best, ra/sa+rb/sb)
		}
	})
	return best
}

// eachResident calls fn once for each job holding a GPU of srv, in the
// order the GPUs and their jobs come.
func eachResident(r Request, srv *cluster.Server, fn func(workload.JobID)) {
	var seen []workload.JobID
	for i := 0; i < srv.NumGPUs; i++ {
		for _, x := range r.s.JobsOn(srv.FirstGPU + cluster.GPUID(i)) {
			if x != r.id && !containsJob(seen, x) {
				seen = append(seen, x)
				fn(x)
			}
		}
	}
}

func containsJob(list []workload.JobID, id workload.JobID) bool {
	for _, x := range list {
		if x == id {
			return true
		}
	}
	return false
}

// freeOrder is how a placement walks servers for a one-server job: by
// ID, by free GPUs through the engine's buckets (the presets' scores
// order by nothing else), or by scoring each server.
type freeOrder uint8

const (
	byID freeOrder = iota
	mostFree
	leastFree
	scored
)

func orderOf(scores []Score) freeOrder {
	if len(scores) == 0 {
		return byID
	}
	if len(scores) == 1 {
		switch scores[0].(type) {
		case FewestServers:
			return mostFree
		case BestFit:
			return leastFree
		}
	}
	return scored
}
