//go:build !js

package e2e

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// compareCellsJS reads the comparison's metrics table: run ("a" or "b")
// -> policy -> metric -> exact value.
const compareCellsJS = `(() => { const out = {a: {}, b: {}};
	for (const td of document.querySelectorAll("#compare-metrics td[data-run]")) {
		if (!td.dataset.v) continue;
		const r = out[td.dataset.run];
		(r[td.dataset.policy] = r[td.dataset.policy] || {})[td.dataset.metric] = td.dataset.v;
	}
	return out; })()`

// TestHistoryCompare runs the default scenario, edits a number, runs
// again, and opens the run history: the two runs' metrics stand side by
// side, equal to what each run's Results showed, with what changed, both
// curves and all four Gantt charts; then it goes back to the first run's
// scenario, whose results come back without a new run.
func TestHistoryCompare(t *testing.T) {
	axe, axeErr := os.ReadFile(axePath(t))
	srv := serve(t, site(t))
	ctx, cancel := browser(t, 6*time.Minute)
	defer cancel()
	errs := consoleErrors(ctx)
	p := &page{t: t, ctx: ctx}
	p.do(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL+"/"))
	p.started()
	first := p.metrics()

	p.click("tab-scenario")
	p.setValue("f-cluster-servers-0-count", "2")
	p.click("run")
	p.wait(`!document.getElementById("cancel") && !document.getElementById("stale") && /Simulated/.test((document.getElementById("status") || {}).textContent)`, statusJS, 2*time.Minute)
	p.wait(plotsShown, statusJS, time.Minute)
	second := p.metrics()
	if first["FIFO"]["avg_jct_s"] == second["FIFO"]["avg_jct_s"] {
		t.Fatalf("half the servers left FIFO's average JCT at %s", first["FIFO"]["avg_jct_s"])
	}

	p.click("results-compare")
	p.wait(`!!document.getElementById("compare-metrics") && document.querySelectorAll("#compare img.compare-gantt").length === 4`, statusJS, 10*time.Second)
	if got := p.text("compare-title"); got != "Run 1 (A) against run 2 (B)" {
		t.Errorf("comparison title %q", got)
	}
	if got := p.text("history-run-2"); !strings.Contains(got, "Servers 4 → 2") {
		t.Errorf("run 2's row says %q", got)
	}
	if got := p.text("compare-changes"); !strings.Contains(got, "Cluster › server group 1 › Servers: 4 → 2") {
		t.Errorf("what changed: %q", got)
	}
	cells := eval[map[string]map[string]map[string]string](p, compareCellsJS)
	for run, want := range map[string]map[string]map[string]string{"a": first, "b": second} {
		for policy, ms := range want {
			for k, v := range ms {
				if got := cells[run][policy][k]; got != v {
					t.Errorf("run %s, %s, %s: the comparison shows %q, the run's Results showed %q", run, policy, k, got, v)
				}
			}
		}
	}
	if n := eval[int](p, `document.querySelectorAll("#compare-cdf path.cdf").length`); n != 4 {
		t.Errorf("%d curves, want FIFO and SJF in both runs", n)
	}
	p.wait(`[...document.querySelectorAll("#compare img.compare-gantt")].every((i) => i.complete && i.naturalWidth > 0)`, statusJS, 10*time.Second)

	for _, w := range []struct{ w, h int }{{1280, 800}, {390, 844}} {
		p.viewShot("history-runs", "#sec-history", w.w, w.h)
		p.viewShot("history-metrics", "#compare-metrics", w.w, w.h)
		p.viewShot("history-curves", "#compare-cdf", w.w, w.h)
		p.viewShot("history-gantt", ".gantt-pair", w.w, w.h)
		if axeErr == nil {
			p.do(chromedp.EmulateViewport(int64(w.w), int64(w.h)))
			time.Sleep(300 * time.Millisecond)
			for _, v := range p.axeSerious(string(axe)) {
				t.Errorf("the run history at %d px: %s", w.w, v)
			}
			p.do(chromedp.EmulateViewport(1280, 800))
		}
	}
	if axeErr != nil {
		t.Log("axe-core is not installed (make need-axe): accessibility not checked")
	}
	const sideBySide = `(() => { const f = document.querySelectorAll("#compare .pair figure"); const a = f[0].getBoundingClientRect(), b = f[1].getBoundingClientRect(); return b.left >= a.right && Math.abs(b.top - a.top) < 2; })()`
	if !eval[bool](p, sideBySide) {
		t.Error("the Gantt charts do not stand side by side at 1280 px")
	}
	p.do(chromedp.EmulateViewport(390, 844))
	time.Sleep(300 * time.Millisecond)
	if eval[bool](p, sideBySide) || eval[bool](p, `document.documentElement.scrollWidth > innerWidth + 1`) {
		t.Error("at 390 px the Gantt charts are not stacked, or the page is wider than the screen")
	}
	p.do(chromedp.EmulateViewport(1280, 800))

	// Swap A and B: the differences turn.
	p.click("compare-a-2")
	p.click("compare-b-1")
	p.wait(`document.getElementById("compare-title").textContent === "Run 2 (A) against run 1 (B)"`, statusJS, 5*time.Second)
	if cells := eval[map[string]map[string]map[string]string](p, compareCellsJS); cells["a"]["FIFO"]["avg_jct_s"] != second["FIFO"]["avg_jct_s"] {
		t.Errorf("swapped: run A's FIFO average %q, want run 2's %q", cells["a"]["FIFO"]["avg_jct_s"], second["FIFO"]["avg_jct_s"])
	}

	p.click("history-back-1")
	p.wait(`!!document.getElementById("metrics") && /nothing ran again/.test((document.getElementById("status") || {}).textContent)`, statusJS, 10*time.Second)
	if eval[bool](p, `!!document.getElementById("cancel") || !!document.getElementById("stale")`) {
		t.Error("going back to run 1 started a run or shows stale results")
	}
	p.wait(plotsShown, statusJS, 10*time.Second)
	back := p.metrics()
	for policy, ms := range first {
		for k, v := range ms {
			if back[policy][k] != v {
				t.Errorf("back to run 1, %s %s: %q, run 1 showed %q", policy, k, back[policy][k], v)
			}
		}
	}
	p.click("tab-scenario")
	if v := p.value("f-cluster-servers-0-count"); v != "4" {
		t.Errorf("back to run 1, the editor has %s servers", v)
	}
	for _, e := range errs() {
		t.Errorf("console: %s", e)
	}
}
