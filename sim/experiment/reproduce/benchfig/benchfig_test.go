package benchfig

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/experiment/decisiontime"
	"github.com/schedlab/schedlab/sim/experiment/reproduce"
	"github.com/schedlab/schedlab/sim/plot"
	"github.com/schedlab/schedlab/sim/results"
)

var machine = decisiontime.Machine{GOOS: "linux", GOARCH: "amd64", Cores: 2, Go: "go1.x"}

func byID(f results.FigureRepro) map[string]results.CheckRepro {
	out := map[string]results.CheckRepro{}
	for _, c := range f.Checks {
		out[c.ID] = c
	}
	return out
}

// The checks read the largest count's times: within 1,000 ms, and Gavel's
// time over Tesserae's above 1; required in full mode only.
func TestChecks(t *testing.T) {
	s := decisiontime.Setup{Servers: 64, Jobs: []int{256, 3000}, Rounds: 3}
	ds := []decisiontime.Decision{{Jobs: 256}, {Jobs: 3000}}
	for _, c := range []struct {
		name          string
		small, large  decisiontime.Times
		quick         bool
		under, faster string
		ratio         float64
	}{
		// The small count would fail both; only the largest is judged.
		{"fast", decisiontime.Times{Jobs: 256, TesseraeMS: 2000, GavelMS: 1}, decisiontime.Times{Jobs: 3000, TesseraeMS: 4, GavelMS: 90}, false, "pass", "pass", 22.5},
		{"slow", decisiontime.Times{Jobs: 256, TesseraeMS: 1, GavelMS: 9}, decisiontime.Times{Jobs: 3000, TesseraeMS: 1250, GavelMS: 500}, false, "fail", "fail", 0.4},
		{"quick", decisiontime.Times{Jobs: 256, TesseraeMS: 1, GavelMS: 9}, decisiontime.Times{Jobs: 3000, TesseraeMS: 999, GavelMS: 1998}, true, "pass", "pass", 2},
	} {
		f := Figure(reproduce.DecisionTime, s, ds, []decisiontime.Times{c.small, c.large}, machine, c.quick)
		k := byID(f)
		u, fa := k["under-1s"], k["faster-than-gavel"]
		if u.Verdict != c.under || fa.Verdict != c.faster || *u.Ours != c.large.TesseraeMS || *fa.Ours != c.ratio {
			t.Errorf("%s: under-1s %s (%v), faster %s (%v)", c.name, u.Verdict, *u.Ours, fa.Verdict, *fa.Ours)
		}
		if u.Required == c.quick || fa.Required == c.quick || u.Class != "claim" || fa.Class != "claim" {
			t.Errorf("%s: required %v/%v, class %s/%s", c.name, u.Required, fa.Required, u.Class, fa.Class)
		}
		if c.under == "fail" && u.Why == "" || c.faster == "fail" && fa.Why == "" {
			t.Errorf("%s: a failure without a why", c.name)
		}
		if !strings.Contains(u.Claim, "3,000 active jobs") {
			t.Errorf("%s: %q", c.name, u.Claim)
		}
	}
}

// Two measurements that decided alike give reports that differ only in
// the wall times: the timing block and the checks' numbers and verdicts.
func TestTimesApart(t *testing.T) {
	s := decisiontime.Setup{Servers: 64, Jobs: []int{256, 1024}, Rounds: 3}
	ds := []decisiontime.Decision{{Jobs: 256, Placed: 200, Packed: 30, LPs: 2, Objective: 1}, {Jobs: 1024, Placed: 250, Packed: 90, LPs: 2, Objective: 0.25}}
	t1 := []decisiontime.Times{{Jobs: 256, TesseraeMS: 1, GavelMS: 2, MergedMS: 1}, {Jobs: 1024, TesseraeMS: 2, GavelMS: 20, MergedMS: 2}}
	t2 := []decisiontime.Times{{Jobs: 256, TesseraeMS: 7, GavelMS: 3, MergedMS: 5}, {Jobs: 1024, TesseraeMS: 3000, GavelMS: 25, MergedMS: 4}}
	f1 := Figure(reproduce.DecisionTime, s, ds, t1, machine, false)
	f2 := Figure(reproduce.DecisionTime, s, ds, t2, decisiontime.Machine{Cores: 64}, false)
	if reflect.DeepEqual(f1.Benchmark.Timing, f2.Benchmark.Timing) {
		t.Fatal("different times, same timing block")
	}
	strip := func(f results.FigureRepro) string {
		f.Benchmark = &results.BenchmarkRepro{Setup: f.Benchmark.Setup, Decisions: f.Benchmark.Decisions}
		f.Checks = nil
		b, _ := json.Marshal(f)
		return string(b)
	}
	if strip(f1) != strip(f2) {
		t.Errorf("the decisions' part differs:\n%s\n%s", strip(f1), strip(f2))
	}
	if !strings.Contains(strip(f1), `"Tesserae: jobs sharing a GPU","value":90`) {
		t.Errorf("the decisions are not recorded: %s", strip(f1))
	}
	if f1.Benchmark.Timing.Machine != "2 cores, linux/amd64, go1.x" {
		t.Errorf("machine %q", f1.Benchmark.Timing.Machine)
	}
	if _, err := Draw(f1, plot.Options{}); err != nil {
		t.Error(err)
	}
}

// A quick measurement on this machine: two runs decide alike. Its
// verdicts are not asserted: they judge wall times, which a loaded
// machine can flip (quick mode does not require them).
func TestQuickRun(t *testing.T) {
	f1, fig, err := Run(context.Background(), reproduce.DecisionTime, true, plot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f2, _, err := Run(context.Background(), reproduce.DecisionTime, true, plot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(f1.Benchmark.Decisions, f2.Benchmark.Decisions) || len(f1.Benchmark.Decisions) != len(quickSetup.Jobs) {
		t.Errorf("two quick runs decided differently or not at every count:\n%+v\n%+v", f1.Benchmark.Decisions, f2.Benchmark.Decisions)
	}
	if fig == nil || len(f1.Checks) != len(reproduce.DecisionTime.Checks) {
		t.Errorf("figure %v, %d checks", fig, len(f1.Checks))
	}
	for i, c := range f1.Checks {
		if c.ID != reproduce.DecisionTime.Checks[i] || c.Required || c.Verdict == "" {
			t.Errorf("check %+v", c)
		}
	}
	t.Logf("%s", f1.Benchmark.Timing.Machine)
	for _, s := range f1.Benchmark.Timing.Series[:3] {
		t.Logf("%s: %v ms at %v jobs", s.Policy, []float64{*s.Mean[0], *s.Mean[1]}, s.X)
	}
}

func TestRunRefusesUnknown(t *testing.T) {
	if _, _, err := Run(context.Background(), reproduce.Benchmark{Name: "nope"}, true, plot.Options{}); err == nil {
		t.Error("an unknown benchmark ran")
	}
}

// The committed record's decision-time figure was measured with today's
// set-up (its job counts and rounds). Without that figure in the record
// the staleness test of sim/experiment/reproduce already fails.
func TestCommittedSetupCurrent(t *testing.T) {
	data, err := os.ReadFile("../../../../reproduction/report.json")
	if err != nil {
		t.Skipf("no committed record: %v", err)
	}
	var rep results.Reproduction
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	for _, p := range rep.Papers {
		for _, f := range p.Figures {
			if f.Scenario != reproduce.DecisionTime.Name {
				continue
			}
			if f.Benchmark == nil || f.Benchmark.Setup != setupWords(fullSetup) {
				t.Fatalf("the record's decision-time figure was measured with another set-up; run make reproduce")
			}
			return
		}
	}
	t.Skip("the record has no decision-time figure yet")
}
