//go:build !js

package e2e

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/schedlab/schedlab/sim/results"
)

// galleryFigures are one figure of each built paper: three curves (a
// sweep), and two single-point figures (a metrics table); and the
// cross-paper comparison where every paper's policy runs.
var galleryFigures = []string{"sjf-bsbf-fig6a", "gavel-fig8-las-single", "ojpp-fig9", "tesserae-fig11-migrations", "sjfbco-fig6", "compare-memshare"}

// figureDrawnJS is true once the figure shows a number of ours: a dot of
// the curve or a filled cell of the metrics table.
const figureDrawnJS = `!!document.querySelector("#figure-curve .ours .mark") ||
	[...document.querySelectorAll("#figure-table td")].some(td => td.textContent !== "…" && td.textContent !== "–")`

// figureStatusJS describes the figure view when a wait fails.
const figureStatusJS = `(document.getElementById("figure-progress") || {}).textContent + " | " +
	(document.getElementById("figure-summary") || {}).textContent + " | " + (document.querySelector(".figure-view .error") || {}).textContent`

// The gallery groups paper figures by paper apart from the teaching
// presets, and a figure of each paper opens, runs its quick sweep in the
// page's workers, draws its curve (or metrics) and gives the command
// line's verdicts.
func TestGalleryFigures(t *testing.T) {
	dir := site(t)
	srv := serve(t, dir)
	ctx, cancel := browser(t, 15*time.Minute)
	defer cancel()
	errs := consoleErrors(ctx)
	p := &page{t: t, ctx: ctx}
	p.do(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL+"/"))
	p.started()
	p.click("tab-gallery")
	p.wait(`!!document.getElementById("paper-gavel")`, statusJS, 10*time.Second)
	var sections []string
	for _, s := range eval[[]string](p, `[...document.querySelectorAll(".gallery section.paper")].map(s => s.id)`) {
		sections = append(sections, strings.TrimPrefix(s, "paper-"))
	}
	if got := strings.Join(sections, ","); got != "sjf-bsbf,gavel,ojpp,tesserae,sjf-bco" {
		t.Errorf("paper sections %s", got)
	}
	if !eval[bool](p, `!!document.getElementById("teaching") && !!document.getElementById("gallery-fifo-vs-sjf")`) {
		t.Error("no teaching presets group")
	}
	// The cross-paper comparisons have a group of their own, after the
	// papers' figures and before the teaching presets.
	if got := eval[string](p, `[...document.querySelectorAll(".gallery h2.ggroup")].map(h => h.textContent).join(",")`); got != "Start here: Learn,Paper figures,Cross-paper comparisons,Teaching presets" {
		t.Errorf("gallery groups %q", got)
	}
	if !eval[bool](p, `["compare-analytic", "compare-memshare", "compare-throughput"].every(n => {
			const c = document.getElementById("gallery-" + n);
			return c && !c.closest("section.paper") && c.compareDocumentPosition(document.getElementById("teaching")) & Node.DOCUMENT_POSITION_FOLLOWING &&
				/What we found: /.test(c.textContent) && !!document.getElementById("openfig-" + n);
		})`) {
		t.Error("the comparisons are not in a group of their own with what we found and an Open figure button")
	}
	height := eval[int](p, `document.documentElement.scrollHeight`)
	t.Logf("gallery height at 1280x800: %d px", height)
	if height > 9000 {
		t.Errorf("the gallery is %d px tall", height)
	}
	p.shot("gallery", 1280, 800)
	p.shot("gallery", 390, 844)
	p.click("filter-tesserae")
	p.wait(`document.querySelectorAll(".gallery section.paper").length === 1 && !document.getElementById("teaching") && !document.getElementById("compare")`, statusJS, 5*time.Second)
	p.click("filter-compare")
	p.wait(`document.querySelectorAll(".gallery section.paper").length === 0 && !document.getElementById("teaching") && !!document.getElementById("gallery-compare-memshare")`, statusJS, 5*time.Second)
	p.click("filter-")

	for _, name := range galleryFigures {
		t.Run(name, func(t *testing.T) {
			p.t = t
			p.click("tab-gallery")
			p.wait(`!!document.getElementById("openfig-`+name+`")`, statusJS, 10*time.Second)
			start := time.Now()
			p.click("openfig-" + name)
			// The figure opens on the committed record (figrecord_test.go);
			// re-run it here, in quick mode, to compare with the command line.
			p.wait(`!!document.getElementById("figure-rerun-quick")`, figureStatusJS, 10*time.Second)
			p.click("figure-rerun-quick")
			p.wait(figureDrawnJS+` || !!document.querySelector(".figure-view .error")`, figureStatusJS, 5*time.Minute)
			first := time.Since(start)
			if eval[bool](p, `!!document.querySelector(".figure-view .error")`) {
				t.Fatalf("the figure failed: %s", eval[string](p, figureStatusJS))
			}
			p.wait(`!document.getElementById("figure-cancel") && document.querySelectorAll("#figure-checks tr[data-verdict]").length > 0 &&
				!document.querySelector("#figure-checks tr[data-verdict=waiting]") || !!document.querySelector(".figure-view .error")`, figureStatusJS, 10*time.Minute)
			all := time.Since(start)
			if eval[bool](p, `!!document.querySelector(".figure-view .error")`) {
				t.Fatalf("the figure failed: %s", eval[string](p, figureStatusJS))
			}
			pageMS := eval[string](p, `document.getElementById("figure-time").dataset.firstCurveMs`)
			summary := p.text("figure-summary")
			t.Logf("%s: first curve after %.1f s (the page's own count: %s ms), all points and verdicts after %.1f s; %s",
				name, first.Seconds(), pageMS, all.Seconds(), summary)
			out, err := exec.Command(cli(t), "run", name, "--quick", "--format", "json").Output()
			if err != nil {
				t.Fatal(err)
			}
			var want struct {
				Summary struct {
					Passed, Failed, NA, Calibrated, Exploration int
					ExplorationPassed                           int `json:"exploration_passed"`
				}
			}
			if err := json.Unmarshal(out, &want); err != nil {
				t.Fatal(err)
			}
			ws := want.Summary
			tally := results.Tally{Pass: ws.Passed, Fail: ws.Failed, NA: ws.NA, Calibrated: ws.Calibrated, Exploration: ws.Exploration, ExplorationPass: ws.ExplorationPassed}
			if w := tally.Summary(true); summary != w {
				t.Errorf("page: %s; command line: %s", summary, w)
			}
			if name == "compare-memshare" {
				// Our findings, not a paper's: no paper values drawn, and
				// the view says so. Every policy of the four papers is on
				// the curve.
				if eval[bool](p, `!!document.querySelector("#figure-curve .paper .mark")`) || !strings.Contains(p.text("figure-checks-card"), "our own findings") ||
					!eval[bool](p, `/What we found:/.test(document.querySelector(".figure-view .intro .claim").textContent)`) {
					t.Error("the comparison's figure view speaks of a paper's claims or values")
				}
				legend := eval[string](p, `[...document.querySelectorAll(".figure-view .legend li")].map(l => l.textContent).join(",")`)
				for _, pol := range []string{"SJF-BSBF", "Gavel (LAS) w/ SS", "Tesserae-T", "OJPP"} {
					if !strings.Contains(legend, pol) {
						t.Errorf("%s is not on the curve (legend %q)", pol, legend)
					}
				}
				p.shot("figure-"+name, 1280, 800)
				p.shot("figure-"+name, 390, 844)
				// On a phone, all five tabs (Figure among them) fit the width.
				p.do(chromedp.EmulateViewport(390, 844))
				time.Sleep(300 * time.Millisecond)
				if w := eval[int](p, `Math.ceil(Math.max(document.documentElement.scrollWidth, ...[...document.querySelectorAll(".tabs .tab")].map(b => b.getBoundingClientRect().right)))`); w > 390 {
					t.Errorf("at 390 px the page or its tabs reach %d px", w)
				}
				p.do(chromedp.EmulateViewport(1280, 800))
			}
			if name == "sjf-bsbf-fig6a" || name == "gavel-fig8-las-single" {
				if !eval[bool](p, `!!document.querySelector("#figure-curve .paper .mark")`) {
					t.Error("no paper values on the curve")
				}
				p.shot("figure-"+name, 1280, 800)
				p.shot("figure-"+name, 390, 844)
			}
		})
	}
	p.t = t
	for _, e := range errs() {
		t.Errorf("console: %s", e)
	}
}
