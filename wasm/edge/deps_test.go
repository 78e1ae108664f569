//go:build !js

package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/build/wasmsize"
)

// TestLeftOut: the Workers build, with its tags, leaves out gonum/plot
// (and the fonts it embeds) and net/http (whose crypto alone would add
// about 0.6 MB gzipped), which is what keeps it within its budget
// (build/wasmsize).
func TestLeftOut(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("needs the go command")
	}
	m, _ := wasmsize.Lookup("edge")
	cmd := exec.Command(goBin, "list", "-tags", strings.Join(m.Tags, ","), "-deps", ".")
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "gonum.org/v1/plot") || strings.HasSuffix(pkg, "/sim/plot") || pkg == "net/http" || pkg == "crypto/tls" {
			t.Errorf("the Workers build imports %s", pkg)
		}
	}
}
