package perf

import (
	"math"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/internal/approx"
	"github.com/schedlab/schedlab/sim/schema"
	"github.com/schedlab/schedlab/sim/workload"
)

// Spec 000 §8: Eq. 7 with α = 0.05, β = 0.01, t_comm = 0.1, δ = 2 and
// B = 32 (Example C of §2.7).
func TestEq7ExampleC(t *testing.T) {
	m := &ModelProfile{AlphaCompS: 0.05, BetaCompS: 0.01}
	for _, c := range []struct {
		sub  int
		want float64
	}{{32, 0.3833}, {16, 0.4426}, {8, 0.5540}, {4, 0.7645}, {2, 1.1721}, {1, 1.9766}} {
		got := IterTime(m, 32, Accumulation(32, c.sub), 0.1, 2)
		if !approx.Equal(got, c.want, 5e-5, 0) {
			t.Errorf("b=%d: t_iter %.5f, want %.4f", c.sub, got, c.want)
		}
	}
}

func TestOverlapLimits(t *testing.T) {
	if got := Overlap(0.3, 0.4, 1); !approx.Equal(got, 0.7, 1e-15, 0) {
		t.Errorf("δ=1 adds: %v", got)
	}
	if got := Overlap(0.3, 0.4, 2); !approx.Equal(got, 0.5, 1e-15, 0) {
		t.Errorf("δ=2: %v", got)
	}
	if got := Overlap(0.3, 0.4, 3); !approx.Equal(got, math.Cbrt(0.027+0.064), 1e-12, 0) {
		t.Errorf("δ=3: %v", got)
	}
	if got := Overlap(0.3, 0.4, 200); !approx.Equal(got, 0.4, 1e-3, 0) {
		t.Errorf("large δ approaches the max: %v", got)
	}
	if got := Overlap(0.3, 0, 2); got != 0.3 {
		t.Errorf("no communication: %v", got)
	}
}

func TestRingAllReduce(t *testing.T) {
	if RingAllReduceS(1, 440, 6, 50e-6) != 0 {
		t.Error("one worker all-reduces")
	}
	// 2 workers, 440 MB at 6 GB/s: 2·50 µs + 2·1/2·0.44/6.
	if got, want := RingAllReduceS(2, 440, 6, 50e-6), 100e-6+0.44/6; !approx.Equal(got, want, 1e-12, 0) {
		t.Errorf("got %v want %v", got, want)
	}
	// 16 workers across servers at 1.25 GB/s.
	if got, want := RingAllReduceS(16, 440, 1.25, 50e-6), 30*50e-6+30.0/16*0.44/1.25; !approx.Equal(got, want, 1e-12, 0) {
		t.Errorf("got %v want %v", got, want)
	}
}

// The worked interference examples of spec 000 §5.5.
func TestTimeShareExamples(t *testing.T) {
	u := map[string]float64{}
	for _, m := range DefaultModelTable() {
		u[m.Model] = m.Intensity
	}
	for _, c := range []struct {
		me, partner string
		want        float64
	}{
		{"bert", "bert", 2.09}, {"bert", "ncf", 1.61}, {"ncf", "bert", 1.10},
		{"cifar10", "imagenet", 1.32}, {"imagenet", "cifar10", 1.98},
	} {
		if got := TimeShareXi(u[c.me], u[c.partner], 1, 0.1); !approx.Equal(got, c.want, 0.005, 0) {
			t.Errorf("ξ(%s|%s) = %.3f, want %.2f", c.me, c.partner, got, c.want)
		}
	}
	// The default table spans 1.1 to 2.1.
	lo, hi := math.Inf(1), 0.0
	for _, a := range DefaultModelTable() {
		for _, b := range DefaultModelTable() {
			x := TimeShareXi(a.Intensity, b.Intensity, 1, 0.1)
			lo, hi = min(lo, x), max(hi, x)
		}
	}
	if !approx.Equal(lo, 1.1, 1e-9, 0) || hi > 2.1 {
		t.Errorf("range %.3f–%.3f", lo, hi)
	}
	// A third job on the GPU slows everyone further.
	if TimeShareXi(0.6, 0.6+0.6, 2, 0.1) <= TimeShareXi(0.6, 0.6, 1, 0.1) {
		t.Error("three jobs cost no more than two")
	}
}

func testCluster(t *testing.T) *cluster.Cluster {
	t.Helper()
	c, err := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{{Count: 4, GPUs: 4, GPUType: "2080Ti", GPUMemoryGB: 11}}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func newAnalytic(t *testing.T, edit func(*AnalyticParams)) *Analytic {
	t.Helper()
	p := DefaultAnalyticParams()
	if edit != nil {
		edit(p)
	}
	if ps := append(p.Check(), p.Xi.Check()...); len(ps) > 0 {
		t.Fatal(schema.Problems(ps))
	}
	a, err := NewAnalytic(*p, testCluster(t))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// shared is a perf.State with hand-placed jobs.
type shared struct {
	c    *cluster.Cluster
	jobs []workload.Job
	at   [][]cluster.GPUID
	sub  []int
}

func (s *shared) Cluster() *cluster.Cluster           { return s.c }
func (s *shared) Job(id workload.JobID) *workload.Job { return &s.jobs[id] }
func (s *shared) Placement(id workload.JobID) Placement {
	return Placement{GPUs: s.at[id], SubBatch: s.sub[id]}
}
func (s *shared) JobsOn(g cluster.GPUID) []workload.JobID {
	var out []workload.JobID
	for id, gs := range s.at {
		for _, h := range gs {
			if h == g {
				out = append(out, workload.JobID(id))
			}
		}
	}
	return out
}

// t4Speed times the 2080 Ti test cluster at the T4 speed α and β were
// fitted at, so the hand computations below need no speed factor.
func t4Speed(p *AnalyticParams) { p.ComputeSpeed = nil }

func TestAnalyticRatesAndSharing(t *testing.T) {
	a := newAnalytic(t, t4Speed)
	bert, _ := a.Profile("bert")
	ncf, _ := a.Profile("ncf")
	s := &shared{c: a.c,
		jobs: []workload.Job{{ID: 0, Model: "bert", GPUs: 2}, {ID: 1, Model: "ncf", GPUs: 1}},
		at:   [][]cluster.GPUID{{0, 1}, {1}}, sub: []int{0, 0}}
	comm := RingAllReduceS(2, bert.GradientMB, 6, 50e-6)
	solo := IterTime(&bert, 12, 1, comm, 2)
	// BERT shares GPU 1 with NCF: ξ = 1.61 on that GPU sets its pace.
	if got, want := a.Rate(s, 0), 1/(solo*TimeShareXi(0.95, 0.35, 1, 0.1)); !approx.Equal(got, want, 1e-12, 0) {
		t.Errorf("bert rate %v want %v", got, want)
	}
	if got, want := a.Rate(s, 1), 1/(IterTime(&ncf, 1024, 1, 0, 2)*1.1); !approx.Equal(got, want, 1e-12, 0) {
		t.Errorf("ncf rate %v want %v", got, want)
	}
	// Across two servers the all-reduce runs at 1.25 GB/s.
	s.at = [][]cluster.GPUID{{0, 4}, nil}
	slow := IterTime(&bert, 12, 1, RingAllReduceS(2, 440, 1.25, 50e-6), 2)
	if got := a.Rate(s, 0); !approx.Equal(got, 1/slow, 1e-12, 0) || slow <= solo {
		t.Errorf("cross-server rate %v, iteration %v vs %v on one server", got, slow, solo)
	}
	// A sub-batch of 4 is three micro-batches of 4.
	s.at, s.sub = [][]cluster.GPUID{{0, 1}, nil}, []int{4, 0}
	if got, want := a.Rate(s, 0), 1/IterTime(&bert, 12, 3, comm, 2); !approx.Equal(got, want, 1e-12, 0) {
		t.Errorf("accumulating rate %v want %v", got, want)
	}
	if got := a.MemoryGB(&s.jobs[0], 4); !approx.Equal(got, 1.8+0.65*4, 1e-12, 0) {
		t.Errorf("memory at sub-batch 4: %v", got)
	}
	if got := a.MemoryGB(&s.jobs[0], 0); !approx.Equal(got, 1.8+0.65*12, 1e-12, 0) {
		t.Errorf("memory at the full batch: %v", got)
	}
	if got := a.PairSlowdown(&s.jobs[0], &s.jobs[1]); !approx.Equal(got, 1.6077, 1e-4, 0) {
		t.Errorf("ξ(bert|ncf) %v", got)
	}
}

// The default 2080 Ti computes 1.65 times as fast as the T4 (13.4 ÷ 8.1
// TFLOPS FP32); the all-reduce is not sped up. Hand-computed: BERT, batch
// 12, two GPUs of one server: compute (0.213 + 0.0578·12) / 1.65 =
// 0.549455 s, all-reduce 2·50 µs + 0.44 GB / 6 GB/s = 0.073433 s, δ = 2:
// √(0.549455² + 0.073433²) = 0.554340 s. CIFAR10 alone: (0.0172 +
// 0.00066·128) / 1.65 = 0.0616242 s.
func TestComputeSpeedOf2080Ti(t *testing.T) {
	a := newAnalytic(t, nil)
	bert := workload.Job{Model: "bert", GPUs: 2, BatchSize: 12}
	if got := a.SoloIterTime(&bert, []cluster.GPUID{0, 1}, 0); !approx.Equal(got, 0.5543399245635349, 1e-12, 0) {
		t.Errorf("bert on two 2080 Ti: %.9f s, want 0.554340", got)
	}
	cifar := workload.Job{Model: "cifar10", GPUs: 1, BatchSize: 128}
	if got := a.SoloIterTime(&cifar, []cluster.GPUID{0}, 0); !approx.Equal(got, 0.10168/1.65, 1e-12, 0) {
		t.Errorf("cifar10 on a 2080 Ti: %.9f s, want 0.0616242", got)
	}
	// A gang over a T4 and a 2080 Ti runs at the T4's pace.
	c, err := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{
		{Count: 1, GPUs: 1, GPUType: "T4", GPUMemoryGB: 16}, {Count: 1, GPUs: 1, GPUType: "2080Ti", GPUMemoryGB: 11}}})
	if err != nil {
		t.Fatal(err)
	}
	mixed, err := NewAnalytic(*DefaultAnalyticParams(), c)
	if err != nil {
		t.Fatal(err)
	}
	if got := mixed.ComputeSpeed([]cluster.GPUID{0, 1}); got != 1 {
		t.Errorf("mixed gang speed %v, want the T4's 1", got)
	}
	if got := mixed.ComputeSpeed([]cluster.GPUID{1}); got != 1.65 {
		t.Errorf("2080 Ti speed %v", got)
	}
	// The knob is validated.
	bad := DefaultAnalyticParams()
	ps := schema.DecodeBytes([]byte(`{"compute_speed": [{"gpu_type": "2080Ti", "speed": 1.5}, {"gpu_type": "2080Ti", "speed": 0}]}`), bad)
	if len(ps) != 2 || ps[0].Path != "compute_speed[1].speed" || ps[1].Path != "compute_speed[1].gpu_type" {
		t.Errorf("problems %v", ps)
	}
}

func TestUniformAndMatrixXi(t *testing.T) {
	u := newAnalytic(t, func(p *AnalyticParams) { p.Xi = XiParams{Model: "uniform", Uniform: 1.5} })
	j := []workload.Job{{Model: "bert"}, {Model: "ncf"}}
	if u.PairSlowdown(&j[0], &j[1]) != 1.5 || u.PairSlowdown(&j[1], &j[0]) != 1.5 {
		t.Error("uniform ξ")
	}
	m := newAnalytic(t, func(p *AnalyticParams) {
		p.Xi = XiParams{Model: "matrix", Models: []string{"bert", "ncf"}, Matrix: [][]float64{{3, 2}, {1.2, 1}}}
	})
	if m.PairSlowdown(&j[0], &j[1]) != 2 || m.PairSlowdown(&j[1], &j[0]) != 1.2 {
		t.Error("matrix ξ")
	}
	if x := (&Composite{Base: m, Factors: []Factor{NewInterference(InterferenceSpec{Uniform: 1.5})}}); PairSlowdown(x, &j[0], &j[1]) != 3 {
		t.Error("a composite multiplies its parts' ξ")
	}
	bad := DefaultAnalyticParams()
	bad.Xi = XiParams{Model: "uniform", Uniform: 0.5}
	if ps := schema.Decode(map[string]any{}, bad, "perf.params"); len(ps) != 1 || ps[0].Path != "perf.params.xi.uniform" {
		t.Errorf("problems %v", ps)
	}
}

func TestPrepareFillsBatchAndIterations(t *testing.T) {
	a := newAnalytic(t, t4Speed)
	jobs := []workload.Job{
		{Name: "a", Model: "imagenet", GPUs: 8, DurationS: 3600},
		{Name: "b", Model: "cifar10", GPUs: 1, Iterations: 1000},
	}
	if err := a.Prepare(a.c, jobs); err != nil {
		t.Fatal(err)
	}
	im, _ := a.Profile("imagenet")
	tIter := IterTime(&im, 64, 1, RingAllReduceS(8, 102, 1.25, 50e-6), 2)
	if jobs[0].BatchSize != 64 || jobs[0].Iterations != math.Round(3600/tIter) {
		t.Errorf("job a: batch %d iterations %v (t_iter %v)", jobs[0].BatchSize, jobs[0].Iterations, tIter)
	}
	cf, _ := a.Profile("cifar10")
	if want := 1000 * cf.CompTime(128); !approx.Equal(jobs[1].DurationS, want, 1e-9, 0) {
		t.Errorf("job b duration %v want %v", jobs[1].DurationS, want)
	}
	err := a.Prepare(a.c, []workload.Job{{Name: "x", Model: "gpt", GPUs: 1, DurationS: 5}})
	if err == nil {
		t.Error("an unknown model was accepted")
	}
}

// A batch-adapting job on its own GPUs at its own batch runs at least as
// fast as a fixed-batch one, and exactly as fast when larger batches do
// not pay (no efficiency gain: max batch factor 1).
func TestAdaptiveRate(t *testing.T) {
	a := newAnalytic(t, nil)
	j := workload.Job{Model: "cifar10", GPUs: 4, BatchSize: 128}
	gpus := []cluster.GPUID{0, 1, 2, 3}
	fixed := SoloRate(a, a.c, &j, gpus)
	adaptive := AdaptiveSoloRate(a, a.c, &j, gpus)
	if adaptive < fixed*(1-1e-12) {
		t.Errorf("adaptive %v below fixed %v", adaptive, fixed)
	}
	one := newAnalytic(t, func(p *AnalyticParams) { p.Adaptive.MaxBatchFactor = 1 })
	if got := AdaptiveSoloRate(one, one.c, &j, gpus); !approx.Equal(got, SoloRate(one, one.c, &j, gpus), 1e-12, 0) {
		t.Errorf("adaptive at M0 only: %v vs %v", got, fixed)
	}
	// More GPUs help a communication-light model.
	if AdaptiveSoloRate(a, a.c, &j, []cluster.GPUID{0, 1, 2, 3, 4, 5, 6, 7}) <= adaptive {
		t.Error("8 GPUs are no faster than 4")
	}
}

// The default memory stays within Pollux's profiles (R3); the spec_tight
// preset restores the spec's tighter teaching values.
func TestMemoryDefaultsAndTightPreset(t *testing.T) {
	a := newAnalytic(t, nil)
	ds2 := workload.Job{Model: "deepspeech2", BatchSize: 20}
	im := workload.Job{Model: "imagenet", BatchSize: 64}
	if got := a.MemoryGB(&ds2, 0); !approx.Equal(got, 0.8+0.19*20, 1e-12, 0) {
		t.Errorf("deepspeech2 at batch 20: %v GB", got)
	}
	// Largest local batches of Pollux's T4 (16 GB) profiles fit.
	for model, batch := range map[string]int{"bert": 12, "cifar10": 1024, "deepspeech2": 80, "imagenet": 200, "ncf": 32768, "yolov3": 16} {
		j := workload.Job{Model: model, BatchSize: batch}
		if got := a.MemoryGB(&j, 0); got > 16 {
			t.Errorf("%s at Pollux's batch %d needs %.2f GB > 16", model, batch, got)
		}
	}
	tight := newAnalytic(t, func(p *AnalyticParams) { p.MemoryPreset = "spec_tight" })
	if got := tight.MemoryGB(&ds2, 0); !approx.Equal(got, 0.8+0.30*20, 1e-12, 0) {
		t.Errorf("tight deepspeech2: %v GB", got)
	}
	if got := tight.MemoryGB(&im, 0); !approx.Equal(got, 0.6+0.10*64, 1e-12, 0) {
		t.Errorf("tight imagenet: %v GB", got)
	}
	if got := a.MemoryGB(&im, 0); !approx.Equal(got, 0.6+0.077*64, 1e-12, 0) {
		t.Errorf("the preset leaked into the default table: imagenet %v GB", got)
	}
}
