package perf

import (
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/internal/approx"
	"github.com/schedlab/schedlab/sim/schema"
	"github.com/schedlab/schedlab/sim/workload"
)

// placed is a State with fixed placements, for hand-computed cases.
type placed struct {
	c    *cluster.Cluster
	jobs []workload.Job
	at   [][]cluster.GPUID
}

func (p *placed) Cluster() *cluster.Cluster             { return p.c }
func (p *placed) Job(id workload.JobID) *workload.Job   { return &p.jobs[id] }
func (p *placed) Placement(id workload.JobID) Placement { return Placement{GPUs: p.at[id]} }
func (p *placed) JobsOn(g cluster.GPUID) []workload.JobID {
	var out []workload.JobID
	for id, gs := range p.at {
		for _, x := range gs {
			if x == g {
				out = append(out, workload.JobID(id))
				break
			}
		}
	}
	return out
}

func rarCluster(t *testing.T, caps ...int) *cluster.Cluster {
	t.Helper()
	var groups []cluster.ServerGroup
	for _, c := range caps {
		groups = append(groups, cluster.ServerGroup{Count: 1, GPUs: c, GPUType: "V100"})
	}
	c, err := cluster.New(cluster.Spec{Servers: groups})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// gpusOn returns GPU slots of servers: pairs (server, slot).
func gpusOn(c *cluster.Cluster, pairs ...int) []cluster.GPUID {
	var out []cluster.GPUID
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, c.Servers[pairs[i]].FirstGPU+cluster.GPUID(pairs[i+1]))
	}
	return out
}

// Spec 004 §6 test 2: A on {s1:2, s2:2}, B on {s2:1, s3:1}, C on {s1:4}.
func TestContentionCounts(t *testing.T) {
	c := rarCluster(t, 8, 8, 8)
	st := &placed{c: c,
		jobs: []workload.Job{{ID: 0, GPUs: 4}, {ID: 1, GPUs: 2}, {ID: 2, GPUs: 4}},
		at: [][]cluster.GPUID{
			gpusOn(c, 0, 0, 0, 1, 1, 0, 1, 1),
			gpusOn(c, 1, 2, 2, 0),
			gpusOn(c, 0, 2, 0, 3, 0, 4, 0, 5),
		}}
	for id, want := range []struct{ n, p int }{{2, 2}, {2, 2}, {1, 0}} {
		n, p := Contention(st, workload.JobID(id))
		if n != want.n || p != want.p {
			t.Errorf("job %c: n=%d p=%d, want n=%d p=%d", 'A'+id, n, p, want.n, want.p)
		}
	}
}

// Spec 004 §6 test 3: eq. 8 in physical units.
func TestEq8Physical(t *testing.T) {
	q := Eq8{M: 100, W: 4, Be: 10, Bi: 100, C: 1000, DeltaF: 0.001, Batch: 32, DeltaB: 0.05, Xi1: 1, Xi2: 0.01, Alpha: 0.1}
	if got := q.Tau(1, 0); !approx.Equal(got, 1.667, 5e-4, 0) {
		t.Errorf("single server: τ = %.4f, want 1.667", got)
	}
	if got := q.Tau(2, 2); !approx.Equal(got, 31.677, 5e-4, 0) {
		t.Errorf("split, p = 2: τ = %.4f, want 31.677", got)
	}
	// Spec 004 §6 test 1: a ring of 3 workers moves 2·(2/3) of d per worker.
	if got := 2 * (q.W - 1) / q.W; q.W == 3 && !approx.Equal(got, 4.0/3, 1e-12, 0) {
		t.Errorf("RAR volume %v", got)
	}
}

// The calibrated split reduces to eq. 8 with b_e = 1, b_i = R, m from
// E = β·τ0 and the compute lumped, on hand-computed placements.
func TestCalibratedIterTime(t *testing.T) {
	m := NewRAR(RARParams{Preset: "contended", Shape: "linear", Progress: "exact"})
	j := &workload.Job{GPUs: 4, DurationS: 100, Iterations: 4000} // τ0 = 0.025
	t0 := 0.025
	if got := m.Split(j, 1, 0).Total(); !approx.Equal(got, t0, 1e-15, 0) {
		t.Errorf("one server: %v, want τ0", got)
	}
	// n = 2, p = 2: k = max(1, 0.5·2) = 1, f = 1: τ0 + βτ0(1 − 0.1 + 0.5).
	if got, want := m.Split(j, 2, 2).Total(), t0+0.15*t0*(1-0.1+0.5); !approx.Equal(got, want, 1e-15, 0) {
		t.Errorf("n=2 p=2: %v, want %v", got, want)
	}
	// n = 3, p = 6: k = 3, f = 3 + 0.5·2 = 4: τ0 + βτ0(4 − 0.1 + 1).
	x := m.Split(j, 3, 6)
	if got, want := x.Total(), t0+0.15*t0*(4-0.1+1); !approx.Equal(got, want, 1e-15, 0) {
		t.Errorf("n=3 p=6: %v, want %v", got, want)
	}
	if !approx.Equal(x.Contention, 0.15*t0*3, 1e-15, 0) || !approx.Equal(x.Inter, 0.15*t0, 1e-15, 0) || x.Intra != 0 {
		t.Errorf("split parts %+v", x)
	}
	// Against eq. 8 directly: b_e = 1, b_i = 10, w = 4, E = 2m(w−1)/w.
	e := 0.15 * t0
	q := Eq8{M: e * 4 / 6, W: 4, Be: 1, Bi: 10, C: 1e300, Xi1: 0.5, Xi2: 0.5 * e, Alpha: 0.5}
	q.DeltaB = t0 - e/10 - 0.5*e // the lumped compute
	if got, want := q.Tau(3, 6), x.Total(); !approx.Equal(got, want, 1e-15, 0) {
		t.Errorf("eq. 8 gives %v, the calibrated form %v", got, want)
	}
	if got := m.Split(&workload.Job{GPUs: 1, DurationS: 100, Iterations: 4000}, 3, 6).Total(); !approx.Equal(got, t0, 1e-15, 0) {
		t.Errorf("a 1-GPU job runs at τ0, got %v", got)
	}
}

// Spec 004 §6 test 4: two 2-GPU jobs on 2 servers × 2 GPUs.
func TestFig2Toy(t *testing.T) {
	c := rarCluster(t, 2, 2)
	jobs := []workload.Job{{ID: 0, GPUs: 2, DurationS: 100, Iterations: 4000}, {ID: 1, GPUs: 2, DurationS: 100, Iterations: 4000}}
	m := NewRAR(RARParams{Preset: "contended", Shape: "linear", Progress: "exact"})
	own := &placed{c: c, jobs: jobs, at: [][]cluster.GPUID{gpusOn(c, 0, 0, 0, 1), gpusOn(c, 1, 0, 1, 1)}}
	split := &placed{c: c, jobs: jobs, at: [][]cluster.GPUID{gpusOn(c, 0, 0, 1, 0), gpusOn(c, 0, 1, 1, 1)}}
	for id := range workload.JobID(2) {
		if got := m.Rate(own, id); !approx.Equal(got, 40, 1e-9, 0) {
			t.Errorf("per server: job %d rate %v, want 1/τ0 = 40", id, got)
		}
		if n, p := Contention(split, id); n != 2 || p != 2 {
			t.Errorf("split: job %d n=%d p=%d, want 2 and 2", id, n, p)
		}
		if got := m.Rate(split, id); !(got < 40) {
			t.Errorf("split: job %d rate %v, want below 40", id, got)
		}
	}
}

func TestFloorProgress(t *testing.T) {
	m := NewRAR(RARParams{Preset: "mild", Shape: "linear", Progress: "floor"})
	if got := m.Speed(0.03); got != 33 {
		t.Errorf("⌊1/0.03⌋ = %v, want 33", got)
	}
	if got := m.Speed(2); got != 0.5 {
		t.Errorf("τ = 2 slots: %v, want the fractional fallback 0.5", got)
	}
}

func TestRARShapesAndClamp(t *testing.T) {
	m := NewRAR(RARParams{Preset: "custom", Beta: 0.1, Alpha: 1, Xi1: 0.5, Xi2: 0, R: 10, Shape: "power", Progress: "exact"})
	if got := m.F(2); !approx.Equal(got, 4, 1e-12, 0) {
		t.Errorf("power f(1,2) = %v, want 4", got)
	}
	j := &workload.Job{GPUs: 2, DurationS: 10, Iterations: 1000}
	if x := m.Split(j, 2, 1); x.Contention != 0 {
		t.Errorf("clamped k = 1 adds no contention, got %v", x.Contention)
	}
	m.p.NoClampK = true
	if x := m.Split(j, 2, 1); !(x.Contention < 0) {
		t.Errorf("unclamped k = 0.5 gives more than b_e, got %v", x.Contention)
	}
}

func TestRARPresetCheck(t *testing.T) {
	p := DefaultRARParams()
	p.Preset, p.Beta = "mild", 0.3
	ps := p.Check()
	if len(ps) != 1 || ps[0].Path != "beta" {
		t.Fatalf("want one problem at beta, got %v", ps)
	}
	p.Beta = 0.03
	if ps := p.Check(); len(ps) != 0 {
		t.Errorf("the preset's own value is fine: %v", ps)
	}
	var _ schema.Checker = p
	if r := (RARParams{Preset: "mild", Beta: 9}).Resolved(); r.Beta != 0.03 || r.Alpha != 0.2 || r.R != 10 {
		t.Errorf("mild resolves to %+v", r)
	}
}

func TestRARPrepareRefusesNegativeCompute(t *testing.T) {
	m := NewRAR(RARParams{Preset: "custom", Beta: 2, Alpha: 0, Xi1: 1, Xi2: 1, R: 10, Shape: "linear", Progress: "exact"})
	err := m.Prepare(nil, []workload.Job{{Name: "j", GPUs: 2, DurationS: 10, Iterations: 100}})
	if err == nil {
		t.Fatal("β = 2 with ξ2 = 1 leaves a negative compute time")
	}
	if err := m.Prepare(nil, []workload.Job{{Name: "j", GPUs: 2, DurationS: 10}}); err == nil {
		t.Fatal("a job without iterations has no τ0")
	}
}
