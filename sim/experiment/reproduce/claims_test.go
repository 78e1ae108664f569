package reproduce

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/plot"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
)

// A claim judged by a robustness figure carries its share of draws; when
// it holds in fewer than half of them it fails as not holding robustly,
// whatever the default inputs gave.
func TestMarkRobustness(t *testing.T) {
	build := func(held int) results.Reproduction {
		return results.Reproduction{Papers: []results.PaperRepro{{Paper: "p", Figures: []results.FigureRepro{
			{Scenario: "fig", Checks: []results.CheckRepro{{ID: "order", Class: "claim", Verdict: Pass}, {ID: "other", Class: "claim", Verdict: Pass}}},
			{Scenario: "fig-draws", Checks: []results.CheckRepro{{ID: "order", Class: "robustness", Verdict: Fail,
				Robust: &results.RobustRepro{Held: held, Draws: 20, Holds: 2*held >= 20, Judges: "fig/order"}}}},
		}}}}
	}
	rep := build(7)
	MarkRobustness(&rep)
	c := rep.Papers[0].Figures[0].Checks[0]
	if c.Verdict != Fail || !strings.Contains(c.Why, experiment.NotRobust) || !strings.Contains(c.Why, "7 of 20") || c.Robust == nil || c.Robust.By != "fig-draws/order" {
		t.Errorf("a claim holding in 7 of 20 draws: %+v", c)
	}
	if o := rep.Papers[0].Figures[0].Checks[1]; o.Verdict != Pass || o.Robust != nil {
		t.Errorf("a claim no robustness figure judges: %+v", o)
	}
	if tl := Count(rep.Papers[0].Figures...); tl.Claims != 2 || tl.Pass != 1 || tl.Fail != 1 || tl.Robustness != 1 {
		t.Errorf("tally %+v", tl)
	}
	rep = build(10)
	MarkRobustness(&rep)
	if c := rep.Papers[0].Figures[0].Checks[0]; c.Verdict != Pass || c.Robust == nil || !c.Robust.Holds {
		t.Errorf("a claim holding in 10 of 20 draws: %+v", c)
	}
}

// The Markdown's first table counts claims per paper with the classes
// apart and the figures that cannot be reproduced, and a quick report
// says first that it is not the record.
func TestMarkdownCounts(t *testing.T) {
	rep := results.Reproduction{Papers: []results.PaperRepro{{Paper: "tesserae", CannotReproduce: CannotReproduce("tesserae"), Figures: []results.FigureRepro{
		{Figure: "Fig. 1", Scenario: "a", Checks: []results.CheckRepro{
			{ID: "c1", Class: "claim", Verdict: Pass}, {ID: "c2", Class: "claim", Verdict: Fail, Why: "because"},
			{ID: "d", Class: "detail", DetailOf: "c1", Verdict: Pass}, {ID: "k", Class: "calibrated", Calibrated: true, Verdict: Pass},
			{ID: "e1", Class: "exploration", Verdict: Pass}, {ID: "e2", Class: "exploration", Verdict: Fail}}},
	}}}}
	var b bytes.Buffer
	if err := WriteMarkdown(&b, rep, "reproduction"); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, want := range []string{
		"# Reproduction of the papers' figures: the full record",
		"| paper | figures | claims | pass | fail | n/a | calibrated | exploration (hold) | cannot reproduce |",
		"| [tesserae](#paper-tesserae) | 1 | 2 | 1 | 1 | 0 | 1 | 2 (1) | 4 ([Fig. 8; Fig. 12(b); Fig. 15; Table 2 and Fig. 10](#cannot-reproduce)) |",
		"- **tesserae, Fig. 8**: GPT3-3B on 8 GPUs",
		"| c2 |  |  |  |  | **FAIL** | because |",
		"pass (detail of c1)", "pass (calibrated: not counted)", "fail (exploration)",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(strings.ToLower(md), "secondary") || strings.Contains(md, "Quick mode") {
		t.Errorf("a full report says secondary or quick mode:\n%s", md)
	}
	rep.Quick = true
	b.Reset()
	_ = WriteMarkdown(&b, rep, "reproduction")
	if !strings.HasPrefix(b.String(), QuickHeading+"\n") {
		t.Errorf("a quick report does not start with its heading: %.200s", b.String())
	}
}

const drawsDoc = `{"name": "draws", "title": "FIFO against SJF over draws of the load",
 "tags": ["paper:sjf-bsbf"],
 "cluster": {"servers": [{"count": 2, "gpus": 4, "gpu_type": "V100"}]},
 "workload": {"generator": {"kind": "poisson", "jobs": 30, "jobs_per_hour": 20,
   "gpu_mix": [{"gpus": 1, "weight": 3}, {"gpus": 4, "weight": 1}], "duration": {"dist": "exponential", "mean_s": 1800},
   "models": [{"model": "m", "weight": 1}]}},
 "policies": [{"name": "fifo"}, {"name": "sjf"}],
 "seeds": [1, 2],
 "sweep": {"label": "draw", "values": [1, 2, 3, 4], "scale": ["workload.generator.jobs_per_hour"]},
 "robustness": {"draws": "the arrival rate, scaled by the draw", "headline": {"label": "SJF over FIFO", "num": {"policy": "SJF", "metric": "avg_jct_s"}, "den": {"policy": "FIFO", "metric": "avg_jct_s"}},
   "claims": [{"check": "sjf-first", "claim": "other/sjf-first"}]},
 "checks": [{"id": "sjf-first", "description": "SJF is no slower than FIFO", "kind": "order", "metric": "avg_jct_s", "policies": ["SJF", "FIFO"]}]}`

// A robustness figure runs end to end: its check is judged in each of
// four draws, the report carries the headline over the draws, and the
// figure draws each draw with the mean and the 95% range.
func TestRobustnessFigure(t *testing.T) {
	sc, err := scenario.Parse([]byte(drawsDoc))
	if err != nil {
		t.Fatal(err)
	}
	st, err := experiment.RunStudy(context.Background(), sc, experiment.StudyOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	e := Entries([]*scenario.Scenario{sc})
	f := Figure(Done{Entry: e[0], Study: st})
	r := f.Robustness
	if r == nil || len(r.X) != 4 || r.Mean == nil || *r.Low > *r.Mean || *r.Mean > *r.High {
		t.Fatalf("robustness %+v", r)
	}
	c := f.Checks[0]
	if c.Class != "robustness" || c.Robust == nil || c.Robust.Draws != 4 || c.Robust.Judges != "other/sjf-first" {
		t.Errorf("check %+v (robust %+v)", c, c.Robust)
	}
	if (c.Verdict == Pass) != (2*c.Robust.Held >= 4) {
		t.Errorf("verdict %s with %d of 4 draws", c.Verdict, c.Robust.Held)
	}
	fig, err := Draw(st, plot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	svg, err := fig.SVG()
	if err != nil || !bytes.Contains(svg, []byte("each draw")) || !bytes.Contains(svg, []byte("97.5th percentile")) {
		t.Errorf("the figure lacks the draws or the range (%v)", err)
	}
}

// The record's hash of a scenario changes with anything but its
// description.
func TestScenarioHash(t *testing.T) {
	parse := func(doc string) *scenario.Scenario {
		sc, err := scenario.Parse([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		return sc
	}
	base := ScenarioHash(parse(drawsDoc))
	described := strings.Replace(drawsDoc, `"title":`, `"description": "what it shows", "title":`, 1)
	if ScenarioHash(parse(described)) != base {
		t.Error("a description changed the hash")
	}
	for _, change := range [][2]string{{`"seeds": [1, 2]`, `"seeds": [1, 3]`}, {`SJF is no slower`, `SJF is faster`}, {`"title": "FIFO`, `"title": "Fifo`}} {
		if ScenarioHash(parse(strings.Replace(drawsDoc, change[0], change[1], 1))) == base {
			t.Errorf("%q → %q left the hash as it was", change[0], change[1])
		}
	}
}
