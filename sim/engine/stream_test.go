package engine_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy/fifo"
	"github.com/schedlab/schedlab/sim/workload"
)

// counting passes decisions to a policy and notes, at each, how many
// records have been handed over so far.
type counting struct {
	engine.Policy
	handed *int
	early  *int // decisions made after at least one record was handed over
}

func (p counting) Decide(s *engine.State, tr []engine.Trigger) error {
	if *p.handed > 0 {
		*p.early++
	}
	return p.Policy.Decide(s, tr)
}

// TestStreamedRecords checks that a streamed run (OnRecord) hands over
// the records a kept run returns, in the same order, and decides the
// same: the engine drops a job's record once handed over, and nothing a
// policy sees may change. It also checks that records come during the
// run, not all at its end.
func TestStreamedRecords(t *testing.T) {
	early := 0
	for seed := uint64(0); seed < 120; seed++ {
		rc := randomScenario(t, seed)
		policies := []func() engine.Policy{
			func() engine.Policy { return &chaos{limit: 1 + int(seed%3), r: rand.New(rand.NewPCG(seed, 2))} },
			func() engine.Policy { return fifo.New(fifo.Params{Backfill: seed%2 == 0}) },
		}
		for pi, mk := range policies {
			where := fmt.Sprintf("seed %d policy %d", seed, pi)
			cfg := engine.Config{Cluster: rc.c, Jobs: append([]workload.Job(nil), rc.jobs...), Perf: rc.m, Policy: mk(),
				Overheads: engine.Overheads{RestartS: float64(seed % 7), MigrationS: float64(seed % 5)},
				Paranoid:  true, Seed: seed}
			kept, err := engine.Run(context.Background(), cfg)
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			var got []engine.JobRecord
			handed := 0
			cfg.Jobs = append([]workload.Job(nil), rc.jobs...)
			cfg.Policy = counting{Policy: mk(), handed: &handed, early: &early}
			cfg.OnRecord = func(r *engine.JobRecord) { got = append(got, *r); handed++ }
			streamed, err := engine.Run(context.Background(), cfg)
			if err != nil {
				t.Fatalf("%s, streamed: %v", where, err)
			}
			if streamed.Jobs != nil {
				t.Fatalf("%s: a streamed run returned %d records", where, len(streamed.Jobs))
			}
			if !reflect.DeepEqual(got, kept.Jobs) {
				t.Fatalf("%s: streamed records differ from the kept ones:\n%+v\n%+v", where, got, kept.Jobs)
			}
			streamed.Jobs = kept.Jobs
			if !sameResult(streamed, kept) {
				t.Fatalf("%s: a streamed run decided differently", where)
			}
		}
	}
	if early < 50 {
		t.Errorf("only %d decisions came after a record was handed over: records are not streamed during the run", early)
	}
}

// reading is FIFO that, at each decision, adds up the run time of every
// finished job as Info gives it, asking for finished jobs' Info when
// finishedInfo is set.
type reading struct {
	engine.Policy
	finishedInfo bool
	sum          *float64
}

func (p reading) Options() engine.Options {
	o := p.Policy.Options()
	o.FinishedInfo = p.finishedInfo
	return o
}

func (p reading) Decide(s *engine.State, tr []engine.Trigger) error {
	for id := range workload.JobID(s.NumJobs()) {
		if s.Status(id) == engine.Finished {
			*p.sum += s.Info(id).RunTime
		}
	}
	return p.Policy.Decide(s, tr)
}

// TestFinishedInfo checks that a streamed run drops finished jobs'
// records (Info then gives their status alone), unless the policy asks
// for finished jobs' Info.
func TestFinishedInfo(t *testing.T) {
	dropped := 0
	for seed := uint64(0); seed < 40; seed++ {
		rc := randomScenario(t, seed)
		run := func(stream, finishedInfo bool) float64 {
			var sum float64
			cfg := engine.Config{Cluster: rc.c, Jobs: append([]workload.Job(nil), rc.jobs...), Perf: rc.m, Seed: seed,
				Policy: reading{Policy: fifo.New(fifo.Params{}), finishedInfo: finishedInfo, sum: &sum}}
			if stream {
				cfg.OnRecord = func(*engine.JobRecord) {}
			}
			if _, err := engine.Run(context.Background(), cfg); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			return sum
		}
		kept := run(false, false)
		if got := run(true, true); got != kept {
			t.Fatalf("seed %d: finished jobs' run time %v streamed with FinishedInfo, %v kept", seed, got, kept)
		}
		if run(true, false) != kept {
			dropped++
		}
	}
	if dropped < 10 {
		t.Errorf("a streamed run without FinishedInfo kept finished jobs' run times in %d of 40 runs", 40-dropped)
	}
}

// attainedCheck passes decisions to a policy after checking, for every
// job, that AttainedGPU and Starts are Info's.
type attainedCheck struct {
	engine.Policy
	bad *string
}

func (p attainedCheck) Decide(s *engine.State, tr []engine.Trigger) error {
	for id := range workload.JobID(s.NumJobs()) {
		info := s.Info(id)
		if a := s.AttainedGPU(id); a != info.AttainedGPU && *p.bad == "" {
			*p.bad = fmt.Sprintf("t=%v: job %d (%s) attained %v GPU-seconds, Info says %v", s.Now(), id, s.Status(id), a, info.AttainedGPU)
		}
		if n := s.Starts(id); n != info.Starts && *p.bad == "" {
			*p.bad = fmt.Sprintf("t=%v: job %d (%s) started %d times, Info says %d", s.Now(), id, s.Status(id), n, info.Starts)
		}
	}
	return p.Policy.Decide(s, tr)
}

// TestAttainedGPUIsInfos: AttainedGPU and Starts, asked of every job at
// every decision of preempting and streamed runs, are what Info says.
func TestAttainedGPUIsInfos(t *testing.T) {
	for seed := uint64(0); seed < 40; seed++ {
		rc := randomScenario(t, seed)
		var bad string
		cfg := engine.Config{Cluster: rc.c, Jobs: rc.jobs, Perf: rc.m, Seed: seed,
			Policy: attainedCheck{Policy: &chaos{limit: 1 + int(seed%3), r: rand.New(rand.NewPCG(seed, 2))}, bad: &bad}}
		if seed%2 == 1 {
			cfg.OnRecord = func(*engine.JobRecord) {}
		}
		if _, err := engine.Run(context.Background(), cfg); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if bad != "" {
			t.Fatalf("seed %d: %s", seed, bad)
		}
	}
}

// mostFreeCheck passes decisions to a policy after checking that
// MostFreeServer is the first server of its type EachServerByFree visits.
type mostFreeCheck struct {
	engine.Policy
	bad    *string
	looked *int
}

func (p mostFreeCheck) Decide(s *engine.State, tr []engine.Trigger) error {
	c := s.Cluster()
	for _, t := range append(c.Types(), "none") {
		for minFree := 0; minFree <= c.MaxGPUsPerServer()+1; minFree++ {
			var want cluster.ServerID
			wantFree, found := 0, false
			s.EachServerByFree(minFree, func(id cluster.ServerID, free int) bool {
				if c.Servers[id].Type == t {
					want, wantFree, found = id, free, true
				}
				return !found
			})
			id, free, ok := s.MostFreeServer(minFree, t)
			if (ok != found || id != want || free != wantFree) && *p.bad == "" {
				*p.bad = fmt.Sprintf("t=%v: MostFreeServer(%d, %s) = %d, %d, %v; the walk finds %d, %d, %v", s.Now(), minFree, t, id, free, ok, want, wantFree, found)
			}
			*p.looked++
		}
	}
	return p.Policy.Decide(s, tr)
}

// TestMostFreeServerIsTheWalks: MostFreeServer, asked for every GPU type
// and count at every decision, is the first server of that type the walk
// by free GPUs visits.
func TestMostFreeServerIsTheWalks(t *testing.T) {
	looked := 0
	for seed := uint64(0); seed < 40; seed++ {
		rc := randomScenario(t, seed)
		var bad string
		cfg := engine.Config{Cluster: rc.c, Jobs: rc.jobs, Perf: rc.m, Seed: seed,
			Policy: mostFreeCheck{Policy: &chaos{limit: 1 + int(seed%3), r: rand.New(rand.NewPCG(seed, 2))}, bad: &bad, looked: &looked}}
		if _, err := engine.Run(context.Background(), cfg); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if bad != "" {
			t.Fatalf("seed %d: %s", seed, bad)
		}
	}
	if looked < 1000 {
		t.Fatalf("only %d questions asked", looked)
	}
}
