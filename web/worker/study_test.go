package worker

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/web/protocol"
)

func msg(t *testing.T, typ string, id int, payload any) protocol.Message {
	t.Helper()
	b, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	return protocol.Message{Type: typ, ID: id, JSON: b}
}

// A figure run through study and verdicts messages, point by point, gives
// the command line's verdicts, and its curve fills in as parts arrive.
func TestStudyMessages(t *testing.T) {
	data, _ := scenarios.Read("sjf-bsbf-fig6a")
	sc, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := experiment.RunStudy(context.Background(), sc, experiment.StudyOptions{Quick: true, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	wantChecks := whole.Output().Checks
	want := whole.Output().Summary
	q, _ := sc.QuickVariant()
	doc := string(q.Document())
	seeds, xs := experiment.SplitPlan(q)
	var parts []results.StudyValues
	var view protocol.StudyView
	for _, x := range xs {
		for _, seed := range seeds {
			r, _ := call(t, msg(t, protocol.TypeStudy, 1, protocol.StudyRequest{Document: doc, X: x, Seed: seed}))
			if r.Type != protocol.TypeStudied {
				t.Fatalf("reply %s: %s", r.Type, r.JSON)
			}
			parts = append(parts, decode[results.StudyValues](t, r))
			r, _ = call(t, msg(t, protocol.TypeVerdicts, 2, protocol.VerdictsRequest{Document: doc, Parts: parts}))
			view = decode[protocol.StudyView](t, r)
			if len(parts) == 1 {
				if view.Complete || len(view.Series) == 0 || view.Series[0].Y[0] == nil || view.Series[0].Y[len(xs)-1] != nil {
					t.Errorf("after the first part: complete %v, series %+v", view.Complete, view.Series)
				}
			}
		}
	}
	// Counted as the record counts: the judged claims (n/a ones apart).
	if !view.Complete || view.Passed != want.Passed || view.Counted != want.Passed+want.Failed {
		t.Errorf("split: %s (complete %v); whole study: %d pass, %d fail", view.Summary, view.Complete, want.Passed, want.Failed)
	}
	for i, c := range view.Checks {
		if (c.Verdict == "holds") != wantChecks[i].Passed || c.Observed != wantChecks[i].Observed {
			t.Errorf("check %s: %s (%s); the command line: passed %v (%s)", c.ID, c.Verdict, c.Observed, wantChecks[i].Passed, wantChecks[i].Observed)
		}
	}
	if len(view.Paper) == 0 || len(view.Figure.Checks) != len(sc.Checks) {
		t.Errorf("paper points %d, report checks %d", len(view.Paper), len(view.Figure.Checks))
	}
	r, _ := call(t, msg(t, protocol.TypeStudy, 3, protocol.StudyRequest{Document: "{", Seed: 1}))
	if r.Type != protocol.TypeError {
		t.Errorf("a bad document answered %s", r.Type)
	}
}
