package experiment

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/scenario"
)

// A compact study drops every run's records and inputs, yet gives the
// same output as one that keeps them, on any number of workers and in
// any order; a quantity its scenario never names is an error, not a
// silent zero.
func TestCompactStudySameOutput(t *testing.T) {
	doc := `{"name": "sweep", "title": "FIFO and SJF against load",
	 "cluster": {"servers": [{"count": 2, "gpus": 4, "gpu_type": "V100"}]},
	 "workload": {"generator": {"kind": "poisson", "jobs": 60, "jobs_per_hour": 20,
	   "gpu_mix": [{"gpus": 1, "weight": 3}, {"gpus": 4, "weight": 1}],
	   "duration": {"dist": "lognormal", "mean_s": 1800, "sigma": 1.2},
	   "models": [{"model": "m", "weight": 2}, {"model": "n", "weight": 1}]}},
	 "policies": [{"name": "fifo"}, {"name": "sjf"}],
	 "seeds": [1, 2, 3],
	 "measure": {"jobs_from": 10, "jobs_to": 50},
	 "sweep": {"label": "load", "values": [0.5, 1, 2], "scale": ["workload.generator.jobs_per_hour"]},
	 "checks": [{"id": "sjf-wins", "description": "SJF's average JCT is no worse than FIFO's at the highest load", "kind": "ratio",
	             "metric": "avg_jct_s", "x": 2, "num": {"policy": "SJF"}, "den": {"policy": "FIFO"}, "max": 1.0},
	            {"id": "models", "description": "SJF no worse per model", "kind": "order", "metric": "avg_queue_s", "x": 1, "policies": ["SJF", "FIFO"], "groups": ["model:m", "model:n"], "at_least": 1},
	            {"id": "grows", "description": "FIFO's JCT grows with load", "kind": "trend", "metric": "avg_jct_s", "num": {"policy": "FIFO"}, "direction": "increasing"}]}`
	sc, err := scenario.Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	full, err := RunStudy(context.Background(), sc, StudyOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	compact, err := RunStudy(context.Background(), sc, StudyOptions{Workers: 3, Compact: true, shuffle: 5})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range compact.Points {
		for _, r := range p.Report.Runs {
			if r.Result != nil || r.Inputs != nil || r.kept == nil {
				t.Fatalf("%s seed %d at %g: records kept", r.Policy, r.Seed, p.X)
			}
		}
	}
	if a, b := studyJSON(t, full), studyJSON(t, compact); a != b {
		t.Errorf("outputs differ:\nfull:    %s\ncompact: %s", a, b)
	}
	x := 1.0
	v := compact.Value(scenario.Quantity{Policy: "FIFO", Metric: "avg_jct_s", Group: "model:m", X: &x})
	if v.Err != nil {
		t.Errorf("a kept quantity: %v", v.Err)
	}
	v = compact.Value(scenario.Quantity{Policy: "FIFO", Metric: "makespan_s", X: &x})
	if v.Err == nil || !strings.Contains(v.Err.Error(), "not kept") {
		t.Errorf("a quantity the scenario never names: %v, want a not-kept error", v.Err)
	}
}

func studyJSON(t *testing.T, st *Study) string {
	t.Helper()
	out, err := json.Marshal(st.Output())
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	st.WriteText(&b)
	return string(out) + b.String()
}

// TestCompactStudySkipsGPUIntervals checks that a compact study's runs
// record no per-GPU intervals (nothing of a compact study reads them),
// that a study that keeps its runs records them, and that the runs'
// utilization steps, which the utilization metric reads, are the same
// either way.
func TestCompactStudySkipsGPUIntervals(t *testing.T) {
	sc, err := scenario.Parse([]byte(`{"name": "sweep", "title": "FIFO against load",
	 "cluster": {"servers": [{"count": 2, "gpus": 4, "gpu_type": "V100"}]},
	 "workload": {"generator": {"kind": "poisson", "jobs": 40, "jobs_per_hour": 20,
	   "gpu_mix": [{"gpus": 1, "weight": 3}, {"gpus": 4, "weight": 1}],
	   "duration": {"dist": "lognormal", "mean_s": 1800, "sigma": 1.2},
	   "models": [{"model": "m", "weight": 1}]}},
	 "policies": [{"name": "fifo"}], "seeds": [1, 2],
	 "sweep": {"label": "load", "values": [0.5, 2], "scale": ["workload.generator.jobs_per_hour"]}}`))
	if err != nil {
		t.Fatal(err)
	}
	steps := map[bool]map[string][]engine.UtilPoint{}
	for _, compact := range []bool{false, true} {
		var mu sync.Mutex
		steps[compact] = map[string][]engine.UtilPoint{}
		o := StudyOptions{Workers: 2, Compact: compact, RunCPU: func(r *Run, _ time.Duration) {
			mu.Lock()
			defer mu.Unlock()
			key := fmt.Sprintf("seed %d, last arrival %g s", r.Seed, r.Result.Jobs[len(r.Result.Jobs)-1].ArrivalS)
			if n := len(r.Result.Intervals); (n == 0) != compact {
				t.Errorf("compact %v: the run of %s recorded %d GPU intervals", compact, key, n)
			}
			steps[compact][key] = slices.Clone(r.Result.Utilization) // a compact study hands the array on
		}}
		if _, err := RunStudy(context.Background(), sc, o); err != nil {
			t.Fatal(err)
		}
	}
	if len(steps[true]) != 4 || !reflect.DeepEqual(steps[false], steps[true]) {
		t.Errorf("utilization steps differ between a kept and a compact study (%d and %d runs)", len(steps[false]), len(steps[true]))
	}
}

// TestCompactStudyHandsOnUtilSteps checks that a compact study's runs
// record their utilization steps into the arrays of runs it has dropped
// (one worker: each run into the last one's), and that the steps are
// those a study that keeps its runs records.
func TestCompactStudyHandsOnUtilSteps(t *testing.T) {
	sc, err := scenario.Parse([]byte(`{"name": "sweep", "title": "FIFO against load",
	 "cluster": {"servers": [{"count": 2, "gpus": 4, "gpu_type": "V100"}]},
	 "workload": {"generator": {"kind": "poisson", "jobs": 80, "jobs_per_hour": 20,
	   "gpu_mix": [{"gpus": 1, "weight": 3}, {"gpus": 4, "weight": 1}],
	   "duration": {"dist": "lognormal", "mean_s": 1800, "sigma": 1.2},
	   "models": [{"model": "m", "weight": 1}]}},
	 "policies": [{"name": "fifo"}], "seeds": [1, 2, 3],
	 "sweep": {"label": "load", "values": [0.5, 2], "scale": ["workload.generator.jobs_per_hour"]}}`))
	if err != nil {
		t.Fatal(err)
	}
	type seen struct {
		array *engine.UtilPoint
		steps []engine.UtilPoint
	}
	runs := map[bool][]seen{}
	for _, compact := range []bool{false, true} {
		o := StudyOptions{Workers: 1, Compact: compact, RunCPU: func(r *Run, _ time.Duration) {
			u := r.Result.Utilization
			runs[compact] = append(runs[compact], seen{&u[:1][0], slices.Clone(u)})
		}}
		if _, err := RunStudy(context.Background(), sc, o); err != nil {
			t.Fatal(err)
		}
	}
	kept, compact := runs[false], runs[true]
	if len(kept) != 6 || len(compact) != 6 {
		t.Fatalf("%d and %d runs, want 6", len(kept), len(compact))
	}
	handedOn := 0
	for i := range compact {
		if !reflect.DeepEqual(compact[i].steps, kept[i].steps) {
			t.Errorf("run %d: %d utilization steps in the compact study, %d in the one that keeps its runs", i, len(compact[i].steps), len(kept[i].steps))
		}
		if i > 0 && compact[i].array == compact[i-1].array {
			handedOn++
		}
		if i > 0 && kept[i].array == kept[i-1].array {
			t.Errorf("run %d of the study that keeps its runs recorded into run %d's array", i, i-1)
		}
	}
	// The first array has room for about two steps a job; a run that
	// needs more grows it once, and from then on it has room for all.
	if handedOn < 4 {
		t.Errorf("%d of 5 runs recorded into the array of the run before them, want at least 4", handedOn)
	}
}
