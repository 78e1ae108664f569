package experiment_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"testing"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/scenario"
)

const classDoc = `{"name": "classes",
 "cluster": {"servers": [{"count": 1, "gpus": 2, "gpu_type": "V100"}]},
 "workload": {"jobs": [
   {"id": "a", "gpus": 1, "model": "m", "duration_s": 10, "weight": 5, "entity": "team-a"},
   {"id": "b", "gpus": 1, "model": "m", "duration_s": 20},
   {"id": "c", "arrival_s": 5, "gpus": 2, "model": "m", "duration_s": 30, "weight": 2, "entity": "team-b"}]},
 "policies": [{"name": "fifo"}],
 "sweep": {"label": "restart", "values": [0, 7], "params": ["engine.restart_s"]}}`

// Job records carry each job's weight (1 when not given) and owner, in the
// JSON output and in jobs.csv, and jobs.csv names the sweep value of each
// row, so per-class results at each load can be recomputed from one file.
func TestJobRecordsCarryWeightEntityAndX(t *testing.T) {
	sc, err := scenario.Parse([]byte(classDoc))
	if err != nil {
		t.Fatal(err)
	}
	st, err := experiment.RunStudy(context.Background(), sc, experiment.StudyOptions{Paranoid: true})
	if err != nil {
		t.Fatal(err)
	}
	type class struct {
		w float64
		e string
	}
	want := map[string]class{"a": {5, "team-a"}, "b": {1, ""}, "c": {2, "team-b"}}
	p := st.Points[1]
	out := p.Report.Output(p.Report.Runs[0].Seed)
	for _, j := range out.Results[0].Jobs {
		if got := (class{j.Weight, j.Entity}); got != want[j.ID] {
			t.Errorf("JSON job %s: weight %v entity %q, want %+v", j.ID, j.Weight, j.Entity, want[j.ID])
		}
	}
	var buf bytes.Buffer
	if err := p.Report.WriteJobsCSV(&buf); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	if len(rows) != 4 {
		t.Fatalf("%d rows", len(rows))
	}
	for _, r := range rows[1:] {
		w := want[r[col["id"]]]
		if r[col["weight"]] != map[float64]string{1: "1", 2: "2", 5: "5"}[w.w] || r[col["entity"]] != w.e || r[col["x"]] != "7" {
			t.Errorf("CSV row %v: want weight %v, entity %q, x 7", r, w.w, w.e)
		}
	}
}

// The JSON output carries the series a run recorded exactly as the engine
// recorded them: the page draws the shares figures from them.
func TestOutputCarriesSeries(t *testing.T) {
	data, ok := scenarios.Read("gavel-small")
	if !ok {
		t.Fatal("no built-in scenario gavel-small")
	}
	sc, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	seed := sc.RunSeeds()[0]
	rep, err := experiment.Execute(context.Background(), sc, experiment.Options{Seeds: []uint64{seed}})
	if err != nil {
		t.Fatal(err)
	}
	out := rep.Output(seed)
	for i, r := range rep.Runs {
		want, _ := json.Marshal(r.Result.Series)
		got, _ := json.Marshal(out.Results[i].Series)
		if len(r.Result.Series) == 0 || !bytes.Equal(got, want) {
			t.Errorf("%s: %d series recorded; the output's differ from them", r.Policy, len(r.Result.Series))
		}
	}
}

// A run's JSON carries the output metrics (gpus_used, degradation,
// mean_slowdown) and each job's solo time and slowdown, so that a figure
// can be recomputed from it:
// two LeNet workers on one GPU slow each other by 0.18 + κ·0.3·0.3 = 0.27.
func TestOutputCarriesNamedMetricsAndSlowdowns(t *testing.T) {
	sc, err := scenario.Parse([]byte(`{"name": "pair",
 "cluster": {"servers": [{"count": 1, "gpus": 2, "gpu_type": "1080Ti", "gpu_memory_gb": 11}]},
 "workload": {"jobs": [{"id": "a", "gpus": 2, "model": "LeNet"}]},
 "perf": {"model": "memshare"},
 "policies": [{"name": "ojpp-best-fit"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	st, err := experiment.RunStudy(context.Background(), sc, experiment.StudyOptions{Paranoid: true})
	if err != nil {
		t.Fatal(err)
	}
	out := st.Points[0].Report.Output(1)
	r := out.Results[0]
	if d, ok := r.Named["degradation"]; !ok || math.Abs(d-0.27) > 1e-9 || r.Named["gpus_used"] != 1 || math.Abs(r.Named["mean_slowdown"]-0.27) > 1e-9 {
		t.Errorf("named metrics %v, want degradation and mean slowdown 0.27 on 1 GPU", r.Named)
	}
	j := r.Jobs[0]
	if j.SoloS == nil || *j.SoloS != 1200 || j.Slowdown == nil || math.Abs(*j.Slowdown-0.27) > 1e-9 {
		t.Errorf("job record %+v", j)
	}
}
