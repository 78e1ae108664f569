package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/solver/lp"
)

const dumpDoc = `{"name": "dump",
 "cluster": {"servers": [{"count": 2, "gpus": 1, "gpu_type": "V100"}, {"count": 2, "gpus": 1, "gpu_type": "K80"}]},
 "workload": {"jobs": [
   {"id": "a", "arrival_s": 0, "model": "ResNet-50", "batch_size": 64, "gpus": 1, "duration_s": 7200},
   {"id": "b", "arrival_s": 60, "model": "A3C", "batch_size": 4, "gpus": 1, "duration_s": 3600},
   {"id": "c", "arrival_s": 120, "model": "LM", "batch_size": 20, "gpus": 2, "duration_s": 3600}]},
 "perf": {"model": "throughput"},
 "policies": [{"name": "gavel-las", "label": "Gavel LAS"}, {"name": "gavel-makespan"}, {"name": "gavel-fifo"}]}`

// run --dump-lp writes every LP a policy solves as DIR/<policy>-<n>.mps.
func TestRunDumpsLPs(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "dump.json")
	if err := os.WriteFile(doc, []byte(dumpDoc), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "lps")
	var stdout, stderr bytes.Buffer
	if code := dispatch([]string{"run", doc, "--dump-lp", out}, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	files, _ := filepath.Glob(filepath.Join(out, "*.mps"))
	seen := map[string]bool{}
	for _, f := range files {
		name := filepath.Base(f)
		seen[name[:strings.LastIndex(name, "-")]] = true
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := lp.ReadMPS(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if sol, err := lp.Solve(p, lp.Options{}); err != nil || sol.Status != lp.Optimal {
			t.Errorf("%s: %v %v", name, sol, err)
		}
	}
	if !seen["gavel-las"] || !seen["gavel-makespan"] || seen["gavel-fifo"] || !fileExists(filepath.Join(out, "gavel-las-1.mps")) {
		t.Errorf("dumped %v (FIFO solves no LP)", files)
	}
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

func TestGavelFig12(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := dispatch([]string{"gavel-fig12", "--max", "64", "--per-job-max", "32", "--out", dir}, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, f := range []string{"fig12.csv", "fig12.svg", "fig12.png"} {
		if !fileExists(filepath.Join(dir, f)) {
			t.Errorf("%s missing", f)
		}
	}
	if !strings.Contains(stdout.String(), "hierarchical") {
		t.Errorf("output:\n%s", stdout.String())
	}
}
