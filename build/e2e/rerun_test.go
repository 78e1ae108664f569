//go:build !js

package e2e

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/schedlab/schedlab/sim/results"
)

// rerunFigure is a small figure to re-run: two sweep points of one seed
// in quick mode.
const rerunFigure = "sjf-bsbf-fig6a"

// watchFigureJS records, every 20 ms, what the figure's progress line
// and time left said: a run may end between two polls of the test.
const watchFigureJS = `window.seenProgress = []; window.seenLeft = [];
clearInterval(window.watchFigure);
window.watchFigure = setInterval(() => {
  const p = document.getElementById("figure-progress"), l = document.getElementById("figure-time-left");
  if (p && p.textContent) window.seenProgress.push(p.textContent);
  if (l && l.textContent) window.seenLeft.push(l.textContent);
}, 20); true`

const compareJS = `(document.getElementById("figure-compare") || {}).textContent`

// A reader re-runs a figure here in quick mode: the page says how long it
// will take (once this browser has timed a run), shows progress and the
// time left, and ends on the run set beside the committed record, in the
// terms the record allows (number for number against a quick record,
// verdict by verdict against a full one). A full run can be cancelled. No
// serious accessibility violation in the figure view at either width.
func TestFigureRerun(t *testing.T) {
	rep := committedRecord(t)
	rec := recordOf(&rep, rerunFigure)
	need(t, rec != nil, "a record of "+rerunFigure)
	axe, axeErr := os.ReadFile(axePath(t))
	srv := serve(t, site(t))
	ctx, cancel := browser(t, 10*time.Minute)
	defer cancel()
	errs := consoleErrors(ctx)
	p := &page{t: t, ctx: ctx}
	p.do(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL+"/"))
	p.started()
	p.openFigure(rerunFigure)
	p.wait(`!!document.getElementById("figure-rerun-quick") && !document.getElementById("figure-rerun-quick").disabled`, figureStatusJS, 20*time.Second)
	// Not yet timed here: a full record gives the native CPU per
	// simulation, scaled for the browser; a quick one gives no estimate.
	want := "not yet timed in this browser"
	if rep.Quick {
		want = "time left shows once"
	}
	if est := p.text("figure-estimate-quick"); !strings.Contains(est, "simulations on") || !strings.Contains(est, want) {
		t.Errorf("the quick estimate before any run here: %q, want %q", est, want)
	}
	how := "not the record's set-up"
	if rep.Quick {
		how = "compared with it number for number"
	}
	if q := p.text("figure-rerun"); !strings.Contains(q, "Quick mode:") || !strings.Contains(q, how) {
		t.Errorf("quick mode does not say it is quick and how it compares: %q", q)
	}

	// quickRun re-runs the figure in quick mode and waits for the
	// comparison; it returns the wall time.
	quickRun := func() time.Duration {
		t.Helper()
		eval[bool](p, watchFigureJS)
		start := time.Now()
		p.click("figure-rerun-quick")
		p.wait(`!!document.getElementById("figure-compare") || !!document.querySelector(".figure-view .error")`, figureStatusJS, 5*time.Minute)
		wall := time.Since(start)
		if eval[bool](p, `!!document.querySelector(".figure-view .error")`) {
			t.Fatalf("the run failed: %s", eval[string](p, figureStatusJS))
		}
		if seen := eval[[]string](p, `window.seenProgress`); len(seen) == 0 || !strings.Contains(seen[0], "simulations done") {
			t.Errorf("no progress was shown: %q", seen)
		}
		if seen := eval[[]string](p, `window.seenLeft`); len(seen) == 0 || !strings.Contains(strings.Join(seen, "|"), "so far") {
			t.Errorf("no time was shown during the run: %q", seen)
		}
		return wall
	}
	first := quickRun()
	t.Logf("first quick run: %.1f s; %s", first.Seconds(), eval[string](p, compareJS))
	checkComparison(t, p, rec, rep.Quick)

	// Timed once, the next run says how long it will take.
	est := p.text("figure-estimate-quick")
	if !strings.HasPrefix(est, "About ") || !strings.Contains(est, "last quick run of this figure in this browser") {
		t.Fatalf("no measured estimate after a run: %q", est)
	}
	second := quickRun()
	t.Logf("second quick run: %s; took %.1f s", est, second.Seconds())
	checkComparison(t, p, rec, rep.Quick)
	left := eval[[]string](p, `window.seenLeft`)
	if !strings.Contains(strings.Join(left, "|"), "about ") {
		t.Errorf("a timed figure's run says no time left: %q", left)
	}
	for _, w := range []struct{ w, h int }{{1280, 800}, {390, 844}} {
		p.do(chromedp.EmulateViewport(int64(w.w), int64(w.h)))
		time.Sleep(300 * time.Millisecond)
		p.shot("rerun-compare", w.w, w.h)
		if axeErr == nil {
			for _, v := range p.axeSerious(string(axe)) {
				t.Errorf("at %d px: %s", w.w, v)
			}
		}
	}
	p.do(chromedp.EmulateViewport(1280, 800))

	// Results and Timeline show the figure's runs: pick a point and a
	// policy, see that run's numbers, run that point here in one click.
	figureResults(t, p, axe, axeErr)

	// Cancel: a full run of Gavel's Figure 8 (45 sweep points and seeds
	// of 7,000 jobs each) stops at once and compares nothing.
	p.click("figure-show-record")
	p.openFigure("gavel-fig8-las-single")
	p.wait(`!!document.getElementById("figure-rerun-full") && !document.getElementById("figure-rerun-full").disabled`, figureStatusJS, 20*time.Second)
	p.click("figure-rerun-full")
	p.wait(`!!document.getElementById("figure-cancel") && /simulations done/.test((document.getElementById("figure-progress") || {}).textContent)`, figureStatusJS, 20*time.Second)
	p.shot("rerun-running", 1280, 800)
	p.click("figure-cancel")
	p.wait(`!document.getElementById("figure-cancel") && !document.getElementById("figure-progress")`, figureStatusJS, 20*time.Second)
	if eval[bool](p, `!!document.getElementById("figure-compare")`) {
		t.Error("a cancelled run was compared with the record")
	}
	if eval[bool](p, `document.getElementById("figure-rerun-full").disabled || document.getElementById("figure-rerun-quick").disabled`) {
		t.Error("the re-run buttons stay disabled after Cancel")
	}
	for _, e := range errs() {
		t.Errorf("console: %s", e)
	}
}

// checkComparison checks the comparison card against the record: its
// kind (number for number only against a record of the same mode), its
// headline, and each listed verdict difference's record side.
func checkComparison(t *testing.T, p *page, rec *results.FigureRepro, recordQuick bool) {
	t.Helper()
	values := eval[string](p, `document.getElementById("figure-compare").dataset.values`) == "true"
	identical := eval[string](p, `document.getElementById("figure-compare").dataset.identical`) == "true"
	head := p.text("figure-compare-verdict")
	if values != recordQuick {
		t.Errorf("a quick run against a record made in quick mode %v is compared number for number: %v", recordQuick, values)
	}
	rows := eval[[][]string](p, `[...document.querySelectorAll("#figure-diffs tbody tr")].map(r => [...r.cells].map(c => c.textContent))`)
	switch {
	case identical && (len(rows) > 0 || (values && !strings.HasPrefix(head, "Identical to the record"))):
		t.Errorf("identical, yet %q and %d rows", head, len(rows))
	case !identical && (len(rows) == 0 || !strings.HasPrefix(head, "Not comparable") && !strings.Contains(head, " differ")):
		t.Errorf("not identical, yet %q and %d rows", head, len(rows))
	case !values && !strings.HasPrefix(head, "Not comparable"):
		t.Errorf("a quick run against a full record: %q", head)
	}
	if !identical && !strings.Contains(head, strconv.Itoa(len(rows))+" of ") && len(rows) < 40 {
		t.Errorf("%d rows listed, the headline says %q", len(rows), head)
	}
	word := map[string]string{"pass": "holds", "fail": "fails", "n/a": "n/a"}
	for _, r := range rows {
		if len(r) != 4 || r[1] != "verdict" {
			continue
		}
		found := false
		for _, c := range rec.Checks {
			if strings.Contains(r[0], c.Claim) {
				found = true
				if word[c.Verdict] != r[2] {
					t.Errorf("%s: the record's verdict is %s, the page says %s", c.ID, c.Verdict, r[2])
				}
			}
		}
		if !found {
			t.Errorf("a difference names no check of the record: %q", r)
		}
	}
}

// pickJS picks option value in the select id as a reader would.
func pickJS(id, value string) string {
	return `(() => { const s = document.getElementById("` + id + `"); s.value = "` + value + `"; s.dispatchEvent(new Event("change", {bubbles: true})); return true })()`
}

// figureResults opens Results after a figure's quick re-run: it shows the
// figure's runs, with pickers that change the numbers shown, and runs the
// picked point and seed in one click; Timeline follows the policy picked.
func figureResults(t *testing.T, p *page, axe []byte, axeErr error) {
	t.Helper()
	p.click("tab-results")
	p.wait(`!!document.getElementById("figure-runs-results") && !!document.getElementById("figure-runs-table-results")`, statusJS, 10*time.Second)
	if h := p.text("figure-runs-title-results"); !strings.Contains(h, "Runs of SJF-BSBF") {
		t.Errorf("Results are headed %q", h)
	}
	if eval[bool](p, `!!document.getElementById("metrics")`) {
		t.Error("Results show a run's metrics before any point of the figure was run")
	}
	points := eval[[]string](p, `[...document.querySelectorAll("#pick-point-results option")].map(o => o.textContent)`)
	if len(points) < 2 {
		t.Fatalf("sweep points to pick: %q", points)
	}
	caption := p.text("figure-runs-caption-results")
	if !strings.Contains(caption, "= "+points[0]) {
		t.Errorf("the caption does not name the first point %s: %q", points[0], caption)
	}
	before := p.text("figure-runs-table-results")
	eval[bool](p, pickJS("pick-point-results", "1"))
	p.wait(`(document.getElementById("figure-runs-caption-results") || {}).textContent.includes("= `+points[1]+`")`, statusJS, 10*time.Second)
	if after := p.text("figure-runs-table-results"); after == before {
		t.Error("picking another point left the numbers as they were")
	}
	eval[bool](p, pickJS("pick-policy-results", "1"))
	p.wait(`document.querySelectorAll("#figure-runs-table-results thead th").length === 2`, statusJS, 10*time.Second)
	policy := eval[string](p, `document.querySelectorAll("#figure-runs-table-results thead th")[1].textContent`)
	if eval[bool](p, `!document.getElementById("figure-point-run-results")`) {
		t.Fatal("no button runs the picked point here")
	}
	p.click("figure-point-run-results")
	p.wait(`!!document.getElementById("metrics") && !!document.getElementById("figure-runs-shown-results") && !document.getElementById("cancel")`, statusJS, 5*time.Minute)
	if title := p.text("results-title"); !strings.Contains(title, "seed") || !strings.Contains(title, points[1]) {
		t.Errorf("the point's results are titled %q", title)
	}
	for _, w := range []struct{ w, h int }{{1280, 800}, {390, 844}} {
		p.do(chromedp.EmulateViewport(int64(w.w), int64(w.h)))
		time.Sleep(300 * time.Millisecond)
		p.shot("figure-results", w.w, w.h)
		if axeErr == nil {
			for _, v := range p.axeSerious(string(axe)) {
				t.Errorf("Results at %d px: %s", w.w, v)
			}
		}
	}
	p.do(chromedp.EmulateViewport(1280, 800))
	p.click("tab-timeline")
	p.wait(`!!document.getElementById("figure-runs-timeline") && !!document.getElementById("tl-policy-1")`, statusJS, 10*time.Second)
	if pressed := eval[string](p, `document.getElementById("tl-policy-1").getAttribute("aria-pressed")`); pressed != "true" {
		t.Errorf("Timeline does not replay the policy picked (%s): aria-pressed %s", policy, pressed)
	}
	p.shot("figure-timeline", 1280, 800)
	p.click("tab-figure")
}

// fullRerunFigure is a figure whose full run is small (300 runs of 64
// GPUs): the browser can redo the record's own set-up in seconds.
// SCHEDLAB_FULL_RERUN names another figure to time and compare by hand
// (Gavel's Fig. 8 takes many minutes), with SCHEDLAB_FULL_RERUN_MINUTES
// its limit (default 60).
const fullRerunFigure = "sjf-bsbf-fig6b"

// fullRerun is the figure TestFullRerunMatchesRecord runs and how long it
// may take.
func fullRerun(t *testing.T) (name string, limit time.Duration) {
	name, limit = fullRerunFigure, 5*time.Minute
	if n := os.Getenv("SCHEDLAB_FULL_RERUN"); n != "" {
		name, limit = n, time.Hour
		if m := os.Getenv("SCHEDLAB_FULL_RERUN_MINUTES"); m != "" {
			v, err := strconv.Atoi(m)
			need(t, err == nil && v > 0, "SCHEDLAB_FULL_RERUN_MINUTES as a whole number of minutes")
			limit = time.Duration(v) * time.Minute
		}
	}
	return name, limit
}

// A full re-run in the page is the record itself, number for number: the
// engine compiled to WebAssembly, on the browser's workers, gives every
// mean, spread, seed count and check of the committed full record that
// `make reproduce` computed natively.
func TestFullRerunMatchesRecord(t *testing.T) {
	rep := committedRecord(t)
	need(t, !rep.Quick, "a full-mode record")
	name, limit := fullRerun(t)
	rec := recordOf(&rep, name)
	need(t, rec != nil, "a record of "+name)
	srv := serve(t, site(t))
	ctx, cancel := browser(t, limit+5*time.Minute)
	defer cancel()
	errs := consoleErrors(ctx)
	p := &page{t: t, ctx: ctx}
	p.do(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL+"/"))
	p.started()
	p.openFigure(name)
	p.wait(`!!document.getElementById("figure-rerun-full") && !document.getElementById("figure-rerun-full").disabled`, figureStatusJS, 20*time.Second)
	t.Logf("before the run the page says: %s", p.text("figure-estimate-full"))
	start := time.Now()
	p.click("figure-rerun-full")
	p.wait(`!!document.getElementById("figure-compare") || !!document.querySelector(".figure-view .error")`, figureStatusJS, limit)
	if eval[bool](p, `!!document.querySelector(".figure-view .error")`) {
		t.Fatalf("the run failed: %s", eval[string](p, figureStatusJS))
	}
	t.Logf("full run of %s in Chromium: %.1f s on %s; %s", name, time.Since(start).Seconds(), p.text("figure-time"), eval[string](p, compareJS))
	if eval[string](p, `document.getElementById("figure-compare").dataset.values`) != "true" {
		t.Errorf("a full run against the full record is not compared number for number: %q", p.text("figure-compare-verdict"))
	}
	if eval[string](p, `document.getElementById("figure-compare").dataset.identical`) != "true" {
		rows := eval[[][]string](p, `[...document.querySelectorAll("#figure-diffs tbody tr")].map(r => [...r.cells].map(c => c.textContent))`)
		t.Errorf("the browser's full run differs from the record: %q, %d rows: %q", p.text("figure-compare-verdict"), len(rows), rows)
	}
	for _, e := range errs() {
		t.Errorf("console: %s", e)
	}
}
