package experiment_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/plot"
	_ "github.com/schedlab/schedlab/sim/policy/all"
	"github.com/schedlab/schedlab/sim/scenario"
)

func load(t testing.TB, name string) *scenario.Scenario {
	t.Helper()
	data, ok := scenarios.Read(name)
	if !ok {
		t.Fatalf("no scenario %s", name)
	}
	sc, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// Every built-in scenario runs every policy on every seed with all engine
// invariants checked after each instant, and runs again, with another
// worker count and the runs handed out in a shuffled order, to the same
// bytes of output.
func TestEmbeddedScenariosRunWithInvariants(t *testing.T) {
	for _, name := range scenarios.Names() {
		sc := load(t, name)
		if sc.Quick != nil {
			continue // a paper-scale study: TestEmbeddedStudiesQuick runs its quick version
		}
		rep, err := experiment.Execute(context.Background(), sc, experiment.Options{Paranoid: true, Workers: 2})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if repeatRuns {
			again, err := experiment.Execute(context.Background(), sc, experiment.Shuffled(experiment.Options{Workers: 3}, 7))
			if err != nil {
				t.Fatalf("%s, second run: %v", name, err)
			}
			sameBytes(t, name, reportBytes(t, rep), reportBytes(t, again))
		}
		for _, r := range rep.Runs {
			if r.Err != nil {
				t.Errorf("%s / %s / seed %d: %v", name, r.Policy, r.Seed, r.Err)
			}
			if r.Summary.Finished+r.Summary.Unschedulable != r.Summary.Jobs {
				t.Errorf("%s / %s: %d of %d jobs finished", name, r.Policy, r.Summary.Finished, r.Summary.Jobs)
			}
		}
	}
}

// The JSON output carries the documented keys.
func TestOutputJSONShape(t *testing.T) {
	sc := load(t, "tiny")
	rep, err := experiment.Execute(context.Background(), sc, experiment.Options{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(rep.Output(1))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc["scenario"] != "tiny" || doc["seed"] != 1.0 {
		t.Fatalf("header %v %v", doc["scenario"], doc["seed"])
	}
	results := doc["results"].([]any)
	if len(results) != 2 {
		t.Fatalf("%d results", len(results))
	}
	first := results[0].(map[string]any)
	m := first["metrics"].(map[string]any)
	for _, k := range []string{"avg_jct_s", "p50_jct_s", "p95_jct_s", "p99_jct_s", "avg_queue_s", "makespan_s", "utilization"} {
		if _, ok := m[k].(float64); !ok {
			t.Errorf("metrics.%s missing", k)
		}
	}
	jobs := first["jobs"].([]any)
	j := jobs[0].(map[string]any)
	for _, k := range []string{"id", "arrival_s", "start_s", "finish_s", "jct_s", "queue_s"} {
		if _, ok := j[k]; !ok {
			t.Errorf("jobs[0].%s missing", k)
		}
	}
	// tiny by hand (FIFO): j1 0–600; j2 (8 GPUs) waits for j1, 600–1800;
	// j3 (2 GPUs) arrives at 120 and backfills at once, 120–420.
	// JCTs 600, 1740, 300: average 880.
	if first["policy"] != "FIFO" || m["avg_jct_s"] != 880.0 || m["makespan_s"] != 1800.0 {
		t.Errorf("FIFO on tiny: %v avg %v makespan %v", first["policy"], m["avg_jct_s"], m["makespan_s"])
	}
}

func TestCSVAndFigures(t *testing.T) {
	sc := load(t, scenarios.Default)
	rep, err := experiment.Execute(context.Background(), sc, experiment.Options{Seeds: []uint64{1}})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := rep.WriteJobsCSV(&buf); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1+2*30 || rows[0][2] != "id" {
		t.Fatalf("%d CSV rows, header %v", len(rows), rows[0])
	}
	figs, err := rep.Figures(1, plot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, f := range figs {
		names = append(names, f.Name)
		svg, err := f.Figure.SVG()
		if err != nil || !bytes.Contains(svg, []byte("<svg")) {
			t.Errorf("%s: SVG %v", f.Name, err)
		}
	}
	if got := strings.Join(names, ","); got != "jct_cdf,gantt-fifo,gantt-sjf,queue_by_model" {
		t.Errorf("figures %s", got)
	}
}

func TestCancelledExecute(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := experiment.Execute(ctx, load(t, "gavel-trace"), experiment.Options{})
	if err == nil {
		t.Fatal("cancelled run reported success")
	}
}

// Every built-in study (a paper figure or table, or a sweep) runs in quick
// mode with all invariants checked, and every check required in quick mode
// passes: a regression in a policy or the engine fails here.
func TestEmbeddedStudiesQuick(t *testing.T) {
	for _, name := range scenarios.Names() {
		sc := load(t, name)
		if sc.Sweep == nil && sc.Reference == nil && len(sc.Checks) == 0 {
			continue
		}
		t.Run(name, func(t *testing.T) {
			st, err := experiment.RunStudy(context.Background(), sc, experiment.StudyOptions{Quick: true, Workers: 2, Paranoid: true})
			if err != nil {
				t.Fatal(err)
			}
			// Run it again, without the invariant checks (they only
			// read), on another number of workers and in a shuffled
			// order: the output must be the same bytes. An unordered
			// map iteration in a policy, or state shared between runs,
			// fails here.
			if repeatRuns {
				again, err := experiment.RunStudy(context.Background(), sc,
					experiment.ShuffledStudy(experiment.StudyOptions{Quick: true, Workers: 3}, 11))
				if err != nil {
					t.Fatal(err)
				}
				sameBytes(t, name, studyBytes(t, st), studyBytes(t, again))
				// Dropping the records once a study's quantities
				// are evaluated (a compact study) changes no output.
				experiment.Compact(again)
				sameBytes(t, name+" compact", outputBytes(t, st), outputBytes(t, again))
			}
			for _, p := range st.Points {
				for _, r := range p.Report.Failed() {
					t.Errorf("%s seed %d at %g: %v", r.Policy, r.Seed, p.X, r.Err)
				}
			}
			for _, v := range st.Verdicts() {
				if v.Required && !v.Passed {
					t.Errorf("check %s failed: %s\n  expected: %s\n  observed: %s", v.ID, v.Description, v.Expected, v.Observed)
				}
			}
		})
	}
}

// gavel-small asks for the learner's figures: target against received
// shares per policy, and the LP objective over time.
func TestLearnerFigures(t *testing.T) {
	sc := load(t, "gavel-small")
	rep, err := experiment.Execute(context.Background(), sc, experiment.Options{Seeds: []uint64{sc.RunSeeds()[0]}})
	if err != nil {
		t.Fatal(err)
	}
	figs, err := rep.Figures(sc.RunSeeds()[0], plot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, f := range figs {
		names[f.Name] = true
	}
	for _, want := range []string{"shares-gavel", "shares-las", "series-gavel-objective"} {
		if !names[want] {
			t.Errorf("no figure %s among %v", want, names)
		}
	}
}

// wait_by_model shows the time without GPUs, which for a preemptive policy
// exceeds the time to first start; queue_by_model shows the latter.
func TestWaitByModelCountsWaitsAfterPreemption(t *testing.T) {
	sc := load(t, "sjf-bsbf-table2")
	seed := sc.RunSeeds()[0]
	rep, err := experiment.Execute(context.Background(), sc, experiment.Options{Seeds: []uint64{seed}})
	if err != nil {
		t.Fatal(err)
	}
	figs, err := rep.Figures(seed, plot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	drawn := map[string]bool{}
	for _, f := range figs {
		drawn[f.Name] = true
	}
	if !drawn["queue_by_model"] || !drawn["wait_by_model"] {
		t.Fatalf("figures %v", drawn)
	}
	for _, r := range rep.ForSeed(seed) {
		if r.PolicyName != "tiresias" {
			continue
		}
		if r.Summary.Preemptions == 0 {
			t.Fatal("Tiresias never preempted; the test needs preemptions")
		}
		longer := 0
		for _, g := range r.ByModel {
			if g.AvgWait < g.AvgQueue-1e-9 {
				t.Errorf("%s: wait %g below queue %g", g.Name, g.AvgWait, g.AvgQueue)
			}
			if g.AvgWait > g.AvgQueue+1 {
				longer++
			}
		}
		if longer == 0 {
			t.Errorf("no model waited longer than its time to first start: %+v", r.ByModel)
		}
		return
	}
	t.Fatal("no Tiresias run")
}

// repeatRuns runs every built-in scenario a second time to compare bytes.
// Not under WebAssembly, where runs are single-threaded and slower: map
// iteration is randomised there as natively, so the native run catches
// the same bugs, and the parity tests compare wasm with native output.
var repeatRuns = runtime.GOOS != "js"

// reportBytes is the JSON of everything a report holds per run: the
// output of each seed (metrics, job records, series), then each run's GPU
// intervals and decision log.
func reportBytes(t *testing.T, rep *experiment.Report) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	seen := map[uint64]bool{}
	for _, r := range rep.Runs {
		if !seen[r.Seed] {
			seen[r.Seed] = true
			if err := enc.Encode(rep.Output(r.Seed)); err != nil {
				t.Fatalf("seed %d: %v", r.Seed, err)
			}
		}
	}
	for _, r := range rep.Runs {
		if r.Result == nil {
			continue
		}
		if err := enc.Encode(struct {
			Intervals []engine.Interval
			Log       []engine.Decision
			Stats     engine.Stats
		}{r.Result.Intervals, r.Result.Log, r.Result.Stats}); err != nil {
			t.Fatalf("%s seed %d: %v", r.Policy, r.Seed, err)
		}
	}
	return b.Bytes()
}

// outputBytes is the study's JSON output, then its text report.
func outputBytes(t *testing.T, st *experiment.Study) []byte {
	t.Helper()
	out, err := json.Marshal(st.Output())
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	st.WriteText(&b)
	return append(out, b.Bytes()...)
}

// studyBytes is the study's JSON output followed by reportBytes of each
// sweep point.
func studyBytes(t *testing.T, st *experiment.Study) []byte {
	t.Helper()
	out, err := json.Marshal(st.Output())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range st.Points {
		out = append(out, reportBytes(t, p.Report)...)
	}
	return out
}

// sameBytes fails with the first difference of two outputs in context.
func sameBytes(t *testing.T, name string, a, b []byte) {
	t.Helper()
	if bytes.Equal(a, b) {
		return
	}
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-200)
	t.Errorf("%s: two runs differ (%d and %d bytes) at byte %d:\n first: …%s…\nsecond: …%s…",
		name, len(a), len(b), i, a[from:min(len(a), i+200)], b[from:min(len(b), i+200)])
}
