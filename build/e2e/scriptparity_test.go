//go:build !js

package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/schedlab/schedlab/sim/policy/script"
)

// A script policy gives byte-identical results natively and in
// WebAssembly: every example script, and one that leans on the math
// module's floating point, on a generated workload of 300 jobs.
func TestNativeAndWasmAgreeOnScripts(t *testing.T) {
	native := cli(t)
	wasmRun := wasmCLI(t)
	dir := t.TempDir()
	scen := filepath.Join(dir, "jobs.json")
	doc := `{"name": "script-parity", "cluster": {"servers": [{"count": 6, "gpus": 4, "gpu_type": "V100"}, {"count": 2, "gpus": 8, "gpu_type": "K80"}]},
	"workload": {"generator": {"kind": "poisson", "jobs": 300, "jobs_per_hour": 30,
		"gpu_mix": [{"gpus": 1, "weight": 0.5}, {"gpus": 2, "weight": 0.2}, {"gpus": 4, "weight": 0.2}, {"gpus": 8, "weight": 0.1}],
		"duration": {"dist": "lognormal", "mean_s": 3600, "sigma": 1.3, "min_s": 60}}},
	"perf": {"model": "constant", "params": {"type_speed": [{"gpu_type": "K80", "speed": 0.37}]}},
	"policies": [{"name": "sjf"}]}`
	if err := os.WriteFile(scen, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"run", scen, "--format", "json", "--oracle"}
	for _, e := range script.Examples {
		f := filepath.Join(dir, e.Name+".star")
		if err := os.WriteFile(f, []byte(e.Source), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, "--policy-file", f)
	}
	mathy := filepath.Join(dir, "mathy.star")
	src := "def priority(job, now):\n    return math.log(job.solo_s) * math.sqrt(job.gpus) + math.exp(-job.arrival_s / 7200) + math.pow(job.gpus, 0.3)\n"
	if err := os.WriteFile(mathy, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	args = append(args, "--policy-file", mathy)
	t0 := time.Now()
	want, err := exec.Command(native, args...).Output()
	if err != nil {
		t.Fatalf("natively: %v", err)
	}
	t1 := time.Now()
	got, err := wasmRun(args...).Output()
	if err != nil {
		t.Fatalf("in wasm: %v", err)
	}
	t.Logf("native %.1f s, node %.1f s", t1.Sub(t0).Seconds(), time.Since(t1).Seconds())
	if !bytes.Equal(got, want) {
		t.Fatalf("wasm output differs from native output (%d vs %d bytes), first difference at byte %d", len(got), len(want), firstDiff(got, want))
	}
	for _, e := range append(script.Examples, script.Example{Name: "mathy"}) {
		if !bytes.Contains(want, []byte(`"policy": "`+e.Name+`.star"`)) {
			t.Errorf("no results of %s.star", e.Name)
		}
	}
	t.Logf("%d bytes, identical", len(got))
}
