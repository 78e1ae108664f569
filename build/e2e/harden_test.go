//go:build !js

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// fillMemoryJS wraps the page's Worker so that each engine worker also
// answers a test message, "test-fill-memory", by growing its WebAssembly
// memory to the 4 GB maximum without using it: the engine's Go runtime
// then finds no memory left at its next allocation, as when a scenario
// needs more than the browser has, and exits with "fatal error: out of
// memory". The worker script itself is the site's, unchanged.
const fillMemoryJS = `(() => {
	const Native = window.Worker;
	window.testWorkers = [];
	window.Worker = function (url, opts) {
		const real = new URL(url, location.href).href;
		const src = "const real = " + JSON.stringify(real) + ";\n" + ` + "`" + `
			const load = self.importScripts.bind(self);
			let goInst = null;
			self.importScripts = (...urls) => {
				load(...urls.map((u) => new URL(u, real).href));
				if (self.Go && !self.Go.wrapped) {
					const G = self.Go;
					self.Go = class extends G { constructor() { super(); goInst = this; } };
					self.Go.wrapped = true;
				}
			};
			self.addEventListener("message", (e) => {
				if (!e.data || e.data.type !== "test-fill-memory") return;
				e.stopImmediatePropagation();
				const mem = goInst._inst.exports.mem;
				mem.grow(65536 - mem.buffer.byteLength / 65536);
				goInst.mem = new DataView(mem.buffer);
			});
			load(real);
		` + "`" + `;
		const w = new Native(URL.createObjectURL(new Blob([src], { type: "text/javascript" })), opts);
		window.testWorkers.push(w);
		return w;
	};
})()`

// An engine worker that runs out of memory in the middle of a run ends the
// run with a plain message and an offer to reduce the scenario (not
// "FIFO: starting" forever), and fresh workers run the next scenario.
func TestDeadWorkerInBrowser(t *testing.T) {
	dir := site(t)
	srv := serve(t, dir)
	ctx, cancel := browser(t, 5*time.Minute)
	defer cancel()
	p := &page{t: t, ctx: ctx}
	// The wrapper makes blob: workers, which the page's CSP rightly
	// forbids; this test is about the worker dying, not the CSP.
	if _, err := chromedp.Call(ctx, cdppage.SetBypassCSP, cdppage.SetBypassCSPParams{Enabled: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: fillMemoryJS}); err != nil {
		t.Fatal(err)
	}
	p.do(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL+"/"))
	p.started()
	p.click("tab-scenario")
	p.setValue("f-workload-generator-jobs", "200000")
	p.wait(`!document.getElementById("run").disabled`, statusJS, 5*time.Second)
	p.click("run")
	p.wait(`!!document.getElementById("progress-text") && document.getElementById("progress-text").textContent.includes("jobs finished")`, statusJS, 60*time.Second)
	eval[any](p, `window.testWorkers.forEach((w) => w.postMessage({ type: "test-fill-memory" }))`)
	start := time.Now()
	p.wait(`!!document.getElementById("note-engine")`, statusJS+` + " | " + (document.getElementById("progress-text") || {}).textContent`, 2*time.Minute)
	t.Logf("the page reported the dead worker %.1f s after its memory ran out", time.Since(start).Seconds())
	note := p.text("note-engine")
	if !strings.Contains(note, "The simulator ran out of memory running") || !strings.Contains(note, "200,000 jobs × 2 policies on 16 GPUs") || !strings.Contains(note, "Try fewer jobs or GPUs") {
		t.Errorf("note: %q", note)
	}
	if eval[bool](p, `!!document.getElementById("cancel")`) {
		t.Error("the run still shows as running")
	}
	p.shot("note-engine", 1280, 800)
	p.shot("note-engine", 390, 844)
	p.click("note-engine-reduce")
	p.wait(`!!document.getElementById("cancel")`, statusJS, 10*time.Second)
	p.click("tab-scenario")
	if v := p.value("f-workload-generator-jobs"); v != "100000" {
		t.Errorf("after reducing, jobs %q", v)
	}
	p.click("cancel")
	p.wait(`!document.getElementById("cancel")`, statusJS, 20*time.Second)
	// Fresh workers run a small scenario to the end.
	p.setValue("f-workload-generator-jobs", "30")
	p.click("run")
	p.click("tab-results")
	p.wait(`!document.getElementById("cancel") && !document.getElementById("stale")`, statusJS, 60*time.Second)
	p.wait(plotsShown, statusJS, 60*time.Second)
	if eval[bool](p, `!!document.getElementById("note-engine")`) {
		t.Error("the note about the dead worker outlived a good run")
	}
}

// setValue sets an input's text at once, as pasting does.
func (p *page) setValue(id, text string) {
	p.t.Helper()
	eval[any](p, fmt.Sprintf(`(() => { const e = document.getElementById(%q); e.value = %q; e.dispatchEvent(new Event("input", { bubbles: true })); })()`, id, text))
	p.wait(fmt.Sprintf(`document.getElementById(%q).value === %q`, id, text), statusJS, 5*time.Second)
}
