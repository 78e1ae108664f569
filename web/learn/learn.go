// Package learn is the content of the page's Learn path: an ordered list of
// lessons about scheduling deep-learning jobs on shared GPU clusters. Each
// lesson has a prepared scenario (a built-in one), a few short steps of
// text, a question the student answers before running it, an explanation
// computed from the run (never typed numbers), a moment of the run to open
// in the Timeline, and a challenge the page checks on the student's own
// runs. The glossary that every lesson and decision log links its terms
// to lives here too.
//
// It is plain Go over a run's records (sim/results, web/protocol): no
// browser and no simulator, so every lesson's arithmetic is tested
// natively; web/app turns the page's results into a Run and shows what
// the lessons compute.
package learn

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// Lesson is one lesson of the path.
type Lesson struct {
	// ID names the lesson in the browser's storage of progress; it never
	// changes once published.
	ID    string
	Title string
	// Minutes is how long the lesson takes a newcomer, reading included.
	Minutes int
	// Scenario is the built-in scenario the lesson runs.
	Scenario string
	// Sweep marks a lesson whose scenario sweeps a value: it runs as a
	// curve (several runs), not as one comparison.
	Sweep bool
	// Steps are the text before the question, each at most about 200
	// words, one paragraph a string. Steps, the question's prompt and the
	// challenge's text may name facts of the scenario as {key}: Facts
	// computes them from the scenario, so that no number in a text
	// describes a scenario other than the one that runs.
	Steps []Step
	Facts func(r *Run) map[string]string
	// Question is asked before the run.
	Question Question
	// Explain says what the run shows, with its numbers.
	Explain func(r *Run) ([]string, error)
	// Figures are the run's figures the explanation refers to: FigureCDF,
	// FigureGantt, FigureCurve.
	Figures []string
	// Moment is the instant of the run to open in the Timeline.
	Moment func(r *Run) (Moment, error)
	// Replay, for a sweep lesson, is the sweep value to run once so that
	// the Timeline has a run to replay (the Timeline shows one run, not a
	// curve): the scenario is run with Path set to the value.
	Replay func(r *Run) (Replay, error)
	// Challenge ends the lesson.
	Challenge Challenge
}

// Step is one screen of text.
type Step struct {
	Title string
	Paras []string
}

// Figures a lesson can show beside its explanation.
const (
	FigureCDF   = "cdf"
	FigureGantt = "gantt"
	FigureCurve = "curve"
)

// Question is asked before the run: a choice among Choices, or a value on
// a Slider. Truth computes the answer from the run: the index of the
// right choice, or the slider's right value.
type Question struct {
	Prompt  string
	Choices []string
	Slider  *Slider
	Truth   func(r *Run) (float64, error)
}

// Slider is a question answered with a number.
type Slider struct {
	Min, Max, Step float64
	// Start is where the slider stands before the student moves it.
	Start float64
	// Unit follows the number: "%", "×", " min".
	Unit string
	// Close is how far from the truth a guess may be and still be close.
	Close float64
}

// Format writes a slider value with its unit.
func (s *Slider) Format(v float64) string {
	digits := 0
	if s.Step < 1 {
		digits = int(math.Ceil(-math.Log10(s.Step)))
	}
	return fmt.Sprintf("%.*f%s", digits, v, s.Unit)
}

// Moment is an instant of a run to open in the Timeline: policy Policy
// (an index into the run's policies) at simulated time T, with what
// happens then in words.
type Moment struct {
	Policy int
	T      float64
	Text   string
}

// Replay is a sweep value to run once.
type Replay struct {
	Path  string
	Value float64
	// Label says which run it is, e.g. "20 jobs/h".
	Label string
}

// Challenge ends a lesson: a change to the scenario for the student to
// find, checked on each run of the lesson's scenario they make.
type Challenge struct {
	Text string
	// Hint says where to look, without giving it away.
	Hint string
	// Fields are the scenario fields the lesson offers to edit in place;
	// everything else is in the Scenario view.
	Fields []Field
	// Check says whether a run solves the challenge, and what the run
	// shows either way.
	Check func(r *Run) (solved bool, status string)
}

// Field is a scenario field a challenge offers: its JSON path and what
// to call it.
type Field struct {
	Path, Label string
}

// Verdict is a prediction held against the run.
type Verdict struct {
	Close bool
	Text  string
}

// Judge compares a student's guess with the run's answer.
func (q *Question) Judge(guess, truth float64) Verdict {
	if q.Slider == nil {
		i, g := int(truth), int(guess)
		if i < 0 || i >= len(q.Choices) || g < 0 || g >= len(q.Choices) {
			return Verdict{Text: "The run's answer is out of range."}
		}
		if i == g {
			return Verdict{Close: true, Text: fmt.Sprintf("You chose “%s”, and so it is.", q.Choices[g])}
		}
		return Verdict{Text: fmt.Sprintf("You chose “%s”; the run says “%s”.", q.Choices[g], q.Choices[i])}
	}
	s := q.Slider
	off := math.Abs(guess - truth)
	word := "off by"
	switch {
	case off <= s.Close:
		return Verdict{Close: true, Text: fmt.Sprintf("You guessed %s; the run gives %s. Close!", s.Format(guess), s.Format(truth))}
	case guess > truth:
		word = "too high by"
	default:
		word = "too low by"
	}
	by := s.Format(off)
	if strings.TrimSpace(s.Unit) == "%" {
		by = strings.TrimSuffix(by, s.Unit) + " percentage points" // not a percentage of the guess
	}
	return Verdict{Text: fmt.Sprintf("You guessed %s; the run gives %s (%s %s).", s.Format(guess), s.Format(truth), word, by)}
}

// Text fills a lesson text's {key} facts from the run (the lesson's own
// scenario before any run).
func (l *Lesson) Text(s string, r *Run) string {
	if l.Facts == nil || r == nil || r.Scenario == nil {
		return s
	}
	if r.facts == nil || r.factsOf != l {
		r.facts, r.factsOf = l.Facts(r), l // a page asks once a paragraph
	}
	return fill(s, r.facts)
}

// ErrNoRun is returned when a lesson is asked about a run it cannot read.
var ErrNoRun = errors.New("no run of this lesson's scenario yet")

// Find returns the lesson with this ID, or nil.
func Find(id string) *Lesson {
	for _, l := range Lessons() {
		if l.ID == id {
			return l
		}
	}
	return nil
}

// Words counts the words of a text, as a reader would.
func Words(s string) int { return len(strings.Fields(s)) }

// MaxStepWords is the most words a step (or an explanation) should have.
const MaxStepWords = 200
