package pollux

import (
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/internal/approx"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy/policytest"
	"github.com/schedlab/schedlab/sim/workload"
)

func defaults() Params { return DefaultParams() }

func runJobs(t *testing.T, servers int, p Params, jobs []workload.Job) (*engine.Result, *perf.Analytic, *cluster.Cluster) {
	t.Helper()
	spec := cluster.Spec{Servers: []cluster.ServerGroup{{Count: servers, GPUs: 4, GPUType: "2080Ti", GPUMemoryGB: 11}}}
	return runSpec(t, spec, p, jobs, engine.Budgets{})
}

// runSpec runs Pollux with every invariant checked on a cluster of the
// spec's servers, with the analytic model's defaults.
func runSpec(t *testing.T, spec cluster.Spec, p Params, jobs []workload.Job, b engine.Budgets) (*engine.Result, *perf.Analytic, *cluster.Cluster) {
	t.Helper()
	c := policytest.Cluster(t, spec)
	m, err := perf.NewAnalytic(*perf.DefaultAnalyticParams(), c)
	if err != nil {
		t.Fatal(err)
	}
	return policytest.Run(t, c, m, New(p), jobs, policytest.Budgets(b)).Result, m, c
}

// Alone on a server, a one-GPU CIFAR10 job starts on one GPU at the first
// round and doubles at each round after (the artifact's limit: twice the
// most it has held) until it holds the whole server, then is not moved
// again; on four GPUs its batch adapts and it runs at its 4-GPU goodput.
func TestLoneJobDoublesToTheServer(t *testing.T) {
	res, m, c := runJobs(t, 1, defaults(), []workload.Job{{Name: "a", Model: "cifar10", GPUs: 1, DurationS: 3600}})
	a := res.Jobs[0]
	if a.FirstStartS != 60 || a.Starts != 1 || a.Resizes != 2 {
		t.Errorf("start %v, starts %d, resizes %d, want 60, 1, 2", a.FirstStartS, a.Starts, a.Resizes)
	}
	job := workload.Job{Model: "cifar10", GPUs: 1, BatchSize: 128}
	r1 := perf.AdaptiveSoloRate(m, c, &job, []cluster.GPUID{0})
	r2 := perf.AdaptiveSoloRate(m, c, &job, []cluster.GPUID{0, 1})
	r4 := perf.AdaptiveSoloRate(m, c, &job, []cluster.GPUID{0, 1, 2, 3})
	// 60 s on one GPU, a 30 s restart and 30 s on two, a 30 s restart,
	// then four GPUs until done.
	iters := math.Round(3600 * perf.SoloRate(m, c, &job, []cluster.GPUID{0})) // Prepare rounds to whole iterations
	left := iters - 60*r1 - 30*r2
	want := 180 + 30 + left/r4
	if !approx.Equal(a.FinishS, want, 1e-6*want, 0) {
		t.Errorf("finished at %v, want %v", a.FinishS, want)
	}
}

// Overloaded: more one-GPU jobs than GPUs. Jobs that hold a GPU keep it
// (moving them would pay the restart penalty for nothing), the others wait
// with no GPUs, which the artifact allows; every job finishes, no GPU is
// ever shared (paranoid mode), NCF never gets more than one GPU, and two
// runs are identical.
func TestOverloadQueues(t *testing.T) {
	var jobs []workload.Job
	for i := range 10 {
		jobs = append(jobs, workload.Job{Name: fmt.Sprintf("j%d", i), Model: []string{"cifar10", "ncf"}[i%2], GPUs: 1, DurationS: 900, ArrivalS: float64(30 * i)})
	}
	res, _, _ := runJobs(t, 1, defaults(), jobs)
	waited := 0
	for _, j := range res.Jobs {
		if j.Status != engine.Finished {
			t.Fatalf("%s: %s", j.Name, j.Status)
		}
		if j.QueueS > 120 {
			waited++
		}
		if j.Preemptions != 0 {
			t.Errorf("%s was preempted %d times", j.Name, j.Preemptions)
		}
		if j.Model == "ncf" && j.GPUSeconds > j.RunS*1.000001 {
			t.Errorf("%s held %v GPUs on average", j.Name, j.GPUSeconds/j.RunS)
		}
	}
	if waited == 0 {
		t.Error("no job waited with no GPUs although 10 jobs share 4 GPUs")
	}
	again, _, _ := runJobs(t, 1, defaults(), jobs)
	if !reflect.DeepEqual(res.Jobs, again.Jobs) {
		t.Error("two runs differ")
	}
}

// A large job asking for 16 GPUs on a busy cluster gets its share, not
// all it asked for, and the small ones are not starved.
func TestFairShare(t *testing.T) {
	jobs := []workload.Job{{Name: "big", Model: "imagenet", GPUs: 16, DurationS: 7200}}
	for i := range 6 {
		jobs = append(jobs, workload.Job{Name: fmt.Sprintf("s%d", i), Model: "deepspeech2", GPUs: 2, DurationS: 1800})
	}
	res, _, _ := runJobs(t, 4, defaults(), jobs)
	for _, j := range res.Jobs[1:] {
		if j.FirstStartS != 60 {
			t.Errorf("%s waited until %v", j.Name, j.FirstStartS)
		}
	}
	if big := res.Jobs[0]; big.FirstStartS != 60 || big.GPUSeconds/big.RunS >= 16 {
		t.Errorf("big: start %v, %v GPUs on average", big.FirstStartS, big.GPUSeconds/big.RunS)
	}
}

// Pollux's tables of rates are held for the jobs in the system only:
// made at the cluster's size for every job and kept, they held 8 bytes
// per GPU per job (3.2 GB for 20,000 jobs on 20,000 GPUs).
func TestRateTablesOfFinishedJobsGo(t *testing.T) {
	c, m := bigCluster(t)
	jobs := oneGPUJobs(40, 60, 1800)
	pol := New(defaults())
	policytest.Run(t, c, m, pol, jobs, policytest.Budgets(engine.Budgets{}))
	p := pol.(*pollux)
	if len(p.goodput) != len(jobs) {
		t.Fatalf("rate tables for %d jobs, want %d", len(p.goodput), len(jobs))
	}
	for id, g := range p.goodput {
		if g != nil {
			t.Errorf("job %d finished, and its table of %d rates is still held", id, len(g))
		}
	}
}

// While jobs run, each one's table of rates grows with the allocations
// Pollux asks about, not with the cluster's size.
func TestRateTablesGrowWithTheAsking(t *testing.T) {
	c, m := bigCluster(t)
	jobs := oneGPUJobs(200, 5, 3600)
	w := &tableWatch{t: t, Policy: New(defaults())}
	policytest.Run(t, c, m, w, jobs)
	if w.held == 0 {
		t.Fatal("no table was ever held")
	}
	t.Logf("the widest table: %d rates, on a cluster of %d GPUs; at most %d tables held at once", w.widest, c.NumGPUs(), w.held)
}

// tableWatch checks Pollux's rate tables after each decision: each no
// more than twice as long as the largest allocation asked about.
type tableWatch struct {
	engine.Policy
	t            *testing.T
	widest, held int
	complained   bool
}

func (w *tableWatch) Decide(s *engine.State, tr []engine.Trigger) error {
	err := w.Policy.Decide(s, tr)
	held := 0
	for id, g := range w.Policy.(*pollux).goodput {
		if g == nil {
			continue
		}
		held++
		asked := 0
		for a, r := range g {
			if r != 0 {
				asked = a
			}
		}
		if len(g) > 2*asked+1 && !w.complained {
			w.t.Errorf("at %v s, job %d: a table of %d rates for allocations asked up to %d", s.Now(), id, len(g), asked)
			w.complained = true
		}
		w.widest = max(w.widest, len(g))
	}
	w.held = max(w.held, held)
	return err
}

// bigCluster is 1,000 four-GPU servers with the analytic model.
func bigCluster(t *testing.T) (*cluster.Cluster, *perf.Analytic) {
	t.Helper()
	c := policytest.Cluster(t, cluster.Spec{Servers: []cluster.ServerGroup{{Count: 1000, GPUs: 4, GPUType: "2080Ti", GPUMemoryGB: 11}}})
	m, err := perf.NewAnalytic(*perf.DefaultAnalyticParams(), c)
	if err != nil {
		t.Fatal(err)
	}
	return c, m
}

// oneGPUJobs is n one-GPU CIFAR10 jobs arriving every gap seconds.
func oneGPUJobs(n int, gap, durationS float64) []workload.Job {
	jobs := make([]workload.Job, n)
	for i := range jobs {
		jobs[i] = workload.Job{Name: fmt.Sprint("j", i), Model: "cifar10", GPUs: 1, ArrivalS: gap * float64(i), DurationS: durationS}
	}
	return jobs
}
