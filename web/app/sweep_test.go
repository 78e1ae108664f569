package app_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/app/apptest"
)

// openQuiet opens a built-in scenario and lets its first run finish.
func openQuiet(t *testing.T, name string) (*apptest.Browser, *app.App) {
	t.Helper()
	b := apptest.New(t)
	a := app.New(b)
	a.Open(name)
	b.Pump(a, func() bool { return !a.Running() && !a.FigureRunning() })
	return b, a
}

// A sweep form with a problem says which part is wrong, and runs nothing.
func TestSweepFormProblems(t *testing.T) {
	_, a := openQuiet(t, "fifo-vs-sjf")
	servers := "cluster.servers[0].count" // whole numbers, at least 1
	for _, c := range []struct {
		d    app.SweepDraft
		want string
	}{
		{app.SweepDraft{Path: servers, Values: "4"}, "Values: give 2 to 20 numbers"},
		{app.SweepDraft{Path: servers, Values: "2, 2.5"}, "takes whole numbers, and 2.5 is not one"},
		{app.SweepDraft{Path: servers, Values: "0, 2"}, "must be at least 1, and 0 is less"},
		{app.SweepDraft{Path: servers, Values: "4, 2"}, "increasing order (2 comes after 4)"},
		{app.SweepDraft{Path: servers, Values: "2, 4, 2"}, "2 is given twice"},
		{app.SweepDraft{Path: servers, Values: "2, many"}, `"many" is not a number`},
		{app.SweepDraft{Path: servers, Values: "2, 4", Seeds: 11}, "Seeds: from 1 to 10, got 11"},
		{app.SweepDraft{Path: servers, Values: "2, 4", Metric: "speed"}, `Metric: "speed" is not one`},
		{app.SweepDraft{Path: "cluster.nowhere", Values: "2, 4"}, "Number to sweep: choose one"},
	} {
		a.SetSweepDraft(c.d)
		a.DrawSweep()
		if got := a.SweepForm().Err; !strings.Contains(got, c.want) {
			t.Errorf("%+v: %q, want %q", c.d, got, c.want)
		}
		if a.FigureRunning() || a.HasSweep() {
			t.Errorf("%+v: ran or wrote a sweep despite the problem", c.d)
		}
	}
}

// Drawing a sweep writes it into the scenario and runs every value and
// seed: the curve has a point per value with error bars, and fewer
// servers for the same thirty jobs give longer completion times.
func TestDrawSweep(t *testing.T) {
	b, a := openQuiet(t, "fifo-vs-sjf")
	a.SetSweepDraft(app.SweepDraft{Path: "cluster.servers[0].count", Values: "2, 4", Seeds: 2, Metric: "avg_jct_s"})
	a.DrawSweep()
	if err := a.SweepForm().Err; err != "" {
		t.Fatal(err)
	}
	if a.Tab != app.TabFigure || !a.FigureRunning() || !a.HasSweep() {
		t.Fatalf("tab %s, running %v, sweep %v", a.Tab, a.FigureRunning(), a.HasSweep())
	}
	if p, seeds := a.Ed.Str("sweep.params[0]"), a.Ed.Get("seeds[1]"); p != "cluster.servers[0].count" || fmt.Sprint(seeds) != "2" {
		t.Errorf("the scenario sweeps %q with seeds ending %v", p, seeds)
	}
	if got := a.SweepSummary(); got != "This scenario sweeps Servers (cluster, servers row 1) over 2, 4, 2 seeds each." {
		t.Errorf("summary %q", got)
	}
	b.Pump(a, func() bool { return !a.FigureRunning() })
	if a.Fig.State != app.RunDone {
		t.Fatalf("%s: %s", a.Fig.State, a.Fig.Err)
	}
	if plan := a.FigurePlan(); !strings.Contains(plan, "2 values of Servers (cluster, servers row 1) × 2 seeds") || !strings.Contains(plan, "the scenario in the editor") {
		t.Errorf("plan %q", plan)
	}
	if a.HasFullMode() {
		t.Error("a sweep of the student's own offers a full mode, which only a paper's figure has")
	}
	v := a.Fig.View
	if len(v.Series) != 2 {
		t.Fatalf("%d lines, want FIFO's and SJF's", len(v.Series))
	}
	for _, s := range v.Series {
		if len(s.X) != 2 || s.X[0] != 2 || s.X[1] != 4 || s.Y[0] == nil || s.Y[1] == nil {
			t.Fatalf("%s: points %v %v", s.Policy, s.X, s.Y)
		}
		if *s.Y[0] <= *s.Y[1] {
			t.Errorf("%s: average JCT %.0f s on 2 servers, %.0f s on 4: the sweep did not change the cluster", s.Policy, *s.Y[0], *s.Y[1])
		}
	}
	if svg := a.FigureChart(); !strings.Contains(svg, `class="err"`) {
		t.Error("two seeds per point, but no error bars")
	}
	a.RemoveSweep()
	if a.HasSweep() || a.SweepSummary() != "" {
		t.Error("the sweep is still in the scenario")
	}
}

// A teaching preset that sweeps a value draws its whole curve when
// opened: every value and seed, not the test suite's quick subset.
func TestSweepPresetDrawsItsCurve(t *testing.T) {
	b := apptest.New(t)
	a := app.New(b)
	a.Open("load-sweep")
	if a.Tab != app.TabFigure || !a.FigureRunning() {
		t.Fatalf("tab %s, running %v", a.Tab, a.FigureRunning())
	}
	xs, seeds := map[float64]bool{}, map[uint64]bool{}
	for _, u := range a.Fig.Units {
		xs[u.X], seeds[u.Seed] = true, true
	}
	if len(xs) != 7 || len(seeds) != 3 {
		t.Errorf("%d arrival rates and %d seeds, want the preset's 7 and 3", len(xs), len(seeds))
	}
	if name, modified := a.Builtin(); name != "load-sweep" || modified {
		t.Errorf("the editor holds %q, modified %v", name, modified)
	}
	a.CancelFigure()
}
