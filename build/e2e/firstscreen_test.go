//go:build !js

package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/schedlab/schedlab/build/static"
)

// layoutShiftJS sums the page's layout shifts so far that no input caused
// (what browsers report as its Cumulative Layout Shift, without the
// session windows); layoutShiftsJS lists them, with what moved. A page
// that never shifted has no entry for the observer to report, so each
// answers after a second with what it has: 0, or nothing.
const layoutShiftJS = `new Promise((done) => { let sum = 0;
	const o = new PerformanceObserver((l) => { for (const e of l.getEntries()) if (!e.hadRecentInput) sum += e.value; });
	o.observe({type: "layout-shift", buffered: true}); setTimeout(() => { o.disconnect(); done(sum); }, 1000); })`
const layoutShiftsJS = `new Promise((done) => { const lines = [];
	const o = new PerformanceObserver((l) => { for (const e of l.getEntries()) lines.push(Math.round(e.startTime) + " ms " + e.value.toFixed(3) + ": " + e.sources.map((s) =>
		(s.node ? s.node.id || s.node.className || s.node.nodeName : "?") + " y " + Math.round(s.previousRect.y) + "→" + Math.round(s.currentRect.y)).join(", ")); });
	o.observe({type: "layout-shift", buffered: true}); setTimeout(() => { o.disconnect(); done(lines.join("\n")); }, 1000); })`

// moduleGate serves the site with the page's module held back until
// opened; hold closes it again for the next load.
type moduleGate struct {
	mu   sync.Mutex
	open chan struct{}
}

func (g *moduleGate) hold() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.open = make(chan struct{})
}

func (g *moduleGate) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	select {
	case <-g.open:
	default:
		close(g.open)
	}
}

func (g *moduleGate) server(t *testing.T, dir string) *httptest.Server {
	g.hold()
	files := static.Handler(dir)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, ".wasm") {
			g.mu.Lock()
			open := g.open
			g.mu.Unlock()
			select {
			case <-open:
			case <-r.Context().Done():
				return
			}
		}
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(g.release) // before Close, which waits for held requests
	return srv
}

// The first screen drawn when the site was built (web/snapshot, in
// index.html) shows the default scenario's results before the page's
// module has arrived (the test holds it back): the build-time label, the
// command line's numbers, the figures for the screen's width and a Gantt
// chart, every control disabled, the download's progress, and no serious
// accessibility violation. When the module comes, the page draws over it,
// keeping the figures' elements and their size (an image whose address
// changes keeps showing the old one until the new one has loaded, though
// its naturalWidth says 0 meanwhile), and its own run replaces the
// results, identical, in the same elements, labelled as checked, with the
// page's layout shifting little in all.
func TestFirstScreen(t *testing.T) {
	axe, err := os.ReadFile(axePath(t))
	need(t, err == nil, "axe-core (make test installs it: `make need-axe`)")
	for _, v := range []struct {
		w, h    int64
		figureW int // the CDF image's width in pixels
	}{{1280, 800, 672}, {390, 844, 342}} {
		t.Run(fmt.Sprintf("%dx%d", v.w, v.h), func(t *testing.T) {
			var g moduleGate
			srv := g.server(t, site(t))
			ctx, cancel := browser(t, 4*time.Minute)
			defer cancel()
			errs := consoleErrors(ctx)
			p := &page{t: t, ctx: ctx}
			p.do(chromedp.EmulateViewport(v.w, v.h), chromedp.Navigate(srv.URL+"/"))
			p.wait(snapshotShown, statusJS, 30*time.Second)
			if got := p.text("built"); !strings.Contains(got, "Computed when this site was built") {
				t.Errorf("the first screen's label reads %q", got)
			}
			checkCLIMetrics(t, p.metrics())
			if w := eval[int](p, `document.getElementById("plot-jct_cdf").naturalWidth`); w != v.figureW {
				t.Errorf("the first screen's CDF is %d px wide, want %d (drawn for this screen)", w, v.figureW)
			}
			if live := eval[[]string](p, `[...document.querySelectorAll("[data-snapshot] button, [data-snapshot] input")].filter((b) => !b.disabled).map((b) => b.id || b.textContent)`); len(live) > 0 {
				t.Errorf("controls that do nothing yet are not disabled: %q", live)
			}
			if got := p.text("boot-what"); !strings.HasPrefix(got, "Loading schedlab") {
				t.Errorf("the download's progress reads %q", got)
			}
			if bad := p.axeSerious(string(axe)); len(bad) > 0 {
				t.Errorf("serious accessibility violations on the first screen:\n%s", strings.Join(bad, "\n"))
			}
			eval[any](p, `(() => { for (const id of ["plot-jct_cdf", "plot-queue_by_model", "metrics"]) document.getElementById(id).__first = true; })()`)

			g.release()
			p.wait(`!document.querySelector("[data-snapshot]") && !!document.getElementById("run")`, statusJS, 2*time.Minute)
			if kept := eval[[]string](p, `["plot-jct_cdf", "plot-queue_by_model", "metrics"].filter((id) => {
				const e = document.getElementById(id); return !!e && e.__first && e.getBoundingClientRect().height > 0; })`); len(kept) != 3 {
				t.Errorf("the page drew new elements over the first screen's (kept with their images: %q; now %s); they blank and move the page", kept,
					eval[string](p, `JSON.stringify(["plot-jct_cdf", "plot-queue_by_model", "metrics"].map((id) => { const e = document.getElementById(id); return [id, !!e && !!e.__first, e && e.getBoundingClientRect().height, e && e.parentElement.tagName]; }))`))
			}
			eval[any](p, `(() => { for (const id of ["plot-jct_cdf", "plot-queue_by_model", "metrics"]) document.getElementById(id).__built = true; })()`)
			p.wait(liveShown+` && (`+plotsShown+`)`, statusJS, 2*time.Minute)
			if got := eval[string](p, `document.querySelector(".results").dataset.check`); got != "same" {
				t.Errorf("the live results compared with the build-time ones: %q, want \"same\"", got)
			}
			if got := p.text("built-check"); !strings.HasPrefix(got, "Computed by your browser just now, and the same as") {
				t.Errorf("the live results' label reads %q", got)
			}
			// The live results take the build-time ones' place in the same
			// elements: a new image is blank until decoded, and the page
			// below it jumps up and back.
			if kept := eval[[]string](p, `["plot-jct_cdf", "plot-queue_by_model", "metrics"].filter((id) => { const e = document.getElementById(id); return !!e && e.__built; })`); len(kept) != 3 {
				t.Errorf("the live results were drawn in new elements (kept: %q)", kept)
			}
			// Nothing moves much from the first screen to the live results:
			// the layout shift summed over the load, as browsers measure it
			// (Cumulative Layout Shift; 0.1 is the usual bound of "good").
			if cls := eval[float64](p, layoutShiftJS); cls >= 0.1 {
				t.Errorf("the page's layout shifted by %.3f in all from the first screen to the live results (want < 0.1):\n%s", cls, eval[string](p, layoutShiftsJS))
			}
			if e := errs(); len(e) > 0 {
				t.Errorf("console errors: %q", e)
			}
		})
	}
}

// The first screen is of the default scenario: a page that opens another
// (a link's, or one this browser stored) shows the header and the
// download's progress instead; a browser that stored the default scenario
// itself (a second visit) sees it again.
func TestFirstScreenOnlyForDefault(t *testing.T) {
	var g moduleGate
	srv := g.server(t, site(t))
	ctx, cancel := browser(t, 4*time.Minute)
	defer cancel()
	p := &page{t: t, ctx: ctx}
	// What the page showed once parsed (web/boot.js has run by then): a
	// module the browser has cached could draw over it soon after.
	if _, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: `
		document.addEventListener("DOMContentLoaded", () => {
			window.__shown = document.querySelector("[data-snapshot] #metrics") ? "results"
				: document.querySelector("[data-snapshot] #boot-what") && !document.querySelector("[data-snapshot] .results") ? "loading" : "other";
		});`}); err != nil {
		t.Fatal(err)
	}
	shown := func(url, want string) {
		t.Helper()
		p.do(chromedp.Navigate(url))
		p.wait(`!!window.__shown`, statusJS, 30*time.Second)
		if got := eval[string](p, `window.__shown`); got != want {
			t.Errorf("%s: the first screen shows %s, want %s (stored: %.80q)", url, got, want, eval[string](p, `localStorage.getItem("schedlab.scenario.v1") || ""`))
		}
	}
	p.do(chromedp.EmulateViewport(1280, 800))
	shown(srv.URL+"/#"+linkWithJobs(t, 30), "loading")
	// A first visit stores the default scenario, and sees the first
	// screen again on the next.
	shown(srv.URL+"/", "results")
	g.release()
	p.started()
	shown(srv.URL+"/", "results")
	p.started()
	eval[any](p, `localStorage.setItem("schedlab.scenario.v1", localStorage.getItem("schedlab.scenario.v1").replace("FIFO against SJF", "FIFO against SJF, edited"))`)
	shown(srv.URL+"/", "loading")
}
