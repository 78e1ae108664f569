//go:build !js

package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scenarios"
)

// The CLI built natively and for js/wasm (run by node) prints byte-identical
// JSON for every built-in scenario: one seed gives the same results in the
// browser and on the command line. The scenarios run two at a time (one
// parallel subtest each): the browser suite's longest test took 135 s
// one by one and takes 107 s so on two cores (node's compiler threads
// already kept the second core about half busy).
func TestNativeAndWasmAgree(t *testing.T) {
	native := cli(t)
	wasmRun := wasmCLI(t)
	for _, name := range scenarios.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			// Paper studies run their quick version: their full versions
			// are paper-scale sweeps (minutes to hours).
			args := []string{"run", name, "--format", "json", "--quick"}
			want, err := exec.Command(native, args...).Output()
			if err != nil {
				t.Fatalf("%s natively: %v", name, err)
			}
			got, err := wasmRun(args...).Output()
			if err != nil {
				t.Fatalf("%s in wasm: %v", name, err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s: wasm output differs from native output (%d vs %d bytes), first difference at byte %d",
					name, len(got), len(want), firstDiff(got, want))
			} else {
				t.Logf("%s: %d bytes, identical", name, len(got))
			}
		})
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// wasmCLI builds the CLI for js/wasm and returns how to run it in node.
func wasmCLI(t *testing.T) func(args ...string) *exec.Cmd {
	t.Helper()
	node, err := exec.LookPath("node")
	need(t, err == nil, "node")
	root := repoRoot(t)
	wasm := filepath.Join(t.TempDir(), "schedlab.wasm")
	cmd := exec.Command("go", "build", "-o", wasm, "./cmd/schedlab")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build for js/wasm: %v\n%s", err, b)
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	runner := filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec_node.js")
	return func(args ...string) *exec.Cmd {
		return exec.Command(node, append([]string{"--stack-size=8192", runner, wasm}, args...)...)
	}
}
