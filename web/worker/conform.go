package worker

import (
	"context"
	"fmt"
	"strings"

	"github.com/schedlab/schedlab/sim/experiment/conformance"
	"github.com/schedlab/schedlab/web/protocol"
)

// conform runs the conformance battery on one policy with the request's
// parameters, case by case, with a progress message after each, and
// answers each failure in words with its seed and its scenario.
func (h *Handler) conform(ctx context.Context, id int, req protocol.ConformRequest) {
	var out protocol.Conformed
	suite := conformance.Suite{
		Settings: conformance.Settings,
		Seeds:    conformance.Seeds,
		Params:   req.Params,
		Progress: func(done, total int) {
			out.Cases = total
			h.send(protocol.NewMessage(protocol.TypeProgress, id, protocol.Progress{Policy: req.Policy, Finished: done, Total: total}))
			if h.Yield != nil {
				h.Yield()
			}
		},
	}
	rep := suite.Check(ctx, req.Policy)
	if ctx.Err() != nil {
		h.fail(id, protocol.Error{Message: "the check was cancelled", Cancelled: true})
		return
	}
	out.Ran = rep.Ran
	byName := map[string]conformance.Setting{}
	for _, set := range conformance.Settings {
		byName[set.Name] = set
	}
	for _, p := range rep.Problems {
		msg := p.Msg
		if p.Variant != "" {
			msg = fmt.Sprintf("with %s: %s", p.Variant, msg)
		}
		out.Problems = append(out.Problems, protocol.ConformProblem{
			Case: caseWords(byName[p.Setting]), Seed: p.Seed, Msg: msg, Document: string(p.Document),
		})
	}
	h.send(protocol.NewMessage(protocol.TypeConformed, id, out))
}

// caseWords describes a setting for a student: "jobs of the poisson
// generator, timed by the constant perf model".
func caseWords(set conformance.Setting) string {
	if set.Name == "" {
		return "before any case ran"
	}
	gen := set.Name
	if i := strings.IndexByte(gen, '/'); i >= 0 {
		gen = gen[i+1:]
	}
	return fmt.Sprintf("jobs of the %s generator, timed by the %s perf model", gen, set.Perf)
}
