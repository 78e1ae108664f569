package app

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/metrics"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/web/protocol"
)

// TabFigure shows the paper figure opened from the gallery.
const TabFigure = "figure"

// FigureRun is a paper figure being reproduced: its quick plan's sweep
// points and seeds, each a unit run by an engine worker, and the figure
// and verdicts the workers evaluate over the units done so far.
type FigureRun struct {
	Name    string // the scenario's name
	Doc     string // the scenario as run
	Units   []*FigureUnit
	Parts   []results.StudyValues
	View    *protocol.StudyView
	State   string // a Run state: running, done, failed, cancelled
	Err     string
	Started time.Time
	// FirstCurve is the time from the start to the first drawn point (or
	// the first metrics of a single-point figure); 0 before.
	FirstCurve time.Duration
	Wall       time.Duration
	// verdicts: a request is in flight; again: parts came since it left.
	verdicts, again bool
	// Record marks a figure shown from the committed record, not run
	// here; cdf is its JCT distribution when the paper draws one.
	Record bool
	cdf    []ChartSeries
	cdfX   string
	// Mode is how a figure run here ran: ModeQuick or ModeFull ("" for
	// the record); Workers how many engine workers it ran on.
	Mode    string
	Workers int
	// Compare is the run set beside the record once it is done; nil
	// without a record.
	Compare *Comparison
	// choices are what Results and Timeline can pick (figruns.go).
	choices *FigureChoices
	// sc is the scenario the figure ran (or the record ran): a figure
	// without a sweep is drawn as bars of its main metric.
	sc *scenario.Scenario
	// Server is the schedlab server whose engine ran the units (server.go),
	// "" when this browser's workers did; inFlight counts its requests.
	Server             string
	inFlight, answered int
	// editorDoc is the editor's scenario when a full run started: a full
	// run's Doc is the built-in set-up, not what the editor holds.
	editorDoc string
}

// FigureUnit is one sweep point and seed, of every policy or of one.
type FigureUnit struct {
	X        float64
	Seed     uint64
	Policy   int    // -1: every policy
	State    string // a Part state
	Progress protocol.Progress
	req      int
	worker   int
	// started and ended time the unit on its worker, for the estimates.
	started, ended time.Time
	// A unit run on a server: waiting for its next try after a failure,
	// how many tries failed, and when the first did.
	waiting   bool
	tries     int
	firstFail time.Time
}

// OpenFigure loads a paper figure's scenario (its quick version) into the
// editor, so that it stays editable, and shows its figure from the
// committed record; without a record, it runs the figure here.
func (a *App) OpenFigure(name string) {
	if a.recState != recordRead {
		// Clicked before the record was read: open it once it is, unless
		// another figure was asked for meanwhile.
		a.opening = name
		a.setNotice("Opening the figure: loading its recorded results…", false)
		a.whenRecord(func() {
			if a.opening == name {
				a.OpenFigure(name)
			}
		})
		return
	}
	a.opening = ""
	tree, err := builtin(name)
	if err != nil {
		a.setNotice(err.Error(), true)
		return
	}
	a.load(tree)
	a.setNotice("", false)
	a.Tab = TabFigure
	a.dropResults()
	if rec := a.RecordFigure(name); rec != nil {
		a.showRecord(name, rec)
		return
	}
	a.RunFigure()
}

// dropResults forgets the results and the run of the scenario before a
// figure opens: Results and Timeline never show another scenario's runs
// under the figure's name. They show the figure's runs once it is run.
func (a *App) dropResults() {
	a.CancelRun()
	if old := a.Res; old != nil && !a.hist.holds(old) {
		old.release(a.P)
	}
	a.Res = nil
	a.TL.Policy = 0
}

// showRecord shows the recorded figure of the scenario named name.
func (a *App) showRecord(name string, rec *results.FigureRepro) {
	a.CancelFigure()
	sc, err := scenario.Parse(mustRead(name))
	if err != nil {
		a.setNotice(err.Error(), true)
		return
	}
	f := &FigureRun{Name: name, Doc: a.Ed.JSON(), State: RunDone, Record: true, View: recordView(sc, rec, a.Repro.Quick), sc: sc}
	f.drawCDF()
	a.Fig = f
	a.Pick = FigurePick{Policy: -1}
}

// drawCDF draws a figure without a sweep as a JCT distribution when its
// values (the record's, or a run's so far) hold JCT percentiles, as the
// paper draws it; it draws bars of its main metric otherwise.
func (f *FigureRun) drawCDF() {
	f.cdf, f.cdfX = nil, ""
	if f.sc == nil || f.sc.Sweep != nil || f.View == nil {
		return
	}
	if cdf, unit := RecordCDF(&f.View.Figure); cdf != nil {
		f.cdf, f.cdfX = cdf, metricLabel("JCT", unit)
		f.View.YLabel = "JCT distribution: share of jobs finished within a JCT (CDF)"
	}
}

// FigureIsCDF reports whether the open figure is drawn as a JCT CDF.
func (a *App) FigureIsCDF() bool { return a.Fig != nil && a.Fig.cdf != nil }

// mustRead is a built-in scenario's file, as the record ran it (the full
// preset, not the quick version the editor holds).
func mustRead(name string) []byte {
	data, _ := scenarios.Read(name)
	return data
}

// RunFigure runs the figure of the scenario as it stands in the editor: a
// re-run after an edit redraws it. A figure in progress is cancelled.
func (a *App) RunFigure() { a.RerunFigure(ModeQuick) }

// Re-run modes: quick runs the scenario in the editor (a built-in paper
// figure opens on its quick version) with its quick plan's seeds and sweep
// values; full runs the built-in scenario's whole set-up, as the committed
// record did.
const (
	ModeQuick = "quick"
	ModeFull  = "full"
)

// RerunFigure runs the open figure in this browser in mode (ModeQuick or
// ModeFull), each sweep point and seed on its own engine worker, as many
// workers as the machine has cores. A figure in progress is cancelled.
func (a *App) RerunFigure(mode string) {
	a.Tab = TabFigure
	doc, sc, ok := a.figureDocument(mode)
	if !ok {
		return
	}
	a.CancelFigure()
	f := &FigureRun{Name: sc.Name, Doc: doc, State: RunRunning, Started: a.P.Now(), Mode: mode, sc: sc, editorDoc: a.Ed.JSON()}
	f.Units = figureUnits(sc)
	f.Workers = min(a.maxWorkers(), len(f.Units))
	a.Fig = f
	a.Pick = FigurePick{Policy: -1}
	a.dropResults()
	a.pool.ensure(f.Workers)
	a.pool.dispatch()
}

// figureDocument is the scenario a re-run in mode runs: the editor's for
// quick mode, the built-in full set-up (its quick block dropped, so that
// every seed and sweep value runs) for full mode.
func (a *App) figureDocument(mode string) (string, *scenario.Scenario, bool) {
	if mode == ModeFull && a.Fig != nil {
		sc, err := fullScenario(a.Fig.Name)
		if err != nil {
			a.setNotice("The full set-up could not be read: "+err.Error(), true)
			return "", nil, false
		}
		return string(sc.Document()), sc, true
	}
	a.Ed.CheckNow() // an edit to a big document not checked yet
	if !a.Ed.Valid() {
		a.setNotice("Fix the problems in the Scenario view before running the figure.", true)
		return "", nil, false
	}
	return a.Ed.JSON(), a.Ed.Scenario(), true
}

// fullScenario is the built-in scenario named name as the record ran it
// in full mode: every seed and sweep value, the paper's sizes.
func fullScenario(name string) (*scenario.Scenario, error) {
	data, ok := scenarios.Read(name)
	if !ok {
		return nil, fmt.Errorf("no built-in scenario %q", name)
	}
	return reshape(data, nil, "quick")
}

// reshape is the scenario document data with the top-level fields drop
// removed and set's fields replaced, parsed: a scenario's full set-up
// without its quick block, or one run of a sweep point.
func reshape(data []byte, set map[string]any, drop ...string) (*scenario.Scenario, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, err
	}
	for _, k := range drop {
		delete(fields, k)
	}
	for k, v := range set {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		fields[k] = b
	}
	out, err := json.Marshal(fields)
	if err != nil {
		return nil, err
	}
	return scenario.Parse(out)
}

// figureUnits are the runs of sc's figure: each sweep point and seed of
// its plan (the quick plan when it has a quick block), of every policy at
// once, or of one policy when the policies can run apart.
func figureUnits(sc *scenario.Scenario) []*FigureUnit {
	seeds, xs := sc.RunSeeds(), []float64{math.NaN()} // experiment.SplitPlan
	if sc.Sweep != nil {
		xs = sc.Sweep.Values
	}
	if q := sc.Quick; q != nil {
		if len(q.Seeds) > 0 {
			seeds = q.Seeds
		}
		if len(q.Values) > 0 && sc.Sweep != nil {
			xs = q.Values
		}
	}
	policies := []int{-1}
	if splitsByPolicy(sc) {
		policies = policies[:0]
		for i := range sc.Policies {
			policies = append(policies, i)
		}
	}
	var units []*FigureUnit
	for _, x := range xs {
		for _, s := range seeds {
			for _, p := range policies {
				units = append(units, &FigureUnit{X: x, Seed: s, Policy: p, State: PartQueued, worker: -1})
			}
		}
	}
	return units
}

// splitsByPolicy reports whether each policy of the figure may run in its
// own worker (experiment.SplitsByPolicy): none of its metrics compares a
// policy's run with the others'.
func splitsByPolicy(sc *scenario.Scenario) bool {
	if sc.SweepSetsPolicies() {
		return false
	}
	names, _ := sc.StudyQuantities()
	for _, m := range names {
		if metrics.NeedsPeers(m) {
			return false
		}
	}
	return true
}

// CancelFigure stops the figure in progress.
func (a *App) CancelFigure() {
	f := a.Fig
	if f == nil || f.State != RunRunning {
		return
	}
	f.State = RunCancelled
	f.Wall = a.P.Now().Sub(f.Started)
	for _, u := range f.Units {
		switch u.State {
		case PartQueued:
			u.State = PartCancelled
		case PartRunning:
			u.State = PartCancelled
			if u.worker >= 0 { // a server's point cannot be called back
				a.P.PostWorker(u.worker, protocol.Message{Type: protocol.TypeCancel, ID: u.req})
			}
		}
	}
}

// FigureRunning reports whether a figure is being run.
func (a *App) FigureRunning() bool { return a.Fig != nil && a.Fig.State == RunRunning }

// dispatchFigure gives idle worker w the figure's next request: the
// verdicts over new parts first (they draw what the student waits for),
// then the next unit. It reports whether w got work.
func (p *pool) dispatchFigure(w *worker) bool {
	a, f := p.a, p.a.Fig
	if f == nil || f.State != RunRunning {
		return false
	}
	if f.again && !f.verdicts {
		f.again, f.verdicts = false, true
		req := &request{onDraw: func(m protocol.Message) { a.onVerdicts(f, m) }}
		p.send(w, req, protocol.TypeVerdicts, protocol.VerdictsRequest{Document: f.Doc, Parts: f.Parts})
		return true
	}
	if f.Server != "" {
		return false // the server runs the units; workers only evaluate
	}
	for _, u := range f.Units {
		if u.State != PartQueued {
			continue
		}
		req := &request{id: p.nextID()}
		req.onDraw = func(m protocol.Message) { a.onStudied(f, u, m) }
		u.State, u.req, u.worker, u.started = PartRunning, req.id, w.id, a.P.Now()
		x := u.X
		if math.IsNaN(x) {
			x = 0 // no sweep: the worker ignores it, and JSON has no NaN
		}
		sr := protocol.StudyRequest{Document: f.Doc, X: x, Seed: u.Seed}
		if u.Policy >= 0 {
			sr.Policy = &u.Policy
		}
		p.send(w, req, protocol.TypeStudy, sr)
		return true
	}
	return false
}

// onStudied takes a unit's reply.
func (a *App) onStudied(f *FigureRun, u *FigureUnit, m protocol.Message) {
	switch m.Type {
	case protocol.TypeProgress:
		var pr protocol.Progress
		if json.Unmarshal(m.JSON, &pr) == nil {
			u.Progress = pr
		}
		return
	case protocol.TypeStudied:
		var part results.StudyValues
		if err := json.Unmarshal(m.JSON, &part); err != nil {
			a.failFigure(f, "reading a result: "+err.Error())
			return
		}
		u.State, u.ended = PartDone, a.P.Now()
		if f.State != RunRunning {
			return
		}
		f.Parts = append(f.Parts, part)
		f.again = true
	case protocol.TypeError:
		var e protocol.Error
		_ = json.Unmarshal(m.JSON, &e)
		if e.Cancelled || f.State != RunRunning {
			u.State = PartCancelled
			return
		}
		u.State = PartFailed
		msg := e.Message
		for _, pr := range e.Problems {
			msg += "; " + Where(pr.Path) + ": " + pr.Msg
		}
		a.failFigure(f, msg)
	}
}

// onVerdicts takes an evaluation of the figure; the figure is done when
// one covers every unit.
func (a *App) onVerdicts(f *FigureRun, m protocol.Message) {
	f.verdicts = false
	if m.Type != protocol.TypeVerdicts {
		var e protocol.Error
		_ = json.Unmarshal(m.JSON, &e)
		if f.State == RunRunning {
			a.failFigure(f, "evaluating the checks: "+e.Message)
		}
		return
	}
	var v protocol.StudyView
	if err := json.Unmarshal(m.JSON, &v); err != nil {
		a.failFigure(f, "reading the verdicts: "+err.Error())
		return
	}
	if f.State != RunRunning {
		return
	}
	f.View = &v
	f.drawCDF()
	if f.FirstCurve == 0 && v.HasData() {
		f.FirstCurve = a.P.Now().Sub(f.Started)
	}
	if v.Complete && !f.again {
		f.State = RunDone
		f.Wall = a.P.Now().Sub(f.Started)
		a.figureDone(f)
		a.noticeLessons()
	}
}

func (a *App) failFigure(f *FigureRun, msg string) {
	if f.State != RunRunning {
		return
	}
	a.CancelFigure()
	f.State, f.Err = RunFailed, msg
}

// Progress is the figure's fraction done, counting a unit's policies run.
func (f *FigureRun) Progress() float64 {
	if len(f.Units) == 0 {
		return 0
	}
	done := 0.0
	for _, u := range f.Units {
		switch {
		case u.State == PartDone:
			done++
		case u.State == PartRunning && u.Progress.Runs > 0:
			part := 0.0
			if u.Progress.Total > 0 {
				part = float64(u.Progress.Finished) / float64(u.Progress.Total)
			}
			done += (float64(u.Progress.Run) + part) / float64(u.Progress.Runs)
		}
	}
	return done / float64(len(f.Units))
}

// ProgressText says how far the figure is, e.g. "3 of 8 runs done, 2
// running".
func (f *FigureRun) ProgressText() string {
	done, running := 0, 0
	for _, u := range f.Units {
		switch u.State {
		case PartDone:
			done++
		case PartRunning:
			running++
		}
	}
	return fmt.Sprintf("%d of %d simulations done, %d running", done, len(f.Units), running)
}

// LegendItem is one entry of a figure's legend.
type LegendItem struct {
	Name, Color string
	Paper       bool
	Bar         bool // a bar's key, not a line's
}

// figureSeries are the figure's lines: ours, then the paper's in the
// colour of the same policy.
func (f *FigureRun) figureSeries() []ChartSeries {
	if f.cdf != nil {
		return f.cdf
	}
	if f.View == nil {
		return nil
	}
	var out []ChartSeries
	color := map[string]string{}
	for i, s := range f.View.Series {
		color[s.Policy] = seriesColor(i)
		out = append(out, ChartSeries{Name: s.Policy, Color: color[s.Policy], X: s.X, Y: s.Y, SD: s.SD})
	}
	for i, s := range f.View.Paper {
		c, ok := color[s.Policy]
		if !ok {
			c = seriesColor(len(f.View.Series) + i)
		}
		out = append(out, ChartSeries{Name: "paper: " + s.Policy, Color: c, X: s.X, Y: s.Y, Paper: true})
	}
	return out
}

// bars are the figure's bars: a figure without a sweep not drawn as a
// CDF, from the record's values or the run's so far; nil otherwise.
func (f *FigureRun) bars() *studyBars {
	if f.cdf != nil || f.View == nil {
		return nil
	}
	return barsOf(f.sc, f.View.Figure.Values)
}

// FigureChart is the figure as an SVG: the sweep's metric against the
// swept value, as the paper draws it, or a study's main metric as bars;
// "" before the first point.
func (a *App) FigureChart() string {
	if a.Fig == nil || a.Fig.View == nil {
		return ""
	}
	v := a.Fig.View
	// A phone shows the figure at its own width: draw it narrower
	// rather than scale its labels down to a few pixels.
	vw := a.P.ViewportWidth()
	box := figureBox(vw > 0 && vw < 600)
	if a.Fig.cdf != nil {
		return lineChart(box, a.Fig.cdf, a.Fig.cdfX, "jobs finished (%)", "figure-cdf")
	}
	if b := a.Fig.bars(); b != nil {
		return barChart(box, b, "figure-bars")
	}
	return lineChart(box, a.Fig.figureSeries(), v.XLabel, v.YLabel, "figure-curve")
}

// FigureIsBars reports whether the open figure is drawn as bars.
func (a *App) FigureIsBars() bool { return a.Fig != nil && a.Fig.bars() != nil }

// FigureBarsHavePaper reports bars with a paper's value beside ours.
func (a *App) FigureBarsHavePaper() bool {
	b := a.Fig.bars()
	return b != nil && b.Paper
}

// FigureHeading names what the figure draws.
func (a *App) FigureHeading() string {
	if b := a.Fig.bars(); b != nil {
		return b.YLabel + ", by policy"
	}
	return a.Fig.View.YLabel
}

// FigureLegend lists the figure's lines, or how its bars are drawn: the
// bars' colours are the policies', named under them.
func (a *App) FigureLegend() []LegendItem {
	if b := a.Fig.bars(); b != nil {
		out := []LegendItem{{Name: "ours: the mean over the seeds, the whisker ± one standard deviation", Color: barKey, Bar: true}}
		if b.Paper {
			out = append(out, LegendItem{Name: "the paper's value", Color: barKey, Paper: true, Bar: true})
		}
		return out
	}
	var out []LegendItem
	spread := false
	for _, s := range a.Fig.figureSeries() {
		out = append(out, LegendItem{Name: s.Name, Color: s.Color, Paper: s.Paper})
		for i := range s.SD {
			spread = spread || s.sd(i) > 0
		}
	}
	if spread {
		out = append(out, LegendItem{Name: "error bars: ± one standard deviation over the seeds", Color: barKey})
	}
	return out
}

// barKey is the colour of the bar legend's swatches: the bars take their
// policy's colour, so the legend shows only filled against outlined.
const barKey = "#555"

// FigureClaim is the claim of the open figure's card.
func (a *App) FigureClaim() string {
	for _, c := range a.Cards {
		if a.Fig != nil && c.Name == a.Fig.Name {
			return c.Claim
		}
	}
	return ""
}

// FigurePlan describes what the figure runs, e.g. "2 loads × 1 seed × 5
// policies: the quick version, with fewer jobs than the paper's runs".
func (a *App) FigurePlan() string {
	f := a.Fig
	if f.Record {
		if rec := a.RecordFigure(f.Name); rec != nil {
			return a.RecordNote(rec)
		}
	}
	sc := a.Ed.Scenario()
	points := map[float64]bool{}
	seeds := map[uint64]bool{}
	for _, u := range f.Units {
		points[u.X] = true
		seeds[u.Seed] = true
	}
	var parts []string
	if len(f.Units) > 0 && !math.IsNaN(f.Units[0].X) {
		label := "sweep values"
		if sc != nil && sc.Sweep != nil && sc.Sweep.Label != "" {
			label = "values of " + sc.Sweep.Label
		}
		parts = append(parts, fmt.Sprintf("%d %s", len(points), label))
	}
	parts = append(parts, plural(len(seeds), "seed"))
	text := strings.Join(parts, " × ") + ", every policy; the page runs the quick version of the paper's set-up, so expect some distance from the paper's numbers."
	if !a.isPaperFigure(f.Name) && !a.IsComparison(f.Name) {
		text = strings.Join(parts, " × ") + ", every policy: the scenario in the editor, its sweep drawn as a curve. Change the sweep under Sweep a number in the Scenario view."
	} else if f.Mode == ModeFull {
		text = strings.Join(parts, " × ") + ", every policy: the full set-up, as the committed record ran it."
	} else if a.IsComparison(f.Name) {
		text = strings.Join(parts, " × ") + ", every policy; the page runs the quick version, with fewer seeds and loads than the full runs our findings come from."
	}
	if name, modified := a.Builtin(); name == f.Name && modified {
		text += " You have edited the scenario: this is the figure of your version."
	}
	return text
}

// isPaperFigure reports whether name is a built-in paper figure.
func (a *App) isPaperFigure(name string) bool {
	for _, c := range a.Cards {
		if c.Name == name {
			return c.Figure
		}
	}
	return false
}

// FigureStale reports that the scenario was edited since the figure ran.
func (a *App) FigureStale() bool {
	return a.Fig != nil && a.Fig.Doc != a.Ed.JSON() && a.Fig.editorDoc != a.Ed.JSON()
}

// FigureTime says how long the figure took and when its first curve came.
func (a *App) FigureTime() string {
	f := a.Fig
	if f == nil || f.State == RunRunning || f.Record {
		return ""
	}
	s := fmt.Sprintf("Simulated in %.1f s", f.Wall.Seconds())
	if f.Server != "" {
		s += " on the server at " + f.Server
	}
	if f.FirstCurve > 0 {
		s += fmt.Sprintf(" (first points after %.1f s)", f.FirstCurve.Seconds())
	}
	return s + "."
}
