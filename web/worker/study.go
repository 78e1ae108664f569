package worker

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/experiment/reproduce"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/web/protocol"
)

// study runs one sweep point and seed of a paper figure (see
// protocol.StudyRequest).
func (h *Handler) study(ctx context.Context, id int, req protocol.StudyRequest) {
	sc, perr := parse("", req.Document)
	if perr != nil {
		h.fail(id, *perr)
		return
	}
	var last time.Time
	policy := -1
	if req.Policy != nil {
		policy = *req.Policy
	}
	part, err := experiment.RunSplitPart(ctx, sc, req.X, req.Seed, policy, func(p experiment.Progress) {
		if time.Since(last) >= h.ProgressEvery {
			last = time.Now()
			h.send(protocol.NewMessage(protocol.TypeProgress, id, protocol.Progress{Policy: p.Policy, Run: p.Run, Runs: p.Runs,
				NowS: p.NowS, Finished: p.Finished, Total: p.Total}))
			if h.Yield != nil {
				h.Yield()
			}
		}
	})
	if err != nil {
		h.fail(id, protocol.Error{Message: err.Error(), Cancelled: ctx.Err() != nil})
		return
	}
	h.send(protocol.NewMessage(protocol.TypeStudied, id, part))
}

// verdicts evaluates a figure's checks over the parts run so far.
func (h *Handler) verdicts(id int, req protocol.VerdictsRequest) {
	sc, perr := parse("", req.Document)
	if perr != nil {
		h.fail(id, *perr)
		return
	}
	parts := make([]*results.StudyValues, len(req.Parts))
	for i := range req.Parts {
		parts[i] = &req.Parts[i]
	}
	h.send(protocol.NewMessage(protocol.TypeVerdicts, id, View(sc, parts)))
}

// View evaluates sc's study over parts: the curve, the paper's points, the
// metrics table and the checks.
func View(sc *scenario.Scenario, parts []*results.StudyValues) protocol.StudyView {
	st := experiment.AssembleStudy(sc, parts)
	out := st.Output()
	v := protocol.StudyView{Title: sc.Title, Checks: []protocol.CheckView{}}
	if v.Title == "" {
		v.Title = sc.Name
	}
	v.XLabel, v.YLabel = st.AxisLabels()
	for _, s := range out.Series {
		v.Series = append(v.Series, protocol.StudySeries{Policy: s.Policy, X: s.X, Y: s.Mean, SD: s.SD})
	}
	for _, s := range st.PaperPoints() {
		v.Paper = append(v.Paper, protocol.StudySeries{Policy: s.Policy, X: s.X, Y: s.Mean})
	}
	v.Columns, v.Rows = st.MetricTable()
	v.Complete = st.SplitComplete()
	v.Figure = results.FigureRepro{Scenario: sc.Name, Figure: sc.Title, Checks: []results.CheckRepro{}}
	for _, vd := range out.Checks {
		v.Figure.Checks = append(v.Figure.Checks, checkRepro(vd))
		cv := protocol.CheckView{ID: vd.ID, Claim: vd.Description, Verdict: "fails", Expected: vd.Expected, Observed: vd.Observed,
			Required: vd.Required, Calibrated: vd.Calibrated, Class: vd.Class, Why: vd.Why}
		switch {
		case strings.Contains(vd.Observed, experiment.ErrNotRun.Error()):
			cv.Verdict, cv.Observed, cv.Why = "waiting", "waiting for its runs", ""
		case vd.NotRun:
			cv.Verdict, cv.Why = "n/a", vd.NA
		case vd.Passed:
			cv.Verdict, cv.Why = "holds", ""
		}
		v.Checks = append(v.Checks, cv)
	}
	if v.Complete || sc.Sweep == nil {
		// Every value the record keeps, so that the page can set a
		// run beside the record number for number; a figure without a
		// sweep has them as its runs come in, for its bars.
		v.Figure.Values = reproduce.Values(st)
	}
	// Counted as the record and the gallery card count (results.Count).
	t := results.Count(v.Figure)
	v.Passed, v.Counted, v.Summary = t.Pass, t.Pass+t.Fail, t.Summary(st.Quick)
	return v
}

// checkRepro is the report's form of a verdict, as `schedlab reproduce`
// writes it; a check whose runs have not all arrived is not run yet.
func checkRepro(v experiment.Verdict) results.CheckRepro {
	c := reproduce.Check(v)
	if strings.Contains(v.Observed, experiment.ErrNotRun.Error()) {
		c.Verdict, c.Why = reproduce.NA, ""
	}
	return c
}

// decode reads a request, failing the message on
// bad JSON.
func (h *Handler) decode(id int, data []byte, into any, what string) bool {
	if err := json.Unmarshal(data, into); err != nil {
		h.fail(id, protocol.Error{Message: "bad " + what + " request: " + err.Error()})
		return false
	}
	return true
}
