// Package benchfig makes the report's benchmark figures: it measures
// (sim/experiment/decisiontime), judges the paper's claims on the times
// of this run and draws the figure. The decisions go into the report as
// they are; the wall times go apart, beside the machine they were taken
// on, since they differ between runs and machines.
package benchfig

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/schedlab/schedlab/sim/experiment/decisiontime"
	"github.com/schedlab/schedlab/sim/experiment/reproduce"
	"github.com/schedlab/schedlab/sim/plot"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
)

// Set-ups of the decision-time figure: 256 GPUs (64 servers of 4), as
// the paper's Figs. 2 and 14(a), from 256 to the paper's 3,000 active
// jobs, 7 timed rounds each. Quick mode times 256 and 1,024 jobs, 3
// rounds each, in about a second (Gavel's first per-job LP at 3,000 jobs
// alone takes about 10 s), and judges the checks at 1,024 jobs.
var (
	fullSetup  = decisiontime.Setup{Servers: 64, Jobs: []int{256, 512, 1024, 2048, 3000}, Rounds: 7, Seed: 1}
	quickSetup = decisiontime.Setup{Servers: 64, Jobs: []int{256, 1024}, Rounds: 3, Seed: 1}
)

// The paper's claim: a round decided within 1 second at 3,000 jobs.
const limitMS = 1000

// Run measures the benchmark b and returns its figure's report and
// drawing. Only DecisionTime exists.
func Run(ctx context.Context, b reproduce.Benchmark, quick bool, o plot.Options) (results.FigureRepro, *plot.Figure, error) {
	if b.Name != reproduce.DecisionTime.Name {
		return results.FigureRepro{}, nil, fmt.Errorf("no benchmark %q", b.Name)
	}
	s := fullSetup
	if quick {
		s = quickSetup
	}
	ds, ts, err := decisiontime.Measure(ctx, s)
	if err != nil {
		return results.FigureRepro{}, nil, err
	}
	f := Figure(b, s, ds, ts, decisiontime.Here(), quick)
	fig, err := Draw(f, o)
	return f, fig, err
}

// Figure is the report of one measurement: the decisions, the times
// apart, and the two checks judged on the times at the largest count.
func Figure(b reproduce.Benchmark, s decisiontime.Setup, ds []decisiontime.Decision, ts []decisiontime.Times, m decisiontime.Machine, quick bool) results.FigureRepro {
	f := results.FigureRepro{Figure: b.Figure, Scenario: b.Name, Claim: b.Title, Checks: []results.CheckRepro{}}
	bench := &results.BenchmarkRepro{Setup: setupWords(s),
		Timing: &results.TimingRepro{Machine: fmt.Sprintf("%d cores, %s/%s, %s", m.Cores, m.GOOS, m.GOARCH, m.Go), Rounds: s.Rounds}}
	for _, d := range ds {
		bench.Decisions = append(bench.Decisions, results.BenchRow{X: float64(d.Jobs), Values: []results.NamedValue{
			{Name: "Tesserae: jobs placed", Value: float64(d.Placed)},
			{Name: "Tesserae: jobs sharing a GPU", Value: float64(d.Packed)},
			{Name: "Tesserae: jobs moved in the timed rounds", Value: float64(d.Moved)},
			{Name: "Gavel, a row per job: LPs per round", Value: float64(d.LPs)},
			{Name: "Gavel, a row per job: worst-off job's share", Value: round9(d.Objective)},
			{Name: "Gavel, jobs of a kind merged: LPs per round", Value: float64(d.MergedLPs)},
			{Name: "Gavel, jobs of a kind merged: worst-off job's share", Value: round9(d.MergedObjective)},
			{Name: "Gavel, jobs of a kind merged: pairs allowed to share", Value: float64(d.MergedPairs)},
		}})
	}
	x := make([]float64, len(ts))
	for i, t := range ts {
		x[i] = float64(t.Jobs)
	}
	line := func(name string, v func(decisiontime.Times) float64) {
		sr := results.SeriesRepro{Policy: name, Metric: "decision time", Unit: "ms", X: x}
		for _, t := range ts {
			y := v(t)
			sr.Mean, sr.SD = append(sr.Mean, &y), append(sr.SD, nil)
		}
		bench.Timing.Series = append(bench.Timing.Series, sr)
	}
	line(tesseraeLine, func(t decisiontime.Times) float64 { return t.TesseraeMS })
	line(gavelLine, func(t decisiontime.Times) float64 { return t.GavelMS })
	line(mergedLine, func(t decisiontime.Times) float64 { return t.MergedMS })
	line("Tesserae: scheduling (order and exclusive pass)", func(t decisiontime.Times) float64 { return t.Scheduling })
	line("Tesserae: packing matching", func(t decisiontime.Times) float64 { return t.Packing })
	line("Tesserae: migration matching", func(t decisiontime.Times) float64 { return t.Migration })
	f.Benchmark = bench
	f.Checks = checks(ts[len(ts)-1], quick)
	return f
}

// Names of the drawn lines.
const (
	tesseraeLine = "Tesserae (order, packing matching, migration matching)"
	gavelLine    = "Gavel's LP, a row per job"
	mergedLine   = "Gavel's LP as schedlab solves it (jobs of a kind merged, pairs allowed)"
)

// checks judges the paper's two claims on the times at the largest
// count. In quick mode they are shown but not required: wall times on a
// loaded machine can flip a verdict, and quick mode runs in the test
// suite.
func checks(t decisiontime.Times, quick bool) []results.CheckRepro {
	paper, zero := float64(limitMS), 0.0
	ours := t.TesseraeMS
	where := thousands(t.Jobs) + " active jobs"
	if quick {
		where += " (quick mode; the paper states it at 3,000)"
	}
	under := results.CheckRepro{ID: "under-1s", Class: scenario.ClassClaim, Required: !quick,
		Claim: "Tesserae decides a round within 1 second with " + where + " (ms, the median over the timed rounds, on this machine)",
		Paper: &paper, Ours: &ours, Tolerance: &zero, Bound: "at most",
		Observed: fmt.Sprintf("%.3g ms", ours)}
	if ours <= limitMS {
		under.Verdict = reproduce.Pass
	} else {
		under.Verdict = reproduce.Fail
		under.Why = fmt.Sprintf("a round took %.3g ms here; wall times depend on the machine and what else it runs", ours)
	}
	ratio := t.GavelMS / t.TesseraeMS
	faster := results.CheckRepro{ID: "faster-than-gavel", Class: scenario.ClassClaim, Required: !quick,
		Claim:    "Tesserae decides faster than Gavel's LP with " + where + ": Gavel's time over Tesserae's, both measured in this run, is above 1",
		Ours:     &ratio,
		Observed: fmt.Sprintf("Gavel's LP %.3g ms, Tesserae %.3g ms", t.GavelMS, t.TesseraeMS)}
	if ratio > 1 {
		faster.Verdict = reproduce.Pass
	} else {
		faster.Verdict = reproduce.Fail
		faster.Why = fmt.Sprintf("Gavel's LP took %.3g ms and Tesserae %.3g ms", t.GavelMS, t.TesseraeMS)
	}
	return []results.CheckRepro{under, faster}
}

// Draw draws the three decision times against the active jobs, on a
// logarithmic time axis, with the paper's 1-second mark.
func Draw(f results.FigureRepro, o plot.Options) (*plot.Figure, error) {
	var series []plot.Series
	for _, sr := range f.Benchmark.Timing.Series {
		if sr.Policy != tesseraeLine && sr.Policy != gavelLine && sr.Policy != mergedLine {
			continue
		}
		s := plot.Series{Name: sr.Policy, X: sr.X}
		for _, y := range sr.Mean {
			s.Y = append(s.Y, math.Max(*y, 1e-3))
		}
		series = append(series, s)
	}
	xs := f.Benchmark.Timing.Series[0].X
	series = append(series, plot.Series{Name: "the paper: Tesserae within 1 s at 3,000 jobs", X: []float64{xs[0], xs[len(xs)-1]}, Y: []float64{limitMS, limitMS}, Dashed: true})
	machine, _, _ := strings.Cut(f.Benchmark.Timing.Machine, ", go") // the Go version is in the report
	title := "Decision time per round, 256 GPUs (" + machine + ")"
	return plot.Lines(title, "active jobs", "milliseconds (median of the timed rounds)", series, plot.Options{LogY: true, EmbedFonts: o.EmbedFonts})
}

func setupWords(s decisiontime.Setup) string {
	counts := ""
	for i, n := range s.Jobs {
		if i > 0 {
			counts += ", "
		}
		counts += thousands(n)
	}
	return fmt.Sprintf("%d GPUs (%d servers of 4 A100s). At each count of active jobs (%s), all present from the start, 1-, 2- and 4-GPU jobs of the six models Tesserae's pair table measured: "+
		"Tesserae-T decides one round to warm up, then %d timed rounds, read from its own stopwatch (the order and exclusive pass, the packing matching, the migration matching); "+
		"Gavel's max-min fairness LP is solved one round to warm up, then %d timed rounds, in the same process over the same jobs, as Gavel writes it (a row per job, no pairs: with pairs its rows grow with the square of the jobs: 256 and 512 jobs had not finished after 4 minutes) and as schedlab's Gavel solves it (jobs of a kind merged into one row, pairs of 1-GPU jobs allowed). "+
		"The times are medians over the timed rounds. POP, the paper's third line (Gavel's LP split into smaller ones), is out of scope: schedlab does not implement it, so it is not measured.",
		s.Servers*4, s.Servers, counts, s.Rounds, s.Rounds)
}

func thousands(n int) string {
	if n >= 1000 {
		return fmt.Sprintf("%d,%03d", n/1000, n%1000)
	}
	return fmt.Sprint(n)
}

// round9 keeps 9 significant digits: the LP's objective, the same on
// every machine to far more than that.
func round9(x float64) float64 {
	if x == 0 {
		return 0
	}
	p := math.Pow(10, 8-math.Floor(math.Log10(math.Abs(x))))
	return math.Round(x*p) / p
}
