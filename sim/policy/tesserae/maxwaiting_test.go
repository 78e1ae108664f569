package tesserae

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy/policytest"
	"github.com/schedlab/schedlab/sim/workload"
)

// considerWatch checks, at every round, that the jobs the round ranked
// are the running ones and the first max_waiting waiting ones of the full
// order (a sort of every active job), in that order.
type considerWatch struct {
	*placer
	t        *testing.T
	cut      int // rounds that left waiting jobs out
	maxTaken int // most waiting jobs one round took
}

func (w *considerWatch) Decide(s *engine.State, triggers []engine.Trigger) error {
	round := s.NumRunning() == 0 || slices.ContainsFunc(triggers, func(tr engine.Trigger) bool { return tr.Kind == engine.WakeUp })
	if !round {
		return w.placer.Decide(s, triggers)
	}
	k := w.p.MaxWaiting
	var want []workload.JobID
	taken := 0
	for _, id := range sortedActive(w.placer, s) {
		if s.Status(id) == engine.Pending {
			if taken == k {
				w.cut++
				continue
			}
			taken++
		}
		want = append(want, id)
	}
	w.maxTaken = max(w.maxTaken, taken)
	if len(w.rank) != s.NumJobs() {
		w.rank = make([]int32, s.NumJobs())
	}
	for i := range w.rank {
		w.rank[i] = -1 // ranked this round: 0 and up
	}
	if err := w.placer.Decide(s, triggers); err != nil {
		return err
	}
	got := make([]workload.JobID, len(want))
	n := 0
	for id, r := range w.rank {
		if r >= 0 {
			n++
			if int(r) >= len(got) {
				w.t.Fatalf("t=%g: job %d ranked %d of %d considered", s.Now(), id, r, len(want))
			}
			got[r] = workload.JobID(id)
		}
	}
	if n != len(want) || !slices.Equal(got, want) {
		w.t.Fatalf("t=%g, order %s: the round considered %v, want the running jobs and the first %d waiting ones %v", s.Now(), w.p.Order, got[:min(n, len(got))], k, want)
	}
	return nil
}

// With max_waiting, a round considers every running job and the first
// max_waiting waiting jobs of the order, under each order (ftf's selects
// them with a heap, las's and fifo's stop the kept order early).
func TestMaxWaitingConsidersTheFirstWaiting(t *testing.T) {
	jobs := overloaded(300, 16, 9)
	for _, order := range []string{"las", "fifo", "ftf"} {
		p := DefaultParams()
		p.Order, p.MaxWaiting = order, 5
		pol, err := New(p)
		if err != nil {
			t.Fatal(err)
		}
		w := &considerWatch{placer: pol.(*placer), t: t}
		res := policytest.Run(t, policytest.Servers(t, 4, 4, "A100", 0), bloxModel(t), w, jobs)
		for _, j := range res.Jobs {
			if j.Status != engine.Finished {
				t.Fatalf("order %s: %s %s", order, j.Name, j.Status)
			}
		}
		if w.cut == 0 || w.maxTaken != 5 {
			t.Errorf("order %s: %d waiting jobs left out over the run, at most %d taken in a round: the queue never passed max_waiting", order, w.cut, w.maxTaken)
		}
	}
}

// A max_waiting the queue never reaches changes nothing; a small one does.
func TestMaxWaitingAboveTheQueueChangesNothing(t *testing.T) {
	jobs := overloaded(200, 16, 4)
	for _, v := range variants {
		for _, order := range []string{"las", "fifo", "ftf"} {
			p := DefaultParams()
			v.set(&p)
			p.Order = order
			off := runOrder(t, 4, jobs, p, false, true)
			p.MaxWaiting = len(jobs)
			on := runOrder(t, 4, jobs, p, false, true)
			if !reflect.DeepEqual(off.Jobs, on.Jobs) || !reflect.DeepEqual(off.Intervals, on.Intervals) || !reflect.DeepEqual(logLines(off), logLines(on)) {
				t.Errorf("%s, order %s: max_waiting %d with %d jobs changed the run", v.name, order, len(jobs), len(jobs))
			}
			p.MaxWaiting = 2
			if cut := runOrder(t, 4, jobs, p, false, true); reflect.DeepEqual(off.Jobs, cut.Jobs) {
				t.Errorf("%s, order %s: max_waiting 2 changed nothing, so the comparison above shows little", v.name, order)
			}
		}
	}
}

// A negative max_waiting is refused, naming the parameter.
func TestMaxWaitingNegative(t *testing.T) {
	p := DefaultParams()
	p.MaxWaiting = -3
	if _, err := New(p); err == nil || !strings.Contains(err.Error(), "max_waiting: must be at least 0") {
		t.Errorf("max_waiting -3: %v", err)
	}
}
