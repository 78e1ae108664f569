package web

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/app/apptest"
	"github.com/schedlab/schedlab/web/learn"
)

// The Learn view renders its list, its glossary and a lesson through its
// question, reveal and challenge; glossary terms are buttons, in lessons
// and in the Timeline's decision log.
func TestLearnRenders(t *testing.T) {
	b := apptest.New(t)
	a := app.New(b)
	page := render(t, a)
	mustContain(t, page, `id="tab-learn"`, `id="learn-invite"`)
	a.OpenLearn()
	page = render(t, a)
	mustContain(t, page, `id="learn-start"`, `id="glossary"`, `id="term-backfilling"`, `class="term"`)
	for _, l := range learn.Lessons() {
		mustContain(t, page, `id="lesson-`+l.ID+`"`)
	}
	if strings.Contains(page, `id="learn-invite"`) {
		t.Error("the invitation shows outside the results")
	}

	l := learn.Lessons()[1]
	a.OpenLesson(l)
	page = render(t, a)
	mustContain(t, page, `id="lesson-title"`, `id="lesson-choice-0"`, `id="lesson-answer"`, `data-term="head-of-line"`)
	if strings.Contains(page, `id="lesson-reveal"`) {
		t.Error("a reveal before the answer")
	}
	a.SetGuess(l, 3)
	a.Answer(l)
	b.Pump(a, apptest.Done(a))
	b.Pump(a, apptest.Drawn(a))
	page = render(t, a)
	mustContain(t, page, `id="lesson-reveal"`, `id="lesson-verdict"`, `id="lesson-timeline"`, `id="challenge-run"`,
		`id="lf-workload-generator-gpu_mix-2-weight"`, "Weight of 8-GPU jobs", `id="challenge-status"`, "Not yet.")
	if !regexp.MustCompile(`<strong id="lesson-locked">30 to 60 % lower</strong>`).MatchString(page) {
		t.Error("the locked answer is not shown")
	}

	a.GoToMoment(l)
	page = render(t, a)
	mustContain(t, page, `id="lesson-back"`, `id="decision-log"`)
	if i := strings.Index(page, `id="decision-log"`); i < 0 || !strings.Contains(page[i:], `data-term="fifo"`) {
		t.Error("the decision log links no term")
	}

	a.ShowTerm("backfilling")
	page = render(t, a)
	mustContain(t, page, `id="term-bar"`, `id="term-name"`, "Backfilling", `id="term-close"`)
	a.HideTerm()

	a.SetTab(app.TabGallery)
	page = render(t, a)
	mustContain(t, page, `id="gallery-learn"`, `id="glesson-queues"`)
	if strings.Contains(page, `id="gallery-learn-queues"`) || strings.Contains(page, `id="open-learn-queues"`) {
		t.Error("a lesson's scenario shows among the teaching presets")
	}
}

// The list's button says where to go on: the first unsolved lesson, or,
// with every lesson solved, back to the first (not "continue").
func TestLearnStartLabel(t *testing.T) {
	b := apptest.New(t)
	solved := map[string]app.LessonProgress{}
	for i, l := range learn.Lessons() {
		if i != 2 {
			solved[l.ID] = app.LessonProgress{Solved: true}
		}
	}
	save := func() {
		data, err := json.Marshal(solved)
		if err != nil {
			t.Fatal(err)
		}
		b.Storage["schedlab.learn.v1"] = string(data)
	}
	save()
	c := &LearnView{App: app.New(b)}
	if got := c.StartLabel(); !strings.HasPrefix(got, "Continue: lesson 3, ") {
		t.Errorf("lesson 3 unsolved: %q", got)
	}
	solved[learn.Lessons()[2].ID] = app.LessonProgress{Solved: true}
	save()
	c = &LearnView{App: app.New(b)}
	if got := c.StartLabel(); !strings.HasPrefix(got, "All solved: go over lesson 1 again") {
		t.Errorf("all solved: %q", got)
	}
}
