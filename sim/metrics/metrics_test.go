package metrics

import (
	"math"
	"testing"

	"github.com/schedlab/schedlab/sim/engine"
)

func rec(model string, gpus int, arrival, start, finish float64) engine.JobRecord {
	return engine.JobRecord{Model: model, GPUs: gpus, Status: engine.Finished, ArrivalS: arrival,
		FirstStartS: start, FinishS: finish, QueueS: start - arrival, WaitS: start - arrival,
		GPUSeconds: float64(gpus) * (finish - start)}
}

func TestPercentileMatchesNumPy(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	// numpy.percentile(range(1, 11), [50, 95, 99, 0, 100]) = 5.5, 9.55, 9.91, 1, 10
	for _, c := range []struct{ p, want float64 }{{50, 5.5}, {95, 9.55}, {99, 9.91}, {0, 1}, {100, 10}} {
		if got := Percentile(xs, c.p); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("p%v = %v, want %v", c.p, got, c.want)
		}
	}
	if got := Percentile([]float64{7}, 95); got != 7 {
		t.Errorf("single value: %v", got)
	}
}

// The golden FIFO case of the engine tests, by hand: one 4-GPU server;
// j1 2 GPUs 0–100, j3 2 GPUs 20–50, j2 4 GPUs 100–150.
func TestSummarizeHandComputed(t *testing.T) {
	res := &engine.Result{
		Jobs: []engine.JobRecord{
			rec("a", 2, 0, 0, 100), rec("b", 4, 10, 100, 150), rec("a", 2, 20, 20, 50),
			{Model: "c", GPUs: 9, Status: engine.Unschedulable, ArrivalS: 5},
		},
		Utilization: steps(0, 2, 20, 4, 50, 2, 100, 4, 150, 0),
	}
	s := Summarize(res, 4)
	want := Summary{Jobs: 4, Finished: 3, Unschedulable: 1, AvgJCT: 90, P50JCT: 100, AvgQueue: 30, AvgWait: 30, Makespan: 150}
	if s.Jobs != want.Jobs || s.Finished != want.Finished || s.Unschedulable != want.Unschedulable ||
		s.AvgJCT != want.AvgJCT || s.P50JCT != want.P50JCT || s.AvgQueue != want.AvgQueue || s.Makespan != want.Makespan {
		t.Fatalf("got %+v", s)
	}
	// Busy GPU-seconds: 2·20 + 4·30 + 2·50 + 4·50 = 460 of 4·150 = 600.
	if math.Abs(s.Utilization-460.0/600) > 1e-12 {
		t.Errorf("utilization %v, want %v", s.Utilization, 460.0/600)
	}
	res.Utilization = nil // falls back to GPU-seconds: 200 + 60 + 200 = 460 too
	if s := Summarize(res, 4); math.Abs(s.Utilization-460.0/600) > 1e-12 {
		t.Errorf("fallback utilization %v", s.Utilization)
	}
	groups := ByModel(res.Jobs)
	if len(groups) != 3 || groups[0].Name != "a" || groups[0].AvgJCT != 65 || groups[0].AvgQueue != 0 || groups[1].AvgQueue != 90 {
		t.Errorf("by model %+v", groups)
	}
	small, large := BySize(res.Jobs, 2)
	if small.Finished != 2 || large.Finished != 1 || large.Unschedulable != 1 || large.AvgJCT != 140 {
		t.Errorf("by size %+v / %+v", small, large)
	}
	x, y := CDF(res.Jobs)
	if len(x) != 3 || x[0] != 30 || x[2] != 140 || y[2] != 1 {
		t.Errorf("cdf %v %v", x, y)
	}
}

// steps builds utilization steps from (time, busy GPUs) pairs.
func steps(xs ...float64) []engine.UtilPoint {
	var out []engine.UtilPoint
	for i := 0; i < len(xs); i += 2 {
		out = append(out, engine.UtilPoint{TimeS: xs[i], BusyGPUs: int(xs[i+1]), Slots: int(xs[i+1])})
	}
	return out
}
