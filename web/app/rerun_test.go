package app_test

import (
	"context"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/experiment/reproduce"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/app/apptest"
)

// nativeRecord is the record `make reproduce` writes for the quick
// version of the built-in scenario name: the study run natively, in one
// process, and reported as the command line reports it.
func nativeRecord(t *testing.T, name string) results.FigureRepro {
	return recordRun(t, name, "Figure 6a", true)
}

// fullRecord is the same for the scenario's full set-up.
func fullRecord(t *testing.T, name, figure string) results.FigureRepro {
	return recordRun(t, name, figure, false)
}

func recordRun(t *testing.T, name, figure string, quick bool) results.FigureRepro {
	t.Helper()
	data, _ := scenarios.Read(name)
	sc, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	st, err := experiment.RunStudy(context.Background(), sc, experiment.StudyOptions{Quick: quick, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	return reproduce.Figure(reproduce.Done{Entry: reproduce.Entry{Paper: "sjf-bsbf", Figure: figure, Scenario: sc}, Study: st})
}

// A quick re-run in the page, split over its workers, is set beside a
// quick record made natively: identical at every value and check. A
// record changed at one point shows that one difference; against a full
// record only the verdicts are compared, and a changed verdict shows.
func TestRerunComparesWithRecord(t *testing.T) {
	const name = "sjf-bsbf-fig6a"
	rec := nativeRecord(t, name)
	if len(rec.Values) == 0 || len(rec.Checks) == 0 {
		t.Fatalf("the native record has %d values, %d checks", len(rec.Values), len(rec.Checks))
	}
	rerun := func(rec results.FigureRepro, quick bool) *app.Comparison {
		t.Helper()
		b := apptest.New(t)
		a := app.New(b)
		a.Repro = &results.Reproduction{Quick: quick, Papers: []results.PaperRepro{{Paper: "sjf-bsbf", Figures: []results.FigureRepro{rec}}}}
		a.OpenFigure(name)
		if a.Fig == nil || !a.Fig.Record {
			t.Fatal("the figure did not open on the record")
		}
		a.RerunFigure(app.ModeQuick)
		if !a.FigureRunning() || a.Fig.Mode != app.ModeQuick {
			t.Fatalf("no quick run: running %v, mode %q", a.FigureRunning(), a.Fig.Mode)
		}
		b.Pump(a, func() bool { return !a.FigureRunning() })
		if a.Fig.State != app.RunDone || a.Fig.Compare == nil {
			t.Fatalf("state %s (%s), comparison %v", a.Fig.State, a.Fig.Err, a.Fig.Compare)
		}
		return a.Fig.Compare
	}

	c := rerun(rec, true)
	if !c.Values || !c.ValuesCompared || !c.Identical || c.Compared != len(rec.Values)+len(rec.Checks) {
		t.Errorf("same set-up: values %v, identical %v, %d compared (want %d): %+v", c.Values, c.Identical, c.Compared, len(rec.Values)+len(rec.Checks), c.Diffs)
	}

	// One recorded mean off in its last digit, at a swept point.
	changed := rec
	changed.Values = append([]results.ValueRepro(nil), rec.Values...)
	i := 0
	for i < len(changed.Values) && (changed.Values[i].Mean == nil || changed.Values[i].X == nil) {
		i++
	}
	if i == len(changed.Values) {
		t.Fatal("no swept value with a mean in the record")
	}
	m := *changed.Values[i].Mean * (1 + 1e-12)
	changed.Values[i].Mean = &m
	c = rerun(changed, true)
	if c.Identical || len(c.Diffs) != 1 {
		t.Fatalf("one changed mean: identical %v, differences %+v", c.Identical, c.Diffs)
	}
	v := changed.Values[i]
	if d := c.Diffs[0]; !strings.Contains(d.Where, v.Policy) || !strings.Contains(d.Where, v.Metric) || !strings.Contains(d.Where, "= "+strconv.FormatFloat(*v.X, 'g', -1, 64)) || d.What != "mean over the seeds" {
		t.Errorf("the difference is not named by its policy, metric and point: %+v (changed %s %s at %v)", d, v.Policy, v.Metric, *v.X)
	}

	// A full record: the quick run is compared by verdicts only, so the
	// changed mean no longer counts, but a changed verdict does.
	changed.Checks = append([]results.CheckRepro(nil), rec.Checks...)
	flip := map[string]string{"pass": "fail", "fail": "pass", "n/a": "pass"}
	changed.Checks[0].Verdict = flip[changed.Checks[0].Verdict]
	c = rerun(changed, false)
	if c.Values || c.Identical || len(c.Diffs) != 1 || c.Compared != len(rec.Checks) || c.Diffs[0].What != "verdict" {
		t.Errorf("full record, one verdict changed: values %v, identical %v, %d compared, differences %+v", c.Values, c.Identical, c.Compared, c.Diffs)
	}
}

// The estimate of a re-run is the time per simulation last measured in
// this browser times the rounds of simulations over the workers; full
// mode never run here scales the quick time by the jobs per simulation.
// Gavel's Figure 8: quick runs 2 loads x 1 seed of 700 jobs, full 15 x 3
// of 7,000 (its file).
func TestRerunEstimate(t *testing.T) {
	b := apptest.New(t)
	a := app.New(b)
	a.OpenFigure("gavel-fig8-las-single")
	a.CancelFigure()
	if e := a.FigureEstimate(app.ModeQuick); e.Seconds != 0 || !strings.Contains(a.EstimateText(app.ModeQuick), "time left shows once") {
		t.Errorf("an estimate without a measurement: %+v", e)
	}
	_ = b.Save("schedlab-figure-seconds:gavel-fig8-las-single:quick", "3.000")
	q := a.FigureEstimate(app.ModeQuick)
	f := a.FigureEstimate(app.ModeFull)
	if q.Sims%2 != 0 || f.Sims != q.Sims/2*15*3 || q.Workers != 2 {
		t.Fatalf("quick %+v, full %+v: want 2 x 1 against 15 x 3 sweep points and seeds", q, f)
	}
	// quick: 3 s x ceil(sims/2); full: 3 s x 10 (7,000 / 700 jobs) x ceil(sims/2).
	if want := 3.0 * float64((q.Sims+1)/2); q.Seconds != want {
		t.Errorf("quick estimate %.1f s, want %.1f", q.Seconds, want)
	}
	if want := 3.0 * 10 * float64((f.Sims+1)/2); f.Seconds != want || !strings.Contains(f.Basis, "7,000 jobs") {
		t.Errorf("full estimate %.1f s (%s), want %.1f", f.Seconds, f.Basis, want)
	}
	// A measured full run wins over the scaled quick time.
	_ = b.Save("schedlab-figure-seconds:gavel-fig8-las-single:full", "20")
	if f2 := a.FigureEstimate(app.ModeFull); f2.Seconds != 20*float64((f.Sims+1)/2) {
		t.Errorf("full estimate from a full measurement: %+v", f2)
	}
}

// Before this browser has timed a run, the estimate scales the CPU the
// committed full record spent per simulation natively by the browser's
// slowdown (4.2), for quick mode down by the jobs (7,000 / 700), and
// adds the page's 0.1 s per simulation.
// A quick record, or a figure the record did not time, gives none.
func TestRerunEstimateFromRecord(t *testing.T) {
	b := apptest.New(t)
	a := app.New(b)
	a.OpenFigure("gavel-fig8-las-single")
	a.CancelFigure()
	rec := results.FigureRepro{Figure: "Figure 8", Scenario: "gavel-fig8-las-single", Cost: &results.CostRepro{CPUSeconds: 90, Simulated: 45}}
	a.Repro = &results.Reproduction{Papers: []results.PaperRepro{{Paper: "gavel", Figures: []results.FigureRepro{rec}}}}
	f, q := a.FigureEstimate(app.ModeFull), a.FigureEstimate(app.ModeQuick)
	// 90 s / 45 runs = 2 s natively, 8.4 + 0.1 s in a browser, 0.84 +
	// 0.1 s quick.
	if want := 8.5 * float64((f.Sims+1)/2); math.Abs(f.Seconds-want) > 1e-9 || !strings.Contains(f.Basis, "2 s of CPU per simulation natively") {
		t.Errorf("full estimate from the record: %.2f s (%s), want %.2f", f.Seconds, f.Basis, want)
	}
	if want := 0.94 * float64((q.Sims+1)/2); math.Abs(q.Seconds-want) > 1e-9 || !strings.Contains(q.Basis, "divided by 10") {
		t.Errorf("quick estimate from the record: %.2f s (%s), want %.2f", q.Seconds, q.Basis, want)
	}
	full := a.Repro
	for what, r := range map[string]*results.Reproduction{
		"quick record": {Quick: true, Papers: a.Repro.Papers},
		"no cost":      {Papers: []results.PaperRepro{{Paper: "gavel", Figures: []results.FigureRepro{{Scenario: "gavel-fig8-las-single"}}}}},
	} {
		a.Repro = r
		if e := a.FigureEstimate(app.ModeFull); e.Seconds != 0 {
			t.Errorf("%s: an estimate %+v", what, e)
		}
	}
	// A time measured here wins.
	a.Repro = full
	_ = b.Save("schedlab-figure-seconds:gavel-fig8-las-single:quick", "3.000")
	if q2 := a.FigureEstimate(app.ModeQuick); q2.Seconds != 3*float64((q.Sims+1)/2) {
		t.Errorf("quick estimate after a run here: %+v", q2)
	}
}

// Cancel stops a re-run: nothing is compared, and the run is cancelled.
func TestRerunCancel(t *testing.T) {
	b := apptest.New(t)
	a := app.New(b)
	a.OpenFigure("gavel-fig8-las-single")
	a.RerunFigure(app.ModeQuick)
	if !a.FigureRunning() {
		t.Fatal("not running")
	}
	a.CancelFigure()
	b.Pump(a, func() bool { return true })
	if a.Fig.State != app.RunCancelled || a.Fig.Compare != nil || a.TimeLeft() != "" {
		t.Errorf("state %s, comparison %v, time left %q", a.Fig.State, a.Fig.Compare, a.TimeLeft())
	}
}

// Full mode runs every seed and sweep value of the built-in set-up: the
// document sent to the workers has no quick block left.
func TestRerunFullDocument(t *testing.T) {
	b := apptest.New(t)
	a := app.New(b)
	a.OpenFigure("gavel-fig8-las-single")
	a.RerunFigure(app.ModeFull)
	defer a.CancelFigure()
	sc, err := scenario.Parse([]byte(a.Fig.Doc))
	if err != nil {
		t.Fatal(err)
	}
	if sc.Quick != nil || len(sc.RunSeeds()) != 3 || len(sc.Sweep.Values) != 15 || len(a.Fig.Units)%45 != 0 {
		t.Errorf("full mode runs quick %v, %d seeds, %d values, %d units", sc.Quick != nil, len(sc.RunSeeds()), len(sc.Sweep.Values), len(a.Fig.Units))
	}
}
