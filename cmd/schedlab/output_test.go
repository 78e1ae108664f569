package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// A Gavel trace with priorities: a fifth of the jobs have weight 5.
const prioDoc = `{"name": "prio",
 "cluster": {"servers": [{"count": 4, "gpus": 1, "gpu_type": "V100"}, {"count": 4, "gpus": 1, "gpu_type": "K80"}]},
 "workload": {"generator": {"kind": "gavel", "jobs": 40, "jobs_per_hour": 30, "high_priority_fraction": 0.3, "high_priority_weight": 5}},
 "perf": {"model": "throughput"},
 "policies": [{"name": "gavel-fifo"}]}`

// Each job record of run --format json and of jobs.csv carries the job's
// weight, so that per-class results can be recomputed from raw output:
// here the average JCT of the weight-5 jobs, from the JSON and from the
// CSV, must agree, and both classes must be present.
func TestRunOutputsCarryWeights(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "prio.json")
	if err := os.WriteFile(doc, []byte(prioDoc), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := dispatch([]string{"run", doc, "--format", "json", "--out", filepath.Join(dir, "out")}, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var out struct {
		Results []struct {
			Jobs []map[string]any `json:"jobs"`
		} `json:"results"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	jsonAvg := map[float64][]float64{}
	for _, j := range out.Results[0].Jobs {
		w, ok := j["weight"].(float64)
		if !ok {
			t.Fatalf("job %v has no weight", j["id"])
		}
		jsonAvg[w] = append(jsonAvg[w], j["jct_s"].(float64))
	}
	if len(jsonAvg) != 2 || len(jsonAvg[5]) == 0 || len(jsonAvg[1]) == 0 {
		t.Fatalf("weights seen: %v", keys(jsonAvg))
	}
	f, err := os.Open(filepath.Join(dir, "out", "jobs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	csvAvg := map[float64][]float64{}
	for _, row := range rows[1:] {
		w, err1 := strconv.ParseFloat(row[col["weight"]], 64)
		jct, err2 := strconv.ParseFloat(row[col["jct_s"]], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("row %v: %v %v", row, err1, err2)
		}
		csvAvg[w] = append(csvAvg[w], jct)
	}
	for w, xs := range jsonAvg {
		if a, b := mean(xs), mean(csvAvg[w]); len(csvAvg[w]) != len(xs) || abs(a-b) > 1e-6*a {
			t.Errorf("weight %v: JSON has %d jobs, avg JCT %v; CSV %d, %v", w, len(xs), a, len(csvAvg[w]), b)
		}
	}
}

func keys(m map[float64][]float64) []float64 {
	var out []float64
	for k := range m {
		out = append(out, k)
	}
	return out
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
