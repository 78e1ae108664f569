package engine

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

// firstFit starts every pending job on the first free GPUs, lowest IDs
// first; limit is the sharing limit the state enforces.
type firstFit struct{ limit int }

func (p firstFit) Options() Options { return Options{MaxJobsPerGPU: p.limit} }

func (p firstFit) Decide(s *State, _ []Trigger) error {
	for _, id := range s.Pending() {
		var gpus []cluster.GPUID
		for g := 0; g < s.Cluster().NumGPUs() && len(gpus) < s.Job(id).GPUs; g++ {
			if s.NumJobsOn(cluster.GPUID(g)) == 0 {
				gpus = append(gpus, cluster.GPUID(g))
			}
		}
		if len(gpus) == s.Job(id).GPUs {
			if err := s.Start(id, gpus, ActionOptions{}); err != nil {
				return err
			}
		}
	}
	return nil
}

// Job indices of midRun's state.
const (
	gang = 0 // 4 GPUs from t=0, on GPUs 0–3 (server 0)
	solo = 1 // 1 GPU from t=10, on GPU 4 (server 1)
	late = 2 // arrives at t=500
)

// midRun is a consistent state at t=10 of two servers of four 16 GB GPUs:
// gang holds GPUs 0–3 and solo GPU 4, 6 GB each; late has not arrived.
// It stops there by the time budget, so every book is settled.
func midRun(t *testing.T, limit int) *State {
	t.Helper()
	c, err := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{{Count: 2, GPUs: 4, GPUType: "V100", GPUMemoryGB: 16}}})
	if err != nil {
		t.Fatal(err)
	}
	m := perf.NewConstant(perf.ConstantParams{})
	jobs, err := workload.Finalize([]workload.Job{
		{Name: "gang", GPUs: 4, DurationS: 1000, Model: "m", MemoryGB: 6},
		{Name: "solo", ArrivalS: 10, GPUs: 1, DurationS: 1000, Model: "m", MemoryGB: 6},
		{Name: "late", ArrivalS: 500, GPUs: 1, DurationS: 1000, Model: "m", MemoryGB: 6},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Prepare(c, jobs); err != nil {
		t.Fatal(err)
	}
	s, err := newState(Config{Cluster: c, Jobs: jobs, Perf: m, Policy: firstFit{limit}, Budgets: Budgets{MaxTimeS: 100}})
	if err != nil {
		t.Fatal(err)
	}
	var budget *BudgetError
	if err := s.loop(context.Background()); !errors.As(err, &budget) || !budget.Time {
		t.Fatalf("the run should stop at the time budget, got %v", err)
	}
	if s.now != 10 || s.js[gang].status != Running || s.js[solo].status != Running || s.js[late].status != NotArrived {
		t.Fatalf("unexpected state at t=%v: %v %v %v", s.now, s.js[gang].status, s.js[solo].status, s.js[late].status)
	}
	if err := s.CheckInvariants(); err != nil {
		t.Fatalf("the uncorrupted state fails: %v", err)
	}
	return s
}

// list records job id on GPU g in the GPU books only, keeping every
// counter consistent, as a bug in occupy might.
func list(s *State, g cluster.GPUID, id workload.JobID) {
	if len(s.residents[g]) == 0 {
		s.setServerFree(s.c.GPUs[g].Server, -1)
		s.freeSlots[s.c.GPUs[g].Server] &^= 1 << s.c.GPUs[g].Slot
		s.busyGPUs++
	}
	s.residents[g] = append(s.residents[g], resident{job: id, since: s.now})
	s.load[g].mem += s.run(id).mem
	s.slots++
}

// unlist is list undone.
func unlist(s *State, g cluster.GPUID, id workload.JobID) {
	rs := s.residents[g]
	for k, r := range rs {
		if r.job == id {
			s.residents[g] = append(rs[:k], rs[k+1:]...)
			break
		}
	}
	s.load[g].mem -= s.run(id).mem
	s.slots--
	if len(s.residents[g]) == 0 {
		s.setServerFree(s.c.GPUs[g].Server, +1)
		s.freeSlots[s.c.GPUs[g].Server] |= 1 << s.c.GPUs[g].Slot
		s.busyGPUs--
	}
}

// CheckInvariants is given corrupt states, each with the error it must
// report. Each corruption keeps the other books consistent, so that only
// the invariant under test can catch it.
func TestCheckInvariantsCatchesCorruptStates(t *testing.T) {
	cases := []struct {
		name    string
		limit   int
		corrupt func(s *State)
		want    string
	}{
		{"GPU over its memory", 2, func(s *State) {
			s.run(solo).mem = 20
			s.load[4].mem = 20
		}, "GPU 4 holds 20 GB, over its 16 GB"},
		{"memory books disagree", 2, func(s *State) {
			s.load[4].mem = 3
		}, "GPU 4 memory books say 3 GB, residents hold 6 GB"},
		{"GPUs of another server it does not hold", 2, func(s *State) {
			for g := cluster.GPUID(4); g < 8; g++ {
				list(s, g, gang)
			}
		}, "job gang holds 4 GPUs but the GPU books list it on 8"},
		{"gang job on fewer GPUs than it needs", 2, func(s *State) {
			unlist(s, 3, gang)
			s.run(gang).gpus = s.run(gang).gpus[:3]
		}, "job gang holds 3 of its 4 GPUs"},
		{"job books name a GPU that does not list it", 2, func(s *State) {
			s.run(solo).gpus[0] = 5
		}, "job solo thinks it holds GPU 5, which does not list it"},
		{"more jobs per GPU than the sharing limit", 1, func(s *State) {
			list(s, 0, solo)
			s.run(solo).gpus = append(s.run(solo).gpus, 0)
		}, "GPU 0 holds 2 jobs, over the sharing limit 1"},
		{"free-GPU counters drift", 2, func(s *State) {
			s.freeTotal++
		}, "counters drifted"},
		{"free-slot masks drift", 2, func(s *State) {
			s.freeSlots[1] ^= 1 << 2
		}, "server 1 has free slots"},
		{"started before its arrival", 2, func(s *State) {
			s.js[solo].firstStart = 10 - 1e-13
		}, "job solo started at t=9.9999999999999, before its arrival at t=10"},
		{"restarted before its arrival", 2, func(s *State) {
			s.js[solo].lastStart = 9
		}, "job solo restarted at t=9, before its arrival at t=10"},
		{"pending before its arrival", 2, func(s *State) {
			s.js[late].status = Pending
			s.pending.add(late)
		}, "job late is pending at t=10, before its arrival at t=500"},
		{"an event due in the past", 2, func(s *State) {
			s.events.Push(mkEvent(5, WakeUp, -1, 0))
		}, "time goes back: a wake-up event is due at t=5, before the current time t=10"},
		{"an arrival in the past", 2, func(s *State) {
			s.now = 600
		}, "time goes back: job late arrives at t=500, before the current time t=600"},
		{"a job advanced into the future", 2, func(s *State) {
			s.run(gang).last = 11
		}, "time goes back: job gang was advanced to t=11, after the current time t=10"},
		{"more work done than the job has", 2, func(s *State) {
			s.js[gang].done = 2 * s.jobs[gang].Iterations
		}, "job gang did 2000 iterations of 1000"},
		{"a finished job on a GPU", 2, func(s *State) {
			s.js[solo].status = Finished
			s.running.remove(solo)
		}, "GPU 4 holds job solo, which is finished"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := midRun(t, tc.limit)
			tc.corrupt(s)
			err := s.CheckInvariants()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// The loop itself refuses to go back in time, invariants checked or not.
func TestLoopRefusesToGoBackInTime(t *testing.T) {
	s := midRun(t, 2)
	s.cfg.Budgets.MaxTimeS = 1e9
	s.events.Push(mkEvent(5, WakeUp, -1, 0))
	err := s.loop(context.Background())
	if err == nil || !strings.Contains(err.Error(), "time goes back from t=10 to t=5") {
		t.Fatalf("got %v", err)
	}
}

// A streamed run checks each finished job's work as its record is handed
// over: a job that did 99 of its 100 iterations fails the run, one that
// did all of them does not.
func TestHandOverChecksWork(t *testing.T) {
	var handed []string
	s := &State{jobs: []workload.Job{{ID: 0, Name: "a", Iterations: 100}, {ID: 1, Name: "b", Iterations: 100}},
		streaming: true, js: make([]jobRec, 4), recMask: 3, recTo: 2,
		cfg: Config{OnRecord: func(r *JobRecord) { handed = append(handed, r.Name) }}}
	s.js[0] = jobRec{status: Finished, done: 100}
	s.js[1] = jobRec{status: Finished, done: 99}
	s.final = true
	s.handOver()
	if len(handed) != 2 || s.workErr == nil || !strings.Contains(s.workErr.Error(), "job b finished after 99 of its 100 iterations") {
		t.Errorf("handed over %v, work error %v; want a and b, and b's 99 of 100 iterations", handed, s.workErr)
	}
}

// resetStall, written field by field, clears the whole watch but the
// longest overhead, as the literal it replaced did.
func TestResetStallClearsTheWatch(t *testing.T) {
	s := &State{now: 42, finished: 7}
	s.running.n = 1
	s.stall = stallWatch{progressed: true, events: 9, heldS: 3, sinceS: 1, lastS: 2, held: false, finished: 5, overheadS: 30}
	s.resetStall()
	want := stallWatch{sinceS: 42, lastS: 42, held: true, finished: 7, overheadS: 30}
	if s.stall != want {
		t.Errorf("after a reset the watch is %+v, want %+v", s.stall, want)
	}
}
