//go:build !js

package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/schedlab/schedlab/build/static"
)

// builtShown holds while the results on show are those computed when the
// site was built.
const builtShown = `(document.querySelector(".results") || {dataset: {}}).dataset.source === "build"`

// The page shows the default scenario's results computed when the site
// was built before its engine has even started (the test holds the engine
// workers' script back), labelled as such and with the command line's
// numbers; once the engine runs, the browser's own run replaces them, is found
// identical, and the label says so. A phone (390 px) gets results drawn
// for a phone at once too.
func TestBuiltResults(t *testing.T) {
	for _, v := range [][2]int64{{1280, 800}, {390, 844}} {
		t.Run(fmt.Sprintf("%dx%d", v[0], v[1]), func(t *testing.T) { builtResults(t, v[0], v[1]) })
	}
}

func builtResults(t *testing.T, width, height int64) {
	dir := site(t)
	release := make(chan struct{})
	var once sync.Once
	open := func() { once.Do(func() { close(release) }) }
	defer open()
	files := static.Handler(dir)
	var fonts atomic.Int32 // requests for the figures' fonts
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/LiberationSans-") {
			fonts.Add(1)
		}
		if strings.HasPrefix(r.URL.Path, "/worker.") {
			select {
			case <-release:
			case <-r.Context().Done():
				return
			}
		}
		files.ServeHTTP(w, r)
	}))
	defer srv.Close()
	defer open() // before Close, which waits for the held request
	ctx, cancel := browser(t, 4*time.Minute)
	defer cancel()
	errs := consoleErrors(ctx)
	p := &page{t: t, ctx: ctx}
	start := time.Now()
	p.do(chromedp.EmulateViewport(width, height), chromedp.Navigate(srv.URL+"/"))
	p.wait(builtShown+` && (`+plotsShown+`)`, statusJS, 2*time.Minute)
	t.Logf("%d px: the build-time results and their figures on show %.1f s after the page was asked for (the engine held back)", width, time.Since(start).Seconds())
	if got := p.text("built"); !strings.Contains(got, "Computed when this site was built") {
		t.Errorf("the build-time results' label reads %q", got)
	}
	if line := eval[string](p, `document.querySelector(".intro .muted").textContent`); !strings.Contains(line, "computed when the site was built") {
		t.Errorf("the run line reads %q", line)
	}
	checkCLIMetrics(t, p.metrics())
	time.Sleep(time.Second)
	if !eval[bool](p, builtShown) {
		t.Fatal("the build-time results went away while the engine was held back")
	}
	// The module leaves the figures' fonts out (sim/plot's FaceData): the
	// first screen, drawn when the site was built, needs none.
	if n := fonts.Load(); n != 0 {
		t.Errorf("the fonts were asked for %d times before the page's engine drew anything", n)
	}

	open()
	p.wait(liveShown+` && (`+plotsShown+`)`, statusJS, 2*time.Minute)
	if got := eval[string](p, `document.querySelector(".results").dataset.check`); got != "same" {
		t.Errorf("the live results compared with the build-time ones: %q, want \"same\"", got)
	}
	if eval[bool](p, `!!document.getElementById("built")`) {
		t.Error("the build-time label stays over the live results")
	}
	if got := p.text("built-check"); !strings.HasPrefix(got, "Computed by your browser just now, and the same as") {
		t.Errorf("the live results' label reads %q", got)
	}
	checkCLIMetrics(t, p.metrics())
	// The live figures were drawn by a worker that fetched both fonts.
	if n := fonts.Load(); n < 2 {
		t.Errorf("the fonts were asked for %d times by the time the live figures were on show, want both", n)
	}
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %q", e)
	}
}
