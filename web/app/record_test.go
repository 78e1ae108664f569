package app_test

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/app/apptest"
)

// handTally counts a figure's claims the way REPRODUCTION.md explains
// them, written out here rather than calling the code under test: a check
// of class claim (or of no class and not calibrated) counts; n/a claims
// are counted neither way.
func handTally(f results.FigureRepro) (pass, fail, na int) {
	for _, c := range f.Checks {
		if c.Class != "" && c.Class != "claim" || c.Class == "" && c.Calibrated {
			continue
		}
		switch c.Verdict {
		case "pass":
			pass++
		case "fail":
			fail++
		default:
			na++
		}
	}
	return
}

// markdownClaims reads REPRODUCTION.md's per-figure tally, "Claims: 3
// pass, 1 fail, 1 n/a." after each "### Figure (`scenario`)" heading.
func markdownClaims(t *testing.T) map[string][3]int {
	data, err := os.ReadFile("../../REPRODUCTION.md")
	if err != nil {
		t.Skipf("no REPRODUCTION.md: %v", err)
	}
	head := regexp.MustCompile("^### .*\\(`([^`]+)`\\)")
	claims := regexp.MustCompile(`Claims: (\d+) pass, (\d+) fail(?:, (\d+) n/a)?`)
	out := map[string][3]int{}
	name := ""
	for _, line := range strings.Split(string(data), "\n") {
		if m := head.FindStringSubmatch(line); m != nil {
			name = m[1]
			continue
		}
		if m := claims.FindStringSubmatch(line); m != nil && name != "" {
			var n [3]int
			for i := range 3 {
				n[i], _ = strconv.Atoi(m[i+1])
			}
			out[name] = n
			name = ""
		}
	}
	return out
}

// Every figure of the committed record opens on its record: the card and
// the figure say the same count, it is the count REPRODUCTION.md gives,
// a failure shows its recorded why and an n/a its reason, and no
// full-mode verdict is called a quick-mode one.
func TestEveryFigureCountsAsItsCard(t *testing.T) {
	data, err := os.ReadFile("../../reproduction/report.json")
	if err != nil {
		t.Skipf("no committed record: %v", err)
	}
	b := apptest.New(t)
	a := app.New(b)
	a.SetReproduction(data)
	if a.Repro == nil {
		t.Fatal("the committed record was not read")
	}
	md := markdownClaims(t)
	if len(md) == 0 {
		t.Log("REPRODUCTION.md has no 'Claims:' tallies (made before they existed); compared with the record only")
	}
	figures := 0
	for _, p := range a.Repro.Papers {
		for _, rec := range p.Figures {
			if rec.Benchmark != nil {
				continue // a figure of wall times has no scenario to open; the page does not show it yet
			}
			figures++
			card, _ := a.Badge(rec.Scenario)
			a.OpenFigure(rec.Scenario)
			if a.Fig == nil || !a.Fig.Record || a.FigureRunning() {
				t.Errorf("%s: did not open on its record", rec.Scenario)
				continue
			}
			v := a.Fig.View
			if v.Summary != card {
				t.Errorf("%s: the card says %q, the figure %q", rec.Scenario, card, v.Summary)
			}
			pass, fail, na := handTally(rec)
			if v.Passed != pass || v.Counted != pass+fail {
				t.Errorf("%s: the figure counts %d of %d, the record %d pass, %d fail", rec.Scenario, v.Passed, v.Counted, pass, fail)
			}
			if !strings.HasPrefix(card, fmt.Sprintf("%d of %d claims hold", pass, pass+fail)) {
				t.Errorf("%s: card %q, the record %d pass, %d fail", rec.Scenario, card, pass, fail)
			}
			if n, ok := md[rec.Scenario]; ok && n != [3]int{pass, fail, na} {
				t.Errorf("%s: REPRODUCTION.md says %v, the record %d pass, %d fail, %d n/a", rec.Scenario, n, pass, fail, na)
			}
			if strings.Contains(card, "quick mode") != a.Repro.Quick {
				t.Errorf("%s: %q in a record whose quick mode is %v", rec.Scenario, card, a.Repro.Quick)
			}
			for i, c := range rec.Checks {
				k := v.Checks[i]
				switch c.Verdict {
				case "fail":
					if k.Verdict != "fails" || k.Why != c.Why {
						t.Errorf("%s/%s: shows %s with why %q, the record fail with %q", rec.Scenario, c.ID, k.Verdict, k.Why, c.Why)
					}
				case "n/a":
					if k.Verdict != "n/a" || k.Why != c.NA {
						t.Errorf("%s/%s: shows %s with %q, the record n/a because %q", rec.Scenario, c.ID, k.Verdict, k.Why, c.NA)
					}
				case "pass":
					if k.Verdict != "holds" {
						t.Errorf("%s/%s: shows %s, the record pass", rec.Scenario, c.ID, k.Verdict)
					}
				}
			}
			// A swept figure over several seeds shows their spread.
			if spread := recordSpread(rec); spread != strings.Contains(a.FigureChart(), `class="err"`) {
				t.Errorf("%s: the record has a spread over seeds: %v; the chart draws error bars: %v", rec.Scenario, spread, !spread)
			}
			if plan := a.FigurePlan(); !strings.Contains(plan, "make reproduce") {
				t.Errorf("%s: the figure does not say where its numbers come from: %q", rec.Scenario, plan)
			}
		}
	}
	if figures < 40 {
		t.Errorf("the record has %d figures; the papers have more than 40", figures)
	}
}

// A recorded sweep draws every recorded point of every policy beside the
// paper's values, with no simulation; a recorded JCT distribution is
// drawn as a CDF, one line per policy, rising with the JCT.
func TestRecordDrawsSweepAndCDF(t *testing.T) {
	b := apptest.New(t)
	a := app.New(b)
	a.SetReproduction([]byte(`{"quick":false,"run":{"date":"2026-11-29","wall_s":1,"cores":2,"parallel":2},"papers":[
	{"paper":"gavel","figures":[{"figure":"Figure 8","scenario":"gavel-fig8-las-single","seeds":[0,1,2],
	  "checks":[{"id":"knee","claim":"k","class":"claim","verdict":"fail","why":"the knee is at 4.4","paper":null,"ours":null,"ours_sd":null,"tolerance":null,"calibrated":false,"required":true}],
	  "series":[{"policy":"LAS","metric":"avg_jct_s","group":"all","unit":"h","x":[0.4,2,3.2,4.4,5.6],"mean":[20,21,22,40,null],"sd":[1,1,1,2,null]},
	            {"policy":"Gavel","metric":"avg_jct_s","group":"all","unit":"h","x":[0.4,2,3.2,4.4,5.6],"mean":[18,18.5,19,20,23],"sd":[1,1,1,1,1]},
	            {"policy":"Gavel","metric":"p95_jct_s","group":"all","unit":"h","x":[0.4,2,3.2,4.4,5.6],"mean":[90,91,92,93,94],"sd":[1,1,1,1,1]}],
	  "reference":[{"policy":"LAS","metric":"avg_jct_s","group":"all","x":0.4,"unit":"h","paper":23.26,"ours":20}]}]},
	{"paper":"sjf-bsbf","figures":[{"figure":"Fig. 4","scenario":"sjf-bsbf-fig4","checks":[],
	  "values":[{"policy":"FIFO","metric":"p80_jct_s","group":"all","unit":"min","mean":17.5,"n":3},{"policy":"FIFO","metric":"p50_jct_s","group":"all","unit":"min","mean":5.2,"n":3},
	            {"policy":"SJF-BSBF","metric":"p50_jct_s","group":"all","unit":"min","mean":3.1,"n":3},{"policy":"SJF-BSBF","metric":"p80_jct_s","group":"all","unit":"min","mean":8,"n":3},
	            {"policy":"SJF-BSBF","metric":"p50_jct_s","group":"model:bert","unit":"min","mean":99,"n":3}]}]}]}`))

	a.OpenFigure("gavel-fig8-las-single")
	if a.FigureRunning() || a.Fig.View == nil {
		t.Fatal("the recorded figure ran instead of opening on its record")
	}
	v := a.Fig.View
	if len(v.Series) != 2 || len(v.Series[0].X) != 5 || v.Series[0].Policy != "LAS" || v.Series[1].Policy != "Gavel" {
		t.Fatalf("series %+v: want LAS and Gavel at 5 loads each (not the p95 line)", v.Series)
	}
	if len(v.Paper) != 1 || *v.Paper[0].Y[0] != 23.26 {
		t.Errorf("paper points %+v", v.Paper)
	}
	if v.Summary != "0 of 1 claims hold" || v.Checks[0].Why != "the knee is at 4.4" {
		t.Errorf("summary %q, why %q", v.Summary, v.Checks[0].Why)
	}
	if chart := a.FigureChart(); strings.Count(chart, `class="ours"`) < 2 || !strings.Contains(chart, `class="paper"`) {
		t.Errorf("the chart lacks our lines or the paper's point: %.300s", chart)
	}
	if plan := a.FigurePlan(); !strings.Contains(plan, "on 2026-11-29 in full mode") || !strings.Contains(plan, "3 seeds per point") {
		t.Errorf("plan %q", plan)
	}

	a.OpenFigure("sjf-bsbf-fig4")
	cdf := a.FigureLegend()
	if len(cdf) != 2 || cdf[0].Name != "FIFO" || cdf[1].Name != "SJF-BSBF" {
		t.Fatalf("CDF legend %+v: want a line per policy", cdf)
	}
	if chart := a.FigureChart(); !strings.Contains(chart, `id="figure-cdf"`) || !strings.Contains(chart, "jobs finished (%)") {
		t.Errorf("the distribution is not drawn as a CDF: %.400s", chart)
	}
	rec := a.RecordFigure("sjf-bsbf-fig4")
	series, unit := app.RecordCDF(rec)
	if unit != "min" || series[0].X[0] != 5.2 || series[0].X[1] != 17.5 || *series[0].Y[0] != 50 || *series[0].Y[1] != 80 {
		t.Errorf("FIFO's CDF: x %v, unit %s: want 5.2 then 17.5 min at 50%% and 80%%", series[0].X, unit)
	}
}

// After a figure opens, Results and Timeline never show the scenario run
// before it: they show the figure's runs, and say plainly when the record
// keeps no numbers per point.
func TestFigureOwnsResults(t *testing.T) {
	b := apptest.New(t)
	a := app.New(b)
	a.Start()
	b.Pump(a, apptest.Done(a))
	a.RunAndShow()
	b.Pump(a, apptest.Done(a))
	if a.Res == nil {
		t.Fatal("the default scenario did not run")
	}
	a.SetReproduction([]byte(`{"quick":false,"papers":[{"paper":"sjf-bco","figures":[{"figure":"Fig. 4","scenario":"sjfbco-fig4","checks":[]}]}]}`))
	a.OpenFigure("sjfbco-fig4")
	if a.Res != nil || a.TLRun() != nil {
		t.Errorf("Results still show %q after the figure opened", a.Res.Title)
	}
	if !a.FigureOwnsViews() {
		t.Error("Results and Timeline do not belong to the figure")
	}
	if m := a.FigurePickTable().Missing; !strings.Contains(m, "keeps only this figure's checks") {
		t.Errorf("Results say %q of a record without values", m)
	}
}

// recordSpread reports whether a recorded swept figure has a standard
// deviation over seeds above zero in a series the page draws (its first
// metric and group, as the figure view picks them, or any when it draws
// ratios); a figure without a sweep is drawn as bars or a CDF.
func recordSpread(rec results.FigureRepro) bool {
	if len(rec.Series) == 0 || rec.Series[0].X == nil || len(rec.Seeds) < 2 {
		return false
	}
	for _, s := range rec.Series {
		for _, sd := range s.SD {
			if sd != nil && *sd > 0 {
				return true
			}
		}
	}
	return false
}
