package engine_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy/fifo"
	"github.com/schedlab/schedlab/sim/policy/sjf"
	"github.com/schedlab/schedlab/sim/workload"
)

// chaos is a legal but erratic policy: it starts pending jobs on random
// GPUs (sharing up to the limit), and at random wake-ups preempts or
// migrates running jobs. Every action it tries may be refused; refusals
// are expected and ignored, anything else is a bug.
type chaos struct {
	limit int
	r     *rand.Rand
	wake  float64 // the wake-up already asked for
}

func (p *chaos) Options() engine.Options {
	return engine.Options{MaxJobsPerGPU: p.limit, Subscribe: engine.Mask(engine.Arrival, engine.Completion, engine.OverheadEnd)}
}

func (p *chaos) Decide(s *engine.State, _ []engine.Trigger) error {
	for id := range workload.JobID(s.NumJobs()) {
		if r, info := s.Remaining(id), s.Info(id); r != info.Remaining {
			return fmt.Errorf("job %d (%v) at %v: Remaining %v, Info's Remaining %v", id, info.Status, s.Now(), r, info.Remaining)
		}
	}
	n := s.Cluster().NumGPUs()
	try := func(err error) error {
		if _, refused := err.(*engine.ActionError); refused {
			return nil
		}
		return err
	}
	for _, id := range s.Pending() {
		gpus := p.r.Perm(n)[:min(s.Job(id).GPUs, n)]
		err := s.Start(id, toIDs(gpus), engine.ActionOptions{})
		if _, refused := err.(*engine.ActionError); refused {
			err = s.Start(id, firstEmpty(s, s.Job(id).GPUs), engine.ActionOptions{})
		}
		if err := try(err); err != nil {
			return err
		}
	}
	for _, id := range s.Running() {
		switch p.r.IntN(10) {
		case 0:
			if err := try(s.Preempt(id)); err != nil {
				return err
			}
		case 1:
			gpus := p.r.Perm(n)[:len(s.GPUsOf(id))]
			if err := try(s.Migrate(id, toIDs(gpus), engine.ActionOptions{})); err != nil {
				return err
			}
		}
	}
	if (p.r.IntN(3) == 0 || s.NumPending() > 0) && p.wake <= s.Now() {
		p.wake = s.Now() + 1 + 50*p.r.Float64()
		return s.WakeAt(p.wake)
	}
	return nil
}

// firstEmpty returns up to k GPUs that hold no job, in ID order.
func firstEmpty(s *engine.State, k int) []cluster.GPUID {
	var out []cluster.GPUID
	for g := 0; g < s.Cluster().NumGPUs() && len(out) < k; g++ {
		if s.NumJobsOn(cluster.GPUID(g)) == 0 {
			out = append(out, cluster.GPUID(g))
		}
	}
	return out
}

func toIDs(xs []int) []cluster.GPUID {
	out := make([]cluster.GPUID, len(xs))
	for i, x := range xs {
		out[i] = cluster.GPUID(x)
	}
	return out
}

type randomCase struct {
	c    *cluster.Cluster
	m    perf.Model
	jobs []workload.Job
}

func randomScenario(t testing.TB, seed uint64) randomCase {
	r := rand.New(rand.NewPCG(seed, 1))
	spec := cluster.Spec{ServersPerRack: 1 + r.IntN(3)}
	for g := 0; g < 1+r.IntN(2); g++ {
		spec.Servers = append(spec.Servers, cluster.ServerGroup{Count: 1 + r.IntN(3), GPUs: 1 + r.IntN(4),
			GPUType: []string{"V100", "K80"}[g], GPUMemoryGB: float64(8 + 8*r.IntN(2))})
	}
	c, err := cluster.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	models := []string{"a", "b", "c"}
	mat := make([][]float64, 3)
	for i := range mat {
		mat[i] = []float64{1 + r.Float64(), 1 + r.Float64(), 1 + r.Float64()}
	}
	m := &perf.Composite{
		Base:    perf.NewConstant(perf.ConstantParams{TypeSpeed: []perf.TypeSpeed{{GPUType: "K80", Speed: 0.5}}}),
		Factors: []perf.Factor{perf.NewInterference(perf.InterferenceSpec{Models: models, Matrix: mat})},
	}
	var jobs []workload.Job
	for i := 0; i < 2+r.IntN(25); i++ {
		j := workload.Job{
			Name: fmt.Sprintf("j%d", i), ArrivalS: math.Round(r.Float64()*300*10) / 10, GPUs: 1 + r.IntN(4),
			DurationS: 1 + math.Round(r.Float64()*200), Model: models[r.IntN(3)], MemoryGB: float64(r.IntN(10)),
		}
		if r.IntN(8) == 0 && len(jobs) > 0 {
			j.ArrivalS = jobs[len(jobs)-1].ArrivalS // simultaneous events
		}
		jobs = append(jobs, j)
	}
	jobs = prepare(t, m, c, jobs...)
	return randomCase{c, m, jobs}
}

func TestPropertyRandomScenarios(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 60
	}
	var preempts, migrations, shared, unschedulable int
	defer func() {
		// The test proves little unless chaos really exercised these paths.
		if preempts < 50 || migrations < 50 || shared < 50 || unschedulable < 5 {
			t.Errorf("too little exercised: %d preemptions, %d migrations, %d shared intervals, %d unschedulable",
				preempts, migrations, shared, unschedulable)
		}
	}()
	for seed := uint64(0); seed < uint64(n); seed++ {
		rc := randomScenario(t, seed)
		policies := []func() engine.Policy{
			func() engine.Policy { return &chaos{limit: 1 + int(seed%3), r: rand.New(rand.NewPCG(seed, 2))} },
			func() engine.Policy { return fifo.New(fifo.Params{Backfill: seed%2 == 0}) },
			func() engine.Policy { return sjf.New(sjf.Params{Key: "duration", Backfill: true}) },
		}
		for pi, mk := range policies {
			cfg := engine.Config{Cluster: rc.c, Jobs: append([]workload.Job(nil), rc.jobs...), Perf: rc.m, Policy: mk(),
				Overheads: engine.Overheads{RestartS: float64(seed % 7), MigrationS: float64(seed % 5)},
				Paranoid:  true, Seed: seed}
			res, err := engine.Run(context.Background(), cfg)
			if err != nil {
				t.Fatalf("seed %d policy %d: %v", seed, pi, err)
			}
			checkResult(t, fmt.Sprintf("seed %d policy %d", seed, pi), rc, res, pi > 0)
			for _, r := range res.Jobs {
				preempts += r.Preemptions
				migrations += r.Migrations
				if r.Status == engine.Unschedulable {
					unschedulable++
				}
			}
			if pi == 0 {
				shared += overlaps(res.Intervals)
			}
			cfg.Jobs = append([]workload.Job(nil), rc.jobs...)
			cfg.Policy = mk()
			again, _ := engine.Run(context.Background(), cfg)
			if !sameResult(res, again) {
				t.Fatalf("seed %d policy %d: two runs with one seed differ", seed, pi)
			}
		}
	}
}

func checkResult(t *testing.T, where string, rc randomCase, res *engine.Result, exclusive bool) {
	t.Helper()
	for _, r := range res.Jobs {
		j := rc.jobs[r.Job]
		switch r.Status {
		case engine.Finished:
			// Interference and overheads only slow a job down; the fastest
			// GPU type runs at speed 1.
			if r.JCT() < j.DurationS-1e-6 || r.QueueS < 0 || r.FirstStartS < j.ArrivalS {
				t.Fatalf("%s: job %s JCT %v < solo %v, or started at %v before arrival %v", where, j.Name, r.JCT(), j.DurationS, r.FirstStartS, j.ArrivalS)
			}
			if r.RunS > r.JCT()+1e-6 || r.WaitS+r.RunS > r.JCT()+1e-6 {
				t.Fatalf("%s: job %s ran %v + waited %v, more than its JCT %v", where, j.Name, r.RunS, r.WaitS, r.JCT())
			}
		case engine.Unschedulable:
			if ok, _ := rc.c.Fit(j.GPUs, j.MemoryGB, j.GPUType); ok {
				t.Fatalf("%s: job %s marked unschedulable but fits", where, j.Name)
			}
		default:
			t.Fatalf("%s: job %s ended %v", where, j.Name, r.Status)
		}
	}
	// Intervals: per GPU, at most limit overlapping, none for exclusive policies.
	byGPU := map[cluster.GPUID][]engine.Interval{}
	for _, iv := range res.Intervals {
		if iv.EndS <= iv.StartS {
			t.Fatalf("%s: empty interval %+v", where, iv)
		}
		byGPU[iv.GPU] = append(byGPU[iv.GPU], iv)
	}
	for g, ivs := range byGPU {
		sort.Slice(ivs, func(a, b int) bool { return ivs[a].StartS < ivs[b].StartS })
		for i := 1; i < len(ivs); i++ {
			if exclusive && ivs[i].StartS < ivs[i-1].EndS-1e-9 {
				t.Fatalf("%s: GPU %d shared by an exclusive policy: %+v and %+v", where, g, ivs[i-1], ivs[i])
			}
		}
	}
}

// overlaps counts pairs of intervals on one GPU that overlap in time.
func overlaps(ivs []engine.Interval) int {
	n := 0
	for i := range ivs {
		for k := i + 1; k < len(ivs) && ivs[k].GPU == ivs[i].GPU; k++ {
			if ivs[k].StartS < ivs[i].EndS {
				n++
			}
		}
	}
	return n
}

// sameResult compares two results, their decision logs by text (an entry
// may hold a function that makes its text).
func sameResult(a, b *engine.Result) bool {
	x, y := *a, *b
	x.Log, y.Log = nil, nil
	return reflect.DeepEqual(x, y) && engine.SameLog(a.Log, b.Log)
}
