//go:build !js

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// importedJS notes when a worker's "imported" reply reaches the page: the
// task that handles it (opening the imported scenario) is told apart from
// those while the worker reads the trace.
const importedJS = `window.__imported = 0;
{
	const W = window.Worker;
	window.Worker = function (...args) {
		const w = new W(...args);
		w.addEventListener("message", (e) => { if (e.data && e.data.type === "imported") window.__imported = performance.now(); });
		return w;
	};
}`

// importBound is where TestTraceImportLongTasks fails: far below the 20
// to 34 s of reading the log on the main thread, far above the 0.1 to
// 1.5 s tasks of handing it over on a heavily loaded machine.
const importBound = 5000.0

// TestTraceImportLongTasks drops the whole Philly log (74,426 jobs, from
// ../shared/data) on the page and reports the main-thread tasks from the
// drop until the import's summary and its scenario are shown. The trace
// is read in an engine worker, so no task while it reads may take
// seconds, as reading it on the main thread did (20 s on a loaded
// machine): the test fails at importBound. Handing the 3.4 MB text over
// (the test's own drop script, the file's text, the copy to the worker)
// still makes tasks of 0.1 to 0.6 s on a loaded machine. The tasks that
// then open the 74,426-job scenario in the editor (reading it, checking
// it, drawing and storing it) are reported, not asserted: checking it
// still takes over a second of a loaded machine (see docs/page-loading.md).
func TestTraceImportLongTasks(t *testing.T) {
	if testing.Short() {
		t.Skip("imports a 3.4 MB trace")
	}
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "data", "pollux", "traces", "philly.csv"))
	if err != nil {
		// a clone of the project alone has no ../shared
		t.Skipf("the Philly log is not available: %v", err)
	}
	dir := site(t)
	srv := serve(t, dir)
	ctx, cancel := browser(t, 5*time.Minute)
	defer cancel()
	p := &page{t: t, ctx: ctx}
	if _, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: longTaskJS + importedJS}); err != nil {
		t.Fatal(err)
	}
	p.do(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL+"/"))
	p.started()
	time.Sleep(time.Second) // let the start's tasks end
	start := eval[float64](p, `performance.now()`)
	// Whether the panel ever says it is reading (the file's text arrives
	// in a later task than the drop).
	eval[any](p, `window.__sawReading = false; new MutationObserver((_, o) => {
		if (document.getElementById("trace-reading")) { window.__sawReading = true; o.disconnect(); }
	}).observe(document, { subtree: true, childList: true })`)
	eval[any](p, dropJS("philly.csv", string(data)))
	end := waitTime(p, `(!!document.getElementById("trace-summary") && !document.getElementById("trace-reading")) ? performance.now() : 0`)
	// The scenario is then read, checked and drawn in tasks of their own,
	// and stored.
	opened := waitTime(p, `(document.getElementById("status") || {textContent: ""}).textContent.includes("Imported philly.csv") ? performance.now() : 0`)
	time.Sleep(2 * time.Second) // its storing, and the long tasks' reports
	reading := eval[bool](p, `window.__sawReading`)
	summary := p.text("trace-summary")
	if !strings.Contains(summary, "jobs kept") {
		t.Errorf("summary %q", summary)
	}
	replied := eval[float64](p, `window.__imported`)
	longest, opening, openingSum, each := 0.0, 0.0, 0.0, []string{}
	for _, e := range eval[[][2]float64](p, `window.__longTasks`) {
		if e[0] < start {
			continue
		}
		each = append(each, fmt.Sprintf("%.0f ms at %.1f s", e[1], (e[0]-start)/1000))
		if replied > 0 && e[0]+e[1] >= replied {
			opening = max(opening, e[1])
			openingSum += e[1]
		} else {
			longest = max(longest, e[1])
		}
	}
	t.Logf("Philly log: %q shown %.1f s after the drop (read by a worker: %v, its reply at %.1f s, the scenario open at %.1f s); long tasks: %s", summary, (end-start)/1000, reading, (replied-start)/1000, (opened-start)/1000, strings.Join(each, ", "))
	t.Logf("Philly log: the longest task while the worker read it %.0f ms (target: none over 100 ms); opening its scenario in the editor: the longest task %.0f ms, long tasks %.0f ms in all", longest, opening, openingSum)
	if longest > importBound {
		t.Errorf("a main-thread task of %.0f ms while a worker read the Philly log, over the bound of %.0f ms", longest, importBound)
	}
	if !reading || replied == 0 {
		t.Errorf("the trace was not read by a worker (status line %v, reply at %.0f ms)", reading, replied)
	}
	// The imported scenario is kept in the browser, so a reload brings it
	// back: compact, it fits the browser's storage.
	p.wait(`(localStorage.getItem("schedlab.scenario.v1") || "").startsWith("s=") || !!document.getElementById("note-save")`,
		`(document.getElementById("note-save") || {textContent: "no note"}).textContent`, 30*time.Second)
	if note := p.text("note-save"); note != "" {
		t.Errorf("the imported scenario was not stored: %s", note)
	}
	t.Logf("Philly log: stored in %.1f MB", float64(len(eval[string](p, `localStorage.getItem("schedlab.scenario.v1")`)))/1e6)
	p.do(chromedp.Reload())
	p.wait(liveTab("tab-scenario"), statusJS, time.Minute)
	p.click("tab-scenario")
	p.wait(`/74,426 jobs|74426 jobs/.test(document.getElementById("view").textContent)`, `document.getElementById("view").textContent.slice(0, 300)`, time.Minute)
}
