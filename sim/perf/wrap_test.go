package perf

import (
	"fmt"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/internal/approx"
	"github.com/schedlab/schedlab/sim/workload"
)

// fixedSlowdown is a factor that slows every job down by the same amount.
type fixedSlowdown float64

func (f fixedSlowdown) Slowdown(State, workload.JobID) float64 { return float64(f) }
func (fixedSlowdown) Coupling() Coupling                       { return Independent }

// As finds a model's capabilities and concrete type through wrappers, two
// levels deep, and reports a capability nothing in the chain has.
func TestAsWalksWrappers(t *testing.T) {
	rar := NewRAR(RARParams{Preset: "contended", Shape: "linear", Progress: "exact"})
	ms, err := NewMemShare(*DefaultMemShareParams())
	if err != nil {
		t.Fatal(err)
	}
	constant := NewConstant(ConstantParams{})
	wrap := func(m Model) Model { return &Composite{Base: m, Factors: []Factor{fixedSlowdown(1.5)}} }

	if got, ok := As[*RAR](wrap(wrap(rar))); !ok || got != rar {
		t.Errorf("As[*RAR] through two composites: %v, %v", got, ok)
	}
	if got, ok := As[*MemShare](wrap(ms)); !ok || got != ms {
		t.Errorf("As[*MemShare] through a composite: %v, %v", got, ok)
	}
	if got, ok := As[Timed](wrap(ms)); !ok || got != Timed(ms) {
		t.Errorf("As[Timed] through a composite: %v, %v", got, ok)
	}
	if got, ok := As[Preparer](wrap(constant)); !ok || got != Preparer(constant) {
		t.Errorf("As[Preparer] through a composite: %v, %v", got, ok)
	}
	if _, ok := As[*MemShare](wrap(constant)); ok {
		t.Error("As[*MemShare] found a memshare model in a composite of the constant model")
	}
	if _, ok := As[Splitter](wrap(constant)); ok {
		t.Error("a composite of the constant model claims to split iterations")
	}
	if _, ok := As[Timed](wrap(rar)); ok {
		t.Error("a composite of ring-all-reduce claims rates that change with time")
	}
	if _, ok := As[Splitter](nil); ok {
		t.Error("a nil model is a Splitter")
	}
	// What the factors change, the composite answers itself.
	c := wrap(constant)
	if got, ok := As[PairModel](c); !ok || got != PairModel(c.(*Composite)) {
		t.Errorf("As[PairModel] should give the composite itself, got %v, %v", got, ok)
	}
}

// A composite splits an iteration as its base does, plus the time its
// factors add as the Interference part, so that the parts add up to the
// composite's iteration time; a neutral factor adds no part at all.
func TestCompositeSplitAddsInterference(t *testing.T) {
	c := rarCluster(t, 2, 2)
	jobs := []workload.Job{{ID: 0, GPUs: 2, DurationS: 100, Iterations: 4000}, {ID: 1, GPUs: 2, DurationS: 100, Iterations: 4000}}
	rar := NewRAR(RARParams{Preset: "contended", Shape: "linear", Progress: "exact"})
	split := &placed{c: c, jobs: jobs, at: [][]cluster.GPUID{gpusOn(c, 0, 0, 1, 0), gpusOn(c, 0, 1, 1, 1)}}

	// Figure 2's toy split over two servers (n = 2, p = 2): τ = τ0 +
	// β·τ0·(1 − 1/R + ξ2) = 0.025 · 1.21 = 0.03025 s; a factor of 1.25
	// adds a quarter of that.
	comp := &Composite{Base: rar, Factors: []Factor{fixedSlowdown(1.25)}}
	sp, ok := As[Splitter](comp)
	if !ok {
		t.Fatal("a composite of ring-all-reduce does not split iterations")
	}
	got, base := sp.IterSplit(split, 0), rar.IterSplit(split, 0)
	if !approx.Equal(base.Total(), 0.03025, 1e-15, 0) {
		t.Fatalf("base iteration %v s, want 0.03025", base.Total())
	}
	if !approx.Equal(got.Interference, 0.0075625, 1e-15, 0) {
		t.Errorf("interference part %v s, want 0.25 × 0.03025 = 0.0075625", got.Interference)
	}
	if got.Compute != base.Compute || got.Inter != base.Inter || got.Contention != base.Contention || got.Overhead != base.Overhead {
		t.Errorf("the base's parts changed: %+v, base %+v", got, base)
	}
	if r := comp.Rate(split, 0); !approx.Equal(got.Total(), 1/r, 1e-15, 0) {
		t.Errorf("the parts add up to %v s, the composite's iteration takes %v s", got.Total(), 1/r)
	}

	neutral := &Composite{Base: rar, Factors: []Factor{NewInterference(InterferenceSpec{Uniform: 1})}}
	sp, _ = As[Splitter](neutral)
	if got := sp.IterSplit(split, 0); got != base {
		t.Errorf("a neutral factor changed the split: %+v, want %+v", got, base)
	}
}

// Asking a composite for what its hook does not answer allocates nothing:
// the engine asks for memory at every placement, the shared placements for
// throughputs at every request.
func TestAsThroughAWrapperDoesNotAllocate(t *testing.T) {
	m := &Composite{Base: NewConstant(ConstantParams{}), Factors: []Factor{fixedSlowdown(1.5)}}
	j := &workload.Job{MemoryGB: 3}
	if n := testing.AllocsPerRun(100, func() {
		_ = JobMemoryGB(m, j, 0)
		_, _ = As[Throughputs](m)
		_, _ = As[Timed](m)
	}); n != 0 {
		t.Errorf("%v allocations per query", n)
	}
	if got := JobMemoryGB(m, j, 0); got != 3 {
		t.Errorf("memory %v, want the job's 3 GB", got)
	}
}

// JobMemoryGB directly on the memshare model and through a composite,
// for the ratio.
func BenchmarkJobMemoryGB(b *testing.B) {
	ms, err := NewMemShare(*DefaultMemShareParams())
	if err != nil {
		b.Fatal(err)
	}
	jobs := []workload.Job{{Name: "a", Model: "ResNet", GPUs: 1}}
	if err := ms.Prepare(nil, jobs); err != nil {
		b.Fatal(err)
	}
	for _, m := range []Model{ms, &Composite{Base: ms, Factors: []Factor{fixedSlowdown(1.5)}}} {
		b.Run(fmt.Sprintf("%T", m), func(b *testing.B) {
			for b.Loop() {
				_ = JobMemoryGB(m, &jobs[0], 0)
			}
		})
	}
}
