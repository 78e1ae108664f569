//go:build !js

package e2e

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestJobStory follows a student from the landing run's Gantt chart to a
// job's story: pointing at a bar names the job, clicking it opens a story
// that begins with the arrival and ends with the finish, a start's table
// of candidate servers opens, and neither the chart nor the story has a
// serious or critical accessibility violation at desktop or phone width.
func TestJobStory(t *testing.T) {
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
	p.wait(`document.querySelectorAll("#gantt-box rect.bar").length > 0`, statusJS, 20*time.Second)

	// Point at the bar that starts last: its job waited longest to begin.
	const lastBar = `[...document.querySelectorAll("#gantt-box rect.bar")].reduce((a, b) => +b.dataset.s > +a.dataset.s ? b : a)`
	eval[any](p, `(() => { const b = `+lastBar+`; b.dispatchEvent(new MouseEvent("mouseover", { bubbles: true })); })()`)
	p.wait(`/\S/.test(document.getElementById("gantt-hover").textContent)`, statusJS, 10*time.Second)
	hover := p.text("gantt-hover")
	job := strings.Fields(hover)[0]
	// Pointing at a bar of another job (the one that starts first) names
	// that job instead; clicking the last bar below opens the story of the
	// job its hover line named.
	const firstOther = `[...document.querySelectorAll("#gantt-box rect.bar")].filter((b) => b.dataset.job !== (` + lastBar + `).dataset.job).reduce((a, b) => +b.dataset.s < +a.dataset.s ? b : a)`
	eval[any](p, `(() => { const b = `+firstOther+`; b.dispatchEvent(new MouseEvent("mouseover", { bubbles: true })); })()`)
	p.wait(`document.getElementById("gantt-hover").textContent !== `+strconv.Quote(hover), statusJS, 10*time.Second)
	if other := strings.Fields(p.text("gantt-hover"))[0]; other == job {
		t.Errorf("pointing at bars of two jobs names %s both times", job)
	}
	p.viewShot("gantt", "#gantt", 1280, 800)
	p.viewShot("gantt", "#gantt", 390, 844)

	eval[any](p, `(`+lastBar+`).dispatchEvent(new MouseEvent("click", { bubbles: true }))`)
	p.wait(`document.querySelectorAll("#story-steps li").length >= 2`, statusJS, 20*time.Second)
	kinds := eval[[]string](p, `[...document.querySelectorAll("#story-steps li")].map((li) => li.dataset.kind)`)
	if kinds[0] != "arrived" || kinds[len(kinds)-1] != "finished" {
		t.Errorf("the story of %s goes %v, want from arrived to finished", job, kinds)
	}
	if got := p.text("story-title"); !strings.Contains(got, job) {
		t.Errorf("the story opened for %s is titled %q", job, got)
	}
	// A start laid out by the placement opens its table of servers.
	if eval[bool](p, `!!document.querySelector("#story-steps .tabletoggle")`) {
		eval[any](p, `document.querySelector("#story-steps .tabletoggle").click()`)
		p.wait(`document.querySelectorAll("#candidates tbody tr").length > 0`, statusJS, 10*time.Second)
	} else {
		t.Errorf("the story of %s (%v) shows no placement table, though FIFO lays its starts out", job, kinds)
	}
	p.viewShot("story", "#story", 1280, 800)
	p.viewShot("story", "#story", 390, 844)
	for _, w := range []int64{1280, 390} {
		p.do(chromedp.EmulateViewport(w, 844))
		for _, v := range p.axeSerious(string(src)) {
			t.Errorf("the story at %d px: %s", w, v)
		}
	}
	p.do(chromedp.EmulateViewport(1280, 800))
	for _, e := range errs() {
		t.Errorf("console: %s", e)
	}
}
