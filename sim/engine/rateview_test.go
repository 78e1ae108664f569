package engine

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

// sharer starts each pending job on random GPUs, up to two jobs a GPU,
// and at every decision checks RateView against the methods it stands
// for, for every job (not arrived, pending, running, finished). It also
// preempts and migrates running jobs at random, so that neighbours come
// to share a GPU and leave it in every way; with copies, up to three
// jobs a GPU, and a job may take a GPU twice.
type sharer struct {
	t                    *testing.T
	r                    *rand.Rand
	checked, alone, busy *int
	copies               bool
}

func (p sharer) Options() Options {
	if p.copies {
		return Options{MaxJobsPerGPU: 3, SameJobColocation: true}
	}
	return Options{MaxJobsPerGPU: 2}
}

// gpusFor draws n GPUs holding fewer than limit jobs each, or nil; with
// copies, a GPU drawn may be drawn again.
func (p sharer) gpusFor(s *State, n, limit int) []cluster.GPUID {
	var gpus []cluster.GPUID
	for _, g := range p.r.Perm(s.Cluster().NumGPUs()) {
		if len(gpus) < n && s.NumJobsOn(cluster.GPUID(g)) < limit {
			gpus = append(gpus, cluster.GPUID(g))
			if p.copies && len(gpus) < n && p.r.IntN(3) == 0 && s.NumJobsOn(cluster.GPUID(g))+1 < limit {
				gpus = append(gpus, cluster.GPUID(g))
			}
		}
	}
	if len(gpus) != n {
		return nil
	}
	return gpus
}

func (p sharer) Decide(s *State, _ []Trigger) error {
	for id := range workload.JobID(s.NumJobs()) {
		c, j, gpus, alone := s.RateView(id)
		want := s.Placement(id).GPUs
		wantAlone := true
		for _, g := range want {
			wantAlone = wantAlone && s.NumJobsOn(g) == 1
		}
		if c != s.Cluster() || j != s.Job(id) || !slices.Equal(gpus, want) || (gpus == nil) != (want == nil) || alone != wantAlone {
			p.t.Fatalf("t=%v, job %d: RateView gives %p %p %v %v, want %p %p %v %v", s.Now(), id, c, j, gpus, alone, s.Cluster(), s.Job(id), want, wantAlone)
		}
		*p.checked++
		if len(gpus) > 0 && alone {
			*p.alone++
		} else if len(gpus) > 0 {
			*p.busy++
		}
	}
	top := p.Options().MaxJobsPerGPU
	for _, id := range slices.Clone(s.Running()) {
		switch p.r.IntN(8) {
		case 0:
			marked := s.active(id).dirty
			if err := s.Preempt(id); err != nil {
				return err
			}
			// its neighbours' rates change, its own is gone: release
			// marks the neighbours alone
			if !marked && slices.Contains(s.dirtyList, id) {
				p.t.Fatalf("t=%v: job %d, preempted, is marked for a rate it no longer has", s.Now(), id)
			}
		case 1:
			// its own GPUs count against the limit here, so that the
			// engine never refuses the move
			if gpus := p.gpusFor(s, s.Job(id).GPUs, top-1); gpus != nil {
				if err := s.Migrate(id, gpus, ActionOptions{}); err != nil {
					return err
				}
			}
		}
	}
	for _, id := range s.Pending() {
		limit := 1 + p.r.IntN(top) // some jobs only on free GPUs
		if gpus := p.gpusFor(s, s.Job(id).GPUs, limit); gpus != nil {
			if err := s.Start(id, gpus, ActionOptions{}); err != nil {
				return err
			}
		}
	}
	return nil
}

// TestRateViewIsTheMethods: RateView answers what Cluster, Job,
// Placement and NumJobsOn answer, on GPUs held by one job and by two.
func TestRateViewIsTheMethods(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 9))
	c, jobs, m := sharerBed(t, r, 60, 2000, nil)
	// under each coupling, as it decides what a start or an end marks
	for _, coupling := range []perf.Coupling{perf.Independent, perf.SharedGPU, perf.SharedServer, perf.Global} {
		for _, copies := range []bool{false, true} {
			checked, alone, busy := 0, 0, 0
			p := sharer{t: t, r: r, checked: &checked, alone: &alone, busy: &busy, copies: copies}
			// Paranoid: the invariants compare each job's kept count of
			// shared GPUs with its GPUs' residents after every decision
			if _, err := Run(context.Background(), Config{Cluster: c, Jobs: jobs, Perf: coupled{m, coupling}, Policy: p, Paranoid: true}); err != nil {
				t.Fatal(err)
			}
			if alone < 10 || busy < 100 {
				t.Fatalf("coupling %v, copies %v: %d checks, only %d of a job alone and %d of a job sharing", coupling, copies, checked, alone, busy)
			}
		}
	}
}

// coupled is a model with another coupling.
type coupled struct {
	perf.Model
	c perf.Coupling
}

func (m coupled) Coupling() perf.Coupling { return m.c }
