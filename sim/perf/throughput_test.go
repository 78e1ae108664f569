package perf

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/internal/approx"
	"github.com/schedlab/schedlab/sim/workload"
)

func gavelFake(t *testing.T, jobs ...workload.Job) (*fakeState, *Throughput) {
	t.Helper()
	c, err := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{
		{Count: 2, GPUs: 2, GPUType: "V100"}, {Count: 1, GPUs: 4, GPUType: "K80"}}})
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewThroughput(ThroughputParams{Placement: "servers"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range jobs {
		jobs[i].ID = workload.JobID(i)
		jobs[i].Name = jobs[i].Model
	}
	if err := m.Prepare(c, jobs); err != nil {
		t.Fatal(err)
	}
	return &fakeState{c: c, jobs: jobs, at: map[workload.JobID][]cluster.GPUID{}}, m
}

func TestThroughputModel(t *testing.T) {
	f, m := gavelFake(t,
		workload.Job{Model: "ResNet-50", BatchSize: 64, GPUs: 1, DurationS: 100},
		workload.Job{Model: "A3C", BatchSize: 4, GPUs: 1, DurationS: 100},
		workload.Job{Model: "LM", BatchSize: 5, GPUs: 2, DurationS: 10},
		workload.Job{Model: "CycleGAN", GPUs: 1, DurationS: 100},
	)
	near := func(what string, got, want float64) {
		t.Helper()
		if !approx.Equal(got, want, 0, 1e-3) {
			t.Errorf("%s: %v, want %v", what, got, want)
		}
	}
	// Iterations are the duration at the V100 throughput.
	near("ResNet-50 iterations", f.jobs[0].Iterations, 100*4.395)
	near("LM sf 2 iterations", f.jobs[2].Iterations, 10*185.72)
	f.at[0] = []cluster.GPUID{0}
	near("ResNet-50 alone on V100", m.Rate(f, 0), 4.395)
	f.at[0] = []cluster.GPUID{4}
	near("ResNet-50 alone on K80", m.Rate(f, 0), 0.619)
	// A3C beside ResNet-50 on one K80: the pair's measured throughputs.
	f.at[1] = []cluster.GPUID{4}
	a, b := m.PairThroughput(&f.jobs[0], &f.jobs[1], "K80")
	if a <= 0 || b <= 0 || a >= 0.619 {
		t.Fatalf("pair throughputs %v %v", a, b)
	}
	near("ResNet-50 in the pair", m.Rate(f, 0), a)
	near("A3C in the pair", m.Rate(f, 1), b)
	// A third job on the GPU cannot run.
	f.at[3] = []cluster.GPUID{4}
	if r := m.Rate(f, 0); r != 0 {
		t.Errorf("three on a GPU: rate %v, want 0", r)
	}
	delete(f.at, 3)
	// A gang on two servers runs unconsolidated with placement "servers".
	f.at[2] = []cluster.GPUID{0, 1}
	cons := m.Rate(f, 2)
	f.at[2] = []cluster.GPUID{0, 2}
	uncons := m.Rate(f, 2)
	if !(uncons > 0 && uncons != cons) {
		t.Errorf("LM on one server %v, on two %v", cons, uncons)
	}
	f.at[2] = []cluster.GPUID{0, 4}
	if r := m.Rate(f, 2); r != 0 {
		t.Errorf("gang across V100 and K80: %v, want 0", r)
	}
	if m.Coupling() != SharedGPU {
		t.Error("a pair's rate depends on its partner")
	}
	if s := m.SoloThroughput(&f.jobs[3], "A100"); s != 0 {
		t.Errorf("a GPU type absent from the table: %v", s)
	}
}

func TestThroughputPrepareErrors(t *testing.T) {
	c, _ := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{{Count: 1, GPUs: 1, GPUType: "A100"}}})
	m, _ := NewThroughput(ThroughputParams{})
	for _, c2 := range []struct {
		job  workload.Job
		want string
	}{
		{workload.Job{Name: "x", Model: "bert", GPUs: 1, DurationS: 1}, "no job type"},
		{workload.Job{Name: "y", Model: "A3C", GPUs: 1}, "duration_s"},
		{workload.Job{Name: "z", Model: "A3C", GPUs: 1, DurationS: 5}, "GPU types"},
	} {
		err := m.Prepare(c, []workload.Job{c2.job})
		if err == nil || !strings.Contains(err.Error(), c2.want) {
			t.Errorf("%s: %v, want an error about %s", c2.job.Name, err, c2.want)
		}
	}
}

// Row finds every zoo job type at every scale factor the table has in the
// model's list, at the table's own index of its key.
func TestThroughputRowByModel(t *testing.T) {
	m, err := NewThroughput(ThroughputParams{})
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, tm := range workload.GavelZoo {
		for _, jt := range m.t.Jobs() {
			if jt.Key != tm.Key() {
				continue
			}
			want := m.t.Index(jt.Key, jt.SF)
			got, ok := m.lookup(tm.Model, tm.BatchSize, jt.SF)
			if !ok || got != want {
				t.Fatalf("%s at %d GPUs: row %d (found %v), the table's %d", tm.Key(), jt.SF, got, ok, want)
			}
			j := &workload.Job{Model: tm.Model, BatchSize: tm.BatchSize, GPUs: jt.SF}
			if r := m.Row(j, jt.SF); r != want {
				t.Fatalf("%s at %d GPUs: Row %d, the table's %d", tm.Key(), jt.SF, r, want)
			}
			found++
		}
	}
	if found < len(workload.GavelZoo) {
		t.Fatalf("only %d rows found for %d job types", found, len(workload.GavelZoo))
	}
	if _, ok := m.lookup(workload.GavelZoo[0].Model, -7, 1); ok {
		t.Fatal("an unknown batch size has a row")
	}
}
