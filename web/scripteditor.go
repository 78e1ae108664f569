package web

import (
	"fmt"
	"strconv"
	"strings"

	js "github.com/vugu/vugu/js"

	"github.com/schedlab/schedlab/sim/policy/script"
	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/form"
)

// ScriptEditor is the script policy's part of its card: the code editor
// (web/codeeditor.js, see build/codeeditor) or, where that script did
// not load, a plain text area; the examples menu; "Check my policy" and
// what it found; and the fields a script reads.
type ScriptEditor struct {
	App  *app.App
	Card app.PolicyCard
}

// ID names one of the card's elements.
func (c *ScriptEditor) ID(what string) string {
	return "script-" + what + "-" + strconv.Itoa(c.Card.Index)
}

// Field is the source field.
func (c *ScriptEditor) Field() *form.Field { return app.ScriptField(c.Card) }

// Text is the script.
func (c *ScriptEditor) Text() string { return c.App.Ed.ScriptText(c.Card) }

// Class is the wrapper's class.
func (c *ScriptEditor) Class() string {
	if c.App.Ed.HasProblem(c.Field().Path) {
		return "field script-field invalid"
	}
	return "field script-field"
}

// Invalid is aria-invalid.
func (c *ScriptEditor) Invalid() string { return boolString(c.App.Ed.HasProblem(c.Field().Path)) }

// ErrID is the id of the problem's element.
func (c *ScriptEditor) ErrID() string { return "e-" + strings.TrimPrefix(c.Field().ID, "f-") }

// Problem is the mistake in the script, "" for none.
func (c *ScriptEditor) Problem() string { return c.App.Ed.Problem(c.Field().Path) }

// Rich reports whether the code editor is there.
func (c *ScriptEditor) Rich() bool { return codeEditor().Truthy() }

// Sync hands the script to the code editor in el, at every render.
func (c *ScriptEditor) Sync(el js.Value) {
	if ce := codeEditor(); ce.Truthy() {
		ce.Call("sync", el, c.Field().ID, c.Text(), c.ID("label"), c.ErrID(), c.App.Ed.ScriptErrorLine(c.Card))
	}
}

// Examples are the menu's entries.
func (c *ScriptEditor) Examples() []app.ScriptExample { return app.ScriptExamples() }

// Use replaces the script with an example.
func (c *ScriptEditor) Use(name string) {
	if name != "" {
		c.App.UseScriptExample(c.Card.Index, name)
	}
}

// Check is the last check of this card's script, or nil.
func (c *ScriptEditor) Check() *app.ScriptCheck { return c.App.ScriptCheckOf(c.Card) }

// CheckLabel is the check button's text.
func (c *ScriptEditor) CheckLabel() string {
	if ch := c.Check(); ch != nil && ch.Running {
		return "Check again"
	}
	return "Check my policy"
}

// Progress says how far a check is.
func (c *ScriptEditor) Progress() string {
	ch := c.Check()
	if ch.Total == 0 {
		return "Checking your policy on small made-up scenarios in the simulator…"
	}
	return fmt.Sprintf("Checking your policy: %d of %d made-up scenarios…", ch.Done, ch.Total)
}

// Percent is the progress bar's value.
func (c *ScriptEditor) Percent() string {
	ch := c.Check()
	if ch.Total == 0 {
		return "0"
	}
	return strconv.Itoa(100 * ch.Done / ch.Total)
}

func (c *ScriptEditor) finished() bool {
	ch := c.Check()
	return ch != nil && !ch.Running && ch.Err == ""
}

// Passed reports a check that found nothing wrong.
func (c *ScriptEditor) Passed() bool { return c.finished() && len(c.Check().Failures) == 0 }

// Failed reports a check that found failures.
func (c *ScriptEditor) Failed() bool { return c.finished() && len(c.Check().Failures) > 0 }

// PassedText says what a passed check means.
func (c *ScriptEditor) PassedText() string {
	return fmt.Sprintf("Passed: on all %d made-up scenarios (every perf model and workload generator, several seeds each), "+
		"every job finished or was reported as never fitting, no rule of the cluster was broken, and running again with "+
		"the same seed gave the same results.", c.Check().Ran)
}

// FailedText counts the failures.
func (c *ScriptEditor) FailedText() string {
	ch := c.Check()
	return fmt.Sprintf("Failed %d of %d made-up scenarios. Each line says what went wrong and the seed that shows it; "+
		"open a case to run it here.", len(ch.Failures), ch.Ran)
}

// Seed is a failure's seed as text.
func (c *ScriptEditor) Seed(f app.ScriptFailure) string { return strconv.FormatUint(f.Seed, 10) }

// Stale reports a finished check of an older script.
func (c *ScriptEditor) Stale() bool {
	ch := c.Check()
	return ch != nil && !ch.Running && ch.Stale(c.App.Ed, c.Card)
}

// Fields are what a script reads.
func (c *ScriptEditor) Fields() []script.FieldDoc { return script.Fields() }

// Settings are the module-level settings a script may assign.
func (c *ScriptEditor) Settings() []script.FieldDoc { return script.Settings() }
