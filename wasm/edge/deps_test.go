//go:build !js

package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoPlotting: the Workers build leaves gonum/plot (and the fonts it
// embeds) out, which is what keeps it under the free plan's 3 MB.
func TestNoPlotting(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("needs the go command")
	}
	cmd := exec.Command(goBin, "list", "-tags", "noplot", "-deps", ".")
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "gonum.org/v1/plot") || strings.HasSuffix(pkg, "/sim/plot") {
			t.Errorf("the Workers build imports %s", pkg)
		}
	}
}
