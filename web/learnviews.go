package web

import (
	"fmt"
	"strconv"

	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/form"
	"github.com/schedlab/schedlab/web/learn"
	"github.com/vugu/vugu"
)

// LearnView is the Learn path: the list of lessons and the glossary, or
// one lesson.
type LearnView struct {
	App *app.App
}

// L is the lesson on show.
func (c *LearnView) L() *learn.Lesson { return c.App.Learn.Lesson }

// Count is the number of lessons.
func (c *LearnView) Count() int { return len(c.App.Lessons()) }

// Number is a lesson's place, "3".
func (c *LearnView) Number(l *learn.Lesson) string { return strconv.Itoa(c.App.LessonNumber(l)) }

// Where says where the lesson sits in the path.
func (c *LearnView) Where() string {
	l := c.L()
	return fmt.Sprintf("Lesson %d of %d · about %d minutes", c.App.LessonNumber(l), c.Count(), l.Minutes)
}

// Minutes is a lesson's length.
func (c *LearnView) Minutes(l *learn.Lesson) string { return fmt.Sprintf("about %d min", l.Minutes) }

// StatusText is a lesson's progress in words.
func (c *LearnView) StatusText(l *learn.Lesson) string {
	switch c.App.LessonStatus(l) {
	case "solved":
		return "✓ solved"
	case "answered":
		return "begun"
	}
	return ""
}

// StatusClass styles a lesson's progress.
func (c *LearnView) StatusClass(l *learn.Lesson) string { return "lstatus " + c.App.LessonStatus(l) }

// StartLabel is the path's main button.
func (c *LearnView) StartLabel() string {
	if !c.App.LearnBegun() {
		return "Start with lesson 1"
	}
	n := c.App.NextLesson()
	if c.App.Progress(n).Solved { // every lesson is solved
		return fmt.Sprintf("All solved: go over lesson %d again, %s", c.App.LessonNumber(n), n.Title)
	}
	return fmt.Sprintf("Continue: lesson %d, %s", c.App.LessonNumber(n), n.Title)
}

// Solved counts the solved lessons, e.g. "2 of 11 solved".
func (c *LearnView) Solved() string {
	n := 0
	for _, l := range c.App.Lessons() {
		if c.App.LessonStatus(l) == "solved" {
			n++
		}
	}
	return fmt.Sprintf("%d of %d solved", n, c.Count())
}

// Text fills a lesson text's facts.
func (c *LearnView) Text(s string) string { return c.App.LessonText(c.L(), s) }

// Spans links a text's glossary terms.
func (c *LearnView) Spans(s string) []learn.Span { return learn.Link(s) }

// Glossary is every term.
func (c *LearnView) Glossary() []learn.Term { return learn.Glossary() }

// TermID is a term's element id in the glossary.
func (c *LearnView) TermID(t learn.Term) string { return "term-" + t.Key }

// IsSlider reports a question answered with a slider.
func (c *LearnView) IsSlider() bool { return c.L().Question.Slider != nil }

// Locked reports an answer given.
func (c *LearnView) Locked() bool { return c.App.Progress(c.L()).Guess != nil }

// SliderMin and the like are the slider's attributes.
func (c *LearnView) SliderMin() string  { return num(c.L().Question.Slider.Min) }
func (c *LearnView) SliderMax() string  { return num(c.L().Question.Slider.Max) }
func (c *LearnView) SliderStep() string { return num(c.L().Question.Slider.Step) }

// GuessValue is the slider's position.
func (c *LearnView) GuessValue() string { return num(c.App.Guess(c.L())) }

// GuessText is the answer chosen, in words.
func (c *LearnView) GuessText() string {
	l := c.L()
	g := c.App.Guess(l)
	if s := l.Question.Slider; s != nil {
		return s.Format(g)
	}
	if i := int(g); g >= 0 && i < len(l.Question.Choices) {
		return l.Question.Choices[i]
	}
	return "no answer chosen yet"
}

// Chosen is .checked of a choice.
func (c *LearnView) Chosen(i int) bool { return c.App.Guess(c.L()) == float64(i) }

// ChoiceID is a choice's input id.
func (c *LearnView) ChoiceID(i int) string { return "lesson-choice-" + strconv.Itoa(i) }

// AnswerLabel is the answer button's text.
func (c *LearnView) AnswerLabel() string {
	if c.IsSlider() {
		return "Lock in " + c.GuessText() + " and run"
	}
	return "Lock in my answer and run"
}

// Running reports the lesson's run going on.
func (c *LearnView) Running() bool { return c.App.LessonRunning(c.L()) }

// Reveal is the reveal, nil before it.
func (c *LearnView) Reveal() *app.Reveal { return c.App.LessonReveal(c.L()) }

// HasReveal reports a reveal to show.
func (c *LearnView) HasReveal() bool { return c.Reveal() != nil }

// NeedsRun reports an answer locked whose run is not here (a reload, or
// another scenario run since).
func (c *LearnView) NeedsRun() bool { return c.Locked() && !c.HasReveal() && !c.Running() }

// VerdictClass styles the verdict.
func (c *LearnView) VerdictClass() string {
	if c.Reveal().Verdict.Close {
		return "lesson-verdict close"
	}
	return "lesson-verdict far"
}

// ShowFigure reports whether the lesson shows one of its figures.
func (c *LearnView) ShowFigure(kind string) bool {
	for _, f := range c.L().Figures {
		if f == kind {
			switch kind {
			case learn.FigureCDF:
				return c.App.Res != nil && c.App.Res.CDF != nil && c.App.Res.CDF.URL != ""
			case learn.FigureGantt:
				return c.App.Res != nil
			case learn.FigureCurve:
				return c.App.FigureChart() != ""
			}
		}
	}
	return false
}

// CDFURL is the CDF figure of the lesson's run.
func (c *LearnView) CDFURL() string { return c.App.Res.CDF.URL }

// Gantts are the Gantt charts of the lesson's run.
func (c *LearnView) Gantts() []*app.Figure {
	var out []*app.Figure
	for _, p := range c.App.Res.Policies {
		if p.Gantt != nil && p.Gantt.URL != "" { // one not drawn says why in Results
			out = append(out, p.Gantt)
		}
	}
	return out
}

// Curve is the lesson's curve as SVG.
func (c *LearnView) Curve() vugu.HTML { return vugu.HTML(c.App.FigureChart()) }

// Legend lists the curve's lines.
func (c *LearnView) Legend() []app.LegendItem { return c.App.FigureLegend() }

// Moment is the lesson's moment, or why there is none.
func (c *LearnView) Moment() learn.Moment {
	m, _ := c.App.LessonMoment(c.L())
	return m
}

// HasMoment reports a moment to link to.
func (c *LearnView) HasMoment() bool {
	_, why := c.App.LessonMoment(c.L())
	return why == ""
}

// MomentLink is the Timeline link's text.
func (c *LearnView) MomentLink() string {
	return "Open the Timeline at " + results.Duration(c.Moment().T)
}

// Replay is the load a sweep lesson runs once, "" when none.
func (c *LearnView) Replay() string { return c.App.LessonReplay(c.L()) }

// ReplayLabel is the replay button's text.
func (c *LearnView) ReplayLabel() string { return "Run " + c.Replay() + " once to replay it" }

// ChallengeText is the challenge with its facts.
func (c *LearnView) ChallengeText() string { return c.Text(c.L().Challenge.Text) }

// HintText is the challenge's hint with its facts.
func (c *LearnView) HintText() string { return c.Text(c.L().Challenge.Hint) }

// Fields are the challenge's fields.
func (c *LearnView) Fields() []*form.Field { return c.App.LessonFields(c.L()) }

// Challenge is the challenge's state.
func (c *LearnView) Challenge() app.ChallengeState { return c.App.LessonChallenge(c.L()) }

// StatusLine says whether the last run solved the challenge.
func (c *LearnView) StatusLine() string {
	st := c.Challenge()
	switch {
	case st.Solved:
		return "Solved! " + st.Now
	case st.Now != "" && st.Ever:
		return "Solved before. This run: " + st.Now
	case st.Now != "":
		return "Not yet. " + st.Now
	case st.Ever:
		return "Solved before. " + c.App.Progress(c.L()).Solution
	}
	return ""
}

// StatusLineClass styles the status line.
func (c *LearnView) StatusLineClass() string {
	if c.Challenge().Solved {
		return "cstatus solved"
	}
	return "cstatus"
}

// CanRunChallenge reports whether the challenge's Run is enabled.
func (c *LearnView) CanRunChallenge() bool { return c.App.CanRun() && !c.App.FigureRunning() }

// Next is the lesson after this one, nil after the last.
func (c *LearnView) Next() *learn.Lesson {
	ls := c.App.Lessons()
	if i := c.App.LessonNumber(c.L()); i < len(ls) {
		return ls[i]
	}
	return nil
}

// NextLabel is the next lesson's button.
func (c *LearnView) NextLabel() string {
	n := c.Next()
	return fmt.Sprintf("Next: lesson %d, %s", c.App.LessonNumber(n), n.Title)
}

// Linked is a text whose glossary terms are buttons that show their
// definition.
type Linked struct {
	App   *app.App
	Spans []learn.Span
}

// TermTitle says where a term link leads.
func (c *Linked) TermTitle(s learn.Span) string {
	if t, ok := learn.TermByKey(s.Term); ok {
		return "Glossary: " + t.Name
	}
	return ""
}

// TermBar shows one glossary term's definition at the foot of the screen.
type TermBar struct {
	App *app.App
}

// Term is the term on show.
func (c *TermBar) Term() learn.Term {
	t, _ := learn.TermByKey(c.App.Learn.Term)
	return t
}

// Shown reports a term on show.
func (c *TermBar) Shown() bool {
	_, ok := learn.TermByKey(c.App.Learn.Term)
	return ok
}

// LearnBar leads to Learn from the results a newcomer lands on, and back
// to a lesson from the Timeline it linked to.
type LearnBar struct {
	App *app.App
}

// Invite reports whether to invite a newcomer to Learn.
func (c *LearnBar) Invite() bool {
	return c.App.Tab == app.TabResults && !c.App.LearnBegun()
}

// Back reports a lesson to go back to.
func (c *LearnBar) Back() bool { return c.App.Tab == app.TabTimeline && c.App.Learn.Back != nil }

// BackLabel names it.
func (c *LearnBar) BackLabel() string {
	l := c.App.Learn.Back
	return fmt.Sprintf("← Back to lesson %d, %s", c.App.LessonNumber(l), l.Title)
}

// InviteText counts the lessons.
func (c *LearnBar) InviteText() string {
	return fmt.Sprintf("New to scheduling GPU jobs? Learn it in %d short lessons: predict, run, see why.", len(c.App.Lessons()))
}

// LearnCard opens the Learn path from the top of the gallery.
type LearnCard struct {
	App *app.App
}

// Lessons are the path's lessons.
func (c *LearnCard) Lessons() []*learn.Lesson { return c.App.Lessons() }

// Number is a lesson's place.
func (c *LearnCard) Number(l *learn.Lesson) string { return strconv.Itoa(c.App.LessonNumber(l)) }

// Mark is a solved lesson's tick.
func (c *LearnCard) Mark(l *learn.Lesson) string {
	if c.App.LessonStatus(l) == "solved" {
		return " ✓"
	}
	return ""
}

// num writes a number without needless decimals.
func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// Spans links the glossary terms of a decision-log line.
func (c *TimelineView) Spans(s string) []learn.Span { return learn.Link(s) }
