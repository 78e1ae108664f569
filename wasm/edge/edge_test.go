//go:build !js

package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/sim/api/apitest"
)

// WorkerdVersion is the workerd from npm the test runs the build in.
const WorkerdVersion = "1.20261117.1"

// TestEdgeInWorkerd builds the Workers bundle (as make edge does), starts
// it in workerd on loopback and runs the API suite against it, then a
// small study through it that must match the local run byte for byte.
// Without npm (or a workerd in SCHEDLAB_WORKERD) it skips, unless
// SCHEDLAB_REQUIRE_EDGE=1 (make test sets it), when it fails.
func TestEdgeInWorkerd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the Workers bundle and starts workerd")
	}
	bin := findWorkerd(t)
	dir := bundle(t)
	base, stop := startWorkerd(t, bin, dir)
	defer stop()
	latencies(t, base)
	apitest.Run(t, base)
	t.Run("RemoteStudy", func(t *testing.T) {
		apitest.RemoteMatchesLocal(t, []string{base}, "sjf-bsbf-fig6a", true, 2)
	})
}

// findWorkerd returns the workerd binary: $SCHEDLAB_WORKERD, or the
// pinned version from npm in the user's cache, installed on first use.
func findWorkerd(t *testing.T) string {
	if p := os.Getenv("SCHEDLAB_WORKERD"); p != "" {
		return p
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	prefix := filepath.Join(cache, "schedlab", "workerd-"+WorkerdVersion)
	bin := filepath.Join(prefix, "node_modules", ".bin", "workerd")
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		missing(t, "npm is not on the PATH, so workerd@"+WorkerdVersion+" cannot be installed; install Node.js and npm, or set SCHEDLAB_WORKERD to a workerd binary")
	}
	t.Logf("installing workerd@%s into %s (about 160 MB, once)", WorkerdVersion, prefix)
	cmd := exec.Command(npm, "install", "--no-audit", "--no-fund", "--prefix", prefix, "workerd@"+WorkerdVersion)
	if out, err := cmd.CombinedOutput(); err != nil {
		missing(t, fmt.Sprintf("npm install workerd@%s failed: %v\n%s", WorkerdVersion, err, out))
	}
	return bin
}

// missing skips, or fails when the edge test is required.
func missing(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("SCHEDLAB_REQUIRE_EDGE") == "1" {
		t.Fatal(why)
	}
	t.Skip(why + " (SCHEDLAB_REQUIRE_EDGE=1 makes this a failure)")
}

// bundle returns a directory with the Workers bundle: $SCHEDLAB_EDGE_DIR
// when make edge built one, otherwise one that build/workers writes here.
func bundle(t testing.TB) string {
	if d := os.Getenv("SCHEDLAB_EDGE_DIR"); d != "" {
		return d
	}
	dir := t.TempDir()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("building the bundle needs the go command: %v", err)
	}
	cmd := exec.Command(goBin, "run", "./build/workers", "-out", dir)
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go run ./build/workers: %v\n%s", err, out)
	}
	t.Logf("%s", strings.TrimSpace(string(out)))
	return dir
}

// startWorkerd serves dir's bundle on a free loopback port and waits
// until it answers.
func startWorkerd(t testing.TB, bin, dir string) (base string, stop func()) {
	// config.capnp (beside this file) runs the bundle's modules as one
	// worker on one HTTP socket, whose address the command line sets.
	config, err := os.ReadFile("config.capnp")
	if err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(dir, "config.capnp")
	if err := os.WriteFile(conf, config, 0o644); err != nil {
		t.Fatal(err)
	}
	addr := freePort(t)
	cmd := exec.Command(bin, "serve", conf, "--socket-addr", "http="+addr)
	var logs strings.Builder
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting workerd: %v", err)
	}
	stop = func() {
		cmd.Process.Kill()
		cmd.Wait()
	}
	base = "http://" + addr
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(base + "/v1/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return base, stop
			}
		}
		if time.Now().After(deadline) {
			stop()
			t.Fatalf("workerd did not answer on %s within 30 s (%v); its output:\n%s", addr, err, logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func freePort(t testing.TB) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// latencies logs the time of a first and of warm requests: every request
// starts a fresh Go instance, so "warm" means only that workerd has
// compiled the module.
func latencies(t *testing.T, base string) {
	for _, c := range []struct{ name, method, path, body string }{
		{"health", "GET", "/v1/health", ""},
		{"run tiny", "POST", "/v1/run", `{"scenario": "tiny"}`},
		{"run fifo-vs-sjf", "POST", "/v1/run", `{"scenario": "fifo-vs-sjf"}`},
	} {
		var times []string
		for range 4 {
			var send []byte
			if c.body != "" {
				send = []byte(c.body)
			}
			start := time.Now()
			status, body := apitest.Do(t, c.method, base+c.path, send)
			if status != 200 {
				t.Fatalf("%s: %d %s", c.name, status, body)
			}
			times = append(times, time.Since(start).Round(100*time.Microsecond).String())
		}
		t.Logf("workerd %s: %s", c.name, strings.Join(times, ", "))
	}
}

// TestWorkerdVersion: make need-workerd installs the workerd this test
// runs (the Makefile names its version too).
func TestWorkerdVersion(t *testing.T) {
	mk, err := os.ReadFile(filepath.Join("..", "..", "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "WORKERD_VERSION := " + WorkerdVersion + "\n"; !strings.Contains(string(mk), want) {
		t.Errorf("the Makefile does not say %q", strings.TrimSpace(want))
	}
}
