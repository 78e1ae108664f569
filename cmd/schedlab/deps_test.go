package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestStartLeavesOut keeps out of the command line the packages whose
// set-up at start cost most in WebAssembly, where V8's optimising
// compiler compiled their run-once initialisation: encoding/gob (which
// go-pdf brought, see internal/fpdf) and regexp, whose parser keeps
// unicode's tables of scripts and categories, built at every start.
// `schedlab help` under node took about a sixth less CPU without them
// (docs/development.md, issue 37). Nor net/http, with TLS and x509: in
// WebAssembly serve and --remote refuse (under node there is no network
// but an in-process stand-in), and the module is 17 MB instead of 26.
func TestStartLeavesOut(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("needs the go command")
	}
	cmd := exec.Command(goBin, "list", "-deps", ".")
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
		case "regexp", "encoding/gob", "net", "net/http", "crypto/tls", "crypto/x509":
			t.Errorf("the command line links %s, set up at every start", pkg)
		}
	}
}
