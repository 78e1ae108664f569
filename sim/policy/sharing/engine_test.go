package sharing

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/internal/approx"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy/fifo"
	"github.com/schedlab/schedlab/sim/policy/policytest"
	"github.com/schedlab/schedlab/sim/policy/sjf"
	"github.com/schedlab/schedlab/sim/workload"
)

func mustCluster(t testing.TB, servers, gpus int, memGB float64) *cluster.Cluster {
	t.Helper()
	return policytest.Servers(t, servers, gpus, "2080Ti", memGB)
}

func mustAnalytic(t testing.TB, p *perf.AnalyticParams, c *cluster.Cluster) *perf.Analytic {
	t.Helper()
	if ps := append(p.Check(), p.Xi.Check()...); len(ps) > 0 {
		t.Fatal(ps)
	}
	a, err := perf.NewAnalytic(*p, c)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func run(t testing.TB, c *cluster.Cluster, m perf.Model, jobs []workload.Job, p engine.Policy) *engine.Result {
	t.Helper()
	return policytest.Run(t, c, m, p, jobs).Result
}

// Example C end to end: the engine runs exactly what Algorithm 2 predicts.
// R (1 s per iteration, 6 GB) runs on both GPUs of a server from time 0;
// N (Eq. 7 with α 0.05, β 0.01, t_comm 0.1, δ 2, B 32, memory 1 + 0.2·b
// GB) arrives at 100 s, when R has 1000 s left.
func TestExampleCInTheEngine(t *testing.T) {
	c := mustCluster(t, 1, 2, 11)
	p := perf.DefaultAnalyticParams()
	p.ComputeSpeed = nil // hand-computed times are at the fitted (T4) speed
	p.LatencyUS = 0
	p.Models = perf.ModelTable{
		{Model: "r", BatchSize: 1, AlphaCompS: 1, MemBaseGB: 6, Intensity: 1},
		// 2 workers on one server at 6 GB/s: t_comm = M/BW = 0.6/6 = 0.1 s.
		{Model: "n", BatchSize: 32, AlphaCompS: 0.05, BetaCompS: 0.01, GradientMB: 600, MemBaseGB: 1, MemPerSampleGB: 0.2, Intensity: 1},
	}
	p.Xi = perf.XiParams{Model: "matrix", Models: []string{"r", "n"}, Matrix: [][]float64{{1, 1.3}, {1.4, 1}}}
	m := mustAnalytic(t, p, c)
	jobs := []workload.Job{
		{Name: "R", Model: "r", GPUs: 2, Iterations: 1100},
		{Name: "N", Model: "n", GPUs: 2, Iterations: 1000, ArrivalS: 100},
	}
	res := run(t, c, m, jobs, NewBSBF(DefaultBSBFParams()))
	r, n := res.Jobs[0], res.Jobs[1]
	if n.FirstStartS != 100 {
		t.Fatalf("N started at %v, not at once", n.FirstStartS)
	}
	avg := (r.FinishS - 100 + n.FinishS - 100) / 2
	if !approx.Equal(avg, 881.3, 0.05, 0) {
		t.Errorf("pair JCT from N's arrival %.2f s, Algorithm 2 says 881.3", avg)
	}
	var pair string
	for _, d := range res.Log {
		if strings.Contains(d.Msg(), "pair N (new) with R (running)") {
			pair = d.Msg()
		}
	}
	for _, want := range []string{"sub-batch 16 of 32 (2 accumulation steps)", "881.3 s if they share", "1191.6 s if the new job waits", "→ share", "slows them by ξ 1.30 and 1.40"} {
		if !strings.Contains(pair, want) {
			t.Errorf("decision log %q lacks %q", pair, want)
		}
	}
}

// kappa starts job 0 at once and job 1 beside it after a delay.
type kappa struct{ at float64 }

func (k *kappa) Options() engine.Options { return engine.Options{MaxJobsPerGPU: 2} }

func (k *kappa) Decide(s *engine.State, _ []engine.Trigger) error {
	gpu := []cluster.GPUID{0}
	if s.Status(0) == engine.Pending {
		if err := s.Start(0, gpu, engine.ActionOptions{}); err != nil {
			return err
		}
	}
	if s.Status(1) == engine.Pending {
		if s.Now() >= k.at || s.Status(0) == engine.Finished {
			return s.Start(1, gpu, engine.ActionOptions{})
		}
		return s.WakeAt(k.at)
	}
	return nil
}

// PairTimes, which the brute-force test of Theorem 1 relies on, agrees
// with the engine running the two jobs with N starting after κ.
func TestPairTimesMatchTheEngine(t *testing.T) {
	c := mustCluster(t, 1, 1, 0)
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 150 {
		lR, lN := float64(10+r.IntN(2000)), float64(10+r.IntN(2000))
		xiR, xiN := 1+5*r.Float64(), 1+5*r.Float64()
		k := []float64{0, lR, r.Float64() * lR}[i%3]
		p := perf.DefaultAnalyticParams()
		p.ComputeSpeed = nil // hand-computed times are at the fitted (T4) speed
		p.Models = perf.ModelTable{{Model: "r", BatchSize: 1, AlphaCompS: 1}, {Model: "n", BatchSize: 1, AlphaCompS: 1}}
		p.Xi = perf.XiParams{Model: "matrix", Models: []string{"r", "n"}, Matrix: [][]float64{{1, xiR}, {xiN, 1}}}
		res := run(t, c, mustAnalytic(t, p, c), []workload.Job{
			{Name: "R", Model: "r", GPUs: 1, Iterations: lR},
			{Name: "N", Model: "n", GPUs: 1, Iterations: lN},
		}, &kappa{at: k})
		tR, tN := PairTimes(lR, lN, xiR, xiN, k)
		if !approx.Equal(res.Jobs[0].FinishS, tR, 1e-6*tR, 0) || !approx.Equal(res.Jobs[1].FinishS, tN, 1e-6*tN, 0) {
			t.Fatalf("L_R %v L_N %v ξ %.3f/%.3f κ %.1f: engine %v, %v; PairTimes %v, %v",
				lR, lN, xiR, xiN, k, res.Jobs[0].FinishS, res.Jobs[1].FinishS, tR, tN)
		}
	}
}

// randomJobs draws a small random workload for the cluster.
func randomJobs(r *rand.Rand, c *cluster.Cluster, n int) []workload.Job {
	models := []string{"bert", "cifar10", "deepspeech2", "imagenet", "ncf", "yolov3"}
	jobs := make([]workload.Job, n)
	t := 0.0
	for i := range jobs {
		t += r.ExpFloat64() * 60
		g := 1 << r.IntN(4)
		g = min(g, c.NumGPUs())
		jobs[i] = workload.Job{Name: fmt.Sprintf("j%d", i), ArrivalS: float64(int(t)), Model: models[r.IntN(len(models))],
			GPUs: g, Iterations: float64(50 + r.IntN(3000))}
	}
	return jobs
}

// The engine invariants with sharing on, over random scenarios: no GPU
// ever holds more than C jobs (checked here from the recorded intervals
// as well as by the engine's paranoid checks, which also watch memory);
// the non-preemptive policies never change a job's GPUs; every job
// finishes its iterations (the engine checks the work done).
func TestSharingInvariantsOverRandomScenarios(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	most := 0 // the most jobs seen on one GPU, to show sharing happened
	for trial := range 60 {
		servers, per := 1+r.IntN(4), 1+r.IntN(4)
		mem := []float64{11, 16, 0}[r.IntN(3)]
		c := mustCluster(t, servers, per, mem)
		p := perf.DefaultAnalyticParams()
		if r.IntN(2) == 0 {
			p.Xi = perf.XiParams{Model: "uniform", Uniform: 1 + 2*r.Float64()}
		}
		m := mustAnalytic(t, p, c)
		limit := 2 + r.IntN(2)
		key, scaling, restore := []string{"duration", "gpus", "gpu_time"}[r.IntN(3)], r.IntN(4) > 0, r.IntN(3) == 0
		policies := map[string]engine.Policy{
			"sjf-bsbf": NewBSBF(BSBFParams{MaxJobsPerGPU: limit, Key: key, BatchScaling: scaling, RestoreFullBatch: restore,
				TheoremTest: r.IntN(4) > 0, TieShares: r.IntN(2) == 0, Rank: []string{"pair_jct", "benefit"}[r.IntN(2)]}),
			"sjf-ffs": NewFFS(FFSParams{MaxJobsPerGPU: limit, Key: key, BatchScaling: scaling, RestoreFullBatch: restore, SharedFirst: r.IntN(2) == 0}),
			"sjf":     sjf.New(sjf.Params{Key: "duration", Backfill: true}),
			"fifo":    fifo.New(fifo.Params{Backfill: r.IntN(2) == 0}),
		}
		jobs := randomJobs(r, c, 5+r.IntN(30))
		for _, name := range []string{"sjf-bsbf", "sjf-ffs", "sjf", "fifo"} {
			res := run(t, c, m, append([]workload.Job(nil), jobs...), policies[name])
			where := fmt.Sprintf("trial %d, %s, %d×%d GPUs, C = %d", trial, name, servers, per, limit)
			most = max(most, checkNonPreemptive(t, where, res, max(policies[name].Options().MaxJobsPerGPU, 1), restore))
		}
	}
	if most < 3 {
		t.Errorf("no GPU ever held 3 jobs (most %d): the scenarios do not exercise sharing", most)
	}
}

// checkNonPreemptive checks the records and intervals of a run of a
// non-preemptive policy and returns the most jobs one GPU held at once.
func checkNonPreemptive(t *testing.T, where string, res *engine.Result, limit int, restores bool) int {
	t.Helper()
	most := 0
	byJob := map[workload.JobID][]engine.Interval{}
	byGPU := map[cluster.GPUID][]engine.Interval{}
	for _, iv := range res.Intervals {
		byJob[iv.Job] = append(byJob[iv.Job], iv)
		byGPU[iv.GPU] = append(byGPU[iv.GPU], iv)
	}
	for _, j := range res.Jobs {
		if j.Status != engine.Finished {
			t.Fatalf("%s: job %s is %s", where, j.Name, j.Status)
		}
		if j.Starts != 1 || j.Preemptions != 0 || (j.Migrations != 0 && !restores) {
			t.Fatalf("%s: job %s started %d times, preempted %d, migrated %d", where, j.Name, j.Starts, j.Preemptions, j.Migrations)
		}
		// Its GPUs never change: exactly G of them, each held from its start to its end.
		held := map[cluster.GPUID]float64{}
		for _, iv := range byJob[j.Job] {
			held[iv.GPU] += iv.EndS - iv.StartS
		}
		if len(held) != j.GPUs {
			t.Fatalf("%s: job %s held %d distinct GPUs, asked for %d", where, j.Name, len(held), j.GPUs)
		}
		for g, d := range held {
			if !approx.Equal(d, j.FinishS-j.FirstStartS, 1e-6*(1+d), 0) {
				t.Fatalf("%s: job %s held GPU %d for %v s of its %v s", where, j.Name, g, d, j.FinishS-j.FirstStartS)
			}
		}
	}
	for g, ivs := range byGPU { // never more than C at once
		type edge struct {
			t float64
			d int
		}
		var es []edge
		for _, iv := range ivs {
			es = append(es, edge{iv.StartS, +1}, edge{iv.EndS, -1})
		}
		sort.Slice(es, func(a, b int) bool {
			if es[a].t != es[b].t {
				return es[a].t < es[b].t
			}
			return es[a].d < es[b].d
		})
		n := 0
		for _, e := range es {
			if n += e.d; n > limit {
				t.Fatalf("%s: GPU %d held %d jobs at %v, over C = %d", where, g, n, e.t, limit)
			}
			most = max(most, n)
		}
	}
	return most
}

// Without interference (ξ = 1) and with memory unmodelled, SJF-BSBF turns
// down no pair: it shares wherever SJF-FFS would, and only its choice of
// GPUs differs (spec 000 §8).
func TestNoInterferenceMeansAlwaysShare(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	c := mustCluster(t, 2, 4, 0)
	p := perf.DefaultAnalyticParams()
	p.Xi = perf.XiParams{Model: "uniform", Uniform: 1}
	m := mustAnalytic(t, p, c)
	pairs := 0
	for range 10 {
		res := run(t, c, m, randomJobs(r, c, 40), NewBSBF(DefaultBSBFParams()))
		for _, d := range res.Log {
			if strings.HasSuffix(d.Msg(), "→ wait") {
				t.Fatalf("ξ = 1 but SJF-BSBF waited: %s", d.Msg())
			}
			if strings.HasSuffix(d.Msg(), "→ share") {
				pairs++
			}
		}
	}
	if pairs == 0 {
		t.Fatal("no pair was ever considered; the test shows nothing")
	}
}

// Skipping the pairs declined before (spec 000 §2.6: a declined pair stays
// declined as the running job progresses) changes no decision: runs that
// evaluate every pair at every pass give the same records.
func TestDeclineCacheChangesNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for trial := range 20 {
		c := mustCluster(t, 1+r.IntN(4), 4, 11)
		p := perf.DefaultAnalyticParams()
		if trial%2 == 1 {
			p.Xi = perf.XiParams{Model: "uniform", Uniform: 1.3 + r.Float64()}
		}
		m := mustAnalytic(t, p, c)
		params := DefaultBSBFParams()
		params.MaxJobsPerGPU = 2 + trial%3/2
		jobs := randomJobs(r, c, 40)
		cached := run(t, c, m, append([]workload.Job(nil), jobs...), NewBSBF(params))
		fresh := &scheduler{title: "SJF-BSBF", p: params.common(), branch: &bsbf{p: params, recheck: true}}
		every := run(t, c, m, append([]workload.Job(nil), jobs...), fresh)
		for i := range cached.Jobs {
			if cached.Jobs[i] != every.Jobs[i] {
				t.Fatalf("trial %d job %s: %+v with the cache, %+v without", trial, cached.Jobs[i].Name, cached.Jobs[i], every.Jobs[i])
			}
		}
	}
}
