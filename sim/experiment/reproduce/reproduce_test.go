package reproduce

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/plot"
	"github.com/schedlab/schedlab/sim/scenario"

	_ "github.com/schedlab/schedlab/sim/policy/all"
)

func TestFigureLabel(t *testing.T) {
	for title, want := range map[string]string{
		"Gavel Figure 8: LAS on the continuous single-GPU trace": "Figure 8",
		"SJF-BSBF, Fig. 6(a): average JCT against load":          "Fig. 6(a)",
		"SJF-BSBF, Table III and Fig. 5: 240 jobs on 64 GPUs":    "Table III and Fig. 5",
		"Gavel: minimum cost with and without SLOs":              "minimum cost with and without SLOs",
		"OJPP §4: planning with a learned matrix":                "§4",
		"Gavel FIFO on the continuous single-GPU trace":          "Gavel FIFO on the continuous single-GPU trace",
	} {
		if got := FigureLabel(&scenario.Scenario{Title: title}); got != want {
			t.Errorf("%q: got %q, want %q", title, got, want)
		}
	}
}

func TestSelect(t *testing.T) {
	entries := builtIn(t)
	for _, tc := range []struct{ paper, figure, want string }{
		{"gavel", "fig8-las-single", "gavel-fig8-las-single"},
		{"", "gavel-fig8-las-single", "gavel-fig8-las-single"},
		{"gavel", "Figure 8", "gavel-fig8-las-single"},
		{"sjf-bsbf", "fig. 6(a)", "sjf-bsbf-fig6a"},
		{"sjf-bco", "Fig. 2", "sjfbco-fig2"},
	} {
		got, err := Select(entries, tc.paper, tc.figure)
		if err != nil || len(got) != 1 || got[0].Scenario.Name != tc.want {
			t.Errorf("%s/%s: %v, %v; want %s", tc.paper, tc.figure, names(got), err, tc.want)
		}
	}
	if _, err := Select(entries, "nopaper", ""); err == nil || !strings.Contains(err.Error(), `no paper "nopaper"`) || !strings.Contains(err.Error(), "gavel") {
		t.Errorf("unknown paper: %v", err)
	}
	if _, err := Select(entries, "gavel", "Figure 99"); err == nil || !strings.Contains(err.Error(), `no figure "Figure 99" in paper gavel`) {
		t.Errorf("unknown figure: %v", err)
	}
	all, _ := Select(entries, "", "")
	for _, e := range all {
		// A cross-paper scenario checks our own findings: no paper's
		// numbers to compare with, so no targets, nothing calibrated.
		if e.Paper == Compare && len(e.Scenario.Checks) == 0 {
			t.Errorf("%s: a cross-paper scenario without checks of what we found", e.Scenario.Name)
		}
		for _, c := range e.Scenario.Checks {
			if e.Paper == Compare && (c.Target != nil || c.Paper != nil || c.Calibrated || e.Scenario.Reference != nil) {
				t.Errorf("%s: check %s compares with a paper's number", e.Scenario.Name, c.ID)
			}
			// One check per claim: a part of a claim is a detail of it,
			// never a "secondary" claim.
			if strings.Contains(strings.ToLower(c.Description), "secondary") {
				t.Errorf("%s: check %s is labelled secondary: %q", e.Scenario.Name, c.ID, c.Description)
			}
		}
		if e.Paper != Compare && len(e.Scenario.Checks) == 0 {
			t.Errorf("%s: a paper figure without checks", e.Scenario.Name)
		}
	}
}

func names(es []Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Scenario.Name)
	}
	return out
}

// TestReportNumbers runs sjfbco-wang-demo (small, a sweep, a value check
// with a target and reference values) and checks the report's numbers
// against the study's own evaluation.
func TestReportNumbers(t *testing.T) {
	data, _ := scenarios.Read("sjfbco-wang-demo")
	sc, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	st, err := experiment.RunStudy(context.Background(), sc, experiment.StudyOptions{Quick: true, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	// A target 0.2 s off ours: inside the relative tolerance (0.1% of
	// 295 s), so the reported tolerance must be relative too.
	for i := range st.Scenario.Checks {
		if c := &st.Scenario.Checks[i]; c.ID == "wang-packed" {
			target := 295.2
			c.Target = &target
		}
	}
	e := Entries([]*scenario.Scenario{sc})
	if len(e) != 1 {
		t.Fatalf("entries %v", e)
	}
	fig := Figure(Done{Entry: e[0], Study: st})
	if len(fig.Checks) != len(sc.Checks) {
		t.Fatalf("%d checks, want %d", len(fig.Checks), len(sc.Checks))
	}
	valueChecks := 0
	for i, c := range fig.Checks {
		sc := sc.Checks[i]
		if c.ID != sc.ID || c.Claim != sc.Description {
			t.Errorf("check %d: %s %q", i, c.ID, c.Claim)
		}
		if c.Verdict != Pass && c.Verdict != Fail && c.Verdict != NA {
			t.Errorf("%s: verdict %q", c.ID, c.Verdict)
		}
		if sc.Kind != "value" || sc.Target == nil || c.Verdict == NA {
			continue
		}
		valueChecks++
		if c.Paper == nil || *c.Paper != *sc.Target || c.Ours == nil || c.Tolerance == nil {
			t.Fatalf("%s: paper %v ours %v tolerance %v", c.ID, c.Paper, c.Ours, c.Tolerance)
		}
		// The verdict must agree with the numbers it reports.
		within := abs(*c.Ours-*c.Paper) <= *c.Tolerance+1e-9
		if within != (c.Verdict == Pass) {
			t.Errorf("%s: |%g − %g| vs %g but verdict %s", c.ID, *c.Ours, *c.Paper, *c.Tolerance, c.Verdict)
		}
	}
	if valueChecks == 0 {
		t.Fatal("no value check evaluated")
	}
	f, err := Draw(st, plot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	svg, err := f.SVG()
	if err != nil || !bytes.Contains(svg, []byte("paper: ")) {
		t.Errorf("the figure has no paper values (%v)", err)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
