package tesserae

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy/policytest"
	"github.com/schedlab/schedlab/sim/workload"
)

// overloaded is n jobs shaped like the Philly log (mostly one GPU, run
// times from minutes to hours) of the Blox models, arriving about four
// times faster than gpus GPUs serve them.
func overloaded(n, gpus int, seed uint64) []workload.Job {
	r := rand.New(rand.NewPCG(seed, 24))
	ms := []string{"resnet50", "vgg19", "DCGAN", "PointNet", "Bert-Large", "GPT2-Medium"}
	jobs := make([]workload.Job, n)
	t := 0.0
	for i := range jobs {
		g := []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 4, 8}[r.IntN(16)]
		mean := []float64{600, 1800, 7200, 36000}[r.IntN(4)] / float64(g)
		jobs[i] = workload.Job{Name: fmt.Sprintf("j%d", i), Model: ms[r.IntN(len(ms))], GPUs: g,
			ArrivalS: t, DurationS: 60 + mean*r.ExpFloat64()}
		t += 9000 / float64(4*gpus) * r.ExpFloat64()
	}
	return jobs
}

// runOrder runs jobs on servers × 4 GPUs under Tesserae with p, sorting
// every active job every round when sortAll is set.
func runOrder(tb testing.TB, servers int, jobs []workload.Job, p Params, sortAll, log bool) *engine.Result {
	tb.Helper()
	pol, err := New(p)
	if err != nil {
		tb.Fatal(err)
	}
	if sortAll {
		pl := pol.(*placer)
		pl.ref = func(s *engine.State) []workload.JobID { return sortedActive(pl, s) }
	}
	opts := []policytest.Option{policytest.FullLog()}
	if !log {
		opts = append(opts, policytest.Bench())
	}
	return policytest.Run(tb, policytest.Servers(tb, servers, 4, "A100", 0), bloxModel(tb), pol, jobs, opts...).Result
}

// sortedActive is the order as it was computed before the kept order and
// the cached keys: every active job sorted every round, each comparison
// computing both keys.
func sortedActive(t *placer, s *engine.State) []workload.JobID {
	var ids []workload.JobID
	s.EachRunning(func(id workload.JobID) bool { ids = append(ids, id); return true })
	s.EachPending(func(id workload.JobID) bool { ids = append(ids, id); return true })
	key := func(id workload.JobID) float64 {
		switch t.p.Order {
		case "las":
			return s.Info(id).AttainedGPU
		case "ftf":
			return -ftfRho(s, id)
		}
		return s.Job(id).ArrivalS
	}
	slices.SortStableFunc(ids, func(a, b workload.JobID) int {
		ka, kb := key(a), key(b)
		switch {
		case ka < kb:
			return -1
		case ka > kb:
			return 1
		}
		if aa, ab := s.Job(a).ArrivalS, s.Job(b).ArrivalS; aa != ab {
			if aa < ab {
				return -1
			}
			return 1
		}
		return int(a - b)
	})
	return ids
}

// The order kept across rounds, the cached keys (ftf) and the pass that
// stops once the GPUs are taken decide exactly as sorting every active job
// at every round: the
// same records, intervals and decision log, for every variant of the
// family and each order, on an overloaded queue with preemptions.
func TestKeptOrderMatchesFullSort(t *testing.T) {
	jobs := overloaded(500, 16, 7)
	for _, v := range variants {
		for _, order := range []string{"las", "fifo", "ftf"} {
			p := DefaultParams()
			v.set(&p)
			p.Order = order
			fast := runOrder(t, 4, jobs, p, false, true)
			full := runOrder(t, 4, jobs, p, true, true)
			if !reflect.DeepEqual(fast.Jobs, full.Jobs) || !reflect.DeepEqual(fast.Intervals, full.Intervals) || !reflect.DeepEqual(logLines(fast), logLines(full)) {
				t.Errorf("%s, order %s: the kept order decides differently from the full sort", v.name, order)
			}
			pre := 0
			for _, j := range fast.Jobs {
				pre += j.Preemptions
			}
			if pre == 0 && order == "las" {
				t.Errorf("%s, order %s: no preemption, so the comparison shows little", v.name, order)
			}
		}
	}
}

func logLines(res *engine.Result) []string {
	var out []string
	for i := range res.Log {
		d := &res.Log[i]
		out = append(out, fmt.Sprintf("%v %d %s", d.TimeS, d.Job, d.Msg()))
	}
	return out
}

// BenchmarkOverloaded runs 5,000 jobs arriving about four times faster
// than 64 GPUs serve them, under each variant (no decision log).
func BenchmarkOverloaded(b *testing.B) {
	jobs := overloaded(5000, 64, 1)
	for _, v := range variants {
		b.Run(v.name, func(b *testing.B) {
			p := DefaultParams()
			v.set(&p)
			for b.Loop() {
				runOrder(b, 16, jobs, p, false, false)
			}
		})
	}
}
