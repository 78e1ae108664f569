//go:build !js

package e2e

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// A student sweeps a number of the scenario from the editor: the servers
// of the first group over 2 and 4, two seeds each. The Figure tab draws
// a line per policy with error bars, says what it ran, shows no checks
// (no paper made a claim about it), and the editor's sweep section and
// the figure have no serious accessibility violation at either width.
func TestSweepFromEditor(t *testing.T) {
	axe, axeErr := os.ReadFile(axePath(t))
	srv := serve(t, site(t))
	ctx, cancel := browser(t, 5*time.Minute)
	defer cancel()
	errs := consoleErrors(ctx)
	p := &page{t: t, ctx: ctx}
	p.do(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL+"/"))
	p.started()
	p.click("tab-scenario")
	p.click("toggle-sweep")
	p.wait(`!!document.getElementById("sweep-path")`, statusJS, 10*time.Second)
	eval[bool](p, `(() => { const s = document.getElementById("sweep-path"); s.value = "cluster.servers[0].count"; s.dispatchEvent(new Event("change", { bubbles: true })); return true })()`)
	p.typeInto("sweep-values", "2, 4")
	p.typeInto("sweep-seeds", "2")
	p.wait(`document.getElementById("sweep-draw").parentElement.textContent.includes("4 simulations")`, statusJS, 5*time.Second)
	p.shot("sweep-form", 1280, 800)
	p.shot("sweep-form", 390, 844)
	if axeErr == nil {
		for _, v := range p.axeSerious(string(axe)) {
			t.Errorf("the sweep form: %s", v)
		}
	}
	p.click("sweep-draw")
	p.wait(`document.querySelectorAll("#figure-curve path.err").length > 0 && !document.getElementById("figure-cancel")`, figureStatusJS, 3*time.Minute)
	lines := eval[int](p, `new Set([...document.querySelectorAll("#figure-curve g.ours")].map(g => g.dataset.series)).size`)
	points := eval[int](p, `document.querySelectorAll("#figure-curve g.ours circle.mark").length`)
	if lines < 1 || points != 2*lines {
		t.Errorf("%d lines with %d points in all; want 2 points a line", lines, points)
	}
	if plan := p.text("figure-title"); plan == "" {
		t.Error("the figure has no title")
	}
	if intro := eval[string](p, `document.querySelector(".figure-view .intro").textContent`); !strings.Contains(intro, "2 values of Servers (cluster, servers row 1) × 2 seeds") {
		t.Errorf("the figure does not say what it ran: %q", intro)
	}
	if eval[bool](p, `!!document.getElementById("figure-checks-card")`) {
		t.Error("a sweep of the student's own shows a checks card")
	}
	for _, w := range []struct{ w, h int }{{1280, 800}, {390, 844}} {
		p.do(chromedp.EmulateViewport(int64(w.w), int64(w.h)))
		time.Sleep(300 * time.Millisecond)
		p.shot("sweep-figure", w.w, w.h)
		if axeErr == nil {
			for _, v := range p.axeSerious(string(axe)) {
				t.Errorf("the sweep's figure at %d px: %s", w.w, v)
			}
		}
	}
	if axeErr != nil {
		t.Log("axe-core is not installed (make need-axe): accessibility not checked")
	}
	for _, e := range errs() {
		t.Errorf("console: %s", e)
	}
}
