//go:build !js

package e2e

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/schedlab/schedlab/build/static"
)

// longTaskJS records the page's long tasks (main thread busy for 50 ms or
// more) from the first script on: PerformanceObserver reports each with
// its start and duration.
// It also notes when the page itself is up (its Run button is there and
// the first screen drawn when the site was built, marked data-snapshot,
// has been drawn over), and the first frame with the default results'
// figures on screen (resultsShown), as they happen: reading the time by
// polling from the test instead waited for whatever long task came next.
const longTaskJS = `window.__longTasks = [];
try {
	new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longTasks.push([e.startTime, e.duration]); })
		.observe({ type: "longtask", buffered: true });
} catch (e) {}
window.__usable = 0;
new MutationObserver((_, o) => {
	if (document.getElementById("run") && !document.querySelector("[data-snapshot]")) { window.__usable = performance.now(); o.disconnect(); }
}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-snapshot"] });
window.__results = 0;
window.__resultsFrom = "";
const resultsFrame = (now) => {
	if (` + snapshotShown + `) { window.__results = now; window.__resultsFrom = "the first screen"; return; }
	if (` + plotsShown + `) { window.__results = now; window.__resultsFrom = "the page"; return; }
	requestAnimationFrame(resultsFrame);
};
requestAnimationFrame(resultsFrame);`

// snapshotShown holds while the first screen drawn when the site was built
// (web/snapshot, in index.html until the page draws over it) shows the
// default results with their figures drawn and visible: the CDF and
// queuing images loaded (the one of the screen's width) and a Gantt chart.
// (plotsShown, for the page's own view, asks for the Gantt charts' images,
// which the first screen leaves unloaded in their closed details.)
const snapshotShown = `(() => { const s = document.querySelector("[data-snapshot]"); if (!s) return false;
	const ok = (id) => { const i = document.getElementById(id); return !!i && i.complete && i.naturalWidth > 0 && i.checkVisibility(); };
	return ok("plot-jct_cdf") && ok("plot-queue_by_model") && [...s.querySelectorAll(".gantt-box svg")].some((g) => g.checkVisibility()); })()`

// longTaskBound is where the browser tests fail on a main-thread task:
// ten times the 100 ms target, which they report. A loaded machine slows
// every task several-fold: with five builds and test runs on 2 cores
// (load 12), tasks that take 60 to 90 ms on a quieter machine took 500 to
// 660 ms, and a 400 ms bound failed two runs of five.
const longTaskBound = 1000.0

// usableJS is the time (ms since navigation) at which the page itself is
// up (the Vugu page replaced the placeholder and shows its Run button),
// or 0 before.
const usableJS = `window.__usable || 0`

// loadFigures is what one cold load measured, in milliseconds from the
// navigation's start (the page's own clock).
type loadFigures struct {
	Usable, Results float64 // page usable; default results drawn
	From            string  // who drew them first: the page, or the first screen in index.html
	// Live is when the browser's own results replaced those computed when
	// the site was built (Results is then the build-time results' time);
	// Check is how the two compared ("same").
	Live        float64
	Check       string
	LongestTask float64 // longest main-thread task until the live results
	Transferred map[string]int64
}

func (f loadFigures) String() string {
	var files []string
	var total int64
	for name, n := range f.Transferred {
		if n > 100_000 {
			files = append(files, fmt.Sprintf("%s %.2f MB", name, float64(n)/1e6))
		}
		total += n
	}
	return fmt.Sprintf("usable %.2f s, default results %.2f s (drawn by %s), live results %.2f s (%s as the build's), longest task %.0f ms, %.2f MB transferred (%s)",
		f.Usable/1000, f.Results/1000, f.From, f.Live/1000, f.Check, f.LongestTask, float64(total)/1e6, strings.Join(files, ", "))
}

// coldLoad opens the site in a fresh browser (an empty cache), with the
// network throttled when bytesPerSec > 0, and times the page and the
// default scenario's results.
func coldLoad(t *testing.T, srv *httptest.Server, width, height int64, bytesPerSec, latencyMS float64) loadFigures {
	t.Helper()
	ctx, cancel := browser(t, 3*time.Minute)
	defer cancel()
	p := &page{t: t, ctx: ctx}
	if _, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: longTaskJS}); err != nil {
		t.Fatal(err)
	}
	if bytesPerSec > 0 {
		throttle(t, ctx, bytesPerSec, latencyMS)
	}
	p.do(chromedp.EmulateViewport(width, height), chromedp.Navigate(srv.URL+"/"))
	var f loadFigures
	f.Usable = waitTime(p, usableJS)
	f.Results = waitTime(p, `window.__results`)
	f.From = eval[string](p, `window.__resultsFrom`)
	if eval[bool](p, `!(`+liveShown+`)`) {
		p.shot("results-built", int(width), int(height)) // with SCHEDLAB_SCREENSHOTS only: it slows what follows
	}
	f.Live = waitTime(p, `(`+liveShown+` && (`+plotsShown+`)) ? performance.now() : 0`)
	f.Check = eval[string](p, `document.querySelector(".results").dataset.check || ""`)
	old := eval[bool](p, `document.querySelector(".results").dataset.source === undefined`) // a site without build-time results
	if f.Check != "same" && !old {
		t.Errorf("the live results are %q as those computed when the site was built, want %q", f.Check, "same")
	}
	f.LongestTask = eval[float64](p, `Math.max(0, ...window.__longTasks.map((e) => e[1]))`)
	// Each long task beside the moment the module finished downloading
	// (its compilation ends on the main thread), to tell them apart.
	t.Logf("long tasks (start, duration ms): %v; the module downloaded at %.0f ms",
		eval[[][2]float64](p, `window.__longTasks.map((e) => [Math.round(e[0]), Math.round(e[1])])`),
		eval[float64](p, `(performance.getEntriesByType("resource").find((e) => /schedlab\..*\.wasm$/.test(e.name)) || {responseEnd: 0}).responseEnd`))
	f.Transferred = eval[map[string]int64](p, `Object.fromEntries(performance.getEntriesByType("resource")
		.map((e) => [e.name.split("/").pop(), e.transferSize]))`)
	return f
}

// liveShown holds once the browser's own results are on show (not those
// computed when the site was built). A site without build-time results
// (an older one, to compare load figures with) shows only live ones.
const liveShown = `(() => { const r = document.querySelector(".results"); return !!r && (r.dataset.source === undefined || r.dataset.source === "live"); })()`

// throttle emulates a slower network for every request of the tab.
func throttle(t *testing.T, ctx context.Context, bytesPerSec, latencyMS float64) {
	t.Helper()
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	_, err := chromedp.Call(ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
		MatchedNetworkConditions: []*network.Conditions{{Latency: latencyMS, DownloadThroughput: bytesPerSec, UploadThroughput: bytesPerSec}},
	})
	if err != nil {
		t.Fatal(err)
	}
}

// waitTime polls a JavaScript expression that gives a time once its
// condition holds (0 before), and returns that time.
func waitTime(p *page, js string) float64 {
	p.t.Helper()
	p.wait(`(`+js+`) > 0`, statusJS, 2*time.Minute)
	// The page's clock when the condition first held is within one poll
	// (20 ms) of the value read now; read it now to keep the test simple.
	return eval[float64](p, js)
}

// TestLoadFigures reports how fast the site loads, as served by
// build/serve (precompressed files): cold on localhost, and throttled to
// 20 Mbit/s with 40 ms of latency; then the longest main-thread task while
// the page runs 20,000 jobs. The figures are logged, not asserted against
// the targets (under 1 s usable and 2 s to results on localhost, 6 s
// throttled, no task over 100 ms): a loaded machine slows every one of
// them several-fold. Only a task over longTaskBound during the run fails. SCHEDLAB_LOAD_PLAIN=1 serves the files uncompressed,
// as a plain static server would.
func TestLoadFigures(t *testing.T) {
	dir := site(t)
	h := static.Handler(dir)
	if os.Getenv("SCHEDLAB_LOAD_PLAIN") == "1" {
		h = static.Plain(dir)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)

	t.Run("cold localhost", func(t *testing.T) {
		f := coldLoad(t, srv, 1280, 800, 0, 0)
		t.Logf("cold localhost: %s (targets: usable 1 s, results 2 s)", f)
	})
	t.Run("cold localhost, a phone", func(t *testing.T) {
		f := coldLoad(t, srv, 390, 844, 0, 0)
		t.Logf("cold localhost, 390×844: %s (target: results 3 s)", f)
	})
	t.Run("cold 20 Mbit/s 40 ms", func(t *testing.T) {
		f := coldLoad(t, srv, 1280, 800, 20e6/8, 40)
		t.Logf("cold 20 Mbit/s 40 ms: %s (target: results 6 s)", f)
	})
	t.Run("long tasks during 20,000 jobs", func(t *testing.T) {
		ctx, cancel := browser(t, 5*time.Minute)
		defer cancel()
		p := &page{t: t, ctx: ctx}
		if _, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: longTaskJS}); err != nil {
			t.Fatal(err)
		}
		p.do(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL+"/#"+linkWithJobs(t, 20_000)))
		start := waitTime(p, `document.getElementById("cancel") ? performance.now() : 0`)
		end := waitTime(p, `(!document.getElementById("cancel") && (`+plotsShown+`)) ? performance.now() : 0`)
		tasks := eval[[][2]float64](p, `window.__longTasks`)
		longest, n := 0.0, 0
		var each []string
		for _, e := range tasks {
			if e[0] >= start && e[0] <= end {
				longest = max(longest, e[1])
				n++
				each = append(each, fmt.Sprintf("%.0f ms at %.1f s", e[1], (e[0]-start)/1000))
			}
		}
		t.Logf("long tasks: %s", strings.Join(each, ", "))
		t.Logf("20,000 jobs: run and drawing took %.1f s; %d long tasks, the longest %.0f ms (target: none over 100 ms)", (end-start)/1000, n, longest)
		if longest > longTaskBound {
			t.Errorf("a main-thread task of %.0f ms during the 20,000-job run, over the bound of %.0f ms", longest, longTaskBound)
		}
	})
}
