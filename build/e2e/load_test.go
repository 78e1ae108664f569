//go:build !js

package e2e

import (
	"context"
	"fmt"
	"io/fs"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
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
	return load(t, ctx, srv, width, height, bytesPerSec, latencyMS)
}

// load opens the site in the browser tab of ctx and times it as coldLoad
// says.
func load(t *testing.T, ctx context.Context, srv *httptest.Server, width, height int64, bytesPerSec, latencyMS float64) loadFigures {
	t.Helper()
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
	t.Run("a second visit", func(t *testing.T) {
		secondVisit(t, srv)
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

// secondVisit loads the site twice in one browser profile, as a student
// coming back does. After the first visit the browser should hold its
// compiled code of the module (Chrome keeps it once V8's optimising
// compiler has done enough of it, for a module compiled from the fetch's
// own Response: see web/boot.js), and the second visit should start from
// that code: V8.WasmCodeCaching, the browser's count of such lookups,
// records a hit (1) rather than a miss (0) or a response it cannot cache
// from (3).
func secondVisit(t *testing.T, srv *httptest.Server) {
	profile := t.TempDir()
	ctx, cancel := browserWithProfile(t, profile, 4*time.Minute)
	defer cancel()
	first := load(t, ctx, srv, 1280, 800, 0, 0)
	t.Logf("first visit: %s", first)
	if n := codeCacheLookups(t, ctx, 1); n[3] > 0 || n[0] == 0 {
		t.Fatalf("the first visit compiled the module from a response the browser keeps no code for: V8.WasmCodeCaching counts %v (0 a miss, 1 a hit, 3 no cache for the response)", n)
	}
	cacheDir := filepath.Join(profile, "Default", "Code Cache", "wasm")
	start := time.Now()
	kept := int64(0)
	for time.Since(start) < 90*time.Second {
		if kept = dirBytes(cacheDir); kept > keptCodeBytes {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if kept <= keptCodeBytes {
		t.Fatalf("90 s after the first visit the browser holds %d bytes of compiled WebAssembly (in %s), not the module's code", kept, cacheDir)
	}
	t.Logf("the browser kept %.2f MB of the module's compiled code (found %.1f s after the first visit)", float64(kept)/1e6, time.Since(start).Seconds())
	tab, closeTab := chromedp.NewContext(ctx)
	defer closeTab()
	second := load(t, tab, srv, 1280, 800, 0, 0)
	t.Logf("second visit: %s", second)
	if samples := codeCacheLookups(t, ctx, 2); samples[1] == 0 {
		t.Errorf("the second visit compiled the module without the browser's kept code: V8.WasmCodeCaching counts %v (0 a miss, 1 a hit, 3 no cache for the response)", samples)
	}
}

// keptCodeBytes is more than the code cache's own index files (about
// 4 kB) and far less than the module's optimised code (1.4 MB).
const keptCodeBytes = 256 << 10

// dirBytes is the size of the files under dir (0 if there is none).
func dirBytes(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

// codeCacheLookups reads the browser's V8.WasmCodeCaching histogram once
// it counts at least lookups compilations: by bucket, how many found the
// kept code (1), missed it (0), or had no cache for their response (3).
// It reads chrome://histograms, which gathers the pages' processes'
// counts; the protocol's Browser.getHistogram has only the browser
// process's.
func codeCacheLookups(t *testing.T, ctx context.Context, lookups int) map[int]int {
	t.Helper()
	tab, closeTab := chromedp.NewContext(ctx)
	defer closeTab()
	p := &page{t: t, ctx: tab}
	p.do(chromedp.Navigate("chrome://histograms/V8.WasmCodeCaching"))
	var counts map[int]int
	// The page gathers the other processes' counts as it loads and on
	// Refresh, and may show an earlier gathering first.
	for range 20 {
		counts = map[int]int{}
		total := 0
		for _, m := range histogramBucket.FindAllStringSubmatch(eval[string](p, `document.body.innerText`), -1) {
			bucket, _ := strconv.Atoi(m[1])
			n, _ := strconv.Atoi(m[2])
			counts[bucket] += n
			total += n
		}
		if total >= lookups {
			break
		}
		eval[bool](p, `(document.getElementById("refresh").click(), true)`)
		time.Sleep(500 * time.Millisecond)
	}
	return counts
}

// histogramBucket is a bucket's line on chrome://histograms: its lower
// bound, a bar, and its count ("1  -O   (1 = 100.0%) {0.0%}").
var histogramBucket = regexp.MustCompile(`(?m)^(\d+)\s+-*O\s+\((\d+) =`)
