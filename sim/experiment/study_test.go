package experiment

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	_ "github.com/schedlab/schedlab/sim/policy/fifo"
	_ "github.com/schedlab/schedlab/sim/policy/sjf"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/sim/workload"
)

const checksDoc = `{"name": "c", "title": "checks",
 "cluster": {"servers": [{"count": 1, "gpus": 8, "gpu_type": "V100"}]},
 "workload": {"jobs": [{"id": "a", "gpus": 1, "model": "x", "duration_s": 10}, {"id": "b", "gpus": 8, "model": "y", "duration_s": 10}]},
 "policies": [{"name": "fifo", "label": "A"}, {"name": "sjf", "label": "B"}, {"name": "fifo", "label": "C", "params": {"backfill": false}}],
 "sweep": {"label": "load", "values": [1, 2, 3], "params": ["engine.restart_s"]},
 "reference": {"source": "test", "unit": "min", "values": [{"policy": "A", "metric": "avg_jct_s", "x": 1, "value": 1.5}]},
 "checks": [
  {"id": "order", "description": "", "kind": "order", "metric": "avg_jct_s", "x": 1, "policies": ["A", "B", "C"]},
  {"id": "order-tol", "description": "", "kind": "order", "metric": "avg_jct_s", "x": 1, "policies": ["A", "C", "B"], "tolerance": 0.06},
  {"id": "tiers", "description": "", "kind": "order", "metric": "avg_jct_s", "x": 2, "tiers": [["A", "B"], ["C"]]},
  {"id": "groups", "description": "", "kind": "order", "metric": "avg_jct_s", "x": 1, "policies": ["A", "B"], "groups": ["model:x", "model:y"], "at_least": 1},
  {"id": "groups-all", "description": "", "kind": "order", "metric": "avg_jct_s", "x": 1, "policies": ["A", "B"], "groups": ["model:x", "model:y"]},
  {"id": "ratio", "description": "", "kind": "ratio", "metric": "avg_jct_s", "x": 1, "num": {"policy": "A"}, "den": {"policy": "B"}, "target": 0.5, "tolerance": 0.01},
  {"id": "ratio-sat", "description": "", "kind": "ratio", "metric": "avg_jct_s", "x": 3, "num": {"policy": "A"}, "den": {"policy": "C"}, "max": 10},
  {"id": "value", "description": "", "kind": "value", "metric": "avg_jct_s", "x": 1, "of": {"policy": "A"}, "target": 1.6, "tolerance": 0.1},
  {"id": "value-off", "description": "", "kind": "value", "metric": "avg_jct_s", "x": 1, "of": {"policy": "A"}, "target": 2, "tolerance": 0.1},
  {"id": "knee", "description": "", "kind": "knee", "metric": "avg_jct_s", "of": {"policy": "C"}, "threshold_factor": 2, "target_x": 2, "steps": 0},
  {"id": "knee-abs", "description": "", "kind": "knee", "metric": "avg_jct_s", "of": {"policy": "B"}, "threshold": 3, "target_x": 3, "steps": 0},
  {"id": "trend", "description": "", "kind": "trend", "metric": "avg_jct_s", "num": {"policy": "B"}, "den": {"policy": "A"}, "direction": "non-increasing"},
  {"id": "trend-up", "description": "", "kind": "trend", "metric": "avg_jct_s", "num": {"policy": "A"}, "direction": "increasing"}
 ]}`

// fakeStudy builds a study whose runs have the given mean JCTs (seconds)
// per policy and sweep value, each from two jobs: model x finishing at
// 0.5·jct and model y at 1.5·jct. +Inf marks a saturated run.
func fakeStudy(t *testing.T, jct map[string][]float64) *Study {
	sc, err := scenario.Parse([]byte(checksDoc))
	if err != nil {
		t.Fatal(err)
	}
	c, _ := cluster.New(sc.Cluster)
	jobs, _ := workload.Finalize(append([]workload.Job(nil), sc.Workload.Jobs...))
	st := &Study{Scenario: sc}
	for xi, x := range sc.Sweep.Values {
		p := &Point{X: x, Swept: true, Scenario: sc, Report: &Report{Scenario: sc}}
		for _, pol := range []string{"A", "B", "C"} {
			v := jct[pol][xi]
			r := &Run{Policy: pol, Seed: 1, X: x, Swept: true, Inputs: &scenario.Inputs{Cluster: c, Jobs: jobs}}
			if math.IsInf(v, 1) {
				r.Saturated = true
			} else {
				r.Result = &engine.Result{Jobs: []engine.JobRecord{
					{Job: 0, Model: "x", GPUs: 1, Status: engine.Finished, FinishS: 0.5 * v},
					{Job: 1, Model: "y", GPUs: 8, Status: engine.Finished, FinishS: 1.5 * v},
				}}
			}
			p.Report.Runs = append(p.Report.Runs, r)
		}
		st.Points = append(st.Points, p)
	}
	return st
}

func TestChecksAgainstHandComputedValues(t *testing.T) {
	inf := math.Inf(1)
	st := fakeStudy(t, map[string][]float64{
		// x:    1    2    3
		"A": {96, 120, 200},
		"B": {192, 118, 250},
		"C": {200, 400, inf},
	})
	want := map[string]bool{
		"order":      true,  // 96 < 192 < 200
		"order-tol":  true,  // C 200 vs B 192: within 6%
		"tiers":      true,  // {120, 118} < 400
		"groups":     true,  // A < B holds in model:x (48 < 96) and model:y (144 < 288)
		"groups-all": true,  //
		"ratio":      true,  // 96/192 = 0.5
		"ratio-sat":  false, // C saturated at 3: no ratio
		"value":      true,  // 96 s = 1.6 min
		"value-off":  false, // 1.6 is not within 10% of 2
		"knee":       true,  // threshold 2 × min(96, 192, 200) = 192; C: 200 ≥ 192 already at x=1... see below
		"knee-abs":   true,  // 3 min = 180 s: B is 192 at x=1 -> knee at 1, not 3
		"trend":      false, // B/A: 2, 0.98, 1.25 is not non-increasing
		"trend-up":   true,  // 96, 120, 200
	}
	// Hand-check the knees: C crosses 192 s at x = 1 (200 s), so a target of
	// 2 with 0 steps fails; B crosses 180 s at x = 1, target 3 fails too.
	want["knee"], want["knee-abs"] = false, false
	for _, v := range st.Verdicts() {
		if w, ok := want[v.ID]; !ok || v.Passed != w {
			t.Errorf("%s: passed=%v, want %v\n  expected %s\n  observed %s", v.ID, v.Passed, w, v.Expected, v.Observed)
		}
	}
	// Move C's crossing to x = 2 and B's to x = 3: both knees pass.
	st = fakeStudy(t, map[string][]float64{"A": {96, 120, 200}, "B": {150, 170, 250}, "C": {180, 400, inf}})
	for _, v := range st.Verdicts() {
		if (v.ID == "knee" || v.ID == "knee-abs") && !v.Passed {
			t.Errorf("%s failed: %s / %s", v.ID, v.Expected, v.Observed)
		}
	}
	out := st.Output()
	if len(out.Reference) != 1 || out.Reference[0].Ours == nil || math.Abs(*out.Reference[0].Ours-1.6) > 1e-12 {
		t.Errorf("reference row %+v", out.Reference)
	}
	if s := out.Series[2]; s.Mean[2] != nil || *s.Mean[0] != 3 {
		t.Errorf("series of C (min): %v", s.Mean)
	}
}

// A real study end to end: the quick version runs fewer seeds and values.
func TestRunStudyQuickAndFull(t *testing.T) {
	doc := `{"name": "sweep", "title": "FIFO and SJF against load",
	 "cluster": {"servers": [{"count": 2, "gpus": 4, "gpu_type": "V100"}]},
	 "workload": {"generator": {"kind": "poisson", "jobs": 60, "jobs_per_hour": 20,
	   "gpu_mix": [{"gpus": 1, "weight": 3}, {"gpus": 4, "weight": 1}],
	   "duration": {"dist": "lognormal", "mean_s": 1800, "sigma": 1.2},
	   "models": [{"model": "m", "weight": 1}]}},
	 "policies": [{"name": "fifo"}, {"name": "sjf"}],
	 "seeds": [1, 2, 3],
	 "measure": {"jobs_from": 10, "jobs_to": 50},
	 "sweep": {"label": "load", "values": [0.5, 1, 2], "scale": ["workload.generator.jobs_per_hour"]},
	 "checks": [{"id": "sjf-wins", "description": "SJF's average JCT is no worse than FIFO's at the highest load", "kind": "ratio",
	             "metric": "avg_jct_s", "x": 2, "num": {"policy": "SJF"}, "den": {"policy": "FIFO"}, "max": 1.0},
	            {"id": "grows", "description": "FIFO's JCT grows with load", "kind": "trend", "metric": "avg_jct_s", "num": {"policy": "FIFO"}, "direction": "increasing"}],
	 "quick": {"seeds": [1], "values": [0.5, 2], "checks": ["sjf-wins"]}}`
	sc, err := scenario.Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	quick, err := RunStudy(context.Background(), sc, StudyOptions{Quick: true, Workers: 2, Paranoid: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(quick.Points) != 2 || len(quick.Points[0].Report.Runs) != 2 {
		t.Fatalf("quick: %d points, %d runs each", len(quick.Points), len(quick.Points[0].Report.Runs))
	}
	full, err := RunStudy(context.Background(), sc, StudyOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(full.Points) != 3 || len(full.Points[1].Report.Runs) != 6 {
		t.Fatalf("full: %d points, %d runs", len(full.Points), len(full.Points[1].Report.Runs))
	}
	// Measured jobs are the window only: 40 of 60 at load 1.
	r := full.Points[1].Report.Runs[0]
	if r.Summary.Jobs != 40 || r.Err != nil {
		t.Fatalf("measured %d jobs (%v)", r.Summary.Jobs, r.Err)
	}
	for _, v := range full.Verdicts() {
		if !v.Passed {
			t.Errorf("%s: %s / %s", v.ID, v.Expected, v.Observed)
		}
	}
	var b strings.Builder
	full.WriteText(&b)
	for _, want := range []string{"avg_jct_s (all, min) against load", "[PASS] sjf-wins", "2 of 2 claims hold"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
	if f, err := full.SweepFigure(plotOptions()); err != nil || f == nil {
		t.Errorf("sweep figure: %v", err)
	}
}

func TestTimeAverageOfAStepSeries(t *testing.T) {
	// 0.5 for 10 s, then 1.0 for 30 s: (5 + 30) / 40.
	s := &engine.Series{T: []float64{0, 10}, V: []float64{0.5, 1}}
	if got := timeAverage(s, 40); math.Abs(got-35.0/40) > 1e-12 {
		t.Fatalf("average %v, want %v", got, 35.0/40)
	}
	if got := timeAverage(&engine.Series{T: []float64{7}, V: []float64{0.3}}, -1); got != 0.3 {
		t.Fatalf("single sample: %v", got)
	}
}

// A calibrated check is shown but neither counted nor required: marking a
// passing and a failing check calibrated takes both out of the totals.
func TestCalibratedChecksAreNotCounted(t *testing.T) {
	inf := math.Inf(1)
	jct := map[string][]float64{"A": {96, 120, 200}, "B": {192, 118, 250}, "C": {200, 400, inf}}
	st := fakeStudy(t, jct)
	before := st.Output().Summary
	if before != (VerdictSummary{Claims: 13, Passed: 8, Failed: 5, RequiredFailed: 5}) {
		t.Fatalf("summary without calibrated checks: %+v", before)
	}
	for i := range st.Scenario.Checks {
		if id := st.Scenario.Checks[i].ID; id == "ratio" || id == "value-off" {
			st.Scenario.Checks[i].Calibrated = true
		}
	}
	out := st.Output()
	want := VerdictSummary{Claims: 11, Passed: 7, Failed: 4, RequiredFailed: 4, Calibrated: 2, CalibratedPassed: 1}
	if out.Summary != want {
		t.Errorf("summary %+v, want %+v", out.Summary, want)
	}
	for _, v := range out.Checks {
		if cal := v.ID == "ratio" || v.ID == "value-off"; v.Calibrated != cal || (cal && v.Required) {
			t.Errorf("%s: calibrated=%v required=%v", v.ID, v.Calibrated, v.Required)
		}
	}
	var b strings.Builder
	st.WriteText(&b)
	for _, w := range []string{"7 of 11 claims hold (2 calibrated checks shown, not counted; 1 of them hold)",
		"[fail, calibrated: shown, not counted] value-off", "[pass, calibrated: shown, not counted] ratio"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("report lacks %q:\n%s", w, b.String())
		}
	}
	// Quick mode never requires a calibrated check, even if listed.
	st.Quick = true
	st.Scenario.Quick = &scenario.Quick{Checks: []string{"value-off", "order"}}
	for _, v := range st.Verdicts() {
		if v.Required != (v.ID == "order") {
			t.Errorf("quick: %s required=%v", v.ID, v.Required)
		}
	}
}

// A sweep with ratios plots num/den of the seed-averaged metric per value,
// with a gap where either policy saturated.
func TestSweepRatioSeries(t *testing.T) {
	st := fakeStudy(t, map[string][]float64{"A": {96, 120, 200}, "B": {192, 118, 250}, "C": {200, 400, math.Inf(1)}})
	st.Scenario.Sweep.Ratios = []scenario.SweepRatio{{Num: "A", Den: "B"}, {Num: "A", Den: "C"}}
	out := st.Output()
	if len(out.Series) != 2 || out.Series[0].Policy != "A / B" || out.Series[0].Unit != "ratio" {
		t.Fatalf("series %+v", out.Series)
	}
	want := []float64{0.5, 120.0 / 118, 0.8}
	for i, w := range want {
		if m := out.Series[0].Mean[i]; m == nil || math.Abs(*m-w) > 1e-12 {
			t.Errorf("A/B at %g: %v, want %v", out.Series[0].X[i], m, w)
		}
	}
	if m := out.Series[1].Mean; m[2] != nil || m[0] == nil || math.Abs(*m[0]-0.48) > 1e-12 {
		t.Errorf("A/C: %v", m)
	}
	if f, err := st.SweepFigure(plotOptions()); err != nil || f == nil {
		t.Errorf("ratio figure: %v", err)
	}
}

func TestLastPointFirst(t *testing.T) {
	for _, c := range []struct {
		xs     []string
		starts []int
		want   []string
	}{
		{[]string{"a", "b", "c", "d", "e", "f"}, []int{0, 2, 5}, []string{"f", "c", "d", "e", "a", "b"}},
		{[]string{"a", "b"}, []int{0}, []string{"a", "b"}},
		{[]string{"a", "b", "c"}, []int{0, 1, 2}, []string{"c", "b", "a"}},
		{nil, nil, []string{}},
	} {
		if got := lastPointFirst(c.xs, c.starts); !slices.Equal(got, c.want) {
			t.Errorf("lastPointFirst(%v, %v) = %v, want %v", c.xs, c.starts, got, c.want)
		}
	}
}
