//go:build !js

// Package e2e holds the end-to-end tests: the built site in headless
// Chromium, and the same scenarios natively and in WebAssembly under node.
// They need external programs (chromium, node); without them they skip,
// unless SCHEDLAB_REQUIRE_E2E=1 (as in `make test`), where they fail.
package e2e

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// need fails or skips the test when a prerequisite is missing.
func need(t *testing.T, ok bool, what string) {
	t.Helper()
	if ok {
		return
	}
	if os.Getenv("SCHEDLAB_REQUIRE_E2E") == "1" {
		t.Fatalf("%s is required here (SCHEDLAB_REQUIRE_E2E=1)", what)
	}
	t.Skipf("%s is not available", what)
}

// repoRoot is the module root, two levels above this package.
func repoRoot(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

var (
	siteOnce sync.Once
	siteDir  string
	siteErr  error
)

// site returns the built site: SCHEDLAB_SITE, or a fresh build.
func site(t *testing.T) string {
	t.Helper()
	siteOnce.Do(func() {
		if dir := os.Getenv("SCHEDLAB_SITE"); dir != "" {
			siteDir = dir
			return
		}
		siteDir, siteErr = os.MkdirTemp("", "schedlab-site")
		if siteErr != nil {
			return
		}
		cmd := exec.Command("go", "run", "./build/site", "-out", siteDir)
		cmd.Dir = repoRoot(t)
		out, err := cmd.CombinedOutput()
		if err != nil {
			siteErr = err
			t.Logf("%s", out)
		}
	})
	if siteErr != nil {
		t.Fatalf("building the site: %v", siteErr)
	}
	return siteDir
}

func chromiumPath() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browser starts headless Chromium with the flags this machine needs
// (root: no sandbox; closed network: no background networking). New
// contexts made from the returned one are tabs of the same browser.
func browser(t *testing.T, timeout time.Duration) (context.Context, context.CancelFunc) {
	t.Helper()
	return browserWithProfile(t, t.TempDir(), timeout)
}

// browserWithProfile is browser with its profile (cache, code cache,
// storage) in dir.
func browserWithProfile(t *testing.T, dir string, timeout time.Duration) (context.Context, context.CancelFunc) {
	t.Helper()
	path := chromiumPath()
	need(t, path != "", "chromium")
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-quic", true),
		chromedp.UserDataDir(dir), chromedp.WindowSize(1280, 800))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, timeout)
	cancel := func() { cancelTimeout(); cancelCtx(); cancelAlloc() }
	// Start the browser now: letting two goroutines (the console listener
	// and the first action) start it lazily races inside chromedp.
	if err := chromedp.Do(ctx); err != nil {
		cancel()
		t.Fatalf("starting chromium: %v", err)
	}
	return ctx, cancel
}

func serve(t *testing.T, dir string) *httptest.Server {
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(srv.Close)
	return srv
}

// consoleErrors collects the page's console errors and uncaught exceptions.
func consoleErrors(ctx context.Context) func() []string {
	var mu sync.Mutex
	var errs []string
	go func() {
		for m, err := range chromedp.Console(ctx) {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleException || m.Type == "error" {
				mu.Lock()
				msg := m.String()
				if m.URL != "" {
					msg += " [" + m.URL + "]"
				}
				errs = append(errs, msg)
				mu.Unlock()
			}
		}
	}()
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), errs...)
	}
}
