package app_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/app/apptest"
	"github.com/schedlab/schedlab/web/doc"
	"github.com/schedlab/schedlab/web/learn"
)

// edit is a change to a lesson's scenario: JSON paths and values.
type edit map[string]any

// solutions are, per lesson, changes a student might try: the test tries
// them in order and needs one that solves the challenge (it says which).
var solutions = map[string][]edit{
	"queues":     {{"cluster.servers[0].count": 3}, {"cluster.servers[0].count": 4}, {"cluster.servers[0].count": 6}},
	"blocking":   {{"workload.generator.gpu_mix[2].weight": 0}, {"workload.generator.gpu_mix[0].weight": 0, "workload.generator.gpu_mix[1].weight": 0}},
	"sjf":        {{"workload.generator.duration.sigma": 1.5}, {"workload.generator.jobs_per_hour": 40}},
	"load":       {{"cluster.servers[0].count": 5}, {"cluster.servers[0].count": 6}},
	"las":        {{"workload.generator.jobs_per_hour": 24}, {"workload.generator.jobs_per_hour": 16}, {"workload.generator.jobs_per_hour": 12}},
	"placement":  {{"cluster.servers[0].count": 8, "cluster.servers[0].gpus": 2}, {"cluster.servers[0].count": 2, "cluster.servers[0].gpus": 8}},
	"gavel":      {{"cluster.servers[2].gpu_type": "V100"}, {"cluster.servers[1].gpu_type": "V100", "cluster.servers[2].gpu_type": "V100"}},
	"sharing":    {{"perf.params.xi.uniform": 2}, {"perf.params.xi.uniform": 3}},
	"tesserae":   {{"policies[1].params.migration_s": 120}, {"policies[1].params.migration_s": 600}},
	"contention": {{"perf.params.beta": 0.2}, {"perf.params.beta": 0.05}},
	"claims":     {{"policies[5].params.max_gpus": 4}, {"policies[5].params.growth_factor": 1}},
}

// pumpLesson delivers worker messages until the lesson's run is in.
func pumpLesson(f *apptest.Browser, a *app.App, l *learn.Lesson) {
	f.Pump(a, func() bool { return !a.Running() && !a.FigureRunning() })
}

// walk answers a lesson's question with guess and waits for its run.
func walk(t *testing.T, f *apptest.Browser, a *app.App, l *learn.Lesson, guess float64) *app.Reveal {
	t.Helper()
	a.OpenLesson(l)
	if a.LessonReveal(l) != nil {
		t.Fatalf("%s: a reveal before any answer", l.ID)
	}
	a.SetGuess(l, guess)
	if !a.CanAnswer(l) {
		t.Fatalf("%s: cannot answer", l.ID)
	}
	a.Answer(l)
	if a.Tab != app.TabLearn {
		t.Fatalf("%s: answering left the Learn view for %s", l.ID, a.Tab)
	}
	pumpLesson(f, a, l)
	rv := a.LessonReveal(l)
	if rv == nil {
		t.Fatalf("%s: no reveal after the run (%s)", l.ID, a.Notice)
	}
	if rv.Err != "" {
		t.Fatalf("%s: %s", l.ID, rv.Err)
	}
	return rv
}

// TestLessonsRunAndSolve walks every lesson as a student would: answers,
// runs, reads the explanation, opens the Timeline at the lesson's moment,
// finds the challenge unsolved by the lesson's own scenario, then finds a
// change to the scenario that solves it, and sees the progress kept.
func TestLessonsRunAndSolve(t *testing.T) {
	for _, l := range learn.Lessons() {
		t.Run(l.ID, func(t *testing.T) {
			f := apptest.New(t)
			a := app.New(f)
			guess := 0.0
			if s := l.Question.Slider; s != nil {
				guess = s.Max
			}
			rv := walk(t, f, a, l, guess)
			if rv.Verdict.Text == "" || len(rv.Paras) == 0 {
				t.Fatalf("empty reveal: %+v", rv)
			}
			for _, p := range rv.Paras {
				if strings.Contains(p, "{") || strings.Contains(p, "%!") || strings.Contains(p, "NaN") {
					t.Errorf("a broken explanation: %q", p)
				}
			}
			t.Logf("%s\n%s", rv.Verdict.Text, strings.Join(rv.Paras, "\n"))
			if l.Replay != nil {
				if _, why := a.LessonMoment(l); why == "" {
					t.Fatal("a sweep lesson has a moment before a single run")
				}
				a.ReplayLesson(l)
				pumpLesson(f, a, l)
			}
			m, why := a.LessonMoment(l)
			if why != "" {
				t.Fatalf("no moment: %s", why)
			}
			a.GoToMoment(l)
			if a.Tab != app.TabTimeline || a.TL.T != m.T || a.TL.Policy != m.Policy {
				t.Fatalf("the Timeline link: tab %s, t %g (want %g), policy %d", a.Tab, a.TL.T, m.T, a.TL.Policy)
			}
			t.Logf("moment: %s", m.Text)
			a.BackToLesson()
			if a.Tab != app.TabLearn || a.Learn.Lesson != l {
				t.Fatal("back to the lesson failed")
			}
			if st := a.LessonChallenge(l); st.Solved || st.Now == "" {
				t.Fatalf("the lesson's own scenario: solved %v (%s)", st.Solved, st.Now)
			}
			for _, e := range solutions[l.ID] {
				a.ResetLesson(l)
				pumpLesson(f, a, l)
				for path, v := range e {
					a.Ed.SetValue(path, doc.FromGo(v))
				}
				a.TryChallenge(l)
				pumpLesson(f, a, l)
				st := a.LessonChallenge(l)
				t.Logf("%v: solved %v: %s", e, st.Solved, st.Now)
				if st.Solved {
					if !a.Progress(l).Solved {
						t.Fatal("solved, but not kept as solved")
					}
					var kept map[string]app.LessonProgress
					if err := json.Unmarshal([]byte(f.Storage["schedlab.learn.v1"]), &kept); err != nil || !kept[l.ID].Solved || kept[l.ID].Guess == nil || *kept[l.ID].Guess != guess {
						t.Fatalf("the browser keeps %q", f.Storage["schedlab.learn.v1"])
					}
					// A new page in the same browser remembers it.
					b := app.New(f)
					if b.LessonStatus(l) != "solved" {
						t.Fatalf("after a reload: %q", b.LessonStatus(l))
					}
					return
				}
			}
			t.Fatalf("none of %v solves the challenge", solutions[l.ID])
		})
	}
}

// TestRevealFollowsTheRun: a lesson's explanation is computed from the
// run: a changed scenario changes its numbers.
func TestRevealFollowsTheRun(t *testing.T) {
	for _, l := range learn.Lessons() {
		t.Run(l.ID, func(t *testing.T) {
			f := apptest.New(t)
			a := app.New(f)
			before := walk(t, f, a, l, 1)
			for path, v := range solutions[l.ID][len(solutions[l.ID])-1] {
				a.Ed.SetValue(path, doc.FromGo(v))
			}
			a.TryChallenge(l)
			pumpLesson(f, a, l)
			after := a.LessonReveal(l)
			if after == nil || !after.Edited || before.Edited {
				t.Fatalf("edited: before %v, after %+v", before.Edited, after)
			}
			if strings.Join(before.Paras, "\n") == strings.Join(after.Paras, "\n") {
				t.Errorf("the explanation did not change with the scenario:\n%s", strings.Join(after.Paras, "\n"))
			}
		})
	}
}
