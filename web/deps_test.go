package web

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/build/wasmsize"
)

// TestBrowserModuleLeavesOut keeps out of the browser's module
// (wasm/browser: the page, and the engine in its Web Workers), which every
// visitor downloads before the page can be used, what neither role uses:
// net/http with the cryptography of its TLS (about 0.6 MB gzipped; the
// page and its workers talk through postMessage and fetch) and gonum/plot's
// PDF, EPS and TeX back ends (its figures are SVG and PNG), which the
// module's build tags leave out.
func TestBrowserModuleLeavesOut(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("needs the go command")
	}
	m, ok := wasmsize.Lookup("browser")
	if !ok {
		t.Fatal("build/wasmsize has no browser module")
	}
	cmd := exec.Command(goBin, "list", "-tags", strings.Join(m.Tags, ","), "-deps", m.Package)
	cmd.Dir = ".." // the repository's root, where m.Package is relative to
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := strings.Fields(string(out))
	if len(pkgs) < 100 {
		t.Fatalf("go list gave %d packages: %v", len(pkgs), pkgs)
	}
	for _, pkg := range pkgs {
		switch pkg {
		case "net/http", "crypto/tls", "gonum.org/v1/plot/vg/vgpdf", "gonum.org/v1/plot/vg/vgeps", "gonum.org/v1/plot/vg/vgtex":
			t.Errorf("the browser's module links %s, which neither the page nor its engine uses", pkg)
		case "regexp":
			// About 0.12 MB with brotli, with the Unicode tables it
			// brings: web/learn matches its log line by hand instead.
			t.Errorf("the browser's module links regexp; match by hand (as web/learn's matchSteps does) or keep it out of the page")
		}
	}
}
