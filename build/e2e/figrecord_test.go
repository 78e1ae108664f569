//go:build !js

package e2e

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
)

// recordFigures are one figure of each paper: the reader's figures of the
// issue (Gavel's Fig. 8 curve, SJF-BSBF's Fig. 4 JCT distribution,
// SJF-BCO's Fig. 4 bars) and a curve of each other paper, and SJF-BSBF's
// Table III, bars of eleven policies beside the paper's values.
var recordFigures = []string{"gavel-fig8-las-single", "sjf-bsbf-fig4", "ojpp-fig9", "tesserae-fig11-migrations", "sjfbco-fig4", "sjf-bsbf-table3"}

// A reader opens one figure per paper from the gallery and sees the
// committed record without a simulation: every recorded sweep point, the
// verdicts and counts of the record (the card's too), no quick-mode label
// on a full-mode verdict, the recorded why beside a failure, a JCT
// distribution drawn as a CDF, a figure without a sweep drawn as bars
// (ours by policy, the paper's by recorded value) above its metrics
// table, no table cut at 1280 px, and no serious accessibility violation at
// 1280 and 390 px wide.
func TestFigureFromRecord(t *testing.T) {
	rep := committedRecord(t)
	axe, axeErr := os.ReadFile(axePath(t))
	dir := site(t)
	srv := serve(t, dir)
	ctx, cancel := browser(t, 6*time.Minute)
	defer cancel()
	errs := consoleErrors(ctx)
	p := &page{t: t, ctx: ctx}
	p.do(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL+"/"))
	p.started()
	for _, name := range recordFigures {
		t.Run(name, func(t *testing.T) {
			p.t = t
			rec := recordOf(&rep, name)
			if rec == nil {
				t.Skipf("the committed record has no %s", name)
			}
			p.click("tab-gallery")
			p.wait(`!!document.getElementById("openfig-`+name+`")`, statusJS, 10*time.Second)
			card := p.text("badge-" + name)
			start := time.Now()
			p.click("openfig-" + name)
			p.wait(`!!document.getElementById("figure-summary") && document.querySelectorAll("#figure-checks tr[data-verdict]").length > 0`, figureStatusJS, 20*time.Second)
			t.Logf("%s opened from the record in %.2f s: %s", name, time.Since(start).Seconds(), p.text("figure-summary"))
			if eval[bool](p, `!!document.getElementById("figure-cancel")`) {
				t.Error("opening the figure started a simulation")
			}
			summary := p.text("figure-summary")
			tally := results.Count(*rec)
			if want := tally.Summary(rep.Quick); summary != want || card != want {
				t.Errorf("figure %q, card %q; the record counts %q", summary, card, want)
			}
			// The labels, not the checks' own words: a check's why may
			// explain what quick mode's shorter window shows.
			label := eval[string](p, `[...document.querySelectorAll("#figure-checks-card h3, #figure-checks-card .hint")].map(e => e.textContent).join(" ")`)
			if !rep.Quick && strings.Contains(summary+card+label, "quick") {
				t.Error("a full-mode record is labelled quick")
			}
			verdicts := eval[[]string](p, `[...document.querySelectorAll("#figure-checks tr[data-verdict]")].map(r => r.dataset.verdict)`)
			if len(verdicts) != len(rec.Checks) {
				t.Fatalf("%d checks on the page, %d in the record", len(verdicts), len(rec.Checks))
			}
			for i, c := range rec.Checks {
				want := map[string]string{"pass": "holds", "fail": "fails"}[c.Verdict]
				if want == "" {
					want = "n/a"
				}
				if verdicts[i] != want {
					t.Errorf("%s: %s on the page, %s in the record", c.ID, verdicts[i], c.Verdict)
				}
				if c.Verdict == "fail" && c.Why != "" {
					note := eval[string](p, `(document.querySelector('#figure-checks tr[data-check="`+c.ID+`"] .vnote') || {textContent: ""}).textContent`)
					if !strings.Contains(note, c.Why) {
						t.Errorf("%s fails without its recorded why (%q)", c.ID, note)
					}
				}
			}
			if marks, want := eval[int](p, `document.querySelectorAll("#figure-curve .ours .mark").length`), recordedPoints(rec); want > 0 && marks != want {
				t.Errorf("%d points drawn, the record has %d", marks, want)
			}
			if name == "sjf-bsbf-fig4" && hasPercentiles(rec) {
				if !eval[bool](p, `!!document.getElementById("figure-cdf")`) {
					t.Error("the JCT distribution is not drawn as a CDF")
				}
			}
			if ours, paper, ok := recordBars(rec); ok && !hasPercentiles(rec) {
				p.checkBars(ours, paper)
			}
			// At a laptop's width no figure table is cut at its right
			// edge: long metric names wrap in their header.
			if wide := eval[[]string](p, `[...document.querySelectorAll(".figure-view .scroll")].filter(s => s.scrollWidth > s.clientWidth + 1).map(s => s.getAttribute("aria-label") + ": " + s.scrollWidth + " px in " + s.clientWidth)`); len(wide) > 0 {
				t.Errorf("at 1280 px, tables wider than their box: %v", wide)
			}
			for _, w := range []struct{ w, h int }{{1280, 800}, {390, 844}} {
				p.do(chromedp.EmulateViewport(int64(w.w), int64(w.h)))
				time.Sleep(300 * time.Millisecond)
				p.shot("record-"+name, w.w, w.h)
				if axeErr == nil {
					for _, v := range p.axeSerious(string(axe)) {
						t.Errorf("at %d px: %s", w.w, v)
					}
				}
			}
			p.do(chromedp.EmulateViewport(1280, 800))
		})
	}
	p.t = t
	if axeErr != nil {
		t.Log("axe-core is not installed (make need-axe): accessibility not checked")
	}
	for _, e := range errs() {
		t.Errorf("console: %s", e)
	}
}

// committedRecord is the committed record, reproduction/report.json.
func committedRecord(t *testing.T) results.Reproduction {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "reproduction", "report.json"))
	need(t, err == nil, "the committed record reproduction/report.json")
	var rep results.Reproduction
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	return rep
}

// openFigure opens the named figure from the gallery, as a reader does.
func (p *page) openFigure(name string) {
	p.t.Helper()
	p.click("tab-gallery")
	p.wait(`!!document.getElementById("openfig-`+name+`")`, statusJS, 10*time.Second)
	p.click("openfig-" + name)
}

func recordOf(rep *results.Reproduction, name string) *results.FigureRepro {
	for i := range rep.Papers {
		for j := range rep.Papers[i].Figures {
			if f := &rep.Papers[i].Figures[j]; f.Scenario == name {
				return f
			}
		}
	}
	return nil
}

// recordedPoints counts the points of the record's curves of the
// scenario's swept metric: every value not null.
func recordedPoints(f *results.FigureRepro) int {
	data, _ := scenarios.Read(f.Scenario)
	sc, err := scenario.Parse(data)
	if err != nil || sc.Sweep == nil {
		return 0
	}
	metric, group := sc.Sweep.Metric, sc.Sweep.Group
	if metric == "" {
		metric = "avg_jct_s"
	}
	if group == "" {
		group = "all"
	}
	n := 0
	for _, s := range f.Series {
		if s.Metric != metric || s.Group != group {
			continue
		}
		for _, y := range s.Mean {
			if y != nil && !math.IsNaN(*y) {
				n++
			}
		}
	}
	return n
}

func hasPercentiles(f *results.FigureRepro) bool {
	for _, v := range f.Values {
		if strings.HasPrefix(v.Metric, "p50_") {
			return true
		}
	}
	return false
}

// recordBars counts the bars of a recorded figure without a sweep: a bar
// of ours per policy with a recorded value of the figure's main metric,
// a bar of the paper's per recorded reference value of that metric. ok is
// false for a sweep.
func recordBars(f *results.FigureRepro) (ours, paper int, ok bool) {
	data, _ := scenarios.Read(f.Scenario)
	sc, err := scenario.Parse(data)
	if err != nil || sc.Sweep != nil {
		return 0, 0, false
	}
	metric, group := sc.MainMetric()
	for _, v := range f.Values {
		if v.X == nil && v.Metric == metric && v.Group == group && v.Mean != nil && !math.IsNaN(*v.Mean) {
			ours++
		}
	}
	for _, r := range f.Reference {
		if r.X == nil && r.Metric == metric && r.Group == group {
			paper++
		}
	}
	return ours, paper, true
}

// checkBars checks the bar chart of a figure without a sweep: its bars,
// a name under each group, and its metrics table, which stays below it.
func (p *page) checkBars(ours, paper int) {
	p.t.Helper()
	if !eval[bool](p, `!!document.querySelector("svg#figure-bars[role=img][aria-label]")`) {
		p.t.Error("a figure without a sweep is not drawn as bars (#figure-bars)")
		return
	}
	got := eval[[]int](p, `["ours", "paper"].map(k => document.querySelectorAll("#figure-bars rect.bar." + k).length)`)
	if got[0] != ours || got[1] != paper {
		p.t.Errorf("bars: %d of ours and %d of the paper's, the record has %d and %d", got[0], got[1], ours, paper)
	}
	if !eval[bool](p, `(() => { const b = document.getElementById("figure-card"), t = document.getElementById("figure-table"); return !!b && !!t && (b.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING) > 0; })()`) {
		p.t.Error("the metrics table is not below the bars")
	}
	p.t.Logf("bars: %d of ours, %d of the paper's", got[0], got[1])
}

// barsFigure is a figure without a sweep whose quick re-run takes seconds.
const barsFigure = "sjfbco-fig4"

// A figure without a sweep re-run here in quick mode is drawn as bars of
// the run's own values: one of ours per policy of the record, at other
// heights than the record's, which ran more seeds.
func TestBarsAfterRerun(t *testing.T) {
	rep := committedRecord(t)
	rec := recordOf(&rep, barsFigure)
	need(t, rec != nil, "a record of "+barsFigure)
	ours, _, ok := recordBars(rec)
	need(t, ok && ours > 0, "bars in the record of "+barsFigure)
	srv := serve(t, site(t))
	ctx, cancel := browser(t, 6*time.Minute)
	defer cancel()
	errs := consoleErrors(ctx)
	p := &page{t: t, ctx: ctx}
	p.do(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL+"/"))
	p.started()
	p.openFigure(barsFigure)
	p.wait(`!!document.getElementById("figure-rerun-quick") && !document.getElementById("figure-rerun-quick").disabled`, figureStatusJS, 20*time.Second)
	const tipsJS = `[...document.querySelectorAll("#figure-bars rect.bar.ours title")].map(t => t.textContent)`
	recorded := eval[[]string](p, tipsJS)
	p.click("figure-rerun-quick")
	p.wait(`!!document.getElementById("figure-compare") || !!document.querySelector(".figure-view .error")`, figureStatusJS, 5*time.Minute)
	if eval[bool](p, `!!document.querySelector(".figure-view .error")`) {
		t.Fatalf("the run failed: %s", eval[string](p, figureStatusJS))
	}
	run := eval[[]string](p, tipsJS)
	if len(run) != ours {
		t.Errorf("%d bars of ours after the run (%q), the record has %d", len(run), run, ours)
	}
	if strings.Join(run, "|") == strings.Join(recorded, "|") {
		t.Errorf("the bars after a quick run are the record's: %q", run)
	}
	t.Logf("record %q; quick run %q", recorded, run)
	for _, e := range errs() {
		t.Errorf("console: %s", e)
	}
}
