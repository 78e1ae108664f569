package web

import (
	"os/exec"
	"strings"
	"testing"
)

// TestPageModuleStaysSmall keeps what only the engine worker needs out of
// the page's module (wasm/ui), which every visitor downloads before the
// page can be used: the experiment runner and plotting are the engine
// module's. Naming one of their constants from web/app once linked both
// and made ui.wasm 6.7 MB larger.
func TestPageModuleStaysSmall(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("needs the go command")
	}
	cmd := exec.Command(goBin, "list", "-deps", "../wasm/ui")
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasSuffix(pkg, "/sim/experiment") || strings.HasSuffix(pkg, "/sim/plot") || strings.HasPrefix(pkg, "gonum.org/v1/plot") {
			t.Errorf("the page's module links %s, which belongs to the engine worker", pkg)
		}
	}
}
