package reproduce

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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

// TestCommittedReportCurrent checks the committed record against the
// built-in scenarios without running them: it is full mode; the same
// figures in the same order, each run from the scenario file as it is now
// (its hash) with its check ids; each paper's figures that cannot be
// reproduced as the catalogue lists them; every figure file present; and
// REPRODUCTION.md exactly what report.json renders to.
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
		t.Fatalf("reproduction/ is stale; run make reproduce (about half an hour):\n  %s", strings.Join(problems, "\n  "))
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
// scenarios, in words: a quick-mode report, a figure added or gone, a
// scenario changed since it ran (its hash), its check ids, or the figures
// a paper cannot reproduce.
func stale(rep results.Reproduction, entries []Entry) []string {
	var out []string
	if rep.Quick || rep.Seeds != 0 {
		out = append(out, "the record is a quick-mode or --seeds report; the record is full mode")
	}
	var got []results.FigureRepro
	paperOf := map[string]string{}
	for _, p := range rep.Papers {
		for _, f := range p.Figures {
			got = append(got, f)
			paperOf[f.Scenario] = p.Paper
		}
		var have, want []string
		for _, u := range p.CannotReproduce {
			have = append(have, u.Figure+": "+u.Why)
		}
		for _, u := range CannotReproduce(p.Paper) {
			want = append(want, u.Figure+": "+u.Why)
		}
		if strings.Join(have, "\n") != strings.Join(want, "\n") {
			out = append(out, fmt.Sprintf("%s: the report lists %d figure(s) that cannot be reproduced, the catalogue %d (or their reasons differ)", p.Paper, len(have), len(want)))
		}
	}
	for paper := range unreproducible {
		if !slices.ContainsFunc(rep.Papers, func(p results.PaperRepro) bool { return p.Paper == paper }) {
			out = append(out, fmt.Sprintf("%s: the report lacks this paper's figures that cannot be reproduced", paper))
		}
	}
	want := expected(entries)
	if len(got) != len(want) {
		out = append(out, fmt.Sprintf("the report has %d figures, the scenarios and benchmarks %d", len(got), len(want)))
	}
	for i := 0; i < min(len(got), len(want)); i++ {
		e, f := want[i], got[i]
		if e.name != f.Scenario || e.paper != paperOf[f.Scenario] || e.figure != f.Figure {
			out = append(out, fmt.Sprintf("figure %d: the report has %s/%s (%s), the scenarios %s/%s (%s)",
				i+1, paperOf[f.Scenario], f.Scenario, f.Figure, e.paper, e.name, e.figure))
			continue
		}
		if e.hash != "" && e.hash != f.ScenarioSHA256 {
			out = append(out, fmt.Sprintf("%s: the scenario file changed after the record was made", f.Scenario))
		}
		if e.bench != (f.Benchmark != nil) {
			out = append(out, fmt.Sprintf("%s: a benchmark figure in one, not in the other", f.Scenario))
		}
		var have []string
		for _, c := range f.Checks {
			have = append(have, c.ID+" ("+class(c)+")")
		}
		if strings.Join(e.checks, ",") != strings.Join(have, ",") {
			out = append(out, fmt.Sprintf("%s: the report has %d checks [%s], the scenario %d [%s]",
				f.Scenario, len(have), strings.Join(have, " "), len(e.checks), strings.Join(e.checks, " ")))
		}
	}
	return out
}

// wantFigure is a figure the record should hold: a scenario's (with its
// hash) or a benchmark's (whose wall times and verdicts are not compared).
type wantFigure struct {
	paper, name, figure, hash string
	bench                     bool
	checks                    []string // id (class)
}

// expected lists the figures in report order: each paper's scenario
// figures, then its benchmark figures.
func expected(entries []Entry) []wantFigure {
	var out []wantFigure
	benches := func(paper string) {
		for _, b := range Benchmarks() {
			if b.Paper == paper {
				w := wantFigure{paper: b.Paper, name: b.Name, figure: b.Figure, bench: true}
				for _, id := range b.Checks {
					w.checks = append(w.checks, id+" ("+scenario.ClassClaim+")")
				}
				out = append(out, w)
			}
		}
	}
	for i, e := range entries {
		w := wantFigure{paper: e.Paper, name: e.Scenario.Name, figure: e.Figure, hash: ScenarioHash(e.Scenario)}
		for i := range e.Scenario.Checks {
			c := &e.Scenario.Checks[i]
			w.checks = append(w.checks, c.ID+" ("+e.Scenario.Class(c)+")")
		}
		out = append(out, w)
		if i == len(entries)-1 || entries[i+1].Paper != e.Paper {
			benches(e.Paper)
		}
	}
	return out
}

// TestStaleFindsChanges shows the staleness check can fail: a check
// added, one renamed, a scenario changed, a quick report, a figure that
// cannot be reproduced dropped, a figure missing.
func TestStaleFindsChanges(t *testing.T) {
	entries := builtIn(t)
	fresh := func() results.Reproduction {
		rep := results.Reproduction{}
		for _, e := range entries {
			n := len(rep.Papers)
			if n == 0 || rep.Papers[n-1].Paper != e.Paper {
				rep.Papers = append(rep.Papers, results.PaperRepro{Paper: e.Paper, CannotReproduce: CannotReproduce(e.Paper)})
				n++
			}
			f := results.FigureRepro{Figure: e.Figure, Scenario: e.Scenario.Name, ScenarioSHA256: ScenarioHash(e.Scenario)}
			for i := range e.Scenario.Checks {
				c := &e.Scenario.Checks[i]
				f.Checks = append(f.Checks, results.CheckRepro{ID: c.ID, Class: e.Scenario.Class(c)})
			}
			rep.Papers[n-1].Figures = append(rep.Papers[n-1].Figures, f)
		}
		for _, b := range Benchmarks() {
			f := results.FigureRepro{Figure: b.Figure, Scenario: b.Name, Benchmark: &results.BenchmarkRepro{}}
			for _, id := range b.Checks {
				f.Checks = append(f.Checks, results.CheckRepro{ID: id, Class: scenario.ClassClaim})
			}
			AddFigure(&rep, b.Paper, f)
		}
		return rep
	}
	rep := fresh()
	if p := stale(rep, entries); len(p) > 0 {
		t.Fatalf("a report built from the scenarios is stale: %v", p)
	}
	one := func(what, want string, change func(*results.Reproduction)) {
		t.Helper()
		rep := fresh()
		change(&rep)
		if p := stale(rep, entries); len(p) != 1 || !strings.Contains(p[0], want) {
			t.Errorf("%s: %v", what, p)
		}
	}
	one("an added check", "extra", func(r *results.Reproduction) {
		f := &r.Papers[0].Figures[0]
		f.Checks = append(f.Checks, results.CheckRepro{ID: "extra"})
	})
	one("a renamed check", "renamed", func(r *results.Reproduction) { r.Papers[0].Figures[0].Checks[0].ID = "renamed" })
	one("a check counted otherwise", "(exploration)", func(r *results.Reproduction) { r.Papers[0].Figures[0].Checks[0].Class = "exploration" })
	one("a changed scenario", "changed after the record", func(r *results.Reproduction) { r.Papers[0].Figures[0].ScenarioSHA256 = "0" })
	one("a quick report", "quick-mode", func(r *results.Reproduction) { r.Quick = true })
	one("a figure that cannot be reproduced, dropped", "cannot be reproduced", func(r *results.Reproduction) {
		for i := range r.Papers {
			if len(r.Papers[i].CannotReproduce) > 0 {
				r.Papers[i].CannotReproduce = r.Papers[i].CannotReproduce[1:]
				return
			}
		}
		t.Fatal("no paper has a figure that cannot be reproduced")
	})
	one("a benchmark's check dropped", DecisionTime.Checks[1], func(r *results.Reproduction) {
		for i := range r.Papers {
			for j := range r.Papers[i].Figures {
				if f := &r.Papers[i].Figures[j]; f.Benchmark != nil {
					f.Checks = f.Checks[:1]
				}
			}
		}
	})
	rep.Papers[0].Figures = rep.Papers[0].Figures[1:]
	if p := stale(rep, entries); len(p) == 0 {
		t.Error("a missing figure is not found")
	}
}
