//go:build !noscript

package script

import (
	"errors"
	"fmt"
	"strings"

	"go.starlark.net/starlark"

	"github.com/schedlab/schedlab/sim/results"
)

// Error is a mistake in a script: where it is and what is wrong, in
// words, e.g. "script line 3 (the priority of job j12 at 1.50 h): job has
// no .sollo_s field or method (did you mean .solo_s?)".
type Error struct {
	Line, Col int // 0 when unknown
	Msg       string
	// In says which call failed, e.g. "the priority of job j12 at 1.50
	// h"; "" for the script's top level.
	In string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("script")
	if e.Line > 0 {
		fmt.Fprintf(&b, " line %d", e.Line)
	}
	if e.In != "" {
		b.WriteString(" (" + e.In + ")")
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// DefaultMaxSteps is the step budget of one call: about half a second
// in the browser, far more than a priority or a teaching-size decide
// needs, and soon enough to stop a loop that never ends.
const DefaultMaxSteps = 500_000

// runner calls a script's functions on one thread, each call within the
// step budget, and turns their failures into Errors.
type runner struct {
	th       *starlark.Thread
	maxSteps uint64
	// print receives what the script prints; nil drops it.
	print func(msg string)
	// checking marks the runner of the check, whose budget is
	// CheckMaxSteps, below the run's.
	checking bool
	// tail counts the lines of the last steps of a call over its budget
	// (see overBudget).
	tail map[int32]int
	over int
}

// tailSteps is how many steps a call over its budget goes on, to see
// which line it loops on: the instruction it stops on may be a jump that
// Starlark places on the function's first line.
const tailSteps = 64

// overBudget is called at each step past the budget: it notes the line
// and stops the call after tailSteps.
func (r *runner) overBudget(th *starlark.Thread) {
	if r.over == 0 {
		clear(r.tail)
	}
	r.over++
	if pos := th.CallFrame(0).Pos; pos.Filename() == fileName {
		r.tail[pos.Line]++
	}
	if r.over >= tailSteps {
		th.Cancel("too many steps")
	}
}

// loopLine is the line the call over budget was on most, 0 if none.
func (r *runner) loopLine() int {
	best, n := int32(0), 0
	for line, k := range r.tail {
		if k > n || (k == n && line > best) {
			best, n = line, k
		}
	}
	return int(best)
}

func newRunner(maxSteps int) *runner {
	if maxSteps <= 0 {
		maxSteps = DefaultMaxSteps
	}
	r := &runner{maxSteps: uint64(maxSteps)}
	r.th = &starlark.Thread{Name: "script", Print: func(_ *starlark.Thread, msg string) {
		if r.print != nil {
			r.print(msg)
		}
	}}
	r.th.SetMaxExecutionSteps(r.maxSteps)
	r.tail = map[int32]int{}
	r.th.OnMaxSteps = r.overBudget
	return r
}

// call calls fn within the budget; in names the call for messages.
func (r *runner) call(fn *starlark.Function, args starlark.Tuple, in func() string) (starlark.Value, error) {
	r.th.Steps, r.over = 0, 0
	v, err := starlark.Call(r.th, fn, args, nil)
	if err != nil {
		e := runtimeError(err, r.th, r.budgetText(), in())
		if se, ok := e.(*Error); ok && r.over > 0 {
			if line := r.loopLine(); line > 0 {
				se.Line, se.Col = line, 0
			}
		}
		if se, ok := e.(*Error); ok && r.checking && strings.HasPrefix(se.Msg, "stopped after ") {
			se.Msg = fmt.Sprintf("stopped after %s in the check's made-up test, the most a call may take there (a run allows max_steps, %s by default): does a loop never end?",
				r.budgetText(), results.Thousands(DefaultMaxSteps))
		}
		return nil, e
	}
	return v, nil
}

func (r *runner) budgetText() string {
	return fmt.Sprintf("%s steps", results.Thousands(int(r.maxSteps)))
}

// runtimeError turns a failed call into an Error at the script line that
// failed.
func runtimeError(err error, th *starlark.Thread, budget, in string) error {
	var se *Error
	if errors.As(err, &se) {
		return err // already ours (an error of a value the script returned)
	}
	e := &Error{Msg: err.Error(), In: in}
	var ee *starlark.EvalError
	if errors.As(err, &ee) {
		e.Msg = ee.Msg
		for i := range ee.CallStack {
			fr := ee.CallStack.At(i)
			if fr.Pos.Filename() == fileName && fr.Pos.Line > 0 {
				e.Line, e.Col = int(fr.Pos.Line), int(fr.Pos.Col)
				break
			}
		}
	}
	if strings.Contains(e.Msg, "cancelled: too many steps") {
		if budget == "" {
			budget = results.Thousands(DefaultMaxSteps) + " steps"
		}
		e.Msg = fmt.Sprintf("stopped after %s, the budget of one call (parameter max_steps): does a loop never end? Raise max_steps if the script really needs more", budget)
	}
	return e
}
