package ojpp

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/sim/policy/policytest"
	"github.com/schedlab/schedlab/sim/workload"
)

// The lazy walk tries the jobs the whole walk tries, in its order: on
// random queues of few kinds (ties of BFD keys, one job alone at the top
// of the gregarious order, values of p whose products may tie), each try
// failing or not by a seeded draw, both walks hand out the same jobs.
// Between passes jobs arrive and the started ones leave, so the queue
// is kept as the policy keeps it.
func TestLazyWalkMatchesTheFullWalk(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	// 0.12088995980580641 and the next float64 times 0.3326951853601291
	// round to the same product: when that is the largest p waiting, the
	// two groups tie and the rounds interleave them by rank.
	ps := []float64{0, 0.05, 0.12088995980580641, 0.12088995980580643, 0.3326951853601291, 1}
	lazyPasses, lone, ties := 0, 0, 0
	for round := range 300 {
		n := 1 + r.IntN(200)
		order := "gregarious"
		if round%4 == 3 {
			order = "bfd"
		}
		pl := &planner{cfg: Config{Order: order}, info: make([]jobInfo, n)}
		distinct := 1 + r.IntN(len(ps))
		for i := range pl.info {
			// kinds differ only by what the planner sees; p follows the type
			typ := r.IntN(distinct)
			pl.info[i] = jobInfo{typ: typ, p: ps[typ], alpha: float64(r.IntN(3)) / 10, gamma: float64(typ%2) / 10, omega: 1 + r.IntN(2)}
		}
		q := newQueue(pl)
		var waiting []workload.JobID
		next := 0 // jobs arrive in id order, a few at a time
		for pass := 0; next < n || len(waiting) > 0; pass++ {
			for k := r.IntN(20); k > 0 && next < n; k-- {
				waiting = append(waiting, workload.JobID(next))
				q.add(workload.JobID(next), pl.bfdRank[next])
				next++
			}
			seed := r.Uint64()
			// The whole walk, as place does it.
			draw := rand.New(rand.NewPCG(seed, 0))
			var want, started []workload.JobID
			var failed []jobInfo
			for _, j := range pl.order(waiting) {
				if slices.Contains(failed, pl.info[j]) {
					continue
				}
				want = append(want, j)
				if draw.IntN(3) == 0 {
					failed = append(failed, pl.info[j])
					continue
				}
				failed = failed[:0]
				started = append(started, j)
			}
			// The lazy one.
			w, ok := newWalk(q, pl)
			if !ok {
				top := 0.0
				for _, j := range waiting {
					top = max(top, pl.info[j].p)
				}
				if top != ps[4] {
					t.Fatalf("round %d: no lazy walk, though no products of p can tie", round)
				}
				ties++
			} else {
				lazyPasses++
				if w.lone >= 0 {
					lone++
				}
				draw = rand.New(rand.NewPCG(seed, 0))
				var got []workload.JobID
				for {
					rk, k, ok := w.next()
					if !ok {
						break
					}
					j := pl.byRank[rk]
					got = append(got, j)
					if draw.IntN(3) == 0 {
						w.fail(k)
						continue
					}
					q.remove(j, rk)
					w.started(k)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("round %d, pass %d (%s, %d waiting): lazy walk tried %v, the whole walk %v", round, pass, order, len(waiting), got, want)
				}
			}
			for _, j := range started {
				q.remove(j, pl.bfdRank[j]) // a no-op when the lazy walk did
				waiting = slices.DeleteFunc(waiting, func(x workload.JobID) bool { return x == j })
			}
			if q.n != len(waiting) {
				t.Fatalf("round %d: the queue holds %d jobs, %d wait", round, q.n, len(waiting))
			}
		}
	}
	if lazyPasses < 1000 || lone < 20 || ties < 20 {
		t.Errorf("%d lazy passes, %d with one job alone at the top, %d whole walks for ties: the test shows little", lazyPasses, lone, ties)
	}
}

// Whole runs: on congested online queues every OJPP policy decides as
// with the whole walk (records, intervals and decision log equal), and
// the lazy walk is the one taken.
func TestLazyPolicyMatchesTheFullWalk(t *testing.T) {
	m := memshare(t)
	c := policytest.Servers(t, 2, 4, "1080Ti", 11)
	gen, _ := workload.LookupGenerator("ojpp")
	for _, seed := range []uint64{1, 2} {
		gp := workload.DefaultOJPPParams()
		gp.Jobs, gp.JobsPerHour, gp.Jitter, gp.WorkersMax = 150, 60, 0.5, 4
		g, _ := gen.New(gp)
		queue, _ := g.Generate(seed)
		for _, pr := range presets {
			p := preset(t, pr.name)
			lazy, full := New(p), New(p)
			full.fullWalk = true
			a := policytest.Run(t, c, m, lazy, queue, policytest.Seed(seed), policytest.FullLog())
			b := policytest.Run(t, c, m, full, queue, policytest.Seed(seed), policytest.FullLog())
			if !reflect.DeepEqual(a.Jobs, b.Jobs) || !reflect.DeepEqual(a.Intervals, b.Intervals) || !reflect.DeepEqual(a.Log, b.Log) {
				t.Fatalf("seed %d, %s: the lazy walk changed the run", seed, pr.name)
			}
			if lazy.fullWalks != 0 || full.passes < 100 {
				t.Errorf("seed %d, %s: %d whole walks of %d passes", seed, pr.name, lazy.fullWalks, full.passes)
			}
		}
	}
}
