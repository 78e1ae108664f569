package app_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/app/apptest"
)

// After a figure opens, Results show its runs, not the scenario's before:
// after a quick re-run, the picked point and seed's numbers are that
// run's; one click runs that point and seed with every job, and its
// average JCT per policy is the figure run's number for the same point
// and seed (the same simulation), for the policy picked in Timeline too.
func TestFigureRunsPicker(t *testing.T) {
	b := apptest.New(t)
	a := app.New(b)
	a.Open("fifo-vs-sjf")
	a.StartRun()
	b.Pump(a, func() bool { return !a.Running() })
	if a.Res == nil {
		t.Fatal("the first scenario has no results")
	}
	a.OpenFigure("sjf-bsbf-fig6a")
	if a.Res != nil || !a.FigureOwnsViews() {
		t.Fatalf("after the figure opened: results of %v, figure owns the views %v", a.Res != nil, a.FigureOwnsViews())
	}
	a.RerunFigure(app.ModeQuick)
	b.Pump(a, func() bool { return !a.FigureRunning() })
	ch := a.Choices()
	if len(ch.X) != 2 || len(ch.Seeds) != 1 || len(ch.Policies) < 2 || !strings.Contains(ch.Label, "load") {
		t.Fatalf("choices: %+v", ch)
	}
	a.SetPick("point", "1")
	a.SetPick("policy", "1")
	tab := a.FigurePickTable()
	if !tab.RunHere || !tab.PerSeed || len(tab.Columns) != 1 || tab.Columns[0] != ch.Policies[1] || len(tab.Rows) == 0 {
		t.Fatalf("the picked run's table: %+v", tab)
	}
	if !strings.Contains(tab.Caption, "= "+strconv.FormatFloat(ch.X[1], 'g', -1, 64)) {
		t.Errorf("the caption does not name the point: %q", tab.Caption)
	}
	// The figure run's average JCT at the point, per policy.
	want := map[string]float64{}
	for _, part := range a.Fig.Parts {
		if part.X != ch.X[1] || part.Seed != ch.Seeds[0] {
			continue
		}
		for _, v := range part.Values {
			if v.Metric == "avg_jct_s" && v.Group == "all" && v.Value != nil {
				want[v.Policy] = *v.Value
			}
		}
	}
	if len(want) != len(ch.Policies) {
		t.Fatalf("the figure run has the average JCT of %d policies, want %d", len(want), len(ch.Policies))
	}
	a.RunFigurePoint()
	b.Pump(a, func() bool { return !a.Running() })
	if a.Res == nil || a.Res.Point == nil || !a.PickShown() {
		t.Fatalf("the point's run: %+v", a.Res)
	}
	if a.TL.Policy != 1 || a.TLRun() == nil || a.TLRun().Label != ch.Policies[1] {
		t.Errorf("Timeline shows policy %d, want %s", a.TL.Policy, ch.Policies[1])
	}
	for _, p := range a.Res.Policies {
		if got := p.Out.Metrics.AvgJCT; got != want[p.Label] {
			t.Errorf("%s: average JCT %v in the point's run, %v in the figure's", p.Label, got, want[p.Label])
		}
	}
	if !strings.Contains(a.Res.Title, "seed 1 at") || a.Stale() || a.Res.Edited {
		t.Errorf("the point's results: title %q, stale %v, edited %v", a.Res.Title, a.Stale(), a.Res.Edited)
	}
	// Another point picked: the results below are no longer it.
	a.SetPick("point", "0")
	if a.PickShown() {
		t.Error("the results below are said to be the point picked after another was picked")
	}
}

// Results after a figure opens on a record that keeps values: the picked
// point's table is the record's mean at that point (and says so), and the
// picked policy alone when one is picked.
func TestFigureRunsFromRecord(t *testing.T) {
	rec := nativeRecord(t, "sjf-bsbf-fig6a")
	b := apptest.New(t)
	a := app.New(b)
	a.Repro = &results.Reproduction{Quick: true, Papers: []results.PaperRepro{{Paper: "sjf-bsbf", Figures: []results.FigureRepro{rec}}}}
	a.OpenFigure("sjf-bsbf-fig6a")
	ch := a.Choices()
	if len(ch.X) != 2 {
		t.Fatalf("choices %+v", ch)
	}
	a.SetPick("point", "1")
	a.SetPick("policy", "2")
	tab := a.FigurePickTable()
	if tab.RunHere || tab.PerSeed || !strings.Contains(tab.Caption, "mean ± standard deviation") || len(tab.Columns) != 1 || tab.Columns[0] != ch.Policies[2] {
		t.Fatalf("the record's table: %+v", tab)
	}
	var want string
	for _, v := range rec.Values {
		if v.Policy == ch.Policies[2] && v.Metric == "avg_jct_s" && v.Group == "all" && v.X != nil && *v.X == ch.X[1] {
			want = strconv.FormatFloat(*v.Mean, 'g', 3, 64)
		}
	}
	found := false
	for _, r := range tab.Rows {
		if strings.Contains(r[0], "avg_jct_s") {
			found = true
			if !strings.HasPrefix(r[1], want) || want == "" {
				t.Errorf("average JCT of %s at %v: %q, the record %q", ch.Policies[2], ch.X[1], r[1], want)
			}
		}
	}
	if !found {
		t.Errorf("no average JCT row: %q", tab.Rows)
	}
}
