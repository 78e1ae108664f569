package app

import (
	"fmt"

	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/policy/script"
	"github.com/schedlab/schedlab/web/doc"
)

// AddPolicy appends a policy with its default parameters. A policy
// already chosen gets a numbered label, since labels must differ.
func (e *Editor) AddPolicy(name string) {
	f, ok := policy.Lookup(name)
	if !ok {
		return
	}
	o := doc.NewObject()
	o.Set("name", name)
	n := 1
	for i := range doc.List(e.Tree, "policies") {
		if e.Str(doc.Index("policies", i)+".name") == name {
			n++
		}
	}
	if n > 1 {
		o.Set("label", fmt.Sprintf("%s %d", f.Title, n))
	}
	if name == ScriptPolicy {
		// written out, so that a share link carries the script itself
		params := doc.NewObject()
		params.Set("source", script.Template)
		o.Set("params", params)
	}
	e.AddRow("policies", o)
}

// RemovePolicy removes policy i.
func (e *Editor) RemovePolicy(i int) { e.RemoveRow("policies", i) }

// MovePolicy moves policy i up (d = -1) or down (d = 1).
func (e *Editor) MovePolicy(i, d int) { e.MoveRow("policies", i, d) }
