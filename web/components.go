// Package web is schedlab's page: Vugu components (the .vugu files, with
// their generated Go in 0_components_gen.go) that render an app.App and
// call its methods. The components hold no state of their own beyond
// what the App keeps, and they build natively too, so that they are
// tested with Vugu's static renderer (see the tests) while the browser
// entry point lives in wasm/browser.
package web

//go:generate go tool vugugen -s -skip-go-mod -skip-main
//go:generate go run ../build/vgcompact 0_components_gen.go

import (
	"fmt"
	"strings"

	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/form"
)

// Root is the whole page.
type Root struct {
	App *app.App
}

// TabClass is the class of a tab button.
func (c *Root) TabClass(tab string) string {
	if c.App.Tab == tab {
		return "tab active"
	}
	return "tab"
}

// Selected is aria-selected for a tab.
func (c *Root) Selected(tab string) string { return boolString(c.App.Tab == tab) }

// ProblemBadge is the number of problems, shown on the Scenario tab.
func (c *Root) ProblemBadge() string {
	if n := len(c.App.Ed.Problems); n > 0 {
		return fmt.Sprint(n)
	}
	return ""
}

func boolString(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// RunBar holds Run, Cancel, the progress bar, the status line and the
// problems that keep a scenario from running.
type RunBar struct {
	App *app.App
}

// Title is the scenario's title or name, marked when it is a changed
// built-in scenario (its title describes the original).
func (c *RunBar) Title() string {
	if t := c.App.Ed.Str("title"); t != "" {
		if _, modified := c.App.Builtin(); modified {
			return t + " (edited)"
		}
		return t
	}
	if n := c.App.Ed.Str("name"); n != "" {
		return n
	}
	return "Untitled scenario"
}

// RunLabel is the Run button's text: it says when a run is going on (the
// button is disabled then; Cancel stops the run).
func (c *RunBar) RunLabel() string {
	if c.App.Running() {
		return "Running…"
	}
	return "▶ Run"
}

// RunTitle explains the Run button.
func (c *RunBar) RunTitle() string {
	if c.App.Running() {
		return "A run is in progress; Cancel stops it"
	}
	return "Simulate every chosen policy and show the results"
}

// Busy marks the Run button busy for assistive technology.
func (c *RunBar) Busy() string { return boolString(c.App.Running()) }

// ProgressStyle sizes the progress bar's fill.
func (c *RunBar) ProgressStyle() string {
	return fmt.Sprintf("width:%d%%", c.App.Run.ProgressPercent())
}

// Percent is the progress as text for assistive technology.
func (c *RunBar) Percent() string { return fmt.Sprint(c.App.Run.ProgressPercent()) }

// CopyLabel is the copy button's text.
func (c *RunBar) CopyLabel() string {
	if c.App.Copied {
		return "Copied"
	}
	return "Copy"
}

// ProblemsTitle counts the problems in words.
func (c *RunBar) ProblemsTitle() string {
	n := len(c.App.Ed.Problems)
	if n == 1 {
		return "1 problem to fix before running:"
	}
	return fmt.Sprintf("%d problems to fix before running:", n)
}

// NoteClass colours a note.
func NoteClass(n *app.Note) string {
	if n.Err {
		return "note error"
	}
	return "note"
}

// NoteRole announces error notes at once and others politely.
func NoteRole(n *app.Note) string {
	if n.Err {
		return "alert"
	}
	return "status"
}

// StatusClass colours the status line.
func (c *RunBar) StatusClass() string {
	if c.App.NoticeErr {
		return "status error"
	}
	return "status"
}

// Field is one labelled input with its hint and its problem. Compact
// fields (in tables) show only the input and the problem.
type Field struct {
	App     *app.App
	F       *form.Field
	Compact bool
	// Placeholder overrides the default shown in an empty input.
	Placeholder string
}

// Class is the wrapper's class.
func (c *Field) Class() string {
	cls := "field"
	if c.Compact {
		cls = "cell"
	}
	if c.F.Kind == form.Bool {
		cls += " check"
	}
	if c.App.Ed.HasProblem(c.F.Path) {
		cls += " invalid"
	}
	return cls
}

// Invalid is aria-invalid.
func (c *Field) Invalid() string { return boolString(c.App.Ed.HasProblem(c.F.Path)) }

// ErrID is the id of the problem's element.
func (c *Field) ErrID() string { return "e-" + strings.TrimPrefix(c.F.ID, "f-") }

// Input is the kind of input element to show.
func (c *Field) Input() string {
	switch {
	case c.F.Kind == form.Bool:
		return "check"
	case c.F.Kind == form.Enum:
		return "select"
	case c.F.Kind == form.JSON || c.F.Name == "description":
		return "area"
	}
	return "text"
}

// InputMode picks the on-screen keyboard on phones.
func (c *Field) InputMode() string {
	switch c.F.Kind {
	case form.Integer:
		return "numeric"
	case form.Number:
		return "decimal"
	}
	return "text"
}

// List names the suggestions of a text input (GPU types).
func (c *Field) List() string {
	if c.F.Name == "gpu_type" {
		return "gpu-types"
	}
	return ""
}

// Value is the text the input shows.
func (c *Field) Value() string { return c.App.Ed.Text(c.F) }

// SelectValue is the chosen option: the value, or the default.
func (c *Field) SelectValue() string {
	if v := c.App.Ed.Text(c.F); v != "" || c.F.Optional {
		return v
	}
	return c.F.Default
}

// Options are a select's choices.
func (c *Field) Options() []string {
	opts := c.F.Enum
	if c.F.Optional && (len(opts) == 0 || opts[0] != "") {
		opts = append([]string{""}, opts...)
	}
	return opts
}

// OptionLabel names a choice; "" is the default.
func (c *Field) OptionLabel(o string) string {
	if o == "" {
		if c.F.Default != "" {
			return "default (" + c.F.Default + ")"
		}
		return "default"
	}
	return o
}

// PlaceholderText is shown in an empty input: the default.
func (c *Field) PlaceholderText() string {
	if c.Placeholder != "" {
		return c.Placeholder
	}
	if c.F.Default != "" && c.F.Default != "0" && c.F.Default != "false" {
		return c.F.Default
	}
	if c.F.Optional && c.F.Kind != form.String {
		return "default"
	}
	return ""
}

// Hint is the help line under a field: what it means, its unit's range
// and its default.
func (c *Field) Hint() string {
	var parts []string
	if h := c.F.Help; h != "" && !strings.EqualFold(h, c.F.Label) {
		parts = append(parts, Sentence(h))
	}
	if r := form.Range(c.F); r != "" {
		parts = append(parts, "range "+r)
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "; ") + "."
}

// Sentence capitalizes a help text's first letter when it is ASCII (a
// leading "σ" stays a σ).
func Sentence(s string) string {
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		return string(s[0]-'a'+'A') + s[1:]
	}
	return s
}

// HelpOf is a help text worth showing: not a repetition of the label.
func HelpOf(help, label string) string {
	if strings.EqualFold(strings.TrimSpace(help), strings.TrimSpace(label)) {
		return ""
	}
	return Sentence(help)
}

// Unit is the unit in parentheses.
func (c *Field) Unit() string {
	if c.F.Unit == "" {
		return ""
	}
	return "(" + c.F.Unit + ")"
}

// Problem is the field's problem in words.
func (c *Field) Problem() string { return c.App.Ed.FieldProblem(c.F) }

// Notice is the notice at the field (see app.Editor.Notices).
func (c *Field) Notice() string { return c.App.Ed.Notice(c.F.Path) }

// Widgets renders a form description: fields, tables and groups.
type Widgets struct {
	App *app.App
	W   []form.Widget
}

// FormTable edits a list of objects.
type FormTable struct {
	App *app.App
	T   *form.Table
	// Add is the text of the add button.
	Add string
}

// addTexts name a new row of the tables the page knows.
var addTexts = map[string]string{
	"servers": "+ Add a server group", "gpu_mix": "+ Add a GPU count", "scale_factors": "+ Add a GPU count",
	"models": "+ Add a model", "entities": "+ Add an owner", "type_speed": "+ Add a GPU type",
}

// AddText is the add button's text.
func (c *FormTable) AddText() string {
	if c.Add != "" {
		return c.Add
	}
	name := c.T.Path[strings.LastIndex(c.T.Path, ".")+1:]
	if t, ok := addTexts[name]; ok {
		return t
	}
	return "+ Add a row"
}

// ColumnTitle is a column header.
func (c *FormTable) ColumnTitle(f *form.Field) string {
	if f.Unit != "" {
		return f.Label + " (" + f.Unit + ")"
	}
	return f.Label
}

// RemoveLabel names a row's remove button for screen readers.
func (c *FormTable) RemoveLabel(i int) string {
	return fmt.Sprintf("Remove row %d of %s", i+1, strings.ToLower(c.T.Label))
}

// ProblemList lists problems, each a button that goes to its field.
type ProblemList struct {
	App      *app.App
	Problems []app.Problem
}
