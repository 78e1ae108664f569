//go:build !js

package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The script card's ids: the second policy of the scenario.
const (
	scriptSource = "f-policies-1-params-source"
	scriptErr    = "e-policies-1-params-source"
)

// addPolicy adds a registered policy through the "Add a policy" menu.
func (p *page) addPolicy(name string) {
	p.t.Helper()
	eval[any](p, fmt.Sprintf(`(() => { const s = document.getElementById("add-policy"); s.value = %q; s.dispatchEvent(new Event("change", { bubbles: true })); })()`, name))
	p.click("add-policy-button")
}

// removePolicies removes every policy card.
func (p *page) removePolicies() {
	p.t.Helper()
	for eval[int](p, `document.querySelectorAll("article.policy").length`) > 0 {
		n := eval[int](p, `document.querySelectorAll("article.policy").length`)
		eval[any](p, `document.querySelector("article.policy .policy-head button.small").click()`)
		p.wait(fmt.Sprintf(`document.querySelectorAll("article.policy").length < %d`, n), statusJS, 5*time.Second)
	}
}

// typeCode replaces the text of a code editor by typing it, key by key;
// a newline is inserted as text (Input.insertText), since the editor
// answers an Enter key by itself only where it indents the next line.
func (p *page) typeCode(id, text string) {
	p.t.Helper()
	eval[any](p, fmt.Sprintf(`(() => { const e = document.getElementById(%q); e.focus(); e.select(); })()`, id))
	p.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		for _, r := range text {
			if r == '\n' {
				if _, err := cdp.Call(ctx, t, input.InsertText, input.InsertTextParams{Text: "\n"}); err != nil {
					return err
				}
				continue
			}
			for _, k := range kb.Encode(r) {
				if _, err := cdp.Call(ctx, t, input.DispatchKeyEvent, *k); err != nil {
					return err
				}
			}
		}
		return nil
	}))
}

// viewShot saves what a w×h screen shows with the element sel scrolled
// to its top, to SCHEDLAB_SCREENSHOTS when set.
func (p *page) viewShot(name, sel string, w, h int) {
	dir := os.Getenv("SCHEDLAB_SCREENSHOTS")
	if dir == "" {
		return
	}
	p.t.Helper()
	p.do(chromedp.EmulateViewport(int64(w), int64(h)))
	time.Sleep(300 * time.Millisecond) // the page reflows
	eval[any](p, fmt.Sprintf(`document.querySelector(%q).scrollIntoView({block: "start"})`, sel))
	png, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-%dx%d.png", name, w, h)), png, 0o644)
	}
	if err != nil {
		p.t.Errorf("screenshot %s: %v", name, err)
	}
	p.do(chromedp.EmulateViewport(1280, 800))
}

// statusSeconds reads "Simulated 1 policy in 4.5 s." from the status line
// (the run's own time, also when the line names the engine workers' start
// apart: "in 0.6 s (the simulator took 3.2 s to start ...).").
func (p *page) statusSeconds() float64 {
	p.t.Helper()
	m := regexp.MustCompile(`in ([0-9.]+) (s|min)\b`).FindStringSubmatch(p.text("status"))
	if m == nil {
		p.t.Fatalf("no time in the status %q", p.text("status"))
	}
	v, _ := strconv.ParseFloat(m[1], 64)
	if m[2] == "min" {
		v *= 60
	}
	return v
}

// TestScriptPolicy writes a LAS policy in the page's editor as a student
// would: a typo shows at the field with its line marked and a "did you
// mean"; fixed, the check runs the conformance battery in an engine
// worker and passes; the run puts it beside Tiresias; a share link opens
// the same scenario, with the script, in a fresh browser, which shows the
// same results. Then it measures what the report needs: a loop that
// never ends, stopped at the field and in a run, and a 10,000-job
// priority script against the built-in SJF. Screenshots go to
// SCHEDLAB_SCREENSHOTS when set; axe checks the card at both widths.
func TestScriptPolicy(t *testing.T) {
	dir := site(t)
	srv := serve(t, dir)
	ctx, cancel := browser(t, 20*time.Minute)
	defer cancel()
	errs := consoleErrors(ctx)
	p := &page{t: t, ctx: ctx}
	p.do(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL+"/"))
	p.started()

	t.Run("write LAS in the editor, with a typo shown at its field", func(t *testing.T) {
		p.t = t
		p.click("tab-scenario")
		p.wait(`!!document.getElementById("add-policy")`, statusJS, 10*time.Second)
		p.removePolicies()
		p.addPolicy("tiresias")
		p.addPolicy("script")
		p.wait(`!!document.querySelector("#policy-1 .script-code textarea")`, statusJS, 10*time.Second)
		if got := p.value(scriptSource); !strings.Contains(got, "def priority(job, now):") {
			t.Fatalf("a new script policy shows %q, not the template", got)
		}
		// Select all and type, as a student does.
		p.typeCode(scriptSource, "preempt = True\ndef priority(job, now):\n    return job.attained_gpus")
		want := "preempt = True\ndef priority(job, now):\n    return job.attained_gpus"
		p.wait(fmt.Sprintf(`document.getElementById(%q).value === %q`, scriptSource, want), fmt.Sprintf(`document.getElementById(%q).value`, scriptSource), 10*time.Second)
		p.wait(fmt.Sprintf(`document.getElementById(%q).textContent.includes("did you mean .attained_gpu_s?")`, scriptErr), statusJS, 10*time.Second)
		if msg := p.text(scriptErr); !strings.HasPrefix(msg, "script line 3 ") {
			t.Errorf("the error at the field: %q, want it on line 3", msg)
		}
		if !eval[bool](p, `(() => { const l = document.querySelector("#policy-1 .pce-error-line"); return !!l && l.textContent.includes("attained_gpus"); })()`) {
			t.Error("the line of the mistake is not marked in the editor")
		}
		p.viewShot("script-typo", "#policy-1", 1280, 800)
		p.viewShot("script-typo", "#policy-1 .script", 390, 844)
		p.do(chromedp.SendKeys(chromedp.ID(scriptSource), kb.Backspace+"_s"))
		p.wait(fmt.Sprintf(`document.getElementById(%q).textContent === "" && !document.querySelector("#policy-1 .pce-error-line")`, scriptErr),
			fmt.Sprintf(`JSON.stringify([document.getElementById(%q).value, document.getElementById(%q).textContent, !!document.querySelector("#policy-1 .pce-error-line"), document.querySelector("#policy-1 .script-code").schedlabEditor.errorLine, [...document.querySelector("#policy-1 .script-code").schedlabEditor.lines].map((l) => l.className + ":" + l.textContent)])`, scriptSource, scriptErr), 10*time.Second)
		if got := p.value(scriptSource); got != "preempt = True\ndef priority(job, now):\n    return job.attained_gpu_s" {
			t.Errorf("the script is %q", got)
		}
	})

	t.Run("check my policy runs the conformance battery", func(t *testing.T) {
		p.t = t
		t0 := time.Now()
		p.click("script-check-1")
		p.wait(`!!document.querySelector("#policy-1 .script-check progress")`, statusJS, 20*time.Second)
		p.viewShot("script-checking", "#policy-1 .script", 1280, 800)
		p.wait(`!!document.querySelector("#policy-1 .script-check .ok")`, `document.querySelector("#policy-1 .script-check").textContent`, 15*time.Minute)
		t.Logf("the check took %.1f s in the browser: %s", time.Since(t0).Seconds(), eval[string](p, `document.querySelector("#policy-1 .script-check").textContent`))
	})

	var metrics map[string]map[string]string
	t.Run("it runs beside Tiresias", func(t *testing.T) {
		p.t = t
		p.wait(`!document.getElementById("run").disabled`, statusJS, 10*time.Second)
		p.click("run")
		p.wait(`!!document.getElementById("metrics") && !document.getElementById("cancel") && /Simulated/.test(document.getElementById("status").textContent)`, statusJS, 2*time.Minute)
		metrics = p.metrics()
		if len(metrics) != 2 || metrics["Tiresias"] == nil || metrics["Script"] == nil {
			t.Fatalf("results: %v", metrics)
		}
		if metrics["Script"]["avg_jct_s"] == "" {
			t.Errorf("no average JCT for the script: %v", metrics["Script"])
		}
		t.Logf("Tiresias %v\nScript %v", metrics["Tiresias"], metrics["Script"])
		p.viewShot("script-results", "#metrics", 1280, 800)
	})

	t.Run("a share link carries the script to a fresh browser", func(t *testing.T) {
		p.t = t
		p.click("share")
		p.wait(`!!document.getElementById("share-link")`, statusJS, 5*time.Second)
		link := p.value("share-link")
		fresh, cancel := chromedp.NewContext(ctx, chromedp.WithNewBrowserContext())
		defer cancel()
		q := &page{t: t, ctx: fresh}
		q.do(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(link))
		q.wait(`!!document.getElementById("metrics") && !document.getElementById("cancel") && /Simulated/.test((document.getElementById("status") || {}).textContent)`, statusJS, 2*time.Minute)
		got := q.metrics()
		if fmt.Sprint(got) != fmt.Sprint(metrics) {
			t.Errorf("the link's results differ:\n%v\nwant\n%v", got, metrics)
		}
		q.click("tab-scenario")
		q.wait(fmt.Sprintf(`!!document.getElementById(%q)`, scriptSource), statusJS, 10*time.Second)
		if src := q.value(scriptSource); !strings.HasSuffix(src, "return job.attained_gpu_s") {
			t.Errorf("the fresh browser's editor shows %q", src)
		}
	})

	t.Run("the script card has no serious accessibility violations", func(t *testing.T) {
		p.t = t
		src, err := os.ReadFile(axePath(t))
		need(t, err == nil, "axe-core (run `make axe`)")
		p.click("tab-scenario")
		p.wait(fmt.Sprintf(`!!document.getElementById(%q)`, scriptSource), statusJS, 10*time.Second)
		eval[any](p, `document.querySelector("#policy-1 details.script-help").open = true`)
		for _, w := range []int64{1280, 390} {
			p.do(chromedp.EmulateViewport(w, 844))
			for _, v := range p.axeSerious(string(src)) {
				t.Errorf("at %d px: %s", w, v)
			}
		}
		p.do(chromedp.EmulateViewport(1280, 800))
		p.viewShot("script-card", "#policy-1", 1280, 800)
		p.viewShot("script-card", "#policy-1 .script-check", 390, 844)
		p.viewShot("script-help", "#policy-1 details.script-help", 390, 844)
		eval[any](p, `document.querySelector("#policy-1 details.script-help").open = false`)
	})

	t.Run("a loop that never ends is stopped, at the field and in a run", func(t *testing.T) {
		p.t = t
		// On the Scenario tab whether or not the accessibility check before
		// (which opens it) ran: it skips without axe-core.
		p.click("tab-scenario")
		p.wait(fmt.Sprintf(`!!document.getElementById(%q)`, scriptSource), statusJS, 10*time.Second)
		// At the field: the check's test run stops it.
		loop := "def priority(job, now):\n    n = 0\n    while True:\n        n += 1\n"
		ms := eval[float64](p, fmt.Sprintf(`new Promise((resolve) => {
			const ta = document.getElementById(%q), err = document.getElementById(%q);
			const t0 = performance.now();
			ta.value = %q;
			ta.dispatchEvent(new Event("input", { bubbles: true }));
			const poll = () => err.textContent.includes("stopped after") ? resolve(performance.now() - t0) : setTimeout(poll, 5);
			poll();
		})`, scriptSource, scriptErr, loop))
		t.Logf("a loop that never ends, typed: stopped at the field in %.0f ms: %s", ms, p.text(scriptErr))
		if ms > 2000 {
			t.Errorf("the loop was stopped at the field only after %.0f ms", ms)
		}
		// In a run: a loop only for 8-GPU jobs passes the check (its made-up
		// jobs have at most 6 GPUs) and is stopped in the engine worker.
		p.setValue(scriptSource, "def priority(job, now):\n    while job.gpus == 8:\n        pass\n    return job.solo_s\n")
		p.wait(fmt.Sprintf(`document.getElementById(%q).textContent === ""`, scriptErr), statusJS, 10*time.Second)
		p.wait(`!document.getElementById("run").disabled`, statusJS, 10*time.Second)
		t0 := time.Now()
		p.click("run")
		p.wait(`/stopped after 500,000 steps/.test(document.body.textContent) && !document.getElementById("cancel")`, statusJS, 30*time.Second)
		t.Logf("a loop that never ends in a run: the error shown %.2f s after Run", time.Since(t0).Seconds())
	})

	t.Run("CPU of a 10,000-job priority script against SJF", func(t *testing.T) {
		p.t = t
		p.click("tab-scenario")
		p.wait(`!!document.getElementById("f-workload-generator-jobs")`, statusJS, 10*time.Second)
		p.setValue(scriptSource, "def priority(job, now):\n    return job.solo_s\n")
		p.removePolicies()
		p.setValue("f-workload-generator-jobs", "10000")
		var secs = map[string]float64{}
		for _, pol := range []string{"sjf", "script", "sjf", "script"} {
			p.removePolicies()
			p.addPolicy(pol)
			if pol == "script" {
				p.wait(`!!document.getElementById("f-policies-0-params-source")`, statusJS, 10*time.Second)
				p.setValue("f-policies-0-params-source", "def priority(job, now):\n    return job.solo_s\n")
			}
			p.wait(`!document.getElementById("run").disabled`, statusJS, 10*time.Second)
			p.click("run")
			p.wait(`!!document.getElementById("cancel")`, statusJS, 10*time.Second)
			p.wait(`!document.getElementById("cancel") && /Simulated/.test(document.getElementById("status").textContent)`, statusJS, 5*time.Minute)
			s := p.statusSeconds()
			if old, ok := secs[pol]; !ok || s < old {
				secs[pol] = s
			}
			p.click("tab-scenario")
		}
		t.Logf("10,000 jobs in the browser (the faster of two runs, wall time of one engine worker): SJF %.1f s, priority script %.1f s (×%.2f)",
			secs["sjf"], secs["script"], secs["script"]/secs["sjf"])
	})

	for _, e := range errs() {
		if !strings.Contains(e, "favicon") {
			t.Errorf("console: %s", e)
		}
	}
}

// On a phone (390 px) the script card's parts stay within the card: the
// examples menu, the field's label, a long error and the help wrap, and
// the editor's long lines scroll inside the editor, instead of running
// off the screen.
func TestScriptCardFitsAPhone(t *testing.T) {
	dir := site(t)
	srv := serve(t, dir)
	ctx, cancel := browser(t, 5*time.Minute)
	defer cancel()
	p := &page{t: t, ctx: ctx}
	p.do(chromedp.EmulateViewport(390, 844), chromedp.Navigate(srv.URL+"/"))
	p.started()
	p.click("tab-scenario")
	p.wait(`!!document.getElementById("add-policy")`, statusJS, 10*time.Second)
	p.removePolicies()
	p.addPolicy("fifo")
	p.addPolicy("script")
	p.wait(`!!document.querySelector("#policy-1 .script-code textarea")`, statusJS, 10*time.Second)
	// a typo, so that the error shows under the editor
	p.setValue(scriptSource, "def priority(job, now):\n    return job.attained_gpus + job.solo_s * job.gpus * job.weight - job.arrival_s / 3600\n")
	p.wait(fmt.Sprintf(`document.getElementById(%q).textContent.includes("did you mean")`, scriptErr), statusJS, 10*time.Second)
	eval[any](p, `document.querySelector("#policy-1 details.script-help").open = true`)
	over := eval[[]string](p, `(() => {
		const card = document.querySelector("#policy-1").getBoundingClientRect();
		// inside a box that scrolls (the editor's long lines) is fine
		const scrolled = (e) => { for (let a = e.parentElement; a && !a.classList.contains("script"); a = a.parentElement) { if (getComputedStyle(a).overflowX !== "visible") return true; } return false; };
		return [...document.querySelectorAll("#policy-1 .script *")]
			.filter((e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.right > card.right + 1 && !scrolled(e); })
			.map((e) => e.tagName.toLowerCase() + "." + [...e.classList].join(".") + " ends at " + Math.round(e.getBoundingClientRect().right) + " px, the card at " + Math.round(card.right))
			.slice(0, 5);
	})()`)
	for _, o := range over {
		t.Errorf("past the card's right edge: %s", o)
	}
	p.viewShot("script-phone", "#policy-1 .script-tools", 390, 844)
}
