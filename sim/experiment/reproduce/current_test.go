package reproduce

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
)

// root is the repository root, seen from this package.
const root = "../../.."

func builtIn(t *testing.T) []Entry {
	t.Helper()
	var scs []*scenario.Scenario
	for _, n := range scenarios.Names() {
		data, _ := scenarios.Read(n)
		sc, err := scenario.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		scs = append(scs, sc)
	}
	return Entries(scs)
}

// TestCommittedReportCurrent checks the committed reproduction summary
// against the built-in scenarios without running them: the same figures
// in the same order, each with its scenario's check ids; every figure file
// present; and REPRODUCTION.md exactly what report.json renders to.
func TestCommittedReportCurrent(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(root, "reproduction", "report.json"))
	if err != nil {
		t.Fatalf("%v (run make reproduce)", err)
	}
	var rep results.Reproduction
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatalf("reproduction/report.json: %v", err)
	}
	if problems := stale(rep, builtIn(t)); len(problems) > 0 {
		t.Fatalf("reproduction/ is stale; run make reproduce:\n  %s", strings.Join(problems, "\n  "))
	}
	for _, p := range rep.Papers {
		for _, f := range p.Figures {
			for _, file := range f.Files {
				if _, err := os.Stat(filepath.Join(root, "reproduction", filepath.FromSlash(file))); err != nil {
					t.Errorf("%s: %v (run make reproduce)", f.Scenario, err)
				}
			}
		}
	}
	md, err := os.ReadFile(filepath.Join(root, "REPRODUCTION.md"))
	if err != nil {
		t.Fatalf("%v (run make reproduce)", err)
	}
	var want bytes.Buffer
	if err := WriteMarkdown(&want, rep, "reproduction"); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(md, want.Bytes()) {
		t.Errorf("REPRODUCTION.md is not what reproduction/report.json renders to; run make reproduce")
	}
}

// stale lists how a report differs from the figures and checks of the
// scenarios (their ids and counts), in words.
func stale(rep results.Reproduction, entries []Entry) []string {
	var got []results.FigureRepro
	paperOf := map[string]string{}
	for _, p := range rep.Papers {
		for _, f := range p.Figures {
			got = append(got, f)
			paperOf[f.Scenario] = p.Paper
		}
	}
	var out []string
	if len(got) != len(entries) {
		out = append(out, fmt.Sprintf("the report has %d figures, the scenarios %d", len(got), len(entries)))
	}
	for i := 0; i < min(len(got), len(entries)); i++ {
		e, f := entries[i], got[i]
		if e.Scenario.Name != f.Scenario || e.Paper != paperOf[f.Scenario] || e.Figure != f.Figure {
			out = append(out, fmt.Sprintf("figure %d: the report has %s/%s (%s), the scenarios %s/%s (%s)",
				i+1, paperOf[f.Scenario], f.Scenario, f.Figure, e.Paper, e.Scenario.Name, e.Figure))
			continue
		}
		var want, have []string
		for _, c := range e.Scenario.Checks {
			want = append(want, c.ID)
		}
		for _, c := range f.Checks {
			have = append(have, c.ID)
		}
		if strings.Join(want, ",") != strings.Join(have, ",") {
			out = append(out, fmt.Sprintf("%s: the report has %d checks [%s], the scenario %d [%s]",
				f.Scenario, len(have), strings.Join(have, " "), len(want), strings.Join(want, " ")))
		}
	}
	return out
}

// TestStaleFindsChanges shows the staleness check can fail: a check
// added, one renamed, a figure missing.
func TestStaleFindsChanges(t *testing.T) {
	entries := builtIn(t)
	rep := results.Reproduction{}
	for _, e := range entries {
		n := len(rep.Papers)
		if n == 0 || rep.Papers[n-1].Paper != e.Paper {
			rep.Papers = append(rep.Papers, results.PaperRepro{Paper: e.Paper})
			n++
		}
		f := results.FigureRepro{Figure: e.Figure, Scenario: e.Scenario.Name}
		for _, c := range e.Scenario.Checks {
			f.Checks = append(f.Checks, results.CheckRepro{ID: c.ID})
		}
		rep.Papers[n-1].Figures = append(rep.Papers[n-1].Figures, f)
	}
	if p := stale(rep, entries); len(p) > 0 {
		t.Fatalf("a report built from the scenarios is stale: %v", p)
	}
	f := &rep.Papers[0].Figures[0]
	f.Checks = append(f.Checks, results.CheckRepro{ID: "extra"})
	if p := stale(rep, entries); len(p) != 1 || !strings.Contains(p[0], "extra") {
		t.Errorf("an added check: %v", p)
	}
	f.Checks = f.Checks[:len(f.Checks)-1]
	f.Checks[0].ID = "renamed"
	if p := stale(rep, entries); len(p) != 1 || !strings.Contains(p[0], "renamed") {
		t.Errorf("a renamed check: %v", p)
	}
	rep.Papers[0].Figures = rep.Papers[0].Figures[1:]
	if p := stale(rep, entries); len(p) == 0 {
		t.Error("a missing figure is not found")
	}
}
