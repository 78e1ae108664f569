package pollux

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy/policytest"
	"github.com/schedlab/schedlab/sim/workload"
)

// firstByFullSort is the first k waiting jobs in Pollux's order, found by
// sorting the whole queue: what ranWaiting.first must match.
func firstByFullSort(s *engine.State, k int) []workload.JobID {
	var all []*active
	s.EachPending(func(id workload.JobID) bool {
		all = append(all, &active{id: id, attained: s.Info(id).AttainedGPU, arrival: s.Job(id).ArrivalS})
		return true
	})
	sort.Slice(all, func(a, b int) bool { return all[a].before(all[b]) })
	var out []workload.JobID
	for _, j := range all[:min(k, len(all))] {
		out = append(out, j.id)
	}
	return out
}

// churn starts and preempts one-GPU jobs at random, filing the preempted
// ones as Pollux does, and at every instant compares ranWaiting.first with
// a sort of the whole queue.
type churn struct {
	t        *testing.T
	rng      *rand.Rand
	r        ranWaiting
	checks   int
	filedWas int // checks at which a preempted job was among the waiting
}

func (c *churn) Options() engine.Options {
	return engine.Options{MaxJobsPerGPU: 1, Subscribe: engine.Mask(engine.Arrival, engine.Completion, engine.WakeUp)}
}

func (c *churn) Decide(s *engine.State, _ []engine.Trigger) error {
	for _, k := range []int{1, 2, 5, 1000} {
		got := []workload.JobID{}
		c.r.first(s, k, func(id workload.JobID) bool { got = append(got, id); return true })
		want := firstByFullSort(s, k)
		if len(want) == 0 {
			want = []workload.JobID{}
		}
		if !reflect.DeepEqual(got, want) {
			c.t.Fatalf("t=%g, k=%d: first gave %v, a full sort %v", s.Now(), k, got, want)
		}
		c.checks++
	}
	if slices.ContainsFunc(s.Pending(), func(id workload.JobID) bool { return s.Info(id).Starts > 0 }) {
		c.filedWas++
	}
	// Preempt some running jobs (filing them), then start waiting jobs in
	// a random order on the free GPUs.
	for _, id := range s.Running() {
		if c.rng.IntN(3) == 0 {
			if err := s.Preempt(id); err != nil {
				return err
			}
			c.r.file(s, id)
		}
	}
	pending := s.Pending()
	c.rng.Shuffle(len(pending), func(a, b int) { pending[a], pending[b] = pending[b], pending[a] })
	for _, id := range pending {
		if c.rng.IntN(2) == 0 {
			continue
		}
		for g := range s.Cluster().GPUs {
			if s.NumJobsOn(cluster.GPUID(g)) == 0 {
				if err := s.Start(id, []cluster.GPUID{cluster.GPUID(g)}, engine.ActionOptions{}); err != nil {
					return err
				}
				break
			}
		}
	}
	if s.NumPending()+s.NumRunning() == 0 {
		return nil
	}
	return s.WakeAt(s.Now() + 50)
}

// ranWaiting.first gives the first k waiting jobs in Pollux's order
// (least attained service, then earliest arrival) while jobs start, are
// preempted (waiting again with service received) and start again: the
// same jobs in the same order as a sort of the whole queue.
func TestFirstWaitingMatchesAFullSort(t *testing.T) {
	var jobs []workload.Job
	rng := rand.New(rand.NewPCG(7, 1))
	for i := range 40 {
		// Some arrive together, so that ties on arrival fall to the id.
		jobs = append(jobs, workload.Job{Name: fmt.Sprintf("j%d", i), Model: "cifar10", GPUs: 1,
			DurationS: float64(100 + rng.IntN(900)), ArrivalS: float64(20 * (i / 3))})
	}
	c := &churn{t: t, rng: rand.New(rand.NewPCG(3, 4))}
	res := policytest.Run(t, policytest.Servers(t, 2, 2, "V100", 0), nil, c, jobs)
	for _, j := range res.Jobs {
		if j.Status != engine.Finished {
			t.Fatalf("%s: %s", j.Name, j.Status)
		}
	}
	if c.checks == 0 || c.filedWas < 5 {
		t.Fatalf("%d checks, %d with a preempted job waiting: the test did not exercise the preempted jobs", c.checks, c.filedWas)
	}
}

// roundWatch runs Pollux and, at every round, records the waiting jobs
// the round considered (those in p.jobs holding nothing) against the
// first max_waiting of a full sort taken just before.
type roundWatch struct {
	*pollux
	t          *testing.T
	rounds     int
	cut        int // rounds at which some waiting jobs were left out
	considered int // most waiting jobs one round considered
}

func (w *roundWatch) Decide(s *engine.State, triggers []engine.Trigger) error {
	if !w.roundDue(s, triggers) {
		return w.pollux.Decide(s, triggers)
	}
	k := w.p.MaxWaiting
	want := firstByFullSort(s, k)
	if s.NumPending() > k {
		w.cut++
	}
	if err := w.pollux.Decide(s, triggers); err != nil {
		return err
	}
	var got []workload.JobID
	for _, j := range w.jobs {
		if j.cur == 0 {
			got = append(got, j.id)
		}
	}
	if !reflect.DeepEqual(got, want) {
		w.t.Fatalf("t=%g: the round considered waiting jobs %v, want the first %d in Pollux's order %v", s.Now(), got, k, want)
	}
	w.rounds++
	w.considered = max(w.considered, len(got))
	return nil
}

func overloaded() []workload.Job {
	var jobs []workload.Job
	rng := rand.New(rand.NewPCG(11, 2))
	for i := range 60 {
		jobs = append(jobs, workload.Job{Name: fmt.Sprintf("j%d", i), Model: []string{"cifar10", "ncf", "imagenet"}[i%3],
			GPUs: 1 + rng.IntN(2), DurationS: float64(300 + rng.IntN(1500)), ArrivalS: float64(15 * i)})
	}
	return jobs
}

// With max_waiting, each round considers the running jobs and the first
// max_waiting waiting jobs in Pollux's order, no others; every job still
// finishes. The queue here grows far beyond it, so rounds do leave jobs out.
func TestMaxWaitingConsidersTheFirstWaiting(t *testing.T) {
	p := defaults()
	p.MaxWaiting = 3
	w := &roundWatch{pollux: &pollux{p: p}, t: t}
	spec := cluster.Spec{Servers: []cluster.ServerGroup{{Count: 1, GPUs: 4, GPUType: "2080Ti", GPUMemoryGB: 11}}}
	c := policytest.Cluster(t, spec)
	m, err := perf.NewAnalytic(*perf.DefaultAnalyticParams(), c)
	if err != nil {
		t.Fatal(err)
	}
	r := policytest.Run(t, c, m, w, overloaded())
	for _, j := range r.Jobs {
		if j.Status != engine.Finished {
			t.Fatalf("%s: %s", j.Name, j.Status)
		}
	}
	if w.cut < 10 || w.considered != 3 {
		t.Fatalf("%d rounds, %d of them with more than 3 waiting, at most %d waiting jobs considered: the queue never grew past max_waiting", w.rounds, w.cut, w.considered)
	}
}

// A max_waiting that the queue never reaches changes nothing: the same
// records as without it, to the bit.
func TestMaxWaitingAboveTheQueueChangesNothing(t *testing.T) {
	spec := cluster.Spec{Servers: []cluster.ServerGroup{{Count: 1, GPUs: 4, GPUType: "2080Ti", GPUMemoryGB: 11}}}
	p := defaults()
	off, _, _ := runSpec(t, spec, p, overloaded(), engine.Budgets{})
	p.MaxWaiting = 60
	on, _, _ := runSpec(t, spec, p, overloaded(), engine.Budgets{})
	if !reflect.DeepEqual(off.Jobs, on.Jobs) {
		t.Error("max_waiting 60 with 60 jobs changed the records")
	}
	// A smaller one does change them on this queue (so the test above is
	// not comparing two runs that ignore the knob).
	p.MaxWaiting = 2
	cut, _, _ := runSpec(t, spec, p, overloaded(), engine.Budgets{})
	if reflect.DeepEqual(off.Jobs, cut.Jobs) {
		t.Error("max_waiting 2 left every record as without it")
	}
}
