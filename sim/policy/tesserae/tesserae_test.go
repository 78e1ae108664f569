package tesserae

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy/policytest"
	"github.com/schedlab/schedlab/sim/policy/tesserae/pack"
	"github.com/schedlab/schedlab/sim/workload"
)

var models = []string{"resnet50", "vgg19", "DCGAN", "PointNet"}

// randomJobs is a small Shockwave-like mix: mostly 1- and 2-GPU jobs of
// the Blox models, arrivals every few minutes.
func randomJobs(r *rand.Rand, n int) []workload.Job {
	jobs := make([]workload.Job, n)
	at := 0.0
	for i := range jobs {
		at += float64(r.IntN(600))
		jobs[i] = workload.Job{Name: "j" + string(rune('a'+i%26)) + string(rune('a'+i/26)), ArrivalS: at,
			Model: models[r.IntN(4)], GPUs: []int{1, 1, 1, 2, 2, 4, 8}[r.IntN(7)], DurationS: 600 + float64(r.IntN(7200))}
	}
	return jobs
}

func run(t *testing.T, p Params, servers, gpus int, jobs []workload.Job) *engine.Result {
	t.Helper()
	pol, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	return policytest.Run(t, policytest.Servers(t, servers, gpus, "A100", 0), bloxModel(t), pol, jobs).Result
}

// bloxModel is the constant model slowed down by Blox's pairwise
// interference, the truth of Tesserae's scenarios.
func bloxModel(t testing.TB) perf.Model {
	t.Helper()
	tab, err := pack.Blox()
	if err != nil {
		t.Fatal(err)
	}
	return &perf.Composite{Base: perf.NewConstant(perf.ConstantParams{}), Factors: []perf.Factor{perf.NewInterference(tab.Interference(1))}}
}

func migrations(res *engine.Result) (n int) {
	for _, j := range res.Jobs {
		n += j.Migrations
	}
	return n
}

// Every variant runs random workloads to the end with the engine's
// invariants checked after every change (Paranoid), packing on or off.
func TestVariantsRunWithInvariants(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 4; trial++ {
		jobs := randomJobs(r, 40)
		for _, v := range variants {
			p := DefaultParams()
			v.set(&p)
			for _, mig := range []string{p.Migration, "flat", "guarded", "none"} {
				p.Migration = mig
				res := run(t, p, 4, 4, jobs)
				for _, j := range res.Jobs {
					if j.FinishS <= 0 {
						t.Fatalf("%s/%s: job %s did not finish", v.name, mig, j.Name)
					}
				}
			}
		}
	}
}

// On the same workloads, Tesserae's migration step (guarded) moves no
// more jobs than Gavel's rule in total, and packing shares GPUs.
func TestFewerMigrationsThanSticky(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 2))
	var tess, sticky int
	for trial := 0; trial < 4; trial++ {
		jobs := randomJobs(r, 60)
		p := DefaultParams()
		p.Migration = "tesserae"
		tess += migrations(run(t, p, 4, 4, jobs))
		p.Migration = "sticky"
		sticky += migrations(run(t, p, 4, 4, jobs))
	}
	t.Logf("migrations: tesserae %d, sticky %d", tess, sticky)
	if tess > sticky {
		t.Errorf("tesserae migrated %d jobs, sticky %d", tess, sticky)
	}
}

func TestBadParams(t *testing.T) {
	p := DefaultParams()
	p.Packing = "pairs"
	if _, err := New(p); err == nil {
		t.Error("accepted packing \"pairs\"")
	}
}

// The decision log names the matched pairs with their weights and the
// migrated jobs.
func TestDecisionLog(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	res := run(t, DefaultParams(), 4, 4, randomJobs(r, 60))
	var pairs, moves bool
	for _, d := range res.Log {
		pairs = pairs || strings.Contains(d.Msg(), "packing matched") && strings.Contains(d.Msg(), "+")
		moves = moves || strings.Contains(d.Msg(), "migration moves")
	}
	if !pairs || !moves || migrations(res) == 0 {
		t.Errorf("log has pairs %v, moves %v; migrations %d", pairs, moves, migrations(res))
	}
}

// A mixed cluster (two GPU types, nodes of different sizes) with typed and
// untyped jobs, some larger than any node, runs to the end with the
// invariants on, for every migration step.
func TestMixedCluster(t *testing.T) {
	c, err := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{{Count: 2, GPUs: 4, GPUType: "A100"}, {Count: 3, GPUs: 2, GPUType: "V100"}}})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(2, 7))
	jobs := randomJobs(r, 50)
	for i := range jobs {
		switch i % 4 {
		case 1:
			jobs[i].GPUType = "V100"
			jobs[i].GPUs = min(jobs[i].GPUs, 6)
		case 2:
			jobs[i].GPUType = "A100"
		}
	}
	// 12 GPUs: more than either type has; the engine reports it.
	jobs = append(jobs, workload.Job{Name: "huge", ArrivalS: 100, Model: "vgg19", GPUs: 12, DurationS: 600})
	jobs, err = workload.Finalize(jobs)
	if err != nil {
		t.Fatal(err)
	}
	for _, mig := range []string{"tesserae", "guarded", "flat", "sticky", "none"} {
		p := DefaultParams()
		p.Migration = mig
		pol, _ := New(p)
		res := policytest.Run(t, c, bloxModel(t), pol, append([]workload.Job(nil), jobs...))
		for _, j := range res.Jobs {
			if j.FinishS <= 0 && j.Name != "huge" {
				t.Fatalf("%s: job %s did not finish", mig, j.Name)
			}
		}
	}
}

// time_decisions records one point per round in each of the three
// decision-time series; off (the default), it records none of them, so
// outputs stay free of wall-clock values.
func TestTimeDecisions(t *testing.T) {
	jobs := randomJobs(rand.New(rand.NewPCG(4, 4)), 30)
	names := []string{"tesserae/decision_ms/scheduling", "tesserae/decision_ms/packing", "tesserae/decision_ms/migration"}
	p := DefaultParams()
	res := run(t, p, 4, 4, jobs)
	for _, s := range res.Series {
		if strings.HasPrefix(s.Name, "tesserae/decision_ms/") {
			t.Fatalf("series %s recorded with time_decisions off", s.Name)
		}
	}
	p.TimeDecisions = true
	res = run(t, p, 4, 4, jobs)
	var n int
	for i, name := range names {
		s := res.FindSeries(name, -1)
		if s == nil {
			t.Fatalf("no series %s", name)
		}
		if i == 0 {
			n = len(s.T)
		}
		if len(s.T) != n || n < 2 {
			t.Fatalf("series %s has %d points, want %d (one per round, at least 2)", name, len(s.T), n)
		}
		for _, v := range s.V {
			if !(v >= 0) {
				t.Fatalf("series %s: value %v", name, v)
			}
		}
	}
}

// Keeping last round's pairs (keep_pairs) moves fewer guests: on the same
// workloads it migrates fewer jobs in total than a fresh matching every
// round, with the engine's invariants on.
func TestKeepPairsMovesFewer(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 2))
	var fresh, kept int
	for trial := 0; trial < 4; trial++ {
		jobs := randomJobs(r, 80)
		p := DefaultParams()
		fresh += migrations(run(t, p, 4, 4, jobs))
		p.KeepPairs = true
		kept += migrations(run(t, p, 4, 4, jobs))
	}
	t.Logf("migrations: fresh matching %d, keep_pairs %d", fresh, kept)
	if kept >= fresh {
		t.Errorf("keep_pairs migrated %d jobs, the fresh matching %d", kept, fresh)
	}
}
