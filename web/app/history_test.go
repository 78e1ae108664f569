package app_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/app/apptest"
)

// runWithServers sets the default scenario's servers and runs it.
func runWithServers(t *testing.T, b *apptest.Browser, a *app.App, n int) {
	t.Helper()
	a.SetText(clusterField(t, a, "cluster.servers[0].count"), strconv.Itoa(n))
	a.RunAndShow()
	b.Pump(a, apptest.Done(a))
	if a.Run.State != app.RunDone {
		t.Fatalf("run with %d servers: %s %s", n, a.Run.State, a.Run.Err)
	}
}

// row finds a policy's metric in a comparison.
func row(t *testing.T, c *app.RunComparison, policy, key string) app.CompareRow {
	t.Helper()
	for _, r := range c.Rows {
		if r.Policy == policy && r.Key == key {
			return r
		}
	}
	t.Fatalf("no row for %s %s in %+v", policy, key, c.Rows)
	return app.CompareRow{}
}

// Each run is kept with a label computed from what changed since the run
// before, and two runs compare side by side: the metrics each run showed,
// the difference, both curves and both Gantt charts.
func TestHistoryComparesTwoRuns(t *testing.T) {
	b, a := openQuiet(t, "fifo-vs-sjf")
	b.Pump(a, apptest.Drawn(a))
	runs := a.HistoryRuns()
	if len(runs) != 1 || runs[0].N != 1 || runs[0].What() != "the first run kept" || runs[0].PolicyNames() != "FIFO, SJF" {
		t.Fatalf("after the first run: %d runs, %+v", len(runs), runs)
	}
	if a.Compare() != nil {
		t.Error("a comparison of a single run")
	}
	first := a.Res
	fifo1 := first.Policies[0].Out.Metrics
	var jct1 []float64
	for _, j := range first.Policies[0].Out.Jobs {
		if j.JCTS != nil {
			jct1 = append(jct1, *j.JCTS)
		}
	}

	b.Advance(3 * time.Minute)
	runWithServers(t, b, a, 2) // from 4 servers to 2
	runs = a.HistoryRuns()
	if len(runs) != 2 || runs[0].N != 2 || runs[1].N != 1 {
		t.Fatalf("%d runs, newest first %+v", len(runs), runs)
	}
	if got := runs[0].What(); got != "Servers 4 → 2" {
		t.Errorf("run 2 says it changed %q", got)
	}
	if got := runs[1].Label(b.Now()); got != "Run 1 · 3 min ago · FIFO, SJF · the first run kept" {
		t.Errorf("run 1's label %q", got)
	}
	fifo2 := a.Res.Policies[0].Out.Metrics

	c := a.Compare()
	if c == nil || c.A.N != 1 || c.B.N != 2 {
		t.Fatalf("comparing %+v", c)
	}
	if len(c.Changes) != 1 || c.Changes[0].Text() != "Cluster › server group 1 › Servers: 4 → 2" || c.Same() {
		t.Errorf("changes %+v", c.Changes)
	}
	avg := row(t, c, "FIFO", "avg_jct_s")
	if avg.ExactA != strconv.FormatFloat(fifo1.AvgJCT, 'g', -1, 64) || avg.ExactB != strconv.FormatFloat(fifo2.AvgJCT, 'g', -1, 64) {
		t.Errorf("FIFO's average JCT: %s and %s, the runs showed %v and %v", avg.ExactA, avg.ExactB, fifo1.AvgJCT, fifo2.AvgJCT)
	}
	// Half the servers for the same jobs: FIFO's jobs take longer.
	if !(fifo2.AvgJCT > fifo1.AvgJCT) || !avg.Worse || avg.Better {
		t.Errorf("FIFO's average JCT %v → %v, marked better %v worse %v", fifo1.AvgJCT, fifo2.AvgJCT, avg.Better, avg.Worse)
	}
	if pct := fmt.Sprintf("(+%.0f%%), worse", 100*(fifo2.AvgJCT-fifo1.AvgJCT)/fifo1.AvgJCT); !strings.HasSuffix(avg.Diff, pct) {
		t.Errorf("FIFO's average JCT differs by %q, want it to end %q", avg.Diff, pct)
	}
	if done := row(t, c, "SJF", "jobs_done"); done.A != "30 of 30" || done.B != "30 of 30" {
		t.Errorf("SJF's jobs done: %q, %q", done.A, done.B)
	}
	if n := strings.Count(c.CDF, `class="cdf"`); n != 4 {
		t.Errorf("%d curves, want one per policy and run", n)
	}
	if !strings.Contains(c.CDF, `data-run="1" data-series="FIFO"`) || !strings.Contains(c.CDF, `data-run="2" data-series="SJF"`) {
		t.Error("the chart does not name its curves' runs and policies")
	}
	// The curve kept is the run's own: it starts at the fastest job and
	// ends with every finished job.
	kept := runs[1].Policies[0]
	if n := len(kept.CDFX); n == 0 || n > 100 || kept.CDFY[n-1] != 1 || kept.CDFX[0] != slices.Min(jct1) || kept.CDFX[n-1] != slices.Max(jct1) {
		t.Errorf("run 1's FIFO curve: %d points from %v to %v, jobs from %v to %v", n, kept.CDFX[0], kept.CDFX[n-1], slices.Min(jct1), slices.Max(jct1))
	}
	if len(c.Gantts) != 2 || c.Gantts[0].A == nil || c.Gantts[0].B == nil || c.Gantts[0].A.URL == c.Gantts[0].B.URL {
		t.Fatalf("Gantt charts %+v", c.Gantts)
	}
	if c.Gantts[0].A != first.Policies[0].Gantt {
		t.Error("run A's Gantt chart is not the one its run drew")
	}

	// B against A the other way round: the difference turns.
	a.CompareRuns(2, 1)
	c = a.Compare()
	if avg := row(t, c, "FIFO", "avg_jct_s"); !avg.Better || !strings.HasPrefix(avg.Diff, "−") || c.Changes[0].From != "2" {
		t.Errorf("run 2 against run 1: %+v, changes %+v", avg, c.Changes)
	}
}

// The history keeps the last HistoryLimit runs; the HistoryFull most
// recently shown keep their full results and the others free their
// images; running a scenario already kept adds nothing.
func TestHistoryBounds(t *testing.T) {
	b, a := openQuiet(t, "fifo-vs-sjf")
	var ganttURLs []string
	ganttURLs = append(ganttURLs, a.Res.Policies[0].Gantt.URL)
	for n := 5; n < 5+app.HistoryLimit+1; n++ {
		runWithServers(t, b, a, n)
		ganttURLs = append(ganttURLs, a.Res.Policies[0].Gantt.URL)
	}
	runs := a.HistoryRuns()
	if len(runs) != app.HistoryLimit || runs[0].N != app.HistoryLimit+2 || runs[len(runs)-1].N != 3 {
		t.Fatalf("%d runs kept, from run %d to run %d", len(runs), runs[len(runs)-1].N, runs[0].N)
	}
	for i, r := range runs {
		if want := i < app.HistoryFull; r.Kept() != want {
			t.Errorf("run %d keeps its full results: %v", r.N, r.Kept())
		}
	}
	for i, u := range ganttURLs {
		if want := i < len(ganttURLs)-app.HistoryFull; b.Revoked[u] != want {
			t.Errorf("run %d's Gantt image freed: %v", i+1, b.Revoked[u])
		}
	}
	// The oldest runs' Gantt charts say why they are missing.
	a.CompareRuns(3, runs[0].N)
	if g := a.Compare().Gantts[0]; g.A != nil || !strings.Contains(g.WhyA, "not kept") || g.B == nil {
		t.Errorf("Gantt charts of an old and a new run: %+v", g)
	}
	// Running the newest scenario again adds no run.
	a.RunAndShow()
	b.Pump(a, apptest.Done(a))
	if again := a.HistoryRuns(); len(again) != app.HistoryLimit || again[0].N != runs[0].N {
		t.Errorf("running again: %d runs, newest %d", len(again), again[0].N)
	}
}

// Going back to a run loads its scenario and shows its results as they
// were, without running; the scenario it replaced can be brought back. A
// run whose full results were dropped runs again, to the same metrics.
func TestGoBackToAnyRun(t *testing.T) {
	b, a := openQuiet(t, "fifo-vs-sjf")
	first, firstDoc := a.Res, a.Ed.JSON()
	runWithServers(t, b, a, 2)
	secondDoc := a.Ed.JSON()
	a.SetText(clusterField(t, a, "cluster.servers[0].count"), "3") // not run
	a.Tab = app.TabScenario

	a.GoBack(1)
	if a.Running() || a.Res != first || a.Ed.JSON() != firstDoc || a.Stale() || a.Tab != app.TabResults {
		t.Fatalf("back to run 1: running %v, its results shown %v, its scenario %v, stale %v, tab %s", a.Running(), a.Res == first, a.Ed.JSON() == firstDoc, a.Stale(), a.Tab)
	}
	if !strings.Contains(a.Notice, "nothing ran again") {
		t.Errorf("notice %q", a.Notice)
	}
	if len(a.HistoryRuns()) != 2 {
		t.Errorf("%d runs after going back", len(a.HistoryRuns()))
	}
	a.Undo() // the edited scenario, never run, comes back
	if v, _ := a.Ed.Number("cluster.servers[0].count"); v != 3 {
		t.Errorf("Undo brought back %v servers", v)
	}
	b.Pump(a, apptest.Done(a))

	// Four more runs drop run 2's full results; going back runs it again.
	for n := 5; n < 9; n++ {
		runWithServers(t, b, a, n)
	}
	two := a.HistoryRun(2)
	if two == nil || two.Kept() {
		t.Fatalf("run 2: %+v", two)
	}
	want := two.Policies[1].Metrics
	count := len(a.HistoryRuns())
	a.GoBack(2)
	if !a.Running() || a.Ed.JSON() != secondDoc || !strings.Contains(a.Notice, "runs again") {
		t.Fatalf("back to run 2: running %v, its scenario %v, notice %q", a.Running(), a.Ed.JSON() == secondDoc, a.Notice)
	}
	b.Pump(a, apptest.Done(a))
	if got := a.Res.Policies[1].Out.Metrics; got != want {
		t.Errorf("run 2 again: %+v, first time %+v", got, want)
	}
	if len(a.HistoryRuns()) != count || !a.HistoryRun(2).Kept() {
		t.Errorf("running run 2 again: %d runs (was %d), kept %v", len(a.HistoryRuns()), count, a.HistoryRun(2).Kept())
	}
}

// The browser keeps the history across visits without the full results:
// the runs, their labels and metrics come back, their Gantt charts say
// they were not kept, and numbering goes on.
func TestHistoryPersists(t *testing.T) {
	b, a := openQuiet(t, "fifo-vs-sjf")
	runWithServers(t, b, a, 2)
	before := a.Compare()
	avg := row(t, before, "SJF", "p95_jct_s")

	c := apptest.New(t)
	for k, v := range b.Storage {
		c.Storage[k] = v
	}
	later := app.New(c)
	runs := later.HistoryRuns()
	if len(runs) != 2 || runs[0].What() != "Servers 4 → 2" || runs[0].Kept() || runs[1].Kept() {
		t.Fatalf("after a reload: %+v", runs)
	}
	cmp := later.Compare()
	if got := row(t, cmp, "SJF", "p95_jct_s"); got.ExactA != avg.ExactA || got.ExactB != avg.ExactB || got.Diff != avg.Diff {
		t.Errorf("SJF's p95 after a reload %+v, before %+v", got, avg)
	}
	if cmp.CDF != before.CDF {
		t.Error("the curves differ after a reload")
	}
	if g := cmp.Gantts[1]; g.A != nil || !strings.Contains(g.WhyB, "not kept") {
		t.Errorf("Gantt charts after a reload: %+v", g)
	}
	later.Start()
	c.Pump(later, apptest.Done(later))
	later.SetText(clusterField(t, later, "cluster.servers[0].count"), "1")
	later.RunAndShow()
	c.Pump(later, apptest.Done(later))
	if runs := later.HistoryRuns(); len(runs) != 3 || runs[0].N != 3 || runs[0].What() != "Servers 2 → 1" {
		t.Errorf("the next run after a reload: %+v", runs[0])
	}
}
