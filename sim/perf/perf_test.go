package perf

import (
	"math"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/workload"
)

// fakeState is a hand-built State for table tests.
type fakeState struct {
	c    *cluster.Cluster
	jobs []workload.Job
	at   map[workload.JobID][]cluster.GPUID
}

func (f *fakeState) Cluster() *cluster.Cluster             { return f.c }
func (f *fakeState) Job(id workload.JobID) *workload.Job   { return &f.jobs[id] }
func (f *fakeState) Placement(id workload.JobID) Placement { return Placement{GPUs: f.at[id]} }
func (f *fakeState) JobsOn(g cluster.GPUID) []workload.JobID {
	var out []workload.JobID
	for id := range f.jobs {
		for _, x := range f.at[workload.JobID(id)] {
			if x == g {
				out = append(out, workload.JobID(id))
			}
		}
	}
	return out
}

func newFake(t *testing.T, models ...string) *fakeState {
	c, err := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{
		{Count: 1, GPUs: 4, GPUType: "V100"}, {Count: 1, GPUs: 4, GPUType: "K80"}}})
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeState{c: c, at: map[workload.JobID][]cluster.GPUID{}}
	for i, m := range models {
		f.jobs = append(f.jobs, workload.Job{ID: workload.JobID(i), Name: m, Model: m, DurationS: 100})
	}
	if err := NewConstant(ConstantParams{}).Prepare(c, f.jobs); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestConstantRateAndTypeSpeed(t *testing.T) {
	f := newFake(t, "a")
	f.at[0] = []cluster.GPUID{0, 1}
	m := NewConstant(ConstantParams{TypeSpeed: []TypeSpeed{{"K80", 0.5}}})
	if r := m.Rate(f, 0); r != 1 {
		t.Fatalf("rate on V100 %v, want 1 iteration/s", r)
	}
	f.at[0] = []cluster.GPUID{0, 4} // a gang across types runs at its slowest
	if r := m.Rate(f, 0); r != 0.5 {
		t.Fatalf("rate across V100+K80 %v, want 0.5", r)
	}
	jobs := []workload.Job{{Name: "x", Iterations: 10}}
	if err := m.Prepare(f.c, jobs); err == nil {
		t.Fatal("job without duration accepted by the constant model")
	}
}

func TestInterferenceCombines(t *testing.T) {
	spec := InterferenceSpec{Models: []string{"a", "b", "c"}, Matrix: [][]float64{
		{1.1, 1.5, 2.0},
		{1.2, 1.0, 1.0},
		{1.3, 1.0, 1.0},
	}, Default: 1.05}
	f := newFake(t, "a", "b", "c", "z")
	f.at[0] = []cluster.GPUID{0, 1}
	f.at[1] = []cluster.GPUID{0}
	f.at[2] = []cluster.GPUID{1}
	f.at[3] = []cluster.GPUID{1}
	cases := []struct {
		combine string
		want    float64
	}{
		{"", 2.0}, // max over partners b, c, z
		{"max", 2.0},
		{"product", 1.5 * 2.0 * 1.05},
		{"sum", 1 + 0.5 + 1.0 + 0.05},
	}
	for _, tc := range cases {
		s := spec
		s.Combine = tc.combine
		if got := NewInterference(s).Slowdown(f, 0); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("combine %q: slowdown %v, want %v", tc.combine, got, tc.want)
		}
	}
	// b shares only GPU 0, with a: 1.2. A lone job is not slowed.
	in := NewInterference(spec)
	if got := in.Slowdown(f, 1); got != 1.2 {
		t.Errorf("b slowdown %v, want 1.2", got)
	}
	f.at[0], f.at[2], f.at[3] = nil, nil, nil
	if got := in.Slowdown(f, 1); got != 1 {
		t.Errorf("lone job slowdown %v, want 1", got)
	}
	if got := NewInterference(InterferenceSpec{Uniform: 1.5}).Pair("x", "y"); got != 1.5 {
		t.Errorf("uniform pair %v", got)
	}
}

func TestInterferenceSpecCheck(t *testing.T) {
	s := InterferenceSpec{Models: []string{"a", "a"}, Matrix: [][]float64{{1, 0.5}, {1}}, Uniform: 0.9}
	ps := s.Check()
	paths := map[string]bool{}
	for _, p := range ps {
		paths[p.Path] = true
	}
	for _, want := range []string{"uniform", "models[1]", "matrix[0][1]", "matrix[1]"} {
		if !paths[want] {
			t.Errorf("no problem at %s in %v", want, ps)
		}
	}
}

func TestCompositeDividesByFactors(t *testing.T) {
	f := newFake(t, "a", "b")
	f.at[0] = []cluster.GPUID{0}
	f.at[1] = []cluster.GPUID{0}
	m := &Composite{Base: NewConstant(ConstantParams{}), Factors: []Factor{NewInterference(InterferenceSpec{Uniform: 2})}}
	if r := m.Rate(f, 0); r != 0.5 {
		t.Fatalf("rate %v, want 0.5", r)
	}
	if m.Coupling() != SharedGPU {
		t.Fatal("composite coupling should widen to SharedGPU")
	}
	if r := SoloRate(m, f.c, &f.jobs[0], []cluster.GPUID{0}); r != 1 {
		t.Fatalf("solo rate %v, want 1", r)
	}
}
