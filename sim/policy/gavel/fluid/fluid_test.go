package fluid

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/workload"
)

// tenPerSecond runs every job at 10 iterations/s alone on a V100 and
// nowhere else; pairs cannot share.
type tenPerSecond struct{}

func (tenPerSecond) Rate(perf.State, workload.JobID) float64 { return 0 }
func (tenPerSecond) Coupling() perf.Coupling                 { return perf.Independent }
func (tenPerSecond) SoloThroughput(j *workload.Job, t string) float64 {
	if t == "V100" {
		return 10
	}
	return 0
}
func (tenPerSecond) PairThroughput(a, b *workload.Job, t string) (float64, float64) { return 0, 0 }

// halves gives every active job half of the first type's time.
type halves struct{}

func (halves) Allocate(in *plan.Input) (*plan.Allocation, error) {
	al := &plan.Allocation{Objective: float64(len(in.Jobs))}
	for i := range in.Jobs {
		x := make([]float64, len(in.Types))
		x[0] = 0.5
		al.Combos = append(al.Combos, plan.Combo{A: i, B: -1, X: x})
	}
	return al, nil
}

// Two jobs at half a V100 each run at 5 iterations/s: a (100 iterations)
// finishes at 20 s, when b has done 100 of its 200; b then runs alone at
// 5/s again (it still gets half), so it finishes at 40 s. A job that asks
// for more GPUs than the cluster has is unschedulable from its arrival.
func TestRunFollowsTheAllocationsRates(t *testing.T) {
	c, err := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{{Count: 1, GPUs: 1, GPUType: "V100"}}})
	if err != nil {
		t.Fatal(err)
	}
	jobs := []workload.Job{
		{ID: 0, Name: "a", GPUs: 1, Iterations: 100},
		{ID: 1, Name: "b", GPUs: 1, Iterations: 200},
		{ID: 2, Name: "big", GPUs: 2, Iterations: 10, ArrivalS: 5},
	}
	res, err := Run(context.Background(), engine.Config{Cluster: c, Jobs: jobs, Perf: tenPerSecond{}}, Options{Title: "halves", Alloc: halves{}})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		status engine.Status
		finish float64
	}{{engine.Finished, 20}, {engine.Finished, 40}, {engine.Unschedulable, -1}}
	for i, w := range want {
		r := res.Jobs[i]
		if r.Status != w.status || math.Abs(r.FinishS-w.finish) > 1e-9 {
			t.Errorf("job %s: %v at %v, want %v at %v", r.Name, r.Status, r.FinishS, w.status, w.finish)
		}
	}
	if r := res.Jobs[0]; r.FirstStartS != 0 || math.Abs(r.GPUSeconds-10) > 1e-9 {
		t.Errorf("job a: first start %v, %v GPU-seconds, want 0 and 10 (half a GPU for 20 s)", r.FirstStartS, r.GPUSeconds)
	}
	// One allocation at each change of the active jobs: both arrive, a
	// finishes, b finishes (over no jobs).
	obj := res.FindSeries("gavel/objective", -1)
	if obj == nil || fmt.Sprint(obj.T, obj.V) != "[0 20 40] [2 1 0]" {
		t.Errorf("objective series %v, want at 0, 20, 40 s the values 2, 1, 0", obj)
	}
}

// sharing runs a job at 10 iterations/s alone on a V100 and, sharing the
// V100 with another, at 4 (the first of the pair) and 6 (the second).
type sharing struct{ tenPerSecond }

func (sharing) PairThroughput(a, b *workload.Job, t string) (float64, float64) {
	if t == "V100" {
		return 4, 6
	}
	return 0, 0
}

// pairs puts the first two active jobs together on the first type for
// the whole time, and a job alone on it when it is the only one.
type pairs struct{}

func (pairs) Allocate(in *plan.Input) (*plan.Allocation, error) {
	al := &plan.Allocation{}
	x := make([]float64, len(in.Types))
	x[0] = 1
	switch len(in.Jobs) {
	case 1:
		al.Combos = []plan.Combo{{A: 0, B: -1, X: x}}
	case 2:
		al.Combos = []plan.Combo{{A: 0, B: 1, X: x}}
	}
	return al, nil
}

// Both jobs of a shared pair hold the GPU while they share it, so both
// are charged its time. By hand on one V100: a (40 iterations) runs at 4/s
// beside b and finishes at 10 s, holding 1 GPU for 10 s; b (120) does 60
// at 6/s by then and the other 60 alone at 10/s, finishing at 16 s after
// 10 + 6 = 16 GPU-seconds. The fluid model used to charge the shared time
// to the first job of the pair only (b: 6 GPU-seconds).
func TestPairChargesBothJobs(t *testing.T) {
	c, err := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{{Count: 1, GPUs: 1, GPUType: "V100"}}})
	if err != nil {
		t.Fatal(err)
	}
	jobs := []workload.Job{
		{ID: 0, Name: "a", GPUs: 1, Iterations: 40},
		{ID: 1, Name: "b", GPUs: 1, Iterations: 120},
	}
	res, err := Run(context.Background(), engine.Config{Cluster: c, Jobs: jobs, Perf: sharing{}}, Options{Title: "pairs", Alloc: pairs{}})
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range []struct{ finish, gpuS, run float64 }{{10, 10, 10}, {16, 16, 16}} {
		r := res.Jobs[i]
		if r.Status != engine.Finished || math.Abs(r.FinishS-w.finish) > 1e-9 || math.Abs(r.GPUSeconds-w.gpuS) > 1e-9 || math.Abs(r.RunS-w.run) > 1e-9 {
			t.Errorf("job %s: %v at %v after %v GPU-seconds and %v s run, want finished at %v, %v GPU-seconds, %v s", r.Name, r.Status, r.FinishS, r.GPUSeconds, r.RunS, w.finish, w.gpuS, w.run)
		}
	}
}
