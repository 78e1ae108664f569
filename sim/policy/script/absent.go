//go:build noscript

package script

import (
	"errors"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/schema"
)

// errAbsent is what a build without the Starlark interpreter says of
// every script.
var errAbsent = errors.New("this API server (schedlab's Cloudflare Workers build) runs no script policies: " +
	"it leaves the script interpreter out to fit a Worker's size limit; run the scenario in the page, " +
	"with schedlab run or on a schedlab serve, or pick a built-in policy")

// unavailable is added to the family's description.
const unavailable = " This API server runs no scripts: run them in the page, with schedlab run or on a schedlab serve."

// Check implements schema.Checker: it refuses every script, at its source.
func (p *Params) Check() []schema.Problem {
	return []schema.Problem{{Path: "source", Msg: errAbsent.Error()}}
}

// New refuses every script.
func New(Params) (engine.Policy, error) { return nil, errAbsent }
