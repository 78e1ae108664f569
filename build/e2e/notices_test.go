//go:build !js

package e2e

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestNotices: what runs but is probably not meant shows in words beside
// its field without blocking Run: a generator that makes jobs bigger than
// the cluster (one 4-GPU server against the default mix's 8-GPU jobs) and
// a short model name near a known one ("bet"); the notices pass axe-core
// (the amber line's contrast) and the scenario still runs, its results
// listing the notices beside "29 of 30" jobs done.
func TestNotices(t *testing.T) {
	src, err := os.ReadFile(axePath(t))
	need(t, err == nil, "axe-core (make test installs it: `make need-axe`)")
	dir := site(t)
	srv := serve(t, dir)
	ctx, cancel := browser(t, 4*time.Minute)
	defer cancel()
	errs := consoleErrors(ctx)
	p := &page{t: t, ctx: ctx}
	p.do(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL+"/"))
	p.started()

	p.click("tab-scenario")
	p.wait(`!!document.getElementById("f-cluster-servers-0-count")`, statusJS, 10*time.Second)
	p.setValue("f-cluster-servers-0-count", "1")
	p.wait(`(document.getElementById("notice-generator") || {textContent: ""}).textContent.includes("bigger than the cluster, up to 8 GPUs where it has 4")`,
		`(document.getElementById("notice-generator") || {textContent: "no notice element"}).textContent + " | " + `+statusJS, 5*time.Second)
	p.setValue("f-workload-generator-models-0-model", "bet")
	p.wait(`(() => { const w = document.getElementById("f-workload-generator-models-0-model").parentElement.querySelector(".warn"); return !!w && w.textContent.includes('did you mean "bert"?'); })()`, statusJS, 5*time.Second)
	if eval[bool](p, `document.getElementById("run").disabled`) {
		t.Errorf("Run is disabled by notices: %s", p.text("problems"))
	}
	for _, w := range []int{1280, 390} {
		p.do(chromedp.EmulateViewport(int64(w), 800))
		for _, v := range p.axeSerious(string(src)) {
			t.Errorf("scenario view with notices at %d px: %s", w, v)
		}
	}
	p.do(chromedp.EmulateViewport(1280, 800))
	p.shot("notices", 1280, 800)
	p.shot("notices", 390, 844)

	p.click("run")
	p.wait(`!document.getElementById("cancel") && !!document.getElementById("metrics")`, statusJS, 60*time.Second)
	p.wait(`(document.getElementById("results-notices") || {textContent: ""}).textContent.includes("The generator makes 1 of 30 jobs")`,
		`(document.getElementById("results-notices") || {textContent: "no notices in the results"}).textContent + " | " + `+statusJS, 10*time.Second)
	p.shot("notices-results", 1280, 800)
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(e, "\n"))
	}
}
