package engine

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/sim/workload"
)

// statusChecker compares, at every decision, Status (the kept copy)
// with the status of the job's record as rec has it (the plain path),
// for every job and a few ids outside the run, then decides as sharer.
type statusChecker struct {
	sharer
	seen map[Status]int
}

func (p statusChecker) Decide(s *State, tr []Trigger) error {
	for id := workload.JobID(-2); int(id) < s.NumJobs()+2; id++ {
		if got, want := s.Status(id), s.rec(id).status; got != want {
			p.t.Fatalf("t=%v, job %d: Status says %s, its record %s", s.Now(), id, got, want)
		}
		p.seen[s.Status(id)]++
	}
	return p.sharer.Decide(s, tr)
}

// TestStatusIsTheRecords: Status answers what each job's record says,
// kept and streamed (where a handed-over record is gone), for jobs not
// arrived, pending, running, finished and never to run.
func TestStatusIsTheRecords(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 11))
	c, jobs, m := sharerBed(t, r, 80, 3000, func(i, drawn int) int {
		if i%17 == 3 {
			return 16 // more than the cluster has: unschedulable
		}
		return drawn
	})
	for _, streamed := range []bool{false, true} {
		checked, alone, busy := 0, 0, 0
		p := statusChecker{sharer: sharer{t: t, r: r, checked: &checked, alone: &alone, busy: &busy}, seen: map[Status]int{}}
		cfg := Config{Cluster: c, Jobs: jobs, Perf: m, Policy: p, Paranoid: true}
		if streamed {
			cfg.OnRecord = func(*JobRecord) {}
		}
		if _, err := Run(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		for st := NotArrived; st <= Unschedulable; st++ {
			if p.seen[st] == 0 {
				t.Errorf("streamed %v: no job was seen %s", streamed, st)
			}
		}
	}
}
