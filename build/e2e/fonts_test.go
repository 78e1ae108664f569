//go:build !js

package e2e

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/schedlab/schedlab/build/static"
)

// TestFontsUnreachable: the page's module leaves the figures' fonts out
// and its engine workers fetch them when they first draw (sim/plot's
// FaceData). When that fetch fails (here the site answers 404; for a
// student, the network gone after the page loaded), the run's numbers
// still replace the build-time ones, and each figure says why it is
// missing instead of the run failing.
func TestFontsUnreachable(t *testing.T) {
	files := static.Handler(site(t))
	var asked atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/LiberationSans-") {
			asked.Add(1)
			http.NotFound(w, r)
			return
		}
		files.ServeHTTP(w, r)
	}))
	defer srv.Close()
	ctx, cancel := browser(t, 4*time.Minute)
	defer cancel()
	p := &page{t: t, ctx: ctx}
	p.do(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL+"/"))
	const cdfErr = `((document.querySelector("#fig-jct_cdf .err") || {}).textContent || "")`
	p.wait(liveShown+` && `+cdfErr+` !== ""`, statusJS, 2*time.Minute)
	if got := eval[string](p, cdfErr); !strings.Contains(got, "fonts") || !strings.Contains(got, "404") {
		t.Errorf("the CDF's box reads %q, want the fonts' failed fetch and its status", got)
	}
	// The numbers are compared with the build's as usual; the figures,
	// not drawn, are not.
	if got := p.text("built-check"); !strings.HasPrefix(got, "Computed by your browser just now, and the same as") {
		t.Errorf("the live results' label reads %q", got)
	}
	if status := p.text("status"); !strings.Contains(status, "Simulated") {
		t.Errorf("the run's line reads %q, want the run done", status)
	}
	if m := p.metrics(); len(m) != 2 {
		t.Errorf("the metrics table has %d policies, want FIFO and SJF: %v", len(m), m)
	}
	gantt := `[...document.querySelectorAll(".gantt-images .err")].map((e) => e.textContent)`
	if errs := eval[[]string](p, gantt); len(errs) != 2 || !strings.HasPrefix(errs[0], "The figures could not be drawn: ") {
		t.Errorf("the Gantt images' errors: %q, want one per policy saying the figures could not be drawn", errs)
	}
	if asked.Load() == 0 {
		t.Error("no worker asked for the fonts")
	}
	p.shot("fonts-unreachable", 1280, 800)
	p.shot("fonts-unreachable", 390, 844)
}
