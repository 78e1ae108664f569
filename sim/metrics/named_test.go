package metrics

import (
	"math"
	"testing"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/workload"
)

func TestNamedMetricsAndGroups(t *testing.T) {
	recs := []engine.JobRecord{
		rec("a", 1, 0, 0, 10), rec("a", 1, 0, 0, 20), rec("b", 8, 0, 5, 30), rec("b", 8, 0, 10, 40),
		{Model: "c", GPUs: 2, Status: engine.Pending, ArrivalS: 0},
	}
	for i := range recs {
		recs[i].Job = workload.JobID(i)
	}
	recs[2].RunS, recs[2].SoloS = 25, 20
	jobs := []workload.Job{{DurationS: 10}, {DurationS: 20, Weight: 5}, {DurationS: 25}, {DurationS: 30}, {DurationS: 99}}
	eval := func(metric, group string) float64 {
		d, err := Lookup(metric)
		if err != nil {
			t.Fatal(err)
		}
		sel, err := Select(group, recs, jobs, 4)
		if err != nil {
			t.Fatal(err)
		}
		return d.Fn(Context{Selected: sel, Result: &engine.Result{Jobs: recs}, Jobs: jobs, NumGPUs: 16})
	}
	cases := []struct {
		metric, group string
		want          float64
	}{
		{"avg_jct_s", "all", 25},
		{"jobs", "all", 5},
		{"finished", "all", 4},
		{"avg_jct_s", "large", 35},
		{"avg_jct_s", "small", 15},
		{"avg_queue_s", "model:b", 7.5},
		{"p50_jct_s", "all", 25},
		{"p25_jct_s", "all", 17.5},
		{"lowmean50_jct_s", "all", 15},
		{"lowmean40_jct_s", "all", 15}, // ceil(0.4·4) = 2 jobs
		{"avg_jct_s", "weight:5", 20},
		{"avg_jct_s", "weight:1", 80.0 / 3},
		{"avg_jct_s", "gpus:8", 35},
		{"jobs", "short:50", 3}, // durations 10 20 25 30 99: median 25
		{"jobs", "long:50", 2},
		{"avg_run_slowdown", "all", 1.25},
	}
	for _, c := range cases {
		if got := eval(c.metric, c.group); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s of %s = %v, want %v", c.metric, c.group, got, c.want)
		}
	}
	for _, bad := range []string{"p0_jct_s", "p100_jct_s", "avg_jtc_s", "pxx_jct_s"} {
		if _, err := Lookup(bad); err == nil {
			t.Errorf("metric %q accepted", bad)
		}
	}
	for _, bad := range []string{"huge", "gpus:x", "short:120"} {
		if _, err := Select(bad, recs, jobs, 4); err == nil {
			t.Errorf("group %q accepted", bad)
		}
	}
}
