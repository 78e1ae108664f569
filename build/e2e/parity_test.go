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
// browser and on the command line.
func TestNativeAndWasmAgree(t *testing.T) {
	node, err := exec.LookPath("node")
	need(t, err == nil, "node")
	root := repoRoot(t)
	tmp := t.TempDir()
	native := cli(t)
	wasm := filepath.Join(tmp, "schedlab.wasm")
	build := func(out string, env ...string) {
		cmd := exec.Command("go", "build", "-o", out, "./cmd/schedlab")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), env...)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %v: %v\n%s", env, err, b)
		}
	}
	build(wasm, "GOOS=js", "GOARCH=wasm")
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	runner := filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec_node.js")
	for _, name := range scenarios.Names() {
		// Paper studies run their quick version: their full versions are
		// paper-scale sweeps (minutes to hours).
		args := []string{"run", name, "--format", "json", "--quick"}
		want, err := exec.Command(native, args...).Output()
		if err != nil {
			t.Fatalf("%s natively: %v", name, err)
		}
		got, err := exec.Command(node, append([]string{"--stack-size=8192", runner, wasm}, args...)...).Output()
		if err != nil {
			t.Fatalf("%s in wasm: %v", name, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: wasm output differs from native output (%d vs %d bytes), first difference at byte %d",
				name, len(got), len(want), firstDiff(got, want))
		} else {
			t.Logf("%s: %d bytes, identical", name, len(got))
		}
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
