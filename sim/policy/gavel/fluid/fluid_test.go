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
