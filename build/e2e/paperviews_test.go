//go:build !js

package e2e

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// openScenario opens a built-in scenario from the gallery and waits for
// its results.
func (p *page) openScenario(name string) {
	p.t.Helper()
	p.click("tab-gallery")
	p.wait(`!!document.getElementById("open-`+name+`")`, statusJS, 10*time.Second)
	p.click("open-" + name)
	p.wait(`!document.getElementById("cancel") && !!document.getElementById("metrics") && (document.getElementById("results-title") || {textContent: ""}).textContent !== ""`, statusJS, 90*time.Second)
}

// ojppResNet reads, from the OJPP view, the slowdown of the resnet worker.
const ojppResNetJS = `(() => {
	for (const tr of document.querySelectorAll("#ojpp-view .ojpp-workers tbody tr")) {
		if (tr.querySelector("th .chip").textContent === "resnet") return tr.querySelector(".ojpp-slow").textContent;
	}
	return ""; })()`

// TestOJPPViewInBrowser runs OJPP's Fig. 4 in the page, reads the per-GPU
// view of best-fit (ResNet beside VGG19 and AlexNet: 1.22 + 0.73 plus
// the collision penalty), then edits the matrix's ResNet-VGG19 cell,
// runs again, and sees ResNet's slowdown change by the same amount.
func TestOJPPViewInBrowser(t *testing.T) {
	dir := site(t)
	srv := serve(t, dir)
	ctx, cancel := browser(t, 6*time.Minute)
	defer cancel()
	errs := consoleErrors(ctx)
	p := &page{t: t, ctx: ctx}
	p.do(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL+"/"))
	p.started()
	p.openScenario("ojpp-fig4")
	p.click("tab-timeline")
	p.wait(`!!document.getElementById("ojpp-view")`, statusJS, 10*time.Second)
	p.click("tl-policy-0")       // best-fit
	p.setValue("tl-slider", "0") // the placement at t = 0, before any job finishes
	p.wait(`!!document.querySelector("#ojpp-view .membar")`, statusJS, 10*time.Second)
	if n := eval[int](p, `document.querySelectorAll("#ojpp-view .ojpp-gpu").length`); n != 2 {
		t.Errorf("best-fit: the view shows %d GPUs, want 2 (Case I)", n)
	}
	label := eval[string](p, `document.querySelector("#ojpp-view .membar").getAttribute("aria-label")`)
	if label == "" {
		t.Error("the memory bar has no text alternative")
	}
	before, err := strconv.ParseFloat(eval[string](p, ojppResNetJS), 64)
	if err != nil || before < 1.95 {
		t.Fatalf("best-fit: ResNet's slowdown %q, want 1.22 + 0.73 plus its collision penalty (%v)", eval[string](p, ojppResNetJS), err)
	}
	if from := eval[string](p, `document.querySelector("#ojpp-view .ojpp-from").textContent`); from == "" {
		t.Error("no 'slowed by' text")
	}
	p.shot("ojpp-view", 1280, 800)
	p.shot("ojpp-view", 390, 844)

	// Edit the matrix: ResNet next to VGG19 from 1.22 to 0.5.
	p.click("tab-scenario")
	p.wait(`!!document.getElementById("memshare-matrix")`, statusJS, 10*time.Second)
	p.click("memshare-edit")
	p.wait(`!!document.getElementById("memshare-cells")`, statusJS, 5*time.Second)
	cell := eval[string](p, `(() => {
		const models = [...document.querySelectorAll("#memshare-cells thead th[scope=col]")].map((th) => th.textContent);
		const rows = [...document.querySelectorAll("#memshare-cells tbody tr")];
		const r = rows.findIndex((tr) => tr.querySelector("th input").value === "ResNet");
		const c = models.indexOf("VGG19");
		return rows[r].querySelectorAll("td input")[c].id; })()`)
	if got := p.value(cell); got != "1.22" {
		t.Fatalf("the ResNet-VGG19 cell reads %q, want 1.22", got)
	}
	p.setValue(cell, "0.5")
	p.shot("memshare-matrix", 1280, 800)
	p.shot("memshare-matrix", 390, 844)
	p.click("run")
	p.click("tab-results")
	p.wait(`!document.getElementById("cancel") && !document.getElementById("stale") && !!document.getElementById("metrics")`, statusJS, 90*time.Second)
	p.click("tab-timeline")
	p.click("tl-policy-0")
	p.setValue("tl-slider", "0")
	p.wait(`!!document.querySelector("#ojpp-view .membar")`, statusJS, 10*time.Second)
	after, err := strconv.ParseFloat(eval[string](p, ojppResNetJS), 64)
	if err != nil || after > before-0.7+0.005 || after < before-0.72-0.005 {
		t.Errorf("after the edit ResNet's slowdown is %q, want %.3f - 0.72 (%v)", eval[string](p, ojppResNetJS), before, err)
	}
	for _, e := range errs() {
		t.Errorf("console: %s", e)
	}
}

// TestTesseraeRoundsInBrowser runs a Tesserae scenario, steps through its
// rounds until one flags a migration, and checks the maps, the pairs and
// that the round picker moved the timeline.
func TestTesseraeRoundsInBrowser(t *testing.T) {
	dir := site(t)
	srv := serve(t, dir)
	ctx, cancel := browser(t, 8*time.Minute)
	defer cancel()
	errs := consoleErrors(ctx)
	p := &page{t: t, ctx: ctx}
	p.do(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL+"/"))
	p.started()
	p.openScenario("tesserae-fig11-migrations")
	p.click("tab-timeline")
	p.click("tl-policy-0") // Tesserae
	p.wait(`!!document.getElementById("round-view")`, statusJS, 10*time.Second)
	// From the start, step through the rounds until one migrates a job.
	p.setValue("tl-slider", "0")
	p.click("round-next")
	found := false
	for range 400 {
		if eval[bool](p, `!!document.querySelector("#round-after .chip.moved")`) {
			found = true
			break
		}
		last := p.text("round-name")
		p.click("round-next")
		if p.text("round-name") == last {
			break
		}
	}
	if !found {
		t.Fatalf("no round flags a migration (%s)", p.text("round-name"))
	}
	if eval[int](p, `document.querySelectorAll("#round-before .chip.moved").length`) == 0 {
		t.Error("a migrated job is flagged after the round but not before it")
	}
	if label := eval[string](p, `document.querySelector("#round-after .chip.moved").closest("li").getAttribute("aria-label")`); !strings.Contains(label, "migrated this round") {
		t.Errorf("the migrated job's GPU reads %q to a screen reader", label)
	}
	counts := p.text("round-counts")
	if !strings.Contains(counts, "migration") || !strings.Contains(counts, "pair") {
		t.Errorf("round counts %q", counts)
	}
	if p.text("round-timing") == "" && p.text("round-timing-note") == "" {
		t.Error("neither decision times nor the note about their absence")
	}
	// The round picker moved the timeline: its time is the round's.
	tl, rn := p.text("tl-time"), p.text("round-name")
	if at, _, _ := strings.Cut(strings.TrimPrefix(tl, "t = "), " of "); !strings.Contains(rn, " at "+at+" (") {
		t.Errorf("timeline %q and round %q disagree", tl, rn)
	}
	// Find a round with pairs for the table.
	for range 400 {
		if eval[bool](p, `!!document.getElementById("round-pairs")`) {
			break
		}
		last := p.text("round-name")
		p.click("round-next")
		if p.text("round-name") == last {
			break
		}
	}
	if eval[bool](p, `!!document.getElementById("round-pairs")`) {
		w := eval[string](p, `document.querySelector("#round-pairs tbody td.num").textContent`)
		if v, err := strconv.ParseFloat(w, 64); err != nil || !(v > 0) {
			t.Errorf("pair weight %q", w)
		}
		if eval[int](p, `document.querySelectorAll("#round-after .gpu.packed").length`) == 0 {
			t.Error("a round with pairs shows no packed GPU")
		}
	} else {
		t.Error("no round shows packed pairs")
	}
	p.shot("tesserae-rounds", 1280, 800)
	p.shot("tesserae-rounds", 390, 844)
	for _, e := range errs() {
		t.Errorf("console: %s", e)
	}
}
