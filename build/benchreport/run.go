package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// usage is what one process cost: CPU seconds (user + system, of it and
// the children it waited for) and its peak resident memory in MB.
type usage struct {
	CPU, RSSMB float64
}

// A measurer builds the command line once and runs the measurements.
type measurer struct {
	root, tmp string
	runs      int
	native    string // the schedlab binary
	wasm      string // the same command as WebAssembly
	highs     string // the HiGHS timing program, or ""
}

// goRoot is the go command's GOROOT, where its runner for WebAssembly
// under node lives (set by build).
var goRoot string

// wasmExec is Go's runner for WebAssembly under node.
func wasmExec() string {
	return filepath.Join(goRoot, "lib", "wasm", "go_js_wasm_exec")
}

// build compiles cmd/schedlab natively and for WebAssembly into tmp.
func (m *measurer) build(ctx context.Context) error {
	root, err := m.goCmd(ctx, nil, "env", "GOROOT")
	if err != nil {
		return err
	}
	goRoot = strings.TrimSpace(root)
	m.native = filepath.Join(m.tmp, "schedlab")
	m.wasm = filepath.Join(m.tmp, "schedlab.wasm")
	if _, err := m.goCmd(ctx, nil, "build", "-o", m.native, "./cmd/schedlab"); err != nil {
		return err
	}
	_, err = m.goCmd(ctx, []string{"GOOS=js", "GOARCH=wasm"}, "build", "-o", m.wasm, "./cmd/schedlab")
	return err
}

// goCmd runs the go command in the repository's root and returns its
// standard output; an error carries the end of its error output.
func (m *measurer) goCmd(ctx context.Context, env []string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = m.root
	cmd.Env = append(os.Environ(), env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("go %s: %v: %s", strings.Join(args, " "), err, oneLine(errOut.String()+out.String(), 300))
	}
	return out.String(), nil
}

// bench runs `go test -bench` on one package (under node when wasm is
// set) and parses its results.
func (m *measurer) bench(ctx context.Context, wasm bool, pkg, pattern, benchtime string, count int) ([]benchLine, error) {
	args := []string{"test", "-run", "^$", "-bench", pattern, "-benchtime", benchtime, "-count", fmt.Sprint(count), "-timeout", "90m"}
	var env []string
	if wasm {
		env = []string{"GOOS=js", "GOARCH=wasm"}
		args = append(args, "-exec", wasmExec())
	}
	out, err := m.goCmd(ctx, env, append(args, pkg)...)
	if err != nil {
		return nil, err
	}
	return parseBench(strings.NewReader(out))
}

// scenarioFile writes the benchmarks' Poisson scenario (1,024 GPUs at
// about 90% load; the scenario of sim/experiment's
// BenchmarkFIFO100kWholePath) for n jobs under one policy.
func (m *measurer) scenarioFile(n int, policy string) (string, error) {
	doc := fmt.Sprintf(`{"name": "%[2]s-%[1]d", "title": "%[2]s on %[1]d jobs",
 "cluster": {"servers": [{"count": 128, "gpus": 8, "gpu_type": "V100", "gpu_memory_gb": 32}]},
 "workload": {"generator": {"kind": "poisson", "jobs": %[1]d, "jobs_per_hour": 480,
   "gpu_mix": [{"gpus": 1, "weight": 0.7}, {"gpus": 2, "weight": 0.1}, {"gpus": 4, "weight": 0.15}, {"gpus": 8, "weight": 0.05}],
   "duration": {"dist": "exponential", "mean_s": 3600, "min_s": 60},
   "models": [{"model": "resnet50", "weight": 2}, {"model": "bert", "weight": 1}, {"model": "yolov3", "weight": 1}, {"model": "ncf", "weight": 1}]}},
 "policies": [{"name": "%[2]s"}], "seeds": [1]}`, n, policy)
	file := filepath.Join(m.tmp, fmt.Sprintf("%s-%d.json", policy, n))
	return file, os.WriteFile(file, []byte(doc), 0o644)
}

// runNative and runWasm run the command line on args, discarding its
// output, and return its CPU and peak memory.
func (m *measurer) runNative(ctx context.Context, args ...string) (usage, error) {
	return timed(ctx, m.native, args...)
}

func (m *measurer) runWasm(ctx context.Context, args ...string) (usage, error) {
	return timed(ctx, wasmExec(), append([]string{m.wasm}, args...)...)
}
