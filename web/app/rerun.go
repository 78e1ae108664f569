package app

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
)

// A figure re-run here in quick or full mode: how long it will take (from
// times measured in this browser), how long is left, and, when it ends,
// how it compares with the committed record.

// Comparison is a figure run here set beside the committed record.
type Comparison struct {
	// Values is true when the run had the record's set-up, so its numbers
	// are compared one by one; false when only the checks' verdicts are
	// (a quick run against a full record, or an edited scenario).
	Values    bool
	Identical bool
	// ValuesCompared: the record kept values per sweep point, and they
	// were compared (an older record keeps only its checks).
	ValuesCompared bool
	// Compared is how many numbers (or verdicts) were set side by side;
	// Basis says which, in words.
	Compared int
	Basis    string
	Diffs    []Difference
}

// Difference is one number or verdict that differs: where (the sweep
// point, policy and metric, or the check), what (mean, spread, seeds,
// verdict), and the record's and this run's.
type Difference struct {
	Where, What, Record, Run string
}

// compareRecord sets run (a figure run here, sameSetup when it ran the
// record's set-up) beside rec. With the same set-up every recorded value
// (the mean, spread and seed count of each metric at each sweep point and
// policy) and every check's verdict and number must be equal to be
// identical; otherwise only the verdicts are compared.
func compareRecord(rec, run *results.FigureRepro, sameSetup bool, xLabel string) *Comparison {
	c := &Comparison{Values: sameSetup}
	if sameSetup && len(rec.Values) > 0 {
		c.ValuesCompared = true
		c.compareValues(rec.Values, run.Values, xLabel)
	}
	runChecks := map[string]results.CheckRepro{}
	for _, k := range run.Checks {
		runChecks[k.ID] = k
	}
	for _, k := range rec.Checks {
		c.Compared++
		r, ok := runChecks[k.ID]
		where := "check “" + k.Claim + "”"
		switch {
		case !ok:
			c.Diffs = append(c.Diffs, Difference{where, "verdict", verdictWord(k.Verdict), "not checked"})
		case r.Verdict != k.Verdict:
			c.Diffs = append(c.Diffs, Difference{where, "verdict", verdictWord(k.Verdict), verdictWord(r.Verdict)})
		case sameSetup && !sameFloat(k.Ours, r.Ours):
			c.Diffs = append(c.Diffs, Difference{where, "our number", exact(k.Ours), exact(r.Ours)})
		}
	}
	c.Identical = len(c.Diffs) == 0
	nChecks := plural(len(rec.Checks), "check")
	switch {
	case !sameSetup:
		c.Basis = "the verdict of each of the record's " + nChecks
	case len(rec.Values) > 0:
		c.Basis = fmt.Sprintf("%s at every sweep point (each the mean, spread and number of seeds over the seeds), and the verdict and number of each of the %s", plural(len(rec.Values), "recorded value"), nChecks)
	default:
		c.Basis = "the verdict and number of each of the record's " + nChecks + " (this record keeps no values per sweep point)"
	}
	return c
}

// compareValues sets the recorded values beside the run's, by policy,
// metric, job group and sweep value.
func (c *Comparison) compareValues(rec, run []results.ValueRepro, xLabel string) {
	key := func(v results.ValueRepro) string {
		x := "-"
		if v.X != nil {
			x = strconv.FormatFloat(*v.X, 'g', -1, 64)
		}
		return v.Policy + "\x00" + v.Metric + "\x00" + v.Group + "\x00" + x
	}
	ours := map[string]results.ValueRepro{}
	for _, v := range run {
		ours[key(v)] = v
	}
	for _, v := range rec {
		c.Compared++
		where := valueWhere(v, xLabel)
		r, ok := ours[key(v)]
		switch {
		case !ok:
			c.Diffs = append(c.Diffs, Difference{where, "value", exact(v.Mean), "not run"})
		case v.Saturated != r.Saturated:
			c.Diffs = append(c.Diffs, Difference{where, "cluster kept up", yesNo(!v.Saturated), yesNo(!r.Saturated)})
		case !sameFloat(v.Mean, r.Mean):
			c.Diffs = append(c.Diffs, Difference{where, "mean over the seeds", exact(v.Mean), exact(r.Mean)})
		case !sameFloat(v.SD, r.SD):
			c.Diffs = append(c.Diffs, Difference{where, "spread (standard deviation)", exact(v.SD), exact(r.SD)})
		case v.N != r.N:
			c.Diffs = append(c.Diffs, Difference{where, "seeds", strconv.Itoa(v.N), strconv.Itoa(r.N)})
		}
	}
}

// valueWhere names a recorded value: "FIFO, avg_jct_s (h) of all jobs at
// job rate = 2.4".
func valueWhere(v results.ValueRepro, xLabel string) string {
	s := v.Policy + ", " + metricLabel(v.Metric, v.Unit)
	if v.Group != "" && v.Group != "all" {
		s += " of group " + v.Group
	}
	if v.X != nil {
		if xLabel == "" {
			xLabel = "sweep value"
		}
		s += " at " + xLabel + " = " + strconv.FormatFloat(*v.X, 'g', -1, 64)
	}
	return s
}

func sameFloat(a, b *float64) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b || (math.IsNaN(*a) && math.IsNaN(*b))
}

// exact is a number with every digit it has, so that a difference in the
// last digits shows; "none" for no value.
func exact(x *float64) string {
	if x == nil {
		return "none"
	}
	return strconv.FormatFloat(*x, 'g', -1, 64)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func verdictWord(v string) string {
	switch v {
	case "pass":
		return "holds"
	case "fail":
		return "fails"
	}
	return v
}

// figureDone keeps the time a figure's simulations took, for the next
// estimate, and sets the run beside the record.
func (a *App) figureDone(f *FigureRun) {
	if per, n := f.secondsPerSim(); n > 0 && f.Server == "" { // a server's pace is not this browser's
		_ = a.P.Save(timeKey(f.Name, f.Mode), strconv.FormatFloat(per, 'f', 3, 64))
	}
	rec := a.RecordFigure(f.Name)
	if rec == nil || f.View == nil {
		return
	}
	same := (f.Mode == ModeQuick) == a.Repro.Quick
	if f.Mode == ModeQuick {
		if name, modified := a.Builtin(); name != f.Name || modified {
			same = false // an edited scenario is not the record's set-up
		}
	}
	f.Compare = compareRecord(rec, &f.View.Figure, same, f.View.XLabel)
}

// secondsPerSim is the mean wall time of the figure's simulations done,
// each on its own worker, and how many there were.
func (f *FigureRun) secondsPerSim() (float64, int) {
	var sum time.Duration
	n := 0
	for _, u := range f.Units {
		if u.State == PartDone && !u.started.IsZero() && !u.ended.IsZero() {
			sum += u.ended.Sub(u.started)
			n++
		}
	}
	if n == 0 {
		return 0, 0
	}
	return sum.Seconds() / float64(n), n
}

func timeKey(name, mode string) string { return "schedlab-figure-seconds:" + name + ":" + mode }

// Estimate is how long a re-run in mode will take, and what it is based
// on.
type Estimate struct {
	Sims, Workers int
	Seconds       float64 // 0: no measurement yet
	Basis         string
}

// FigureEstimate estimates a re-run of the open figure in mode: its
// simulations, spread over the workers, at the time per simulation the
// last run of that mode took in this browser; for full mode never run
// here, the quick mode's time scaled by the jobs each simulation has.
func (a *App) FigureEstimate(mode string) Estimate {
	f := a.Fig
	if f == nil {
		return Estimate{}
	}
	var e Estimate
	if mode == ModeFull {
		e.Sims = a.info(f.Name).fullSims
	} else if sc := a.Ed.Scenario(); sc != nil {
		e.Sims = len(figureUnits(sc))
	}
	if e.Sims == 0 {
		return Estimate{}
	}
	e.Workers = max(1, min(a.maxWorkers(), e.Sims))
	rounds := float64((e.Sims + e.Workers - 1) / e.Workers)
	if per, ok := a.storedSeconds(f.Name, mode); ok {
		e.Seconds = per * rounds
		e.Basis = fmt.Sprintf("the last %s run of this figure in this browser took %s per simulation", mode, secs(per))
		return e
	}
	if mode == ModeFull {
		if per, ok := a.storedSeconds(f.Name, ModeQuick); ok {
			info := a.info(f.Name)
			scale, why := info.scale, info.scaleWhy
			e.Seconds = per * scale * rounds
			e.Basis = fmt.Sprintf("the last quick run of this figure in this browser took %s per simulation%s", secs(per), why)
			return e
		}
	}
	if per, basis := a.recordSecondsPerRun(f.Name, mode); per > 0 {
		e.Seconds, e.Basis = per*rounds, basis
		return e
	}
	e.Basis = "no run of this figure has been timed in this browser yet: the time left shows once the first simulations finish"
	return e
}

// browserSlowdown is how many times longer a simulation takes in the
// page's workers than natively, for a first estimate before this browser
// has timed a run: Gavel's Fig. 8 in full took 806 s on 2 workers in
// headless Chromium against 193 s natively (docs/development.md).
const browserSlowdown = 4.2

// pageSecondsPerRun is the page's own work for each simulation beyond
// the engine's (posting it to a worker, reading its result, evaluating
// the checks): in Chromium SJF-BSBF's Fig. 6(b) ran 300 simulations of
// 0.019 s each in 14.8 s on 2 workers (0.08 s more each), and Fig. 6(a)
// quick 26 of 0.1 s in 3.6 s (0.18 s more each).
const pageSecondsPerRun = 0.1

// recordSecondsPerRun is a first estimate of one simulation of the
// figure in mode in this browser, from the CPU the committed full record
// spent on it natively, and the estimate's basis in words; 0 without a
// full record that timed the figure.
func (a *App) recordSecondsPerRun(name, mode string) (float64, string) {
	if a.Repro == nil || a.Repro.Quick {
		return 0, ""
	}
	rec := a.RecordFigure(name)
	if rec == nil {
		return 0, ""
	}
	native := rec.Cost.SecondsPerRun()
	if native <= 0 {
		return 0, ""
	}
	per := native * browserSlowdown
	basis := fmt.Sprintf("not yet timed in this browser: the committed record's full run took %s of CPU per simulation natively, and a browser takes about %.0f times as long", fineSecs(native), browserSlowdown)
	if info := a.info(name); mode == ModeQuick && info.scale > 1 {
		per /= info.scale
		basis += fmt.Sprintf(", divided by %.3g for the quick mode's fewer jobs", info.scale)
	}
	return per + pageSecondsPerRun, basis + fmt.Sprintf(", plus about %g s of the page's own work per simulation", pageSecondsPerRun)
}

// fineSecs prints a time that may be well under a second.
func fineSecs(s float64) string {
	if s >= 10 {
		return secs(s)
	}
	return strconv.FormatFloat(s, 'g', 2, 64) + " s"
}

func (a *App) storedSeconds(name, mode string) (float64, bool) {
	s, ok := a.P.Load(timeKey(name, mode))
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil && v > 0
}

// jobsScale is how many times more jobs a full-mode simulation of the
// built-in scenario name has than a quick one, and why, in words.
func jobsScale(name string) (float64, string) {
	data, ok := scenarios.Read(name)
	if !ok {
		return 1, ""
	}
	var doc struct {
		Workload struct {
			Generator struct {
				Jobs int `json:"jobs"`
			} `json:"generator"`
		} `json:"workload"`
		Quick *scenario.Quick `json:"quick"`
	}
	if json.Unmarshal(data, &doc) != nil || doc.Quick == nil {
		return 1, ""
	}
	full := doc.Workload.Generator.Jobs
	for _, s := range doc.Quick.Set {
		var quick int
		if s.Param == "workload.generator.jobs" && json.Unmarshal(s.Value, &quick) == nil && quick > 0 && full > quick {
			return float64(full) / float64(quick), fmt.Sprintf(", scaled by %s per simulation in full mode against %s in quick mode", plural(full, "job"), results.Thousands(quick))
		}
	}
	return 1, "; quick and full simulations have the same jobs, full mode runs more of them"
}

// EstimateText says how long a re-run in mode will take and on what the
// estimate rests.
func (a *App) EstimateText(mode string) string {
	e := a.FigureEstimate(mode)
	if e.Sims == 0 {
		return ""
	}
	what := fmt.Sprintf("%s on %s", plural(e.Sims, "simulation"), plural(e.Workers, "worker"))
	if e.Seconds == 0 {
		return what + "; " + e.Basis + "."
	}
	return fmt.Sprintf("About %s: %s (%s).", secs(e.Seconds), what, e.Basis)
}

// TimeLeft says how long the figure in progress still needs: from the
// simulations finished so far, or before the first finishes from the
// estimate it started with.
func (a *App) TimeLeft() string {
	f := a.Fig
	if f == nil || f.State != RunRunning {
		return ""
	}
	per, n := f.secondsPerSim()
	elapsed := a.P.Now().Sub(f.Started).Seconds()
	if n == 0 {
		if e := a.FigureEstimate(f.Mode); e.Seconds > 0 {
			return fmt.Sprintf("%s so far; about %s left, from the estimate.", secs(elapsed), secs(max(0, e.Seconds-elapsed)))
		}
		return secs(elapsed) + " so far; the time left shows once the first simulation finishes."
	}
	todo := 0.0
	for _, u := range f.Units {
		switch u.State {
		case PartQueued:
			todo++
		case PartRunning:
			todo += max(0, 1-a.P.Now().Sub(u.started).Seconds()/per)
		}
	}
	left := todo * per / float64(max(1, f.Workers))
	return fmt.Sprintf("%s so far; about %s left (the %s finished took %s each).", secs(elapsed), secs(left), plural(n, "simulation"), secs(per))
}

// secs is a duration in seconds or minutes, to a useful precision.
func secs(s float64) string {
	switch {
	case s < 10:
		return strconv.FormatFloat(s, 'f', 1, 64) + " s"
	case s < 120:
		return strconv.Itoa(int(math.Round(s))) + " s"
	}
	return strconv.Itoa(int(math.Round(s/60))) + " min"
}

// HasFullMode reports whether the open figure is a built-in paper figure
// or comparison, whose full set-up (the record's) can be run here; a
// sweep of the student's own has one set-up, the editor's.
func (a *App) HasFullMode() bool {
	return a.Fig != nil && (a.isPaperFigure(a.Fig.Name) || a.IsComparison(a.Fig.Name)) && a.info(a.Fig.Name).fullSims > 0
}

// figureInfo is what the figure view says of a built-in scenario's full
// and quick modes, read once (the page draws often, and reading a big
// preset in full takes seconds).
type figureInfo struct {
	fullSims  int
	quickDiff string
	scale     float64
	scaleWhy  string
}

// info is the figureInfo of the built-in scenario name.
func (a *App) info(name string) *figureInfo {
	if i, ok := a.infos[name]; ok {
		return i
	}
	i := &figureInfo{scale: 1}
	if data, ok := scenarios.Read(name); ok {
		if sc, err := galleryInfo(data); err == nil {
			i.quickDiff = quickDifference(name, sc)
			sc.Quick = nil
			i.fullSims = len(figureUnits(sc))
		}
		i.scale, i.scaleWhy = jobsScale(name)
	}
	if a.infos == nil {
		a.infos = map[string]*figureInfo{}
	}
	a.infos[name] = i
	return i
}

// QuickDifference says how the open figure's quick mode is smaller than
// its full set-up: "1 seed instead of 3, 2 of the 15 values of job rate
// and fewer jobs per simulation".
func (a *App) QuickDifference() string { return a.info(a.Fig.Name).quickDiff }

// quickDifference is QuickDifference of the built-in scenario sc (read
// lightly, with its quick block).
func quickDifference(name string, sc *scenario.Scenario) string {
	full := *sc
	full.Quick = nil
	if sc.Quick == nil {
		return "the same set-up as full mode"
	}
	var parts []string
	if q := sc.Quick.Seeds; len(q) > 0 && len(q) < len(full.RunSeeds()) {
		parts = append(parts, fmt.Sprintf("%s instead of %d", plural(len(q), "seed"), len(full.RunSeeds())))
	}
	if q := sc.Quick.Values; len(q) > 0 && full.Sweep != nil && len(q) < len(full.Sweep.Values) {
		label := full.Sweep.Label
		if label == "" {
			label = "the swept value"
		}
		parts = append(parts, fmt.Sprintf("%d of the %d values of %s", len(q), len(full.Sweep.Values), label))
	}
	if scale, _ := jobsScale(name); scale > 1 {
		parts = append(parts, "fewer jobs per simulation")
	} else if len(sc.Quick.Set) > 0 {
		parts = append(parts, "a smaller set-up")
	}
	if len(parts) == 0 {
		return "the same set-up as full mode"
	}
	return joinAnd(parts)
}

func joinAnd(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	s := parts[0]
	for _, p := range parts[1 : len(parts)-1] {
		s += ", " + p
	}
	return s + " and " + parts[len(parts)-1]
}

// WorkerText says how many engine workers a re-run uses.
func (a *App) WorkerText() string {
	n := a.maxWorkers()
	return fmt.Sprintf("%s (one per processor core this browser reports)", plural(n, "engine worker"))
}

// WhyNotComparable says why the run in the figure view is not compared
// with the record number for number.
func (a *App) WhyNotComparable() string {
	f := a.Fig
	if name, modified := a.Builtin(); f.Mode == ModeQuick && (name != f.Name || modified) {
		return "You edited the scenario, so this run is not the record's set-up and its numbers are not compared with the record's."
	}
	if f.Mode == ModeQuick {
		return "This was a quick run (" + a.QuickDifference() + "), so its numbers differ from the full record's by design and are not compared one by one."
	}
	return "The record was made in quick mode and this run in full mode, so their numbers differ by design and are not compared one by one."
}

// ShowRecordAgain draws the open figure from the committed record again,
// after a run here.
func (a *App) ShowRecordAgain() {
	if f := a.Fig; f != nil && !a.FigureRunning() {
		if rec := a.RecordFigure(f.Name); rec != nil {
			a.showRecord(f.Name, rec)
		}
	}
}
