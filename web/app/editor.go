package app

import (
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/sim/schema"
	"github.com/schedlab/schedlab/web/doc"
	"github.com/schedlab/schedlab/web/form"
)

// Editor holds the scenario being edited: the document tree, what was
// typed in each field, and the validator's verdict on it. Every change
// goes through it, so it validates at once (the same scenario.Parse the
// engine runs, compiled into the page) and the App saves after it.
type Editor struct {
	Tree any // the document, a *doc.Object when sane
	// raw keeps the exact text typed into each field since the last
	// structural change, so an input shows what was typed (" 16", "1.")
	// while the document holds the value.
	raw map[string]string
	// Problems is the validator's verdict; empty means the scenario runs.
	Problems []schema.Problem
	byPath   map[string]string
	// Notices are what a valid scenario's author should hear but what does
	// not stop a run (scenario.Notices): shown beside their fields, Run
	// stays enabled.
	Notices  []schema.Problem
	noticeAt map[string]string
	sc       *scenario.Scenario
	size     Size   // sc's size, when sc is set
	compact  string // the document as compact JSON, what a run sends
	// Stash keeps what a switch put aside (the job table while a generator
	// is used, a generator kind's parameters while another is used), so
	// switching back restores it.
	Stash map[string]any
	// Rev counts changes.
	Rev int
	// Defer leaves checking a big document (BigDocument bytes of JSON or
	// more) after an edit to CheckNow, which the App calls in a task of
	// its own once typing pauses: checking 74,426 jobs takes a second of
	// the page's main thread in WebAssembly, too long for each key
	// pressed. Until then the previous verdict stands. Loading a document
	// always checks it.
	Defer bool
	stale bool

	// View state of the editor (not part of the scenario).
	JobsPage    int
	ShowAllCols bool
	Preview     bool
	Heatmap     bool
	NewPolicy   string
	NewModel    string
	FillValue   string
	FillErr     string
	ModelErr    string
	Closed      map[string]bool // collapsed sections
	sortCol     string
	sortDesc    bool

	// memo caches what is derived from the document (form descriptions,
	// the problems' places) until the next change: a render asks for them
	// many times.
	memo map[string]any
}

// cached returns f's value, computed once per document revision.
func cached[T any](e *Editor, key string, f func() T) T {
	if v, ok := e.memo[key]; ok {
		return v.(T)
	}
	v := f()
	if e.memo == nil {
		e.memo = map[string]any{}
	}
	e.memo[key] = v
	return v
}

// NewEditor returns an editor holding tree.
func NewEditor(tree any) *Editor {
	e := &Editor{Stash: map[string]any{}, Closed: map[string]bool{"advanced": true, "about": true, "sweep": true, "history": true}}
	e.Load(tree)
	return e
}

// Load replaces the document.
func (e *Editor) Load(tree any) {
	e.Tree = tree
	e.raw = map[string]string{}
	e.JobsPage = 0
	e.changed()
	e.CheckNow()
}

// changed revalidates after any change (or, for a big document with
// Defer set, marks it to be checked).
func (e *Editor) changed() {
	e.Rev++
	e.memo = nil
	e.compact = string(doc.Compact(e.Tree))
	if e.Defer && len(e.compact) >= BigDocument {
		e.stale = true
		return
	}
	e.check()
}

// Stale reports a change not checked yet (see Defer).
func (e *Editor) Stale() bool { return e.stale }

// CheckNow checks a change left unchecked, and reports whether there was
// one.
func (e *Editor) CheckNow() bool {
	if !e.stale {
		return false
	}
	e.memo = nil // what is derived from the verdict
	e.check()
	return true
}

// check validates the document.
func (e *Editor) check() {
	e.stale = false
	e.sc = nil
	e.size = Size{}
	e.Problems = nil
	e.Notices = nil
	if _, ok := e.Tree.(*doc.Object); !ok {
		e.Problems = []schema.Problem{{Msg: "the scenario must be a JSON object"}}
	} else if sc, err := scenario.Parse([]byte(e.compact)); err != nil {
		var ps schema.Problems
		if errors.As(err, &ps) {
			e.Problems = ps
		} else {
			e.Problems = []schema.Problem{{Msg: err.Error()}}
		}
	} else {
		e.sc = sc
		e.size = SizeOf(sc)
		e.Notices = sc.Notices()
		// What the page cannot simulate in a browser is refused here, at
		// the field to change, before any run.
		e.Problems = budgetProblems(e.size)
	}
	sort.SliceStable(e.Problems, func(a, b int) bool { return pathLess(e.Problems[a].Path, e.Problems[b].Path) })
	e.byPath = joinByPath(e.Problems)
	e.noticeAt = joinByPath(e.Notices)
}

// joinByPath maps each path to its messages, joined.
func joinByPath(ps []schema.Problem) map[string]string {
	m := make(map[string]string, len(ps))
	for _, p := range ps {
		if old, dup := m[p.Path]; dup {
			m[p.Path] = old + "; " + p.Msg
		} else {
			m[p.Path] = p.Msg
		}
	}
	return m
}

// Notice returns the notice at path ("" if none).
func (e *Editor) Notice(path string) string { return e.noticeAt[path] }

// pathLess orders paths as they appear on the page, by section, then with
// array indexes compared as numbers.
func pathLess(a, b string) bool {
	ra, rb := sectionRank(a), sectionRank(b)
	if ra != rb {
		return ra < rb
	}
	return naturalLess(a, b)
}

func sectionRank(path string) int {
	for i, s := range []string{"name", "title", "description", "cluster", "workload", "seeds", "policies", "perf", "engine", "metrics", "plots"} {
		if path == s || strings.HasPrefix(path, s+".") || strings.HasPrefix(path, s+"[") {
			return i + 1
		}
	}
	return 0
}

func naturalLess(a, b string) bool {
	for a != "" && b != "" {
		if isDigit(a[0]) && isDigit(b[0]) {
			i, j := digits(a), digits(b)
			na, _ := strconv.Atoi(a[:i])
			nb, _ := strconv.Atoi(b[:j])
			if na != nb {
				return na < nb
			}
			a, b = a[i:], b[j:]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func digits(s string) int {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

// Valid reports whether the scenario can run: it is valid and within
// the page's budget.
func (e *Editor) Valid() bool { return e.sc != nil && len(e.Problems) == 0 }

// Size is the scenario's size (zero when it is not valid).
func (e *Editor) Size() Size { return e.size }

// Scenario returns the parsed scenario, or nil when invalid.
func (e *Editor) Scenario() *scenario.Scenario { return e.sc }

// JSON returns the document as compact JSON.
func (e *Editor) JSON() string { return e.compact }

// Get returns the document value at path.
func (e *Editor) Get(path string) any {
	v, _ := doc.Get(e.Tree, path)
	return v
}

// Str returns the string at path.
func (e *Editor) Str(path string) string { return doc.Str(e.Tree, path) }

// Text is what the input of field f shows.
func (e *Editor) Text(f *form.Field) string {
	if s, ok := e.raw[f.Path]; ok {
		return s
	}
	return form.Text(e.Get(f.Path), f.Kind)
}

// Checked is the state of a check box: the value, or the default.
func (e *Editor) Checked(f *form.Field) bool {
	switch v := e.Get(f.Path).(type) {
	case bool:
		return v
	case nil:
		return f.Default == "true"
	}
	return false
}

// Problem returns the problem at path ("" if none), in the words of the
// field when f is given.
func (e *Editor) Problem(path string) string { return e.byPath[path] }

// FieldProblem is Problem for a field, with typed text explained.
func (e *Editor) FieldProblem(f *form.Field) string {
	msg, ok := e.byPath[f.Path]
	if !ok {
		return ""
	}
	return form.Message(f, e.Get(f.Path), msg)
}

// HasProblem reports a problem at path.
func (e *Editor) HasProblem(path string) bool {
	_, ok := e.byPath[path]
	return ok
}

// ProblemsUnder counts the problems at or below path.
func (e *Editor) ProblemsUnder(path string) int {
	n := 0
	for _, p := range e.Problems {
		if p.Path == path || strings.HasPrefix(p.Path, path+".") || strings.HasPrefix(p.Path, path+"[") {
			n++
		}
	}
	return n
}

// SetText stores what was typed into field f.
func (e *Editor) SetText(f *form.Field, text string) {
	v, remove := form.Value(f, text)
	if remove {
		e.Tree = doc.Delete(e.Tree, f.Path)
	} else if t, err := doc.Set(e.Tree, f.Path, v); err == nil {
		e.Tree = t
	} else {
		return // the path does not fit the document's shape; nothing to store
	}
	e.raw[f.Path] = text
	e.changed()
}

// SetValue stores a value at path (nil removes the key).
func (e *Editor) SetValue(path string, v any) {
	if v == nil {
		e.Tree = doc.Delete(e.Tree, path)
	} else if t, err := doc.Set(e.Tree, path, v); err == nil {
		e.Tree = t
	}
	delete(e.raw, path)
	e.changed()
}

// structural applies a change that may move fields (adding or removing
// rows), after which typed text is re-read from the document.
func (e *Editor) structural(f func()) {
	f()
	e.raw = map[string]string{}
	e.changed()
}

// AddRow appends row (a tree value) to the list at path.
func (e *Editor) AddRow(path string, row any) {
	e.structural(func() {
		list := doc.List(e.Tree, path)
		if t, err := doc.Set(e.Tree, path, append(list, doc.Clone(row))); err == nil {
			e.Tree = t
		}
	})
}

// RemoveRow removes element i of the list at path.
func (e *Editor) RemoveRow(path string, i int) {
	e.structural(func() { e.Tree = doc.Delete(e.Tree, doc.Index(path, i)) })
}

// MoveRow swaps elements i and i+d of the list at path.
func (e *Editor) MoveRow(path string, i, d int) {
	list := doc.List(e.Tree, path)
	j := i + d
	if i < 0 || j < 0 || i >= len(list) || j >= len(list) {
		return
	}
	e.structural(func() { list[i], list[j] = list[j], list[i] })
}

// Number reads a number at path, accepting typed text.
func (e *Editor) Number(path string) (float64, bool) {
	switch v := e.Get(path).(type) {
	case json.Number:
		f, err := v.Float64()
		return f, err == nil
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		return f, err == nil
	}
	return 0, false
}
