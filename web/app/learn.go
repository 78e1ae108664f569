package app

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/web/doc"
	"github.com/schedlab/schedlab/web/form"
	"github.com/schedlab/schedlab/web/learn"
)

// The Learn path (package learn holds its lessons): a lesson asks its
// question, runs its scenario as any run of the page does (the editor
// holds it, so the student can change it and run again), then explains the
// run with numbers computed from it, links to a moment in the Timeline and
// checks its challenge on every later run of its scenario. Progress (each
// lesson's locked answer and whether its challenge was solved) is kept in
// the browser's storage.

// TabLearn is the Learn view.
const TabLearn = "learn"

// keyLearn holds the progress through the lessons.
const keyLearn = "schedlab.learn.v1"

// LearnState is the Learn view's state.
type LearnState struct {
	// Lesson is the lesson on show, nil for the list of lessons.
	Lesson *learn.Lesson
	// Back is the lesson a Timeline link left from, nil when none.
	Back *learn.Lesson
	// Term is the glossary term shown in the term bar, "" for none.
	Term string
	// guess is the answer being chosen, per lesson, before it is locked.
	guess map[string]float64
	// progress is read from the browser's storage on first use.
	progress map[string]*LessonProgress
	loaded   bool
	// waitRun and waitFig are the run and figure of a lesson's answer:
	// its reveal waits for them.
	waitRun int
	waitFig *FigureRun
	// lastFig is each sweep lesson's last finished figure.
	lastFig map[string]*FigureRun
	// cache holds the Run of the last key asked.
	cacheKey string
	cache    *learn.Run
	// bases holds each lesson's built-in scenario as a Run, read once.
	bases map[string]*learn.Run
}

// LessonProgress is what the browser keeps of a lesson.
type LessonProgress struct {
	// Guess is the locked answer to the lesson's question.
	Guess *float64 `json:"guess,omitempty"`
	// Solved is set once a run solved the challenge; Solution says what
	// that run showed.
	Solved   bool   `json:"solved,omitempty"`
	Solution string `json:"solution,omitempty"`
}

// Lessons is the Learn path.
func (a *App) Lessons() []*learn.Lesson { return learn.Lessons() }

// LessonNumber is a lesson's place in the path, from 1.
func (a *App) LessonNumber(l *learn.Lesson) int {
	for i, x := range learn.Lessons() {
		if x == l {
			return i + 1
		}
	}
	return 0
}

// Progress returns a lesson's progress (never nil).
func (a *App) Progress(l *learn.Lesson) *LessonProgress {
	a.loadLearn()
	p := a.Learn.progress[l.ID]
	if p == nil {
		p = &LessonProgress{}
		a.Learn.progress[l.ID] = p
	}
	return p
}

// LessonStatus is "solved", "answered" or "" for a lesson not begun.
func (a *App) LessonStatus(l *learn.Lesson) string {
	switch p := a.Progress(l); {
	case p.Solved:
		return "solved"
	case p.Guess != nil:
		return "answered"
	}
	return ""
}

// NextLesson is the first lesson not solved, or the first.
func (a *App) NextLesson() *learn.Lesson {
	for _, l := range learn.Lessons() {
		if !a.Progress(l).Solved {
			return l
		}
	}
	return learn.Lessons()[0]
}

// LearnBegun reports whether any lesson was begun in this browser.
func (a *App) LearnBegun() bool {
	for _, l := range learn.Lessons() {
		if a.LessonStatus(l) != "" {
			return true
		}
	}
	return false
}

func (a *App) loadLearn() {
	if a.Learn.loaded {
		return
	}
	a.Learn.loaded = true
	a.Learn.progress = map[string]*LessonProgress{}
	a.Learn.guess = map[string]float64{}
	if s, ok := a.P.Load(keyLearn); ok {
		_ = json.Unmarshal([]byte(s), &a.Learn.progress) // unreadable progress starts afresh
		for k, v := range a.Learn.progress {
			if v == nil {
				delete(a.Learn.progress, k)
			}
		}
	}
}

func (a *App) saveLearn() {
	a.loadLearn()
	data, _ := json.Marshal(a.Learn.progress)
	_ = a.P.Save(keyLearn, string(data)) // losing progress loses no work
}

// OpenLearn shows the list of lessons.
func (a *App) OpenLearn() {
	a.Learn.Lesson = nil
	a.Tab = TabLearn
	a.openingDone()
}

// OpenLesson shows a lesson. Its scenario is loaded when the student
// answers its question.
func (a *App) OpenLesson(l *learn.Lesson) {
	a.Learn.Lesson = l
	a.Learn.Back = nil
	a.Tab = TabLearn
	a.P.Focus("lesson-title")
}

// BackToLesson returns from the Timeline to the lesson that linked to it.
func (a *App) BackToLesson() {
	if l := a.Learn.Back; l != nil {
		a.Learn.Lesson, a.Learn.Back = l, nil
		a.Tab = TabLearn
		a.P.Focus("lesson-moment")
	}
}

// Guess is the answer shown for a lesson's question: the locked one, the
// one being chosen, or the slider's start (-1 for no choice yet).
func (a *App) Guess(l *learn.Lesson) float64 {
	if g := a.Progress(l).Guess; g != nil {
		return *g
	}
	if g, ok := a.Learn.guess[l.ID]; ok {
		return g
	}
	if s := l.Question.Slider; s != nil {
		return s.Start
	}
	return -1
}

// SetGuess moves the answer being chosen (a locked one stays).
func (a *App) SetGuess(l *learn.Lesson, v float64) {
	if a.Progress(l).Guess != nil || math.IsNaN(v) {
		return
	}
	if s := l.Question.Slider; s != nil {
		v = math.Max(s.Min, math.Min(s.Max, v))
	}
	a.Learn.guess[l.ID] = v
}

// CanAnswer reports whether an answer is chosen and not locked yet.
func (a *App) CanAnswer(l *learn.Lesson) bool {
	return a.Progress(l).Guess == nil && a.Guess(l) >= 0 && !a.Running() && !a.FigureRunning()
}

// Answer locks the answer and runs the lesson's scenario as it is built in.
func (a *App) Answer(l *learn.Lesson) {
	if !a.CanAnswer(l) {
		return
	}
	g := a.Guess(l)
	a.Progress(l).Guess = &g
	a.saveLearn()
	a.runLesson(l, true)
	// The reveal waits for this run: results of the lesson's scenario
	// already on show were not what the answer was about.
	if l.Sweep {
		a.Learn.waitFig = a.Fig
	} else if a.Run != nil {
		a.Learn.waitRun = a.Run.ID
	}
}

// RunLessonAgain runs the lesson's scenario as it is built in (after a
// reload, the explanation needs a run again).
func (a *App) RunLessonAgain(l *learn.Lesson) { a.runLesson(l, true) }

// ResetLesson brings back the lesson's scenario as it is built in and runs it.
func (a *App) ResetLesson(l *learn.Lesson) { a.runLesson(l, true) }

// TryChallenge runs the scenario in the editor, the lesson's as the
// student changed it (the lesson's own when the editor holds another).
func (a *App) TryChallenge(l *learn.Lesson) { a.runLesson(l, false) }

// runLesson runs lesson l's scenario: the built-in one when fresh or when
// the editor holds another scenario, else the editor's.
func (a *App) runLesson(l *learn.Lesson, fresh bool) {
	if a.Running() || a.FigureRunning() {
		return
	}
	if fresh || a.Ed.Str("name") != l.Scenario {
		tree, err := builtin(l.Scenario)
		if err != nil {
			a.setNotice(err.Error(), true)
			return
		}
		a.load(tree)
	}
	if l.Sweep {
		a.RunFigure()
	} else {
		a.StartRun()
	}
	a.Tab = TabLearn
}

// LessonRunning reports whether the lesson's run is going on.
func (a *App) LessonRunning(l *learn.Lesson) bool {
	if l.Sweep && a.FigureRunning() && a.Fig.Name == l.Scenario {
		return true
	}
	return a.Running() && a.Ed.Str("name") == l.Scenario
}

// LessonProgressText says how far the lesson's run is.
func (a *App) LessonProgressText(l *learn.Lesson) string {
	if a.FigureRunning() {
		return a.Fig.ProgressText()
	}
	if a.Running() {
		return "Simulating… " + a.Run.ProgressText()
	}
	return ""
}

// LessonRun is what lesson l can read of the page's last run of its
// scenario: the results on show and, for a sweep lesson, the figure. It
// is nil when neither is of its scenario, or when the run the lesson
// started has not finished.
func (a *App) LessonRun(l *learn.Lesson) *learn.Run {
	res := a.Res
	if res != nil && (res.Name != l.Scenario || res.Built || res.RunID < a.Learn.waitRun) {
		res = nil
	}
	fig := a.Fig
	if !l.Sweep || fig == nil || fig.Name != l.Scenario || fig.State != RunDone || fig.View == nil {
		fig = a.Learn.lastFig[l.ID] // while another figure runs, the last one stays explained
	}
	if fig != nil && a.Learn.waitFig != nil && a.Learn.waitFig.Name == l.Scenario && fig != a.Learn.waitFig {
		fig = nil // the answer's own figure is still running
	}
	if l.Sweep && fig == nil || !l.Sweep && res == nil {
		return nil
	}
	key := l.ID
	if res != nil {
		key += fmt.Sprintf("/r%d", res.RunID)
	}
	if fig != nil {
		key += fmt.Sprintf("/f%p/%d", fig, len(fig.Parts))
	}
	if a.Learn.cache != nil && a.Learn.cacheKey == key {
		return a.Learn.cache
	}
	r, err := a.lessonRun(l, res, fig)
	if err != nil {
		a.P.Report("lesson " + l.ID + ": " + err.Error())
		return nil
	}
	a.Learn.cacheKey, a.Learn.cache = key, r
	return r
}

// lessonRun builds a lesson's Run from results and a figure (either may
// be nil).
func (a *App) lessonRun(l *learn.Lesson, res *Results, fig *FigureRun) (*learn.Run, error) {
	base, err := builtinScenario(l.Scenario)
	if err != nil {
		return nil, err
	}
	r := &learn.Run{Base: base}
	builtinJSON := ""
	if data, ok := builtinDocument(l.Scenario); ok {
		if t, err := doc.Parse(data); err == nil {
			builtinJSON = string(doc.Compact(t))
		}
	}
	if res != nil {
		sc, err := scenario.Parse([]byte(res.Doc))
		if err != nil {
			return nil, err
		}
		r.Scenario, r.Single = sc, sc
		r.Edited = res.Doc != builtinJSON
		for i, p := range res.Policies {
			lp := &learn.Policy{Label: p.Label, Name: p.Name, Out: p.Out, Log: p.Timeline.Log, Intervals: p.Intervals}
			if sc.Perf.Model == "ring_allreduce" {
				lp.Out.Jobs = withSplits(p)
			}
			if i < len(sc.Policies) {
				lp.Params = learn.PolicyParams(sc.Policies[i])
			}
			r.Policies = append(r.Policies, lp)
		}
	}
	if fig != nil {
		sc, err := scenario.Parse([]byte(fig.Doc))
		if err != nil {
			return nil, err
		}
		r.Scenario = sc
		r.Edited = fig.Doc != builtinJSON
		sw := sweepOf(sc, fig)
		r.Sweep = sw
	}
	c, err := cluster.New(r.Scenario.Cluster)
	if err != nil {
		return nil, err
	}
	for _, s := range c.Servers {
		r.Servers = append(r.Servers, learn.Server{GPUs: s.NumGPUs, Type: s.Type})
	}
	return r, nil
}

// withSplits are a policy's job records with the servers and iteration
// splits of the ring model, which do not travel in the records' binary
// form: they are read from the output's JSON.
func withSplits(p *PolicyResult) []results.JobOutput {
	var full struct {
		Jobs []struct {
			Servers   []int32            `json:"servers"`
			IterSplit *results.IterSplit `json:"iter_split"`
		} `json:"jobs"`
	}
	if json.Unmarshal(p.Raw, &full) != nil || len(full.Jobs) != len(p.Out.Jobs) {
		return p.Out.Jobs
	}
	jobs := append([]results.JobOutput(nil), p.Out.Jobs...)
	for i := range jobs {
		if jobs[i].IterSplit == nil {
			jobs[i].Servers, jobs[i].IterSplit = full.Jobs[i].Servers, full.Jobs[i].IterSplit
		}
	}
	return jobs
}

// sweepOf is a figure's curve in the units the engine measures (seconds
// for times), read from its parts: each policy's sweep metric at each
// swept value, averaged over seeds; NaN where a run saturated or has no
// value.
func sweepOf(sc *scenario.Scenario, fig *FigureRun) *learn.Sweep {
	metric, group := "avg_jct_s", "all"
	if sc.Sweep != nil && sc.Sweep.Metric != "" {
		metric = sc.Sweep.Metric
	}
	if sc.Sweep != nil && sc.Sweep.Group != "" {
		group = sc.Sweep.Group
	}
	sw := &learn.Sweep{XLabel: fig.View.XLabel, YLabel: fig.View.YLabel, Complete: fig.View.Complete}
	for _, c := range fig.View.Figure.Checks {
		sw.Checks = append(sw.Checks, learn.Check{ID: c.ID, Claim: c.Claim, Verdict: c.Verdict, Observed: c.Observed, Why: c.Why, Calibrated: c.Calibrated})
	}
	var xs []float64
	seen := map[float64]bool{}
	for _, p := range fig.Parts {
		if !seen[p.X] {
			seen[p.X] = true
			xs = append(xs, p.X)
		}
	}
	slices.Sort(xs)
	for i := range sc.Policies {
		label := sc.PolicyLabel(i)
		s := learn.Series{Policy: label, X: xs}
		for _, x := range xs {
			sum, n, nan := 0.0, 0, false
			for _, p := range fig.Parts {
				if p.X != x {
					continue
				}
				for _, v := range p.Values {
					if v.Policy != label || v.Metric != metric || v.Group != group {
						continue
					}
					if v.Value == nil || v.Saturated {
						nan = true
						continue
					}
					sum += *v.Value
					n++
				}
			}
			y := math.NaN()
			if n > 0 && !nan {
				y = sum / float64(n)
			}
			s.Y = append(s.Y, y)
		}
		sw.Series = append(sw.Series, s)
	}
	return sw
}

// builtinScenario parses a built-in scenario as the page opens it.
func builtinScenario(name string) (*scenario.Scenario, error) {
	data, ok := builtinDocument(name)
	if !ok {
		return nil, fmt.Errorf("no built-in scenario %q", name)
	}
	return scenario.Parse(data)
}

// LessonBase is the lesson's scenario as built in, for the facts its
// texts name before any run.
func (a *App) LessonBase(l *learn.Lesson) *learn.Run {
	if r, ok := a.Learn.bases[l.ID]; ok {
		return r
	}
	sc, err := builtinScenario(l.Scenario)
	if err != nil {
		return nil
	}
	r := &learn.Run{Scenario: sc, Single: sc, Base: sc}
	if c, err := cluster.New(sc.Cluster); err == nil {
		for _, s := range c.Servers {
			r.Servers = append(r.Servers, learn.Server{GPUs: s.NumGPUs, Type: s.Type})
		}
	}
	if a.Learn.bases == nil {
		a.Learn.bases = map[string]*learn.Run{}
	}
	a.Learn.bases[l.ID] = r
	return r
}

// LessonText fills a text's facts from the lesson's scenario.
func (a *App) LessonText(l *learn.Lesson, s string) string {
	if r := a.LessonRun(l); r != nil {
		return l.Text(s, r)
	}
	return l.Text(s, a.LessonBase(l))
}

// Reveal is what a lesson shows after its run.
type Reveal struct {
	Verdict learn.Verdict
	Paras   []string
	Err     string
	// Edited says the numbers come from a changed scenario.
	Edited bool
}

// LessonReveal holds the locked answer against the run and explains the
// run; nil before the answer is locked or the run is in.
func (a *App) LessonReveal(l *learn.Lesson) *Reveal {
	g := a.Progress(l).Guess
	r := a.LessonRun(l)
	if g == nil || r == nil {
		return nil
	}
	out := &Reveal{Edited: r.Edited}
	truth, err := l.Question.Truth(r)
	if err != nil {
		out.Err = err.Error()
		return out
	}
	out.Verdict = l.Question.Judge(*g, truth)
	if out.Paras, err = l.Explain(r); err != nil {
		out.Err = err.Error()
	}
	return out
}

// LessonMoment is the lesson's moment in the Timeline, or why there is
// none (for a sweep lesson: until one of its loads is run once).
func (a *App) LessonMoment(l *learn.Lesson) (learn.Moment, string) {
	r := a.LessonRun(l)
	if r == nil {
		return learn.Moment{}, "Run the lesson first."
	}
	if len(r.Policies) == 0 {
		return learn.Moment{}, "The Timeline replays one run, not a curve: run one load once to see it."
	}
	m, err := l.Moment(r)
	if err != nil {
		return learn.Moment{}, err.Error()
	}
	return m, ""
}

// GoToMoment opens the Timeline at the lesson's moment.
func (a *App) GoToMoment(l *learn.Lesson) {
	m, why := a.LessonMoment(l)
	if why != "" {
		return
	}
	a.TL.Playing = false
	a.TL.Policy = m.Policy
	a.TL.T = m.T
	a.Learn.Back = l
	a.Tab = TabTimeline
}

// LessonReplay is the load a sweep lesson offers to run once, "" when
// none.
func (a *App) LessonReplay(l *learn.Lesson) string {
	if l.Replay == nil {
		return ""
	}
	r := a.LessonRun(l)
	if r == nil {
		return ""
	}
	rp, err := l.Replay(r)
	if err != nil {
		return ""
	}
	return rp.Label
}

// ReplayLesson runs the sweep lesson's scenario once at its replay value,
// so that the Timeline has a run to show.
func (a *App) ReplayLesson(l *learn.Lesson) {
	r := a.LessonRun(l)
	if r == nil || l.Replay == nil || a.Running() || a.FigureRunning() {
		return
	}
	rp, err := l.Replay(r)
	if err != nil {
		a.setNotice(err.Error(), true)
		return
	}
	a.Ed.SetValue(rp.Path, doc.FromGo(rp.Value))
	a.save()
	a.StartRun()
	a.Tab = TabLearn
}

// ChallengeState is the challenge's verdict on the last run.
type ChallengeState struct {
	Solved bool
	// Now is what the last run of the lesson's scenario shows ("" when
	// there is none); Ever says a run solved it before.
	Now  string
	Ever bool
}

// LessonChallenge checks the challenge on the last run of the lesson's
// scenario.
func (a *App) LessonChallenge(l *learn.Lesson) ChallengeState {
	p := a.Progress(l)
	st := ChallengeState{Ever: p.Solved}
	if r := a.LessonRun(l); r != nil {
		st.Solved, st.Now = l.Challenge.Check(r)
	}
	return st
}

// noticeLessons checks the challenges of the lessons whose scenario just
// ran (results shown, or a figure done): a solved one is kept as solved.
func (a *App) noticeLessons() {
	if f := a.Fig; f != nil && f.State == RunDone && f.View != nil {
		if a.Learn.lastFig == nil {
			a.Learn.lastFig = map[string]*FigureRun{}
		}
		for _, l := range learn.Lessons() {
			if l.Sweep && l.Scenario == f.Name {
				a.Learn.lastFig[l.ID] = f
				if a.Learn.waitFig == f {
					a.Learn.waitFig = nil
				}
			}
		}
	}
	for _, l := range learn.Lessons() {
		p := a.Progress(l)
		if p.Guess == nil || p.Solved {
			continue
		}
		r := a.LessonRun(l)
		if r == nil {
			continue
		}
		if ok, status := l.Challenge.Check(r); ok {
			p.Solved, p.Solution = true, status
			a.saveLearn()
		}
	}
}

// LessonFields are the challenge's fields, as the editor describes them,
// with ids of their own ("lf-…"); those the editor does not have now (the
// scenario was changed past them) are left out.
func (a *App) LessonFields(l *learn.Lesson) []*form.Field {
	if a.Ed.Str("name") != l.Scenario {
		return nil
	}
	var out []*form.Field
	for _, want := range l.Challenge.Fields {
		f := a.Ed.fieldAt(want.Path)
		if f == nil {
			continue
		}
		c := *f
		c.Label, c.ID = want.Label, "l"+form.ID(want.Path)
		out = append(out, &c)
	}
	return out
}

// fieldAt finds the field of a path among the editor's fields.
func (e *Editor) fieldAt(path string) *form.Field {
	var find func(ws []form.Widget) *form.Field
	find = func(ws []form.Widget) *form.Field {
		for _, w := range ws {
			switch {
			case w.Field != nil && w.Field.Path == path:
				return w.Field
			case w.Group != nil:
				if f := find(w.Group.Widgets); f != nil {
					return f
				}
			case w.Table != nil:
				for _, row := range w.Table.Rows {
					for _, f := range row {
						if f.Path == path {
							return f
						}
					}
				}
			}
		}
		return nil
	}
	switch {
	case strings.HasPrefix(path, "cluster."):
		return find(e.ClusterWidgets())
	case strings.HasPrefix(path, "workload.generator."):
		return find(e.GeneratorWidgets())
	case strings.HasPrefix(path, "perf.interference"):
		return find(e.InterferenceWidgets())
	case strings.HasPrefix(path, "perf."):
		return find(e.PerfWidgets())
	case strings.HasPrefix(path, "engine."):
		return find(e.EngineWidgets())
	case strings.HasPrefix(path, "policies["):
		for _, p := range e.PolicyCards() {
			if strings.HasPrefix(path, p.Path+".") {
				return find(p.Widgets)
			}
		}
	}
	return nil
}

// ShowTerm shows a glossary term in the term bar; HideTerm hides it.
func (a *App) ShowTerm(key string) {
	a.Learn.Term = key
	a.P.Focus("term-bar")
}

// HideTerm hides the term bar.
func (a *App) HideTerm() { a.Learn.Term = "" }

// OpenGlossary shows the glossary (at the foot of the Learn view).
func (a *App) OpenGlossary() {
	a.Learn.Lesson = nil
	a.Learn.Term = ""
	a.Tab = TabLearn
	a.P.Focus("glossary")
}
