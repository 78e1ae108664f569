//go:build !noscript

package script

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/schedlab/schedlab/sim/policy"
)

// fileName is the name a script's positions carry.
const fileName = "policy.star"

// MaxSourceBytes bounds a script's size: a policy is a few lines, and the
// scenario travels in a link.
const MaxSourceBytes = 64 << 10

// The language a script is written in: Starlark with while loops, sets and
// if/for at the top level. Recursion stays off, so that a runaway call
// ends on the step budget instead of exhausting the stack.
var fileOptions = &syntax.FileOptions{Set: true, While: true, TopLevelControl: true}

// predeclared are the names every script sees besides Starlark's
// built-ins.
var predeclared = starlark.StringDict{"math": mathModule}

// program is a compiled script: its policy function and settings.
type program struct {
	priority *starlark.Function // def priority(job, now), or nil
	decide   *starlark.Function // def decide(state), or nil
	settings settings
	// usesNow says whether priority's body names its time parameter, so
	// that its value can change while a job waits.
	usesNow bool
	// waitingKeysHold says a waiting job's priority cannot change while
	// it waits: the script names neither its time parameter nor
	// waited_s (nor reads fields by name with getattr), and every other
	// field stays put while a job waits.
	waitingKeysHold bool
}

// settings are the optional module-level assignments of a script.
type settings struct {
	Preempt   bool
	RoundS    float64 // 0: not set
	RestartS  float64
	Backfill  bool
	Placement string
}

// Defaults of a preemptive priority, Tiresias' own.
const (
	defaultRoundS   = 60
	defaultRestartS = 30
)

// settingNames are the module-level names a script may set, with what
// each means, for messages and the documentation.
var settingNames = []struct{ name, doc string }{
	{"preempt", "True to re-rank every job, running or waiting, every round_s seconds: the smallest priorities hold the GPUs, and a running job that is no longer among them is preempted (it keeps its progress)"},
	{"round_s", "seconds between rounds: of a preemptive priority (default 60), or at which decide is asked besides every arrival and completion"},
	{"restart_s", "seconds of no progress each time a preempted job starts again (default 30, as Tiresias)"},
	{"backfill", "False to stop at the first job that does not fit (strict order); True, the default, lets later jobs start"},
	{"placement", "where a job's GPUs go: " + strings.Join(policy.PlacementNames(), " or ") + " (see the placement parameter of FIFO)"},
}

// compile parses, resolves and runs the top level of src within the
// thread's step budget, and reads its policy function and settings.
func compile(src string, th *starlark.Thread) (*program, error) {
	if len(src) > MaxSourceBytes {
		return nil, &Error{Msg: fmt.Sprintf("the script is %d bytes long, more than the %d allowed", len(src), MaxSourceBytes)}
	}
	if strings.TrimSpace(src) == "" {
		return nil, &Error{Msg: "the script is empty; write def priority(job, now): or def decide(state):"}
	}
	file, prog, err := starlark.SourceProgramOptions(fileOptions, fileName, src, predeclared.Has)
	if err != nil {
		return nil, compileError(err)
	}
	globals, err := prog.Init(th, predeclared)
	if err != nil {
		return nil, runtimeError(err, th, "", "")
	}
	globals.Freeze() // a call cannot change what the next call sees
	p := &program{}
	if err := p.readFunctions(globals, file); err != nil {
		return nil, err
	}
	if err := p.readSettings(globals, file); err != nil {
		return nil, err
	}
	return p, nil
}

// compileError turns a syntax or name error into an Error with its line.
func compileError(err error) error {
	var se syntax.Error
	if errors.As(err, &se) {
		e := &Error{Line: int(se.Pos.Line), Col: int(se.Pos.Col), Msg: se.Msg}
		if strings.HasPrefix(se.Msg, "got newline") && e.Col == 1 && e.Line > 1 {
			// the parser places a line's end at the start of the next
			e.Line, e.Col = e.Line-1, 0
			e.Msg = "the line ends too soon: " + e.Msg
		}
		return e
	}
	var list resolve.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		e := list[0]
		return &Error{Line: int(e.Pos.Line), Col: int(e.Pos.Col), Msg: plainResolve(e.Msg)}
	}
	return &Error{Msg: err.Error()}
}

// plainResolve rewords the resolver's messages for people new to it.
func plainResolve(msg string) string {
	if rest, ok := strings.CutPrefix(msg, "undefined: "); ok {
		name, hint, _ := strings.Cut(rest, " ")
		return strings.TrimSpace(name + " is not defined " + hint)
	}
	return msg
}

func (p *program) readFunctions(globals starlark.StringDict, file *syntax.File) error {
	get := func(name string, params int, sig string) (*starlark.Function, error) {
		v, ok := globals[name]
		if !ok {
			return nil, nil
		}
		fn, ok := v.(*starlark.Function)
		if !ok {
			return nil, &Error{Line: assignedLine(file, name), Msg: fmt.Sprintf("%s must be a function, def %s, not a %s", name, sig, v.Type())}
		}
		if fn.NumParams() != params || fn.HasVarargs() || fn.HasKwargs() {
			return nil, &Error{Line: int(fn.Position().Line), Msg: fmt.Sprintf("%s takes exactly %d parameter(s): def %s", name, params, sig)}
		}
		return fn, nil
	}
	var err error
	if p.priority, err = get("priority", 2, "priority(job, now)"); err != nil {
		return err
	}
	if p.decide, err = get("decide", 1, "decide(state)"); err != nil {
		return err
	}
	switch {
	case p.priority != nil && p.decide != nil:
		return &Error{Line: int(p.decide.Position().Line), Msg: "define priority or decide, not both: priority ranks jobs and schedlab starts them; decide starts and preempts them itself"}
	case p.priority == nil && p.decide == nil:
		msg := "define def priority(job, now): (return a number, smaller runs first) or def decide(state): (return the jobs to start and preempt)"
		if near := nearest(globalNames(globals), []string{"priority", "decide"}); near != "" {
			msg += "; " + near
		}
		return &Error{Msg: msg}
	}
	if p.priority != nil {
		now, _ := p.priority.Param(1)
		p.usesNow = namesInBody(file, p.priority, now)
		p.waitingKeysHold = !p.usesNow && !mentions(file, "waited_s") && !mentions(file, "getattr")
	}
	return nil
}

func globalNames(globals starlark.StringDict) []string {
	names := globals.Keys() // sorted
	return names
}

// readSettings reads and checks the module-level settings.
func (p *program) readSettings(globals starlark.StringDict, file *syntax.File) error {
	s := settings{Backfill: true, Placement: policy.DefaultPlacement}
	bad := func(name, want string, v starlark.Value) error {
		return &Error{Line: assignedLine(file, name), Msg: fmt.Sprintf("%s must be %s, got %s", name, want, v.String())}
	}
	if v, ok := globals["preempt"]; ok {
		b, isBool := v.(starlark.Bool)
		if !isBool {
			return bad("preempt", "True or False", v)
		}
		s.Preempt = bool(b)
	}
	if v, ok := globals["backfill"]; ok {
		b, isBool := v.(starlark.Bool)
		if !isBool {
			return bad("backfill", "True or False", v)
		}
		s.Backfill = bool(b)
	}
	if v, ok := globals["round_s"]; ok {
		x, isNum := starlark.AsFloat(v)
		if _, isBool := v.(starlark.Bool); isBool || !isNum || !(x >= 1e-3 && x <= 1e9) || math.IsInf(x, 0) {
			return bad("round_s", "a number of seconds between 0.001 and 1e9", v)
		}
		s.RoundS = x
	}
	s.RestartS = defaultRestartS
	if v, ok := globals["restart_s"]; ok {
		x, isNum := starlark.AsFloat(v)
		if _, isBool := v.(starlark.Bool); isBool || !isNum || !(x >= 0 && x <= 86400) {
			return bad("restart_s", "a number of seconds between 0 and 86400", v)
		}
		s.RestartS = x
	}
	if v, ok := globals["placement"]; ok {
		str, isStr := v.(starlark.String)
		if !isStr || !slices.Contains(policy.PlacementNames(), string(str)) {
			return bad("placement", "one of "+quoteAll(policy.PlacementNames()), v)
		}
		s.Placement = string(str)
	}
	if s.Preempt && p.decide != nil {
		return &Error{Line: assignedLine(file, "preempt"), Msg: "preempt is a setting of priority; decide preempts by returning {\"preempt\": [...]}"}
	}
	if s.Preempt && s.RoundS == 0 {
		s.RoundS = defaultRoundS
	}
	if _, set := globals["restart_s"]; set && !s.Preempt {
		return &Error{Line: assignedLine(file, "restart_s"), Msg: "restart_s is the cost of restarting a preempted job; it needs preempt = True"}
	}
	if _, set := globals["round_s"]; set && p.priority != nil && !s.Preempt {
		return &Error{Line: assignedLine(file, "round_s"), Msg: "round_s is the length of a preemptive priority's rounds; it needs preempt = True"}
	}
	for _, name := range globals.Keys() {
		if _, isFn := globals[name].(starlark.Callable); isFn || isSetting(name) {
			continue
		}
		if near := nearSetting(name); near != "" {
			return &Error{Line: assignedLine(file, name), Msg: fmt.Sprintf("%s is not a setting (did you mean %s?)", name, near)}
		}
	}
	p.settings = s
	return nil
}

func isSetting(name string) bool {
	for _, s := range settingNames {
		if s.name == name {
			return true
		}
	}
	return false
}

// nearSetting returns the setting name is a near miss of, or "".
func nearSetting(name string) string {
	if len(name) < 4 {
		return ""
	}
	for _, s := range settingNames {
		if d := editDistance(name, s.name); d > 0 && d <= 2 {
			return s.name
		}
	}
	return ""
}

// nearest says which of want a name in have may have meant, or "".
func nearest(have, want []string) string {
	for _, h := range have {
		for _, w := range want {
			if d := editDistance(h, w); d > 0 && d <= 2 {
				return fmt.Sprintf("did you mean %s instead of %s?", w, h)
			}
		}
	}
	return ""
}

// editDistance is the Levenshtein distance between two short names.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// assignedLine is the line of the first top-level assignment to name, or
// of its def, or 0.
func assignedLine(file *syntax.File, name string) int {
	line := 0
	syntax.Walk(file, func(n syntax.Node) bool {
		if line > 0 {
			return false
		}
		switch n := n.(type) {
		case *syntax.AssignStmt:
			if id, ok := n.LHS.(*syntax.Ident); ok && id.Name == name {
				line = int(id.NamePos.Line)
			}
		case *syntax.DefStmt:
			if n.Name.Name == name {
				line = int(n.Def.Line)
			}
			return false // a local of the same name is not the setting
		}
		return true
	})
	return line
}

// namesInBody reports whether the body of fn's definition mentions name
// (its parameter): if not, the function cannot read it. When the
// definition is not found, it answers yes, the safe answer.
func namesInBody(file *syntax.File, fn *starlark.Function, name string) bool {
	_, at := fn.Param(1)
	found, uses := false, false
	syntax.Walk(file, func(n syntax.Node) bool {
		if found {
			return false
		}
		var params []syntax.Expr
		var body syntax.Node
		switch n := n.(type) {
		case *syntax.DefStmt:
			params = n.Params
			body = &syntax.File{Stmts: n.Body}
		case *syntax.LambdaExpr:
			params = n.Params
			body = n.Body
		default:
			return true
		}
		if !hasParamAt(params, at) {
			return true
		}
		found = true
		syntax.Walk(body, func(m syntax.Node) bool {
			if id, ok := m.(*syntax.Ident); ok && id.Name == name {
				uses = true
			}
			return !uses
		})
		return false
	})
	return uses || !found
}

// mentions reports whether the script has name anywhere: as a name, an
// attribute or in a string.
func mentions(file *syntax.File, name string) bool {
	found := false
	syntax.Walk(file, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Ident:
			found = found || n.Name == name
		case *syntax.DotExpr:
			found = found || n.Name.Name == name
		case *syntax.Literal:
			if str, ok := n.Value.(string); ok && strings.Contains(str, name) {
				found = true
			}
		}
		return !found
	})
	return found
}

func hasParamAt(params []syntax.Expr, at syntax.Position) bool {
	for _, p := range params {
		if start, _ := p.Span(); start.Line == at.Line && start.Col == at.Col {
			return true
		}
	}
	return false
}
