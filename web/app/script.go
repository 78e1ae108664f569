package app

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/sim/policy/script"
	"github.com/schedlab/schedlab/web/doc"
	"github.com/schedlab/schedlab/web/form"
	"github.com/schedlab/schedlab/web/protocol"
)

// The script policy's card: a code editor for its source, a menu of
// examples, and "Check my policy", which runs the conformance battery
// on the script in an engine worker.

// ScriptPolicy is the name of the policy family written in Starlark.
const ScriptPolicy = "script"

// ScriptField is the source field of policy card c.
func ScriptField(c PolicyCard) *form.Field {
	p := c.Path + ".params.source"
	return &form.Field{Path: p, ID: form.ID(p), Name: "source", Label: "Script", Kind: form.String}
}

// ScriptText is the script of policy card c: the document's, or the
// template a script policy starts from.
func (e *Editor) ScriptText(c PolicyCard) string {
	if v, ok := e.Get(ScriptField(c).Path).(string); ok {
		return v
	}
	return script.Template
}

// ScriptErrorLine is the line of the mistake shown at card c's script
// ("script line 3 ..."), 0 when there is none or it has no line.
func (e *Editor) ScriptErrorLine(c PolicyCard) int {
	rest, ok := strings.CutPrefix(e.Problem(ScriptField(c).Path), "script line ")
	if !ok {
		return 0
	}
	end := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
	if end < 0 {
		end = len(rest)
	}
	n, _ := strconv.Atoi(rest[:end])
	return n
}

// ScriptExample is an entry of the examples menu.
type ScriptExample struct{ Name, Title string }

// ScriptExamples are the menu's entries: the template, then the examples.
func ScriptExamples() []ScriptExample {
	out := []ScriptExample{{"template", "The template (a priority to edit)"}}
	for _, e := range script.Examples {
		out = append(out, ScriptExample{e.Name, e.Title})
	}
	return out
}

// UseScriptExample replaces card i's script with an example (its oracle
// parameter set as the example needs); Undo is Ctrl+Z in the editor,
// and the menu says what is replaced.
func (a *App) UseScriptExample(i int, name string) {
	src, oracle := script.Template, false
	for _, e := range script.Examples {
		if e.Name == name {
			src, oracle = e.Source, e.Oracle
		}
	}
	if name != "template" && src == script.Template {
		return // not an entry of the menu
	}
	p := doc.Index("policies", i) + ".params"
	a.Ed.structural(func() {
		a.Ed.SetValue(p+".source", src)
		if oracle {
			a.Ed.SetValue(p+".oracle", true)
		}
	})
	a.save()
}

// ScriptCheck is what "Check my policy" found for one card's script.
type ScriptCheck struct {
	Path    string // the card's path, e.g. policies[2]
	Source  string // the script checked
	Running bool
	Done    int // cases run so far, of Total
	Total   int
	Ran     int
	// Failures are the cases that failed, in words.
	Failures []ScriptFailure
	Err      string   // the check itself failed
	req      *request // the worker request, to cancel it
}

// ScriptFailure is one failed case: what was wrong, on which made-up
// scenario and seed, and that scenario, to open.
type ScriptFailure struct {
	Case, Msg string
	Seed      uint64
	Document  string
}

// Stale reports whether the script changed since it was checked.
func (c *ScriptCheck) Stale(e *Editor, card PolicyCard) bool { return c.Source != e.ScriptText(card) }

// ScriptCheckOf is the last check of card c, or nil.
func (a *App) ScriptCheckOf(c PolicyCard) *ScriptCheck {
	if ch := a.ScriptChecks[c.Path]; ch != nil && ch.Path == c.Path {
		return ch
	}
	return nil
}

// CheckScript runs the conformance battery on card i's script in an
// engine worker. A check already running for it is cancelled.
func (a *App) CheckScript(i int) {
	cards := a.Ed.PolicyCards()
	if i < 0 || i >= len(cards) || cards[i].Name != ScriptPolicy {
		return
	}
	c := cards[i]
	if old := a.ScriptChecks[c.Path]; old != nil && old.Running && old.req != nil {
		a.pool.cancel(old.req)
	}
	params := a.Ed.Get(c.Path + ".params")
	if params == nil {
		params = doc.NewObject()
	}
	ch := &ScriptCheck{Path: c.Path, Source: a.Ed.ScriptText(c), Running: true}
	if a.ScriptChecks == nil {
		a.ScriptChecks = map[string]*ScriptCheck{}
	}
	a.ScriptChecks[c.Path] = ch
	if msg := a.Ed.Problem(ScriptField(c).Path); msg != "" {
		ch.Running, ch.Err = false, "Fix the mistake shown above first: "+msg
		return
	}
	req := protocol.ConformRequest{Policy: ScriptPolicy, Params: json.RawMessage(doc.Compact(params))}
	ch.req = a.pool.ask(protocol.TypeConform, req, nil, func(m protocol.Message) {
		if a.ScriptChecks[c.Path] != ch {
			return // replaced by a later check
		}
		a.scriptChecked(ch, m)
	})
}

// scriptChecked takes a worker's reply to a check.
func (a *App) scriptChecked(ch *ScriptCheck, m protocol.Message) {
	switch m.Type {
	case protocol.TypeProgress:
		var p protocol.Progress
		if json.Unmarshal(m.JSON, &p) == nil {
			ch.Done, ch.Total = p.Finished, p.Total
		}
		return
	case protocol.TypeConformed:
		var r protocol.Conformed
		if err := json.Unmarshal(m.JSON, &r); err != nil {
			ch.Err = "the check's answer could not be read: " + err.Error()
			break
		}
		ch.Ran, ch.Done, ch.Total = r.Ran, r.Cases, r.Cases
		for _, p := range r.Problems {
			ch.Failures = append(ch.Failures, ScriptFailure{Case: p.Case, Msg: p.Msg, Seed: p.Seed, Document: p.Document})
		}
	default:
		var e protocol.Error
		_ = json.Unmarshal(m.JSON, &e)
		ch.Err = e.Message
		if ch.Err == "" {
			ch.Err = fmt.Sprintf("the engine answered %q", m.Type)
		}
	}
	ch.Running = false
}

// OpenScriptCase opens the made-up scenario of a failed case in the
// editor (Undo brings the scenario back) and runs it.
func (a *App) OpenScriptCase(f ScriptFailure) {
	a.Import(fmt.Sprintf("the case of seed %d", f.Seed), f.Document)
}
