//go:build !js

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// axePath is where `make need-axe` (a step of make test) installs axe-core
// from npm (git-ignored).
func axePath(t *testing.T) string {
	return filepath.Join(repoRoot(t), "build", "axe", "node_modules", "axe-core", "axe.min.js")
}

// axeSerious runs axe-core on the page as it is and returns its serious
// and critical violations, one line each, with the elements they hit.
func (p *page) axeSerious(src string) []string {
	p.t.Helper()
	if !eval[bool](p, `typeof window.axe === "object"`) {
		eval[any](p, src+"\n;undefined")
	}
	return eval[[]string](p, `axe.run(document, { resultTypes: ["violations"] }).then((r) =>
		r.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
			.map((v) => v.impact + " " + v.id + ": " + v.help + " — " + v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")))`)
}

// TestNewcomer follows a newcomer through the page: no serious or critical
// accessibility violations in any view (axe-core); opening a scenario from
// the bottom of the gallery lands at the top of its results; Run turns into
// a busy, disabled button while a run goes on and every way of loading ends
// on results; an edited built-in scenario's results say it was edited and
// what ran; the validator's problems with names and sizes show at their
// fields.
func TestNewcomer(t *testing.T) {
	src, err := os.ReadFile(axePath(t))
	need(t, err == nil, "axe-core (make test installs it: `make need-axe`)")
	dir := site(t)
	srv := serve(t, dir)
	ctx, cancel := browser(t, 6*time.Minute)
	defer cancel()
	errs := consoleErrors(ctx)
	p := &page{t: t, ctx: ctx}
	p.do(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL+"/"))
	p.started()

	t.Run("no serious accessibility violations in any view", func(t *testing.T) {
		p.t = t
		views := []struct{ tab, ready string }{
			{"tab-results", `!!document.getElementById("metrics")`},
			{"tab-scenario", `!!document.getElementById("f-cluster-servers-0-count")`},
			{"tab-timeline", `!!document.getElementById("gpu-grid") && !!document.querySelector("#decision-log li")`},
			{"tab-gallery", `!!document.getElementById("open-fifo-vs-sjf")`},
		}
		for _, v := range views {
			p.click(v.tab)
			p.wait(v.ready, statusJS, 10*time.Second)
			if h1 := eval[int](p, `document.querySelectorAll("h1").length`); h1 != 1 {
				t.Errorf("%s: %d h1 elements, want 1", v.tab, h1)
			}
			for _, w := range []int{1280, 390} {
				p.do(chromedp.EmulateViewport(int64(w), 800))
				for _, v2 := range p.axeSerious(string(src)) {
					t.Errorf("%s at %d px: %s", v.tab, w, v2)
				}
			}
			p.do(chromedp.EmulateViewport(1280, 800))
		}
		// axe did look: it passes dozens of rules on a page like this.
		if n := eval[int](p, `axe.run(document).then((r) => r.passes.length)`); n < 10 {
			t.Errorf("axe-core passed only %d rules: did it run?", n)
		}
	})

	t.Run("opening from the gallery lands at the results' top", func(t *testing.T) {
		p.t = t
		p.click("tab-gallery")
		p.wait(`!!document.getElementById("open-fifo-vs-sjf")`, statusJS, 10*time.Second)
		eval[any](p, `window.scrollTo(0, document.body.scrollHeight)`)
		p.wait(`window.scrollY > 1000`, `String(window.scrollY)`, 5*time.Second)
		eval[any](p, `document.getElementById("open-fifo-vs-sjf").click()`)
		p.wait(`!!document.getElementById("metrics") && !document.getElementById("cancel")`, statusJS, 60*time.Second)
		if y := eval[float64](p, `window.scrollY`); y != 0 {
			t.Errorf("the results open scrolled to %g px", y)
		}
		if !eval[bool](p, `document.getElementById("metrics").getBoundingClientRect().top < window.innerHeight`) {
			t.Error("the metrics table is below the first screen")
		}
	})

	t.Run("Run is busy and disabled during a run; every load ends on results", func(t *testing.T) {
		p.t = t
		p.click("tab-scenario")
		p.wait(`!!document.getElementById("f-workload-generator-jobs")`, statusJS, 10*time.Second)
		p.setValue("f-workload-generator-jobs", "20000")
		p.wait(`!document.getElementById("run").disabled`, statusJS, 5*time.Second)
		p.click("run")
		p.wait(`!!document.getElementById("cancel")`, statusJS, 10*time.Second)
		if tab := eval[string](p, `document.querySelector(".tab.active").id`); tab != "tab-results" {
			t.Errorf("Run left the page in %s", tab)
		}
		state := eval[string](p, `(() => { const b = document.getElementById("run"); return b.disabled + " " + b.getAttribute("aria-busy") + " " + b.textContent; })()`)
		if state != "true true Running…" {
			t.Errorf("Run during a run: %q", state)
		}
		p.click("cancel")
		p.wait(`!document.getElementById("cancel")`, statusJS, 20*time.Second)
		if eval[bool](p, `document.getElementById("run").disabled`) {
			t.Error("Run stays disabled after the run")
		}
		// Import a file: as the gallery and links do, it runs and shows
		// results. The file chooser is answered with a copy of the
		// scenario under another name.
		p.click("tab-scenario")
		p.setValue("f-workload-generator-jobs", "30")
		eval[any](p, `(() => { const sc = JSON.parse(localStorage.getItem("schedlab.scenario.v1"));
			sc.name = "mine"; sc.title = "My imported scenario";
			const f = new File([JSON.stringify(sc)], "mine.json", { type: "application/json" });
			const dt = new DataTransfer(); dt.items.add(f);
			const orig = HTMLInputElement.prototype.click;
			HTMLInputElement.prototype.click = function () {
				if (this.type !== "file") return orig.call(this);
				HTMLInputElement.prototype.click = orig;
				this.files = dt.files;
				this.dispatchEvent(new Event("change", { bubbles: true }));
			};
			document.getElementById("import").click(); })()`)
		p.wait(`(document.querySelector(".tab.active") || {}).id === "tab-results" && (document.getElementById("results-title") || {}).textContent === "My imported scenario" && !document.getElementById("cancel")`, statusJS, 60*time.Second)
	})

	t.Run("an edited scenario's results say what ran", func(t *testing.T) {
		p.t = t
		p.click("tab-gallery")
		p.wait(`!!document.getElementById("open-fifo-vs-sjf")`, statusJS, 10*time.Second)
		p.click("open-fifo-vs-sjf")
		p.wait(`!!document.getElementById("metrics") && !document.getElementById("cancel")`, statusJS, 60*time.Second)
		if title := p.text("results-title"); title != "FIFO against SJF on 16 GPUs" {
			t.Errorf("the unedited scenario's title %q", title)
		}
		p.click("tab-scenario")
		p.setValue("f-cluster-servers-0-count", "8")
		p.setValue("f-cluster-servers-0-gpu_type", "K80")
		p.setValue("f-workload-generator-jobs", "40")
		p.wait(`!document.getElementById("run").disabled`, statusJS, 5*time.Second)
		if title := p.text("scenario-title"); !strings.HasSuffix(title, "(edited)") {
			t.Errorf("run bar title %q", title)
		}
		p.click("run")
		p.wait(`!document.getElementById("cancel") && !document.getElementById("stale") && !!document.getElementById("metrics")`, statusJS, 60*time.Second)
		p.wait(plotsShown, statusJS, 60*time.Second)
		if title := p.text("results-title"); title != "FIFO against SJF on 16 GPUs (edited)" {
			t.Errorf("results title %q", title)
		}
		intro := eval[string](p, `document.querySelector(".card.intro").textContent`)
		for _, want := range []string{"40 jobs", "32 GPUs (8 servers of 4 K80)", "FIFO and SJF"} {
			if !strings.Contains(intro, want) {
				t.Errorf("the description lacks %q: %q", want, intro)
			}
		}
		if strings.Contains(intro, "thirty jobs") {
			t.Errorf("the description still describes the original: %q", intro)
		}
		p.shot("edited", 1280, 800)
		p.shot("edited", 390, 844)
	})

	t.Run("names, sizes and overflows are refused at their fields", func(t *testing.T) {
		p.t = t
		p.click("tab-scenario")
		p.wait(`!!document.getElementById("mode-jobs")`, statusJS, 10*time.Second)
		p.click("mode-jobs")
		p.wait(`!!document.getElementById("f-workload-jobs-0-gpus")`, statusJS, 10*time.Second)
		for _, c := range []struct{ id, value, want string }{
			{"f-cluster-servers-0-gpu_type", "B200", `unknown GPU type "B200"`},
			{"f-workload-jobs-0-model", "resnet5O", `did you mean "resnet50"`},
			{"f-workload-jobs-1-gpus", "64", "asks for 64 GPUs, but the cluster has 32 GPUs in all"},
			{"f-workload-jobs-2-duration_s", "1e400", "the number 1e400 is too large"},
		} {
			p.setValue(c.id, c.value)
			errID := "e-" + strings.TrimPrefix(c.id, "f-")
			p.wait(fmt.Sprintf(`(document.getElementById(%q) || {textContent: ""}).textContent.includes(%q)`, errID, c.want), fmt.Sprintf(`(document.getElementById(%q) || {textContent: "no error element"}).textContent + " | " + %s`, errID, statusJS), 5*time.Second)
		}
		// All four at once: none hides another.
		if n := eval[int](p, `document.querySelectorAll("#problems li").length`); n != 4 {
			t.Errorf("%d problems listed, want 4: %s", n, p.text("problems"))
		}
		if !eval[bool](p, `document.getElementById("run").disabled`) {
			t.Error("Run is enabled with problems")
		}
		p.shot("field-errors", 1280, 800)
		p.shot("field-errors", 390, 844)
	})

	if e := errs(); len(e) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(e, "\n"))
	}
}
