package app_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/app/apptest"
	"github.com/schedlab/schedlab/web/form"
	"github.com/schedlab/schedlab/web/learn"
)

// Opening a paper figure runs its quick sweep over the workers, draws the
// curve with the paper's points, and gives the command line's verdicts;
// after an edit a re-run redraws it from the edited scenario.
func TestOpenFigure(t *testing.T) {
	f := apptest.New(t)
	a := app.New(f)
	a.OpenFigure("sjf-bsbf-fig6a")
	if a.Tab != app.TabFigure || !a.FigureRunning() {
		t.Fatalf("tab %s, running %v", a.Tab, a.FigureRunning())
	}
	f.Pump(a, func() bool { return !a.FigureRunning() })
	if a.Fig.State != app.RunDone || a.Fig.View == nil || !a.Fig.View.Complete {
		t.Fatalf("figure %s: %s", a.Fig.State, a.Fig.Err)
	}
	if ready, all := a.Workers(); all != 2 {
		t.Errorf("workers %d/%d, want 2", ready, all)
	}
	chart := a.FigureChart()
	if !strings.Contains(chart, `class="ours"`) || !strings.Contains(chart, `class="paper"`) {
		t.Errorf("the chart lacks our lines or the paper's points: %.300s", chart)
	}
	data, _ := scenarios.Read("sjf-bsbf-fig6a")
	sc, _ := scenario.Parse(data)
	st, err := experiment.RunStudy(context.Background(), sc, experiment.StudyOptions{Quick: true, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := st.Output()
	// The page counts as the record does: n/a claims are neither held nor
	// failed, so the count is of the judged ones.
	if ws := want.Summary; a.Fig.View.Passed != ws.Passed || a.Fig.View.Counted != ws.Passed+ws.Failed || ws.Claims != ws.Passed+ws.Failed+ws.NA {
		t.Errorf("page: %s; command line: %d pass, %d fail, %d n/a of %d", a.Fig.View.Summary, ws.Passed, ws.Failed, ws.NA, ws.Claims)
	}
	before := *a.Fig.View.Series[0].Y[0]

	// Edit: fewer servers; the figure is stale until run again.
	a.Ed.SetText(&form.Field{Path: "cluster.servers[0].count", Kind: form.Integer}, "12")
	if !a.FigureStale() {
		t.Error("an edit did not make the figure stale")
	}
	a.RunFigure()
	f.Pump(a, func() bool { return !a.FigureRunning() })
	if a.Fig.State != app.RunDone || a.FigureStale() {
		t.Fatalf("re-run %s: %s", a.Fig.State, a.Fig.Err)
	}
	if after := *a.Fig.View.Series[0].Y[0]; after == before {
		t.Errorf("the re-run drew the same first point (%g) after the edit", after)
	}
}

// The gallery puts paper figures under their papers and teaching presets
// apart, without the code's jargon, and filters them.
func TestGalleryGroups(t *testing.T) {
	f := apptest.New(t)
	a := app.New(f)
	secs := a.FigureSections()
	var keys []string
	cards := 0
	for _, s := range secs {
		keys = append(keys, s.Key)
		cards += len(s.Cards)
		for _, c := range s.Cards {
			for _, bad := range []string{"spec 0", "make test", "§"} {
				if strings.Contains(c.Summary+c.Claim, bad) {
					t.Errorf("%s: %q in %q / %q", c.Name, bad, c.Summary, c.Claim)
				}
			}
			if c.Summary == "" || c.Claim == "" {
				t.Errorf("%s has no summary or claim", c.Name)
			}
		}
	}
	if strings.Join(keys, ",") != "sjf-bsbf,gavel,ojpp,tesserae,sjf-bco" {
		t.Errorf("paper sections %v", keys)
	}
	teach, cmp := a.TeachingCards(), a.CompareCards()
	// The Learn path's scenarios are shown in its lessons, not as presets;
	// each belongs to a lesson.
	lessons := map[string]bool{}
	for _, l := range learn.Lessons() {
		lessons[l.Scenario] = true
	}
	inLessons := 0
	for _, c := range a.Cards {
		if slices.Contains(c.Tags, "lesson") {
			inLessons++
			if !lessons[c.Name] {
				t.Errorf("%s is tagged as a lesson's scenario, but no lesson runs it", c.Name)
			}
		}
	}
	if len(teach) == 0 || cards+len(teach)+len(cmp)+inLessons != len(a.Cards) {
		t.Errorf("%d figures + %d presets + %d comparisons + %d lessons' scenarios, %d cards", cards, len(teach), len(cmp), inLessons, len(a.Cards))
	}
	for _, c := range teach {
		if c.Figure || c.Compare {
			t.Errorf("figure or comparison %s among the presets", c.Name)
		}
	}
	// The cross-paper comparisons have a section of their own, each with
	// a student's summary and what we found.
	var names []string
	for _, c := range cmp {
		names = append(names, c.Name)
		if c.Figure || c.Summary == "" || c.Claim == "" || !c.Curve || c.Thumb == "" || !a.IsComparison(c.Name) {
			t.Errorf("comparison %s: figure %v, summary %q, finding %q, curve %v, thumbnail %v", c.Name, c.Figure, c.Summary, c.Claim, c.Curve, c.Thumb != "")
		}
	}
	if strings.Join(names, ",") != "compare-analytic,compare-memshare,compare-throughput" {
		t.Errorf("comparisons %v", names)
	}
	a.SetGalleryFilter("tesserae")
	if s := a.FigureSections(); len(s) != 1 || s[0].Key != "tesserae" || len(a.TeachingCards()) != 0 || len(a.CompareCards()) != 0 {
		t.Errorf("tesserae filter: %d sections, %d presets, %d comparisons", len(s), len(a.TeachingCards()), len(a.CompareCards()))
	}
	a.SetGalleryFilter(app.FilterCompare)
	if len(a.FigureSections()) != 0 || len(a.TeachingCards()) != 0 || len(a.CompareCards()) != len(cmp) {
		t.Errorf("compare filter: %d sections, %d presets, %d comparisons", len(a.FigureSections()), len(a.TeachingCards()), len(a.CompareCards()))
	}
	a.SetGalleryFilter(app.FilterTeaching)
	if len(a.CompareCards()) != 0 {
		t.Errorf("teaching filter shows %d comparisons", len(a.CompareCards()))
	}
	if text, _ := a.Badge("gavel-fig8-las-single"); text != "not yet run" {
		t.Errorf("badge without a report: %q", text)
	}
	a.SetReproduction([]byte(`{"quick":true,"papers":[{"paper":"gavel","figures":[{"figure":"Figure 8","scenario":"gavel-fig8-las-single","checks":[
		{"id":"a","claim":"","verdict":"pass"},{"id":"b","claim":"","verdict":"fail"},{"id":"c","claim":"","verdict":"pass","calibrated":true},
		{"id":"d","claim":"","verdict":"pass","class":"exploration"},{"id":"e","claim":"","verdict":"pass","class":"detail"}]}]}]}`))
	if text, all := a.Badge("gavel-fig8-las-single"); text != "1 of 2 claims hold in quick mode · 1 calibrated (not counted) · 1 exploration, 1 hold" || all {
		t.Errorf("badge: %q, all %v", text, all)
	}
}
