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
	seeds := conformance.Seeds
	out := protocol.Conformed{Cases: len(conformance.Settings) * len(seeds)}
	done := 0
	for _, set := range conformance.Settings {
		for _, seed := range seeds {
			rep := conformance.CheckParams(ctx, req.Policy, req.Params, []conformance.Setting{set}, []uint64{seed})
			if ctx.Err() != nil {
				h.fail(id, protocol.Error{Message: "the check was cancelled", Cancelled: true})
				return
			}
			out.Ran += rep.Ran
			for _, p := range rep.Problems {
				out.Problems = append(out.Problems, protocol.ConformProblem{
					Case: caseWords(set), Seed: seed, Msg: p.Msg,
					Document: string(conformance.DocumentWith(set, seed, req.Policy, req.Params)),
				})
			}
			done++
			h.send(protocol.NewMessage(protocol.TypeProgress, id, protocol.Progress{Policy: req.Policy, Finished: done, Total: out.Cases}))
			if h.Yield != nil {
				h.Yield()
			}
		}
	}
	h.send(protocol.NewMessage(protocol.TypeConformed, id, out))
}

// caseWords describes a setting for a student: "jobs of the poisson
// generator, timed by the constant perf model".
func caseWords(set conformance.Setting) string {
	gen := set.Name
	if i := strings.IndexByte(gen, '/'); i >= 0 {
		gen = gen[i+1:]
	}
	return fmt.Sprintf("jobs of the %s generator, timed by the %s perf model", gen, set.Perf)
}
