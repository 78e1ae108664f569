package app_test

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/policy/script"
	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/app/apptest"
)

// scriptCard adds a script policy and returns its card.
func scriptCard(t *testing.T, a *app.App) app.PolicyCard {
	t.Helper()
	a.AddPolicy(app.ScriptPolicy)
	cards := a.Ed.PolicyCards()
	c := cards[len(cards)-1]
	if c.Name != app.ScriptPolicy {
		t.Fatalf("the last card is %s", c.Name)
	}
	for _, w := range c.Widgets {
		if w.Field != nil && w.Field.Name == "source" {
			t.Error("the source is a plain form field too; the code editor shows it")
		}
	}
	return c
}

// A new script policy holds the template in the document (so that a
// share link carries it), a typo shows at the source with its line, an
// example replaces the script, and the script travels in share links.
func TestScriptCard(t *testing.T) {
	f := apptest.New(t)
	a := app.New(f)
	c := scriptCard(t, a)
	if got := a.Ed.Str(c.Path + ".params.source"); got != script.Template {
		t.Fatalf("a new script policy holds %q", got)
	}
	if !a.Ed.Valid() {
		t.Fatalf("the template is refused: %v", a.Ed.Problems)
	}
	a.SetText(app.ScriptField(c), "def priority(job, now):\n    return job.sollo_s\n")
	if msg := a.Ed.Problem(app.ScriptField(c).Path); !strings.Contains(msg, "did you mean .solo_s?") || a.Ed.ScriptErrorLine(c) != 2 {
		t.Errorf("a typo: %q at line %d", msg, a.Ed.ScriptErrorLine(c))
	}
	a.UseScriptExample(c.Index, "srgt")
	if got := a.Ed.ScriptText(c); !strings.Contains(got, "remaining_s") || a.Ed.Get(c.Path+".params.oracle") != true || !a.Ed.Valid() {
		t.Errorf("the srgt example: %q, oracle %v, problems %v", got, a.Ed.Get(c.Path+".params.oracle"), a.Ed.Problems)
	}
	a.UseScriptExample(c.Index, "no-such-example")
	if got := a.Ed.ScriptText(c); !strings.Contains(got, "remaining_s") {
		t.Errorf("an unknown menu entry changed the script to %q", got)
	}
	a.MakeShare()
	g := apptest.New(t)
	g.Frag = a.Share[strings.Index(a.Share, "#")+1:]
	b := app.New(g)
	if got, want := b.Ed.ScriptText(b.Ed.PolicyCards()[c.Index]), a.Ed.ScriptText(c); got != want {
		t.Errorf("the share link carried %q, want %q", got, want)
	}
}

// Check my policy runs the conformance battery in an engine worker,
// reports progress, and lists each failure with its seed and a scenario
// that shows it.
func TestCheckScript(t *testing.T) {
	f := apptest.New(t)
	a := app.New(f)
	c := scriptCard(t, a)
	// it never starts a job that arrives after 1,000 s: those wait forever
	a.SetText(app.ScriptField(c), "def decide(state):\n    return {'start': [j for j in state.pending if j.arrival_s < 1000]}\n")
	if !a.Ed.Valid() {
		t.Fatalf("refused: %v", a.Ed.Problems)
	}
	a.CheckScript(c.Index)
	ch := a.ScriptCheckOf(c)
	if ch == nil || !ch.Running {
		t.Fatal("no check running")
	}
	progressed := false
	f.Pump(a, func() bool { progressed = progressed || ch.Done > 0; return !ch.Running })
	if ch.Err != "" || ch.Ran == 0 || len(ch.Failures) == 0 || !progressed {
		t.Fatalf("check: err %q, ran %d, %d failures, progress seen %v", ch.Err, ch.Ran, len(ch.Failures), progressed)
	}
	fl := ch.Failures[0]
	if fl.Seed == 0 || !strings.Contains(fl.Case, "generator") || !strings.Contains(fl.Msg, "the policy starts none of them") || !strings.Contains(fl.Document, `"seeds":[`) {
		t.Errorf("failure %+v", fl)
	}
	if ch.Stale(a.Ed, c) {
		t.Error("stale right after the check")
	}
	a.SetText(app.ScriptField(c), "def priority(job, now):\n    return job.gpus\n")
	if !ch.Stale(a.Ed, c) {
		t.Error("not stale after an edit")
	}
	// A script that passes.
	a.CheckScript(c.Index)
	ch = a.ScriptCheckOf(c)
	f.Pump(a, func() bool { return !ch.Running })
	if ch.Err != "" || len(ch.Failures) != 0 || ch.Ran != ch.Total || ch.Ran == 0 {
		t.Errorf("a good script: err %q, %d failures, ran %d of %d", ch.Err, len(ch.Failures), ch.Ran, ch.Total)
	}
	// A failed case opens in the editor.
	a.OpenScriptCase(fl)
	if !strings.HasPrefix(a.Ed.Str("name"), "conformance-") {
		t.Errorf("the case opened as %q", a.Ed.Str("name"))
	}
}
