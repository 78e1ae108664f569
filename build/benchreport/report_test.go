package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const benchOutput = `goos: linux
goarch: amd64
pkg: github.com/schedlab/schedlab/sim/engine
cpu: Oxide Virtual Turin-like Processor
BenchmarkFIFO1MJobs1024GPUs-2   	       1	1512345678 ns/op	   1400000 events/cpu-s	   1.43 cpu-s/op	 1330000 events/s
BenchmarkFIFO1MJobs1024GPUs-2   	       1	1612345678 ns/op	   1200000 events/cpu-s	   1.67 cpu-s/op	 1240000 events/s
BenchmarkDumped/gavel-small-13-2         	      10	    312345 ns/op	        41.00 iterations/op	         0.3000 cpu-ms/op
BenchmarkFIFO1MJobs1024GPUs logs a line that is not a result
PASS
ok  	github.com/schedlab/schedlab/sim/engine	12.3s
`

func TestParseBench(t *testing.T) {
	lines, err := parseBench(strings.NewReader(benchOutput))
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 3 {
		t.Fatalf("%d result lines, want 3: %+v", len(lines), lines)
	}
	// The mean of the two runs: (1.4 M + 1.2 M) / 2.
	if v, err := metric(lines, "BenchmarkFIFO1MJobs1024GPUs", "events/cpu-s"); err != nil || v != 1.3e6 {
		t.Errorf("events/cpu-s = %v, %v; want 1.3e6", v, err)
	}
	// A sub-benchmark keeps its name, without the GOMAXPROCS suffix.
	if v, err := metric(lines, "BenchmarkDumped/gavel-small-13", "cpu-ms/op"); err != nil || v != 0.3 {
		t.Errorf("cpu-ms/op = %v, %v; want 0.3", v, err)
	}
	if _, err := metric(lines, "BenchmarkFIFO1MJobs1024GPUs", "MB/s"); err == nil || !strings.Contains(err.Error(), "MB/s") {
		t.Errorf("a missing unit gives %v", err)
	}
	if _, err := metric(lines, "BenchmarkTiresias", "ns/op"); err == nil {
		t.Error("a missing benchmark gives no error")
	}
	// Each run's value, in the order they ran.
	if vs, err := metricValues(lines, "BenchmarkFIFO1MJobs1024GPUs", "events/cpu-s"); err != nil || len(vs) != 2 || vs[0] != 1.4e6 || vs[1] != 1.2e6 {
		t.Errorf("metricValues = %v, %v; want [1.4e6 1.2e6]", vs, err)
	}
	if _, err := metricValues(lines, "BenchmarkTiresias", "ns/op"); err == nil {
		t.Error("metricValues of a missing benchmark gives no error")
	}
	if _, err := parseBench(strings.NewReader("BenchmarkX-2 1 12 ns/op 7\n")); err == nil {
		t.Error("a value without its unit gives no error")
	}
}

func TestGeomeanAndMedian(t *testing.T) {
	// (0.5 · 2 · 4)^(1/3) = 4^(1/3) = 1.5874…
	if g := geomean([]float64{0.5, 2, 4}); math.Abs(g-1.5874010519681994) > 1e-12 {
		t.Errorf("geomean = %v", g)
	}
	if m := median([]float64{5, 1, 3}); m != 3 {
		t.Errorf("median of 5, 1, 3 = %v", m)
	}
	if m := median([]float64{4, 1, 3, 10}); m != 3.5 {
		t.Errorf("median of 4, 1, 3, 10 = %v", m)
	}
	if !math.IsNaN(median(nil)) || !math.IsNaN(geomean(nil)) {
		t.Error("no values give a number")
	}
}

func TestMillionsSpread(t *testing.T) {
	// Runs of 4.4 M, 3.9 M and 4.1 M: the mean 4.133… M, the range 3.90–4.40 M.
	if got, want := millionsSpread(12.4e6/3, []float64{4.4e6, 3.9e6, 4.1e6}), "4.13 M (3.90–4.40 M)"; got != want {
		t.Errorf("millionsSpread = %q, want %q", got, want)
	}
	if got, want := millionsSpread(5.2e6, []float64{5.2e6}), "5.20 M"; got != want {
		t.Errorf("one run: %q, want %q", got, want)
	}
	if m := mean([]float64{1, 2, 6}); m != 3 {
		t.Errorf("mean of 1, 2, 6 = %v", m)
	}
	if !math.IsNaN(mean(nil)) {
		t.Error("the mean of no values is a number")
	}
}

func TestVerdict(t *testing.T) {
	for _, c := range []struct {
		value, limit float64
		lower        bool
		want         string
	}{
		{2.9, 3, true, "met"}, {3, 3, true, "met"}, {3.1, 3, true, "not met"},
		{5.1e6, 5e6, false, "met"}, {4.9e6, 5e6, false, "not met"},
	} {
		if got := verdict(c.value, c.limit, c.lower); got != c.want {
			t.Errorf("verdict(%v, %v, %v) = %q, want %q", c.value, c.limit, c.lower, got, c.want)
		}
	}
}

// The lines are as build/e2e's loadFigures.String writes them.
func TestParseLoads(t *testing.T) {
	out := `    load_test.go:171: cold localhost: usable 0.91 s, default results 1.20 s, live results 2.40 s (same as the build's), longest task 180 ms, 4.21 MB transferred (schedlab.wasm 3.90 MB)
    load_test.go:179: cold 20 Mbit/s 40 ms: usable 2.60 s, default results 0.26 s (drawn by the first screen), live results 4.10 s (same as the build's), longest task 170 ms, 4.20 MB transferred (schedlab.wasm 3.90 MB)
    load_test.go:248: first visit: usable 2.03 s, default results 0.24 s (drawn by the first screen), live results 4.25 s (same as the build's), longest task 857 ms, 3.73 MB transferred (schedlab.14b905d82e.wasm 3.36 MB)
    load_test.go:268: second visit: usable 1.58 s, default results 0.11 s (drawn by the first screen), live results 3.14 s (same as the build's), longest task 643 ms, 0.00 MB transferred ()`
	loads := parseLoads(out)
	if len(loads) != 4 {
		t.Fatalf("%d loads: %+v", len(loads), loads)
	}
	want := []coldLoad{{"localhost", 0.91, 1.20, 2.40, 4.21, ""}, {"20 Mbit/s 40 ms", 2.60, 0.26, 4.10, 4.20, "the first screen"},
		{"first visit", 2.03, 0.24, 4.25, 3.73, "the first screen"}, {"second visit", 1.58, 0.11, 3.14, 0, "the first screen"}}
	for i := range want {
		if loads[i] != want[i] {
			t.Errorf("load %d = %+v, want %+v", i, loads[i], want[i])
		}
	}
	r := secondVisit(loads)
	if want := "1.58 s / 3.14 s (the same profile's first visit: 2.03 s / 4.25 s)"; r.Value != want {
		t.Errorf("second visit's row: %q, want %q", r.Value, want)
	}
	if r := secondVisit(loads[:2]); !strings.HasPrefix(r.Value, "failed") {
		t.Errorf("no visits logged gives %q, want a failed row", r.Value)
	}
}

func TestRenderAndSplice(t *testing.T) {
	table := render([]row{{Measure: "a | b", Value: "1.0×", Target: "≤ 3×", Verdict: "met"}}, []row{{Measure: "`fifo`", Value: "1.60 s", Target: "< 60 s", Verdict: "met"}})
	if !strings.Contains(table, `| a \| b | 1.0× | ≤ 3× |  | met |`) || !strings.Contains(table, "| `fifo` | 1.60 s | < 60 s | met |") {
		t.Errorf("table:\n%s", table)
	}
	doc := "intro\n" + beginMark + "\nold table\n" + endMark + "\nafter\n"
	got, err := splice(doc, "new\n")
	if err != nil || got != "intro\n"+beginMark+"\nnew\n"+endMark+"\nafter\n" {
		t.Errorf("splice = %q, %v", got, err)
	}
	if _, err := splice("no markers", "x"); err == nil {
		t.Error("a document without markers gives no error")
	}
}

func TestMinutes(t *testing.T) {
	if got := minutes(13.4); got != "13 min 24 s" {
		t.Errorf("minutes(13.4) = %q", got)
	}
}

// withPolicy keeps the scenario and replaces its policies by one with
// params.
func TestWithPolicy(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.json"), filepath.Join(dir, "out.json")
	if err := os.WriteFile(in, []byte(`{"name": "x", "workload": {"jobs": [1, 2]}, "policies": [{"name": "fifo"}, {"name": "sjf"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := withPolicy(in, out, "gavel-ftf", `{"max_waiting": 64}`); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name":"x","policies":[{"name":"gavel-ftf","params":{"max_waiting":64}}],"workload":{"jobs":[1,2]}}`
	if string(b) != want {
		t.Errorf("got %s, want %s", b, want)
	}
}

func TestParseHighstime(t *testing.T) {
	h, err := parseHighstime("cpu-ms/op 12.8700\nstatus Optimal\nobjective 57754.953217916138\nversion 1.15.1 (git hash: 04024d7)\n")
	if err != nil {
		t.Fatal(err)
	}
	if h.cpuMS != 12.87 || h.status != "Optimal" || h.objective != 57754.953217916138 || h.version != "1.15.1 (git hash: 04024d7)" {
		t.Errorf("parsed %+v", h)
	}
	for _, bad := range []struct{ out, says string }{
		{"status Optimal\nobjective 1\nversion 1.15.1\n", `"cpu-ms/op"`},
		{"cpu-ms/op 0\nstatus Optimal\nobjective 1\nversion 1.15.1\n", "not positive"},
		{"cpu-ms/op fast\nstatus Optimal\nobjective 1\nversion 1.15.1\n", `"fast"`},
		{"cpu-ms/op 1\nobjective 1\nversion 1.15.1\n", `"status"`},
	} {
		if _, err := parseHighstime(bad.out); err == nil || !strings.Contains(err.Error(), bad.says) {
			t.Errorf("%q gives %v, want an error saying %s", bad.out, err, bad.says)
		}
	}
}

func TestAgree(t *testing.T) {
	h := highsRun{status: "Optimal", objective: 57754.95321791614}
	if err := agree("optimal", 57754.95321791614*(1+5e-8), h); err != nil {
		t.Errorf("within 1e-7: %v", err)
	}
	if err := agree("optimal", 57754.95321791614*(1+2e-7), h); err == nil {
		t.Error("2e-7 apart agrees")
	}
	if err := agree("optimal", math.NaN(), h); err == nil {
		t.Error("NaN agrees")
	}
	if err := agree("infeasible", 0, h); err == nil || !strings.Contains(err.Error(), "Optimal") {
		t.Errorf("another status gives %v", err)
	}
	if err := agree("infeasible", 0, highsRun{status: "Infeasible", objective: 1e30}); err != nil {
		t.Errorf("both infeasible: %v", err)
	}
}
