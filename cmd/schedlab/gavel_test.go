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
 "policies": [{"name": "gavel-las", "label": "Gavel LAS"}, {"name": "gavel-makespan"}, {"name": "gavel-fifo"}],
 "seeds": [0, 1]}`

// run --dump-lp writes every LP a policy solves as
// DIR/<policy>-s<seed>-<n>.mps; the seeds run in parallel, and a second
// dump writes the same files with the same contents.
func TestRunDumpsLPs(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "dump.json")
	if err := os.WriteFile(doc, []byte(dumpDoc), 0o644); err != nil {
		t.Fatal(err)
	}
	first := dumpLPs(t, doc, filepath.Join(dir, "lps"))
	seen := map[string]bool{}
	for name, data := range first {
		seen[name[:strings.LastIndex(name, "-")]] = true
		p, err := lp.ReadMPS(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if sol, err := lp.Solve(p, lp.Options{}); err != nil || sol.Status != lp.Optimal {
			t.Errorf("%s: %v %v", name, sol, err)
		}
	}
	for _, want := range []string{"gavel-las-s0", "gavel-las-s1", "gavel-makespan-s0", "gavel-makespan-s1"} {
		if !seen[want] {
			t.Errorf("no %s-N.mps among %d files", want, len(first))
		}
	}
	if seen["gavel-fifo-s0"] || first["gavel-las-s0-1.mps"] == nil {
		t.Errorf("dumped %v (FIFO solves no LP)", seen)
	}
	second := dumpLPs(t, doc, filepath.Join(dir, "again"))
	if len(second) != len(first) {
		t.Fatalf("second dump wrote %d files, first %d", len(second), len(first))
	}
	for name, data := range first {
		if !bytes.Equal(second[name], data) {
			t.Errorf("%s differs between two dumps", name)
		}
	}
}

// dumpLPs runs doc on every seed with --dump-lp out and returns the files
// written, by name.
func dumpLPs(t *testing.T, doc, out string) map[string][]byte {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := dispatch([]string{"run", doc, "--all-seeds", "--dump-lp", out}, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	files, _ := filepath.Glob(filepath.Join(out, "*.mps"))
	got := map[string][]byte{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got[filepath.Base(f)] = data
	}
	return got
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
