package mechanism

import (
	"cmp"
	"fmt"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy/gavel/alloc"
	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/policy/policytest"
	"github.com/schedlab/schedlab/sim/workload"
)

// seen records the jobs each allocation was asked to plan over.
type seen struct {
	inner  plan.Allocator
	calls  int
	ids    []workload.JobID
	active int
}

func (r *seen) Allocate(in *plan.Input) (*plan.Allocation, error) {
	r.calls++
	r.ids = r.ids[:0]
	for _, p := range in.Jobs {
		r.ids = append(r.ids, p.ID)
	}
	r.active = in.ActiveJobs()
	return r.inner.Allocate(in)
}

// considerWatch checks at every recompute that the allocation planned
// over the running jobs and the first k waiting jobs of the order (a full
// sort of the queue by key, then arrival), in arrival order, and that it
// was told how many jobs are active.
type considerWatch struct {
	*Mechanism
	t     *testing.T
	rec   *seen
	k     int
	key   func(s *engine.State, id workload.JobID) float64 // nil: arrival order
	cut   int                                              // recomputes that left waiting jobs out
	least int                                              // fewest waiting jobs a bounded recompute held
}

func (w *considerWatch) Decide(s *engine.State, triggers []engine.Trigger) error {
	want := s.Running()
	waiting := s.Pending()
	if w.key != nil {
		slices.SortStableFunc(waiting, func(a, b workload.JobID) int { return cmp.Compare(w.key(s, a), w.key(s, b)) })
	}
	if len(waiting) > w.k {
		waiting = waiting[:w.k]
	}
	want = append(want, waiting...)
	slices.Sort(want)
	active := s.NumPending() + s.NumRunning()
	before := w.rec.calls
	if err := w.Mechanism.Decide(s, triggers); err != nil {
		return err
	}
	if w.rec.calls == before {
		return nil
	}
	if !slices.Equal(w.rec.ids, want) {
		w.t.Fatalf("t=%g: the allocation planned over %v, want the running jobs and the first %d waiting ones %v", s.Now(), w.rec.ids, w.k, want)
	}
	if w.rec.active != active {
		w.t.Fatalf("t=%g: the allocation was told of %d active jobs, want %d", s.Now(), w.rec.active, active)
	}
	if len(w.rec.ids) < active {
		w.cut++
		w.least = min(w.least, len(waiting))
	}
	return nil
}

// overloaded is n jobs of 1 or 2 GPUs arriving every 100 s with unequal
// durations, far more than four GPUs can serve as they come.
func overloaded(n int) []workload.Job {
	jobs := make([]workload.Job, n)
	for i := range jobs {
		jobs[i] = workload.Job{Name: fmt.Sprintf("j%02d", i), ArrivalS: float64(100 * i), Model: "m",
			GPUs: 1 + i%3/2, DurationS: float64(2000 + (i*7919)%9000)}
	}
	return jobs
}

func testConfig(a plan.Allocator, fifo bool, k int) Config {
	return Config{Title: "test", Alloc: a, Mode: "ref-compat", RoundS: 360, ResetMinS: 1920, TraceJobs: 0,
		Quirks: Quirks{ResetAtZero: true, IntegerSteps: true, SplitSteps: true, UnallocatedWait: true, IdleUntilArrival: true},
		FIFO:   fifo, MaxWaiting: k,
		Prices: func(types []string) ([]float64, error) { return make([]float64, len(types)), nil }}
}

// With max_waiting, every recompute plans over the running jobs and the
// first max_waiting waiting jobs: in arrival order (FIFO, finish-time
// fairness) and by a key (here the most iterations left first, unlike
// arrival order).
func TestMaxWaitingPlansOverTheFirstWaiting(t *testing.T) {
	const k = 3
	mostLeft := func(s *engine.State, id workload.JobID) float64 { return -s.Info(id).Remaining }
	cases := []struct {
		name string
		a    plan.Allocator
		fifo bool
		key  func(s *engine.State, id workload.JobID) float64
	}{
		{"fifo", &alloc.FIFO{Aware: true}, true, nil},
		{"ftf", &alloc.PerJob{Objective: "ftf", Aware: true, TieBreak: true, LPs: &alloc.LPs{}}, false, nil},
		{"fifo by key", &alloc.FIFO{Aware: true}, true, mostLeft},
	}
	for _, c := range cases {
		rec := &seen{inner: c.a}
		cfg := testConfig(rec, c.fifo, k)
		if c.key != nil {
			cfg.WaitingKey = func(remaining float64, _ []float64) float64 { return -remaining }
		}
		w := &considerWatch{Mechanism: New(cfg), t: t, rec: rec, k: k, key: c.key, least: k + 1}
		res := policytest.Run(t, policytest.Servers(t, 2, 2, "V100", 0), nil, w, overloaded(40))
		for _, j := range res.Jobs {
			if j.Status != engine.Finished {
				t.Fatalf("%s: job %s %s", c.name, j.Name, j.Status)
			}
		}
		if w.cut == 0 || w.least != k {
			t.Errorf("%s: %d recomputes left waiting jobs out (each holding %d waiting): the queue never passed max_waiting", c.name, w.cut, w.least)
		}
	}
}
