package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/experiment/reproduce"
	"github.com/schedlab/schedlab/sim/results"
)

// TestReproduceOneFigure writes the report and both images of a small
// figure, with the seeds asked for.
func TestReproduceOneFigure(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	md := filepath.Join(dir, "R.md")
	code := dispatch([]string{"reproduce", "--paper", "sjf-bco", "--figure", "Fig. 2", "--seeds", "2", "--out", filepath.Join(dir, "r"), "--markdown", md}, &out, &errOut)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	data, err := os.ReadFile(filepath.Join(dir, "r", "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep results.Reproduction
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Papers) != 1 || len(rep.Papers[0].Figures) != 1 || rep.Seeds != 2 {
		t.Fatalf("report: %+v", rep)
	}
	f := rep.Papers[0].Figures[0]
	if f.Scenario != "sjfbco-fig2" || len(f.Checks) == 0 || len(f.Files) != 2 {
		t.Fatalf("figure: %+v", f)
	}
	for _, file := range f.Files {
		if st, err := os.Stat(filepath.Join(dir, "r", file)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", file, err)
		}
	}
	text, err := os.ReadFile(md)
	if err != nil || !strings.Contains(string(text), "](r/figures/sjfbco-fig2.svg)") {
		t.Errorf("--markdown: image links not relative to the file (%v)", err)
	}
	if !strings.HasPrefix(string(text), "# Not the record") || rep.Run == nil || rep.Run.Cores < 1 || rep.Run.Date == "" {
		t.Errorf("a --seeds report: %.80q, run %+v", text, rep.Run)
	}
	if !strings.Contains(out.String(), "claims:") {
		t.Errorf("stdout lacks the claims count: %s", out.String())
	}
}

// Quick mode says so wherever it appears: on stdout and at the top of the
// report.
func TestReproduceQuickSaysSo(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	md := filepath.Join(dir, "R.md")
	if code := dispatch([]string{"reproduce", "--quick", "--paper", "sjf-bco", "--figure", "Fig. 2", "--out", filepath.Join(dir, "r"), "--formats", "svg", "--markdown", md}, &out, &errOut); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	text, _ := os.ReadFile(md)
	if !strings.HasPrefix(out.String(), "quick mode, not the record") || !strings.HasPrefix(string(text), reproduce.QuickHeading) {
		t.Errorf("stdout %q, report %.120q", out.String(), text)
	}
}

func TestReproduceRefusesUnknown(t *testing.T) {
	for _, args := range [][]string{
		{"reproduce", "--paper", "nopaper"},
		{"reproduce", "--paper", "gavel", "--figure", "Figure 99"},
		{"reproduce", "--formats", "gif"},
		{"reproduce", "extra"},
	} {
		var out, errOut bytes.Buffer
		if code := dispatch(args, &out, &errOut); code != exitInvalid || errOut.Len() == 0 {
			t.Errorf("%v: exit %d, %q", args, code, errOut.String())
		}
	}
}

// The decision-time figure is a figure of reproduce: chosen by its
// label, it writes its image, its decisions and its wall times apart
// with the machine named, and the report says what POP is.
func TestReproduceDecisionTime(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	if code := dispatch([]string{"reproduce", "--quick", "--figure", "Figs. 2 and 14(a)", "--out", dir, "--formats", "svg"}, &out, &errOut); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	data, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep results.Reproduction
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Papers) != 1 || rep.Papers[0].Paper != "tesserae" || len(rep.Papers[0].Figures) != 1 || len(rep.Papers[0].CannotReproduce) == 0 {
		t.Fatalf("report: %+v", rep.Papers)
	}
	f := rep.Papers[0].Figures[0]
	b := f.Benchmark
	if f.Scenario != reproduce.DecisionTime.Name || b == nil || b.Timing == nil || len(b.Decisions) == 0 || !strings.Contains(b.Timing.Machine, "cores") || len(f.Files) != 1 {
		t.Fatalf("figure: %+v", f)
	}
	if st, err := os.Stat(filepath.Join(dir, f.Files[0])); err != nil || st.Size() == 0 {
		t.Errorf("%s: %v", f.Files[0], err)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	for _, want := range []string{"Wall times in ms", "What was decided", "POP", "tesserae-fig2-decision-time.svg"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
}

// TestReproduceRunTimes: --run-times lists every simulated run of the
// figures once, with its study, policy, sweep value and seed, and is
// refused with --remote.
func TestReproduceRunTimes(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "times.tsv")
	var out, errOut bytes.Buffer
	code := dispatch([]string{"reproduce", "--paper", "gavel", "--figure", "gavel-cost", "--quick", "--formats", "svg", "--out", filepath.Join(dir, "r"), "--run-times", file}, &out, &errOut)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	want := []string{"study\tpolicy\tx\tseed\tcpu_s", "gavel-cost\tMax throughput\tNaN\t0\t", "gavel-cost\tMin cost\tNaN\t0\t", "gavel-cost\tMin cost w/ SLOs\tNaN\t0\t"}
	slices.Sort(lines[1:])
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), data)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d is %q, want it to start with %q", i, lines[i], w)
		}
	}
	errOut.Reset()
	code = dispatch([]string{"reproduce", "--paper", "gavel", "--remote", "http://127.0.0.1:1", "--run-times", file}, &out, &errOut)
	if code != exitInvalid || !strings.Contains(errOut.String(), "--run-times") {
		t.Errorf("with --remote: exit %d, %s", code, errOut.String())
	}
}
