package perf

import (
	"math"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/internal/approx"
	"github.com/schedlab/schedlab/sim/workload"
)

// The worked collision probabilities of spec 002 §1.3.
func TestCollisionProbSpecValues(t *testing.T) {
	for _, c := range []struct {
		ps   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{0.2}, 0},
		{[]float64{0.2, 0.2}, 0.04},
		{[]float64{0.3, 0.3}, 0.09},
		{[]float64{0.2, 0.2, 0.2}, 0.104}, // 1 − 0.512 − 0.384
		{[]float64{0.1, 0.1, 0.1}, 0.028},
		{[]float64{0.1, 0.1, 0.1, 0.1}, 0.0523}, // 1 − 0.6561 − 0.2916
		{[]float64{0.3, 0.2}, 0.06},             // Fig. 1's LeNet + ResNet
	} {
		if got := CollisionProb(c.ps); !approx.Equal(got, c.want, 1e-9, 0) {
			t.Errorf("τ%v = %.6g, want %.6g", c.ps, got, c.want)
		}
	}
}

// The Fig. 2 ResNet tuple ⟨0.3, 0.62, 0.2⟩ fills 0.92 of a GPU alone and
// exactly 1 with a γ = 0.08 worker beside it (spec 002 §8).
func TestOpportunisticMemoryFig2(t *testing.T) {
	if got := OpportunisticMemory([]float64{0.3}, []float64{0.62}); !approx.Equal(got, 0.92, 1e-9, 0) {
		t.Errorf("alone: %v, want 0.92", got)
	}
	if got := OpportunisticMemory([]float64{0.3, 0.08}, []float64{0.62, 0.16}); !approx.Equal(got, 1, 1e-9, 0) {
		t.Errorf("with LeNet: %v, want 1 (bases 0.38 + the largest extra 0.62)", got)
	}
}

func TestCompose(t *testing.T) {
	xs := []float64{0.2, 0.5}
	for rule, want := range map[string]float64{"sum": 0.7, "max": 0.5, "product": 0.8} {
		if got := Compose(rule, xs); !approx.Equal(got, want, 1e-9, 0) {
			t.Errorf("%s: %v, want %v", rule, got, want)
		}
	}
}

func defaultMemShare(t *testing.T) *MemShare {
	t.Helper()
	m, err := NewMemShare(*DefaultMemShareParams())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func typ(t *testing.T, m *MemShare, name string) int {
	t.Helper()
	k, ok := m.TypeIndex(name)
	if !ok {
		t.Fatalf("no type %s", name)
	}
	return k
}

// Hand-computed slowdowns from spec 002 §1.6 and the §5.2 defaults.
func TestWorkerAndJobSlowdown(t *testing.T) {
	m := defaultMemShare(t)
	resnet, vgg, lenet := typ(t, m, "ResNet"), typ(t, m, "VGG19"), typ(t, m, "LeNet")
	// ResNet beside VGG19: the paper's 1.22, plus κ·p_R·p_V = 0.2·0.1.
	if got := m.WorkerSlowdown(resnet, []int{vgg}); !approx.Equal(got, 1.22+0.02, 1e-9, 0) {
		t.Errorf("ResNet|VGG19 = %v, want 1.24", got)
	}
	// VGG19 beside ResNet: 0.187 + 0.1·0.2.
	if got := m.WorkerSlowdown(vgg, []int{resnet}); !approx.Equal(got, 0.187+0.02, 1e-9, 0) {
		t.Errorf("VGG19|ResNet = %v, want 0.207", got)
	}
	// LeNet beside two co-runners: 0.15 + 0.20 summed, collision
	// 0.3·(1 − 0.8·0.9).
	if got := m.WorkerSlowdown(lenet, []int{resnet, vgg}); !approx.Equal(got, 0.35+0.3*(1-0.72), 1e-9, 0) {
		t.Errorf("LeNet|ResNet,VGG19 = %v, want %v", got, 0.35+0.3*0.28)
	}
	if got := m.JobSlowdown([]float64{0.1, 0.3, 0.2}); !approx.Equal(got, 0.3+0.1*2*0.2, 1e-9, 0) {
		t.Errorf("sync = %v, want 0.34", got)
	}
	p := *DefaultMemShareParams()
	p.Aggregate = "async"
	a, _ := NewMemShare(p)
	if got := a.JobSlowdown([]float64{0.1, 0.3, 0.2}); !approx.Equal(got, 0.2, 1e-9, 0) {
		t.Errorf("async = %v, want 0.2", got)
	}
}

// msState places jobs on GPUs for Rate.
type msState struct {
	c    *cluster.Cluster
	jobs []workload.Job
	at   map[workload.JobID][]cluster.GPUID
}

func (f *msState) Cluster() *cluster.Cluster             { return f.c }
func (f *msState) Job(id workload.JobID) *workload.Job   { return &f.jobs[id] }
func (f *msState) Placement(id workload.JobID) Placement { return Placement{GPUs: f.at[id]} }
func (f *msState) JobsOn(g cluster.GPUID) []workload.JobID {
	var out []workload.JobID
	for id := range f.jobs {
		for _, h := range f.at[workload.JobID(id)] {
			if h == g {
				out = append(out, workload.JobID(id))
			}
		}
	}
	return out
}

func TestMemShareRate(t *testing.T) {
	m := defaultMemShare(t)
	jobs := []workload.Job{
		{ID: 0, Name: "r", Model: "ResNet", GPUs: 1},
		{ID: 1, Name: "v", Model: "VGG19", GPUs: 1},
		{ID: 2, Name: "l", Model: "LeNet", GPUs: 2},
	}
	if err := m.Prepare(nil, jobs); err != nil {
		t.Fatal(err)
	}
	if jobs[0].DurationS != 3600 || jobs[0].Compute != 0.3 || jobs[0].Iterations != 3600 {
		t.Fatalf("Prepare: %+v", jobs[0])
	}
	s := &msState{jobs: jobs, at: map[workload.JobID][]cluster.GPUID{0: {0}, 1: {0}, 2: {1, 1}}}
	if got := m.Rate(s, 0); !approx.Equal(got, 1/2.24, 1e-9, 0) {
		t.Errorf("ResNet rate %v, want 1/2.24", got)
	}
	// Two LeNet siblings on one GPU: each 0.18 + 0.3·0.3, no spread.
	if got := m.Rate(s, 2); !approx.Equal(got, 1/1.27, 1e-9, 0) {
		t.Errorf("LeNet siblings rate %v, want 1/1.27", got)
	}
	// One LeNet worker beside ResNet and VGG19, the other alone: the spread
	// is the whole slowdown.
	s.at[2] = []cluster.GPUID{0, 2}
	sl := 0.15 + 0.20 + 0.3*(1-0.8*0.9) // beside ResNet and VGG19
	if got := m.Rate(s, 2); !approx.Equal(got, 1/(1+sl+0.1*1*sl), 1e-9, 0) {
		t.Errorf("LeNet split rate %v, want %v", got, 1/(1+sl*1.1))
	}
	if m.MemoryGB(&jobs[0], 0) != 0.25*11 {
		t.Errorf("memory %v, want γ·11", m.MemoryGB(&jobs[0], 0))
	}
	bad := []workload.Job{{Name: "x", Model: "GPT"}}
	if err := m.Prepare(nil, bad); err == nil {
		t.Error("an unknown type must be refused")
	}
}

func TestMemShareParamsCheck(t *testing.T) {
	p := DefaultMemShareParams()
	p.Matrix[2] = p.Matrix[2][:3]
	p.Models[0] = "GPT"
	p.Types[1].Gamma = 0.9
	ps := p.Check()
	want := map[string]bool{"matrix[2]": false, "models[0]": false, "types[1]": false}
	for _, pr := range ps {
		if _, ok := want[pr.Path]; ok {
			want[pr.Path] = true
		}
	}
	for path, seen := range want {
		if !seen {
			t.Errorf("no problem at %s; got %v", path, ps)
		}
	}
}

func TestNoisyMatrix(t *testing.T) {
	truth := make([][]float64, 40)
	for i := range truth {
		truth[i] = make([]float64, 40)
		for k := range truth[i] {
			truth[i][k] = 0.5
		}
	}
	a := NoisyMatrix(truth, 0.07, false, 3)
	b := NoisyMatrix(truth, 0.07, false, 3)
	mae := 0.0
	for i := range a {
		for k := range a[i] {
			if a[i][k] != b[i][k] {
				t.Fatal("not deterministic")
			}
			mae += math.Abs(a[i][k] - 0.5)
		}
	}
	mae /= 1600
	if math.Abs(mae-0.07) > 0.007 {
		t.Errorf("MAE %v, want about 0.07", mae)
	}
}

// Capacity mode counts a collision only when the peaks present overflow
// the GPU: the Fig. 2 ResNet ⟨0.3, 0.62, 0.2⟩ and a LeNet ⟨0.08, 0.16,
// 0.3⟩ overflow when both peak (0.38 + 0.78 > 1), so ResNet pays
// κ·0.2·0.3 as in paper mode; two CNN ⟨0.08, 0.12, 0.05⟩ never overflow
// (0.16 + 0.24), so nothing, where paper mode charges 0.05·0.05.
func TestCapacityCollisionMode(t *testing.T) {
	p := *DefaultMemShareParams()
	p.Collision = "capacity"
	m, err := NewMemShare(p)
	if err != nil {
		t.Fatal(err)
	}
	paper := defaultMemShare(t)
	fig2, lenet, cnn := typ(t, m, "ResNet-Fig2"), typ(t, m, "LeNet"), typ(t, m, "CNN")
	if got := m.WorkerSlowdown(fig2, []int{lenet}); !approx.Equal(got, 0.06, 1e-9, 0) {
		t.Errorf("ResNet (Fig. 2) beside LeNet: %v, want 0.06 (no matrix cell for the demo type)", got)
	}
	if got, want := m.WorkerSlowdown(cnn, []int{cnn}), 0.04; !approx.Equal(got, want, 1e-9, 0) {
		t.Errorf("CNN beside CNN, capacity: %v, want %v", got, want)
	}
	if got, want := paper.WorkerSlowdown(cnn, []int{cnn}), 0.04+0.05*0.05; !approx.Equal(got, want, 1e-9, 0) {
		t.Errorf("CNN beside CNN, paper: %v, want %v", got, want)
	}
}

// Synchronous siblings: two LeNet workers of one job on one GPU peak
// together, so they never collide with each other: 0.18 only.
func TestSyncSiblings(t *testing.T) {
	p := *DefaultMemShareParams()
	p.SyncSiblings = true
	m, _ := NewMemShare(p)
	jobs := []workload.Job{{ID: 0, Name: "l", Model: "LeNet", GPUs: 2}, {ID: 1, Name: "c", Model: "LSTM", GPUs: 1}}
	if err := m.Prepare(nil, jobs); err != nil {
		t.Fatal(err)
	}
	s := &msState{jobs: jobs, at: map[workload.JobID][]cluster.GPUID{0: {0, 0}, 1: {1}}}
	if got := m.Rate(s, 0); !approx.Equal(got, 1/1.18, 1e-9, 0) {
		t.Errorf("synchronous siblings: rate %v, want 1/1.18", got)
	}
	// Beside an LSTM worker the pair is one peak unit: each LeNet worker
	// pays 0.3·0.3 once, and suffers 0.18 (sibling) + 0.18 (LSTM).
	s.at[1] = []cluster.GPUID{0}
	if got := m.Rate(s, 0); !approx.Equal(got, 1/(1+0.36+0.09), 1e-9, 0) {
		t.Errorf("beside LSTM: rate %v, want %v", got, 1/1.45)
	}
}

// Drift: a job is heavy in about 1 − exp(−0.5·0.5) = 22% of 30-minute
// phases, the same ones every time, and a heavy co-runner doubles the
// damage it does (Δ = 1): ResNet beside a heavy VGG19 suffers 2·1.22.
func TestDrift(t *testing.T) {
	p := *DefaultMemShareParams()
	p.Drift = Drift{Delta: 1, PhaseS: 1800, RatePerHour: 0.5, Seed: 7}
	m, _ := NewMemShare(p)
	heavy := 0
	for k := range 4000 {
		f := m.DriftOf(3, float64(k)*1800+5)
		if f != m.DriftOf(3, float64(k)*1800+1700) {
			t.Fatal("the factor changes inside a phase")
		}
		if f == 2 {
			heavy++
		}
	}
	if share := float64(heavy) / 4000; math.Abs(share-(1-math.Exp(-0.25))) > 0.02 {
		t.Errorf("heavy in %.3f of the phases, want about 0.221", share)
	}
	if got := m.NextChange(nil, 0, 2000); got != 3600 {
		t.Errorf("next change after t=2000: %v, want 3600", got)
	}
	jobs := []workload.Job{{ID: 0, Name: "r", Model: "ResNet", GPUs: 1}, {ID: 1, Name: "v", Model: "VGG19", GPUs: 1}}
	m.Prepare(nil, jobs)
	var heavyT float64 = -1
	for k := range 100 {
		if m.DriftOf(1, float64(k)*1800) == 2 {
			heavyT = float64(k) * 1800
			break
		}
	}
	s := &clockState{msState{jobs: jobs, at: map[workload.JobID][]cluster.GPUID{0: {0}, 1: {0}}}, heavyT}
	if got := m.Rate(s, 0); !approx.Equal(got, 1/(1+2*1.22+0.02), 1e-9, 0) {
		t.Errorf("beside a heavy VGG19: rate %v, want 1/%v", got, 1+2*1.22+0.02)
	}
	if got := m.ObservedInterference(s, 0, []workload.JobID{1}); !approx.Equal(got, 2.44, 1e-9, 0) {
		t.Errorf("observed %v, want 2.44", got)
	}
	off, _ := NewMemShare(*DefaultMemShareParams())
	if !math.IsInf(off.NextChange(nil, 0, 5), 1) || off.DriftOf(1, heavyT) != 1 {
		t.Error("without drift nothing changes with time")
	}
}

type clockState struct {
	msState
	now float64
}

func (c *clockState) Now() float64 { return c.now }

// A spike shows for DurationS after an arrival and not after; off when
// its size is 0 or nothing arrived.
func TestSpikeAt(t *testing.T) {
	p := DefaultMemShareParams()
	p.Spike = Spike{Size: 0.3, DurationS: 120}
	m, err := NewMemShare(*p)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ now, at, want float64 }{{100, 0, 0.3}, {119.9, 0, 0.3}, {120, 0, 0}, {500, 0, 0}, {100, -1, 0}, {50, 60, 0}} {
		if got := m.SpikeAt(c.now, c.at); got != c.want {
			t.Errorf("SpikeAt(%v, %v) = %v, want %v", c.now, c.at, got, c.want)
		}
	}
	if got := (&MemShare{}).SpikeAt(10, 0); got != 0 {
		t.Errorf("no spike configured, got %v", got)
	}
}
