package experiment

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/sim/workload"
)

// seededStudy builds a study of doc whose runs have the given JCTs
// (seconds): jct[policy][sweep index][seed index]. Each run has one job,
// so its average JCT is the number given.
func seededStudy(t *testing.T, doc string, jct map[string][][]float64) *Study {
	t.Helper()
	sc, err := scenario.Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	c, _ := cluster.New(sc.Cluster)
	jobs, _ := workload.Finalize(append([]workload.Job(nil), sc.Workload.Jobs...))
	st := &Study{Scenario: sc}
	for xi, x := range sc.Sweep.Values {
		p := &Point{X: x, Swept: true, Scenario: sc, Report: &Report{Scenario: sc}}
		for i := range sc.Policies {
			pol := sc.PolicyLabel(i)
			for s, v := range jct[pol][xi] {
				r := &Run{Policy: pol, Seed: uint64(s + 1), X: x, Swept: true, Inputs: &scenario.Inputs{Cluster: c, Jobs: jobs}}
				r.Result = &engine.Result{Jobs: []engine.JobRecord{{Job: 0, Model: "x", GPUs: 1, Status: engine.Finished, FinishS: v}}}
				p.Report.Runs = append(p.Report.Runs, r)
			}
		}
		st.Points = append(st.Points, p)
	}
	return st
}

const paperDoc = `{"name": "p", "title": "paper numbers",
 "cluster": {"servers": [{"count": 1, "gpus": 8, "gpu_type": "V100"}]},
 "workload": {"jobs": [{"id": "a", "gpus": 1, "model": "x", "duration_s": 10}]},
 "policies": [{"name": "fifo", "label": "A"}, {"name": "sjf", "label": "B"}],
 "seeds": [1, 2, 3],
 "sweep": {"label": "load", "values": [1, 2], "params": ["engine.restart_s"]},
 "reference": {"source": "made up", "unit": "s", "values": []},
 "checks": [
  {"id": "v-under", "description": "", "kind": "value", "metric": "avg_jct_s", "x": 1, "of": {"policy": "A"}, "paper": 110, "precision": 1, "detail_of": "both"},
  {"id": "v-over", "description": "", "kind": "value", "metric": "avg_jct_s", "x": 1, "of": {"policy": "A"}, "paper": 88, "precision": 1, "detail_of": "both"},
  {"id": "v-at-most", "description": "", "kind": "value", "metric": "avg_jct_s", "x": 1, "of": {"policy": "A"}, "paper": 88, "precision": 1, "bound": "at most"},
  {"id": "v-at-least", "description": "", "kind": "value", "metric": "avg_jct_s", "x": 1, "of": {"policy": "A"}, "paper": 88, "precision": 1, "bound": "at least", "detail_of": "one"},
  {"id": "v-at-least-near", "description": "", "kind": "value", "metric": "avg_jct_s", "x": 1, "of": {"policy": "A"}, "paper": 110, "precision": 1, "bound": "at least", "detail_of": "one"},
  {"id": "r-in", "description": "", "kind": "ratio", "metric": "avg_jct_s", "x": 1, "num": {"policy": "A"}, "den": {"policy": "B"}, "paper": 0.45, "precision": 0.01, "exploration": "a setting of ours"},
  {"id": "r-out", "description": "", "kind": "ratio", "metric": "avg_jct_s", "x": 1, "num": {"policy": "A"}, "den": {"policy": "B"}, "paper": 0.56, "precision": 0.01},
  {"id": "r-tight", "description": "", "kind": "ratio", "metric": "avg_jct_s", "x": 1, "num": {"policy": "A"}, "den": {"policy": "B"}, "paper": 0.45, "precision": 0.01, "tight_tolerance": 0.01, "calibrated": true},
  {"id": "r-precision", "description": "", "kind": "ratio", "metric": "avg_jct_s", "x": 2, "num": {"policy": "A"}, "den": {"policy": "B"}, "paper": 0.3, "precision": 0.1},
  {"id": "v-mean", "description": "", "kind": "value", "metric": "avg_jct_s", "of": {"policy": "A", "mean_over_sweep": true}, "paper": 75, "precision": 1},
  {"id": "both", "description": "", "kind": "all", "checks": ["v-under", "v-over"]},
  {"id": "one", "description": "", "kind": "all", "checks": ["v-at-least", "v-at-least-near"], "at_least": 2}
 ],
 "quick": {"values": [1]}}`

// Checks on the paper's number, against values by hand. A at x = 1: 90,
// 100, 110 s (mean 100, SD 10, twice the standard error 2·10/√3 =
// 11.547); B: 200 s on every seed, so A/B = 0.5 with SD 0.5·(10/100) =
// 0.05 and twice its standard error 0.0577. At x = 2, A/B = 40/100 = 0.4
// exactly (no spread).
func TestPaperNumberChecks(t *testing.T) {
	st := seededStudy(t, paperDoc, map[string][][]float64{
		"A": {{90, 100, 110}, {40, 40, 40}},
		"B": {{200, 200, 200}, {100, 100, 100}},
	})
	want := map[string]struct {
		pass bool
		tol  float64
	}{
		"v-under":         {true, 11.547},  // |100 − 110| = 10 ≤ 2·SE
		"v-over":          {false, 11.547}, // |100 − 88| = 12: an overshoot fails like an undershoot
		"v-at-most":       {false, 11.547}, // 100 > 88 + 11.547
		"v-at-least":      {true, 11.547},  // 100 ≥ 88 − 11.547
		"v-at-least-near": {true, 11.547},  // 100 ≥ 110 − 11.547: below the paper, within the tolerance
		"r-in":            {true, 0.0577},  // |0.5 − 0.45| = 0.05 ≤ 0.0577
		"r-out":           {false, 0.0577}, // |0.5 − 0.56| = 0.06 (10% would be 0.056; 2·SE is larger)
		"r-tight":         {false, 0.01},   // the set-up's 0.01 is tighter
		"r-precision":     {true, 0.1},     // |0.4 − 0.3| = 0.1 ≤ the printed precision 0.1 (10% is 0.03, no spread)
	}
	vs := st.Verdicts()
	byID := map[string]Verdict{}
	for _, v := range vs {
		byID[v.ID] = v
		w, ok := want[v.ID]
		if !ok {
			continue
		}
		if v.Passed != w.pass || v.Tolerance == nil || math.Abs(*v.Tolerance-w.tol) > 1e-3*w.tol {
			t.Errorf("%s: passed %v tolerance %v, want %v %g\n  expected %s\n  observed %s", v.ID, v.Passed, deref(v.Tolerance), w.pass, w.tol, v.Expected, v.Observed)
		}
		if v.Paper == nil || v.ToleranceBasis == "" {
			t.Errorf("%s: paper %v, basis %q", v.ID, v.Paper, v.ToleranceBasis)
		}
	}
	if v := byID["v-mean"]; v.Ours == nil || *v.Ours != 70 || v.OursSD == nil || *v.OursSD != 5 {
		t.Errorf("v-mean: ours %v ± %v, want 70 ± 5", deref(v.Ours), deref(v.OursSD))
	}
	if b := byID["r-precision"].ToleranceBasis; !strings.HasPrefix(b, "the paper's printed precision") {
		t.Errorf("r-precision: basis %q", b)
	}
	if b := byID["v-under"].ToleranceBasis; !strings.HasPrefix(b, "2 × the standard error") || !strings.Contains(b, "over 3 seeds") {
		t.Errorf("v-under: basis %q", b)
	}
	if byID["both"].Passed || !byID["one"].Passed {
		t.Errorf("claims of parts: both %v (want false: v-over fails), one %v (want true)", byID["both"].Passed, byID["one"].Passed)
	}
	if s := summarize(vs); s != (VerdictSummary{Claims: 6, Passed: 3, Failed: 3, RequiredFailed: 4, Calibrated: 1, Exploration: 1, ExplorationPassed: 1, Details: 4, DetailsPassed: 3}) {
		t.Errorf("summary %+v", s)
	}

	// Quick mode runs x = 1 only: r-precision at x = 2 and the mean over
	// the sweep are n/a with their reason, and nothing else is.
	st.Quick = true
	st.Points = st.Points[:1]
	for _, v := range st.Verdicts() {
		if v.NotRun != (v.ID == "r-precision" || v.ID == "v-mean") || (v.NotRun && !strings.Contains(v.NA, "quick mode")) {
			t.Errorf("quick: %s not run %v (%q)", v.ID, v.NotRun, v.NA)
		}
	}
}

func deref(x *float64) any {
	if x == nil {
		return nil
	}
	return *x
}

const robustDoc = `{"name": "rob", "title": "over draws",
 "cluster": {"servers": [{"count": 1, "gpus": 8, "gpu_type": "V100"}]},
 "workload": {"jobs": [{"id": "a", "gpus": 1, "model": "x", "duration_s": 10}]},
 "policies": [{"name": "fifo", "label": "A"}, {"name": "sjf", "label": "B"}],
 "sweep": {"label": "draw", "values": [1, 2, 3, 4, 5], "params": ["engine.restart_s"]},
 "robustness": {"draws": "the restart cost", "headline": {"label": "A over B", "num": {"policy": "A", "metric": "avg_jct_s"}, "den": {"policy": "B", "metric": "avg_jct_s"}, "paper": 0.5},
   "claims": [{"check": "order", "claim": "fig/order"}]},
 "checks": [
  {"id": "order", "description": "A is faster", "kind": "order", "metric": "avg_jct_s", "policies": ["A", "B"]},
  {"id": "half", "description": "A takes half B's time", "kind": "ratio", "metric": "avg_jct_s", "num": {"policy": "A"}, "den": {"policy": "B"}, "paper": 0.5, "precision": 0.01}
 ]}`

// A robustness figure judges each check in every draw. A/B per draw: 0.5,
// 0.5, 1.5, 2, 3. "A is faster" holds in draws 1 and 2 only (2 of 5):
// it does not hold robustly. "A takes half" holds in the same 2 of 5.
// The headline's mean is 7.5/5 = 1.5; its 2.5th percentile lies between
// the two smallest (0.5), its 97.5th at 2 + 0.9·(3 − 2) = 2.9.
func TestRobustness(t *testing.T) {
	st := seededStudy(t, robustDoc, map[string][][]float64{
		"A": {{100}, {100}, {300}, {200}, {300}},
		"B": {{200}, {200}, {200}, {100}, {100}},
	})
	vs := st.Verdicts()
	for _, v := range vs {
		if v.Robust == nil || v.Robust.Held != 2 || v.Robust.Judged != 5 || v.Passed {
			t.Errorf("%s: robust %+v passed %v", v.ID, v.Robust, v.Passed)
			continue
		}
		if !strings.Contains(v.Why, NotRobust) || !strings.Contains(v.Observed, "fails in draws 3, 4, 5") {
			t.Errorf("%s: why %q, observed %q", v.ID, v.Why, v.Observed)
		}
	}
	if vs[0].Class != scenario.ClassRobustness || vs[0].Robust.Claim != "fig/order" || vs[1].Class != scenario.ClassClaim {
		t.Errorf("classes %s (%s), %s", vs[0].Class, vs[0].Robust.Claim, vs[1].Class)
	}
	r := st.RobustnessOutput()
	if r == nil || r.Mean == nil || math.Abs(*r.Mean-1.5) > 1e-12 || math.Abs(*r.Low-0.5) > 1e-12 || math.Abs(*r.High-2.9) > 1e-12 || len(r.Value) != 5 {
		t.Fatalf("headline %+v", r)
	}
	// Three draws of five: it holds robustly.
	st = seededStudy(t, robustDoc, map[string][][]float64{
		"A": {{100}, {100}, {100}, {200}, {300}},
		"B": {{200}, {200}, {200}, {100}, {100}},
	})
	if v := st.Verdicts()[0]; !v.Passed || v.Why != "" {
		t.Errorf("3 of 5 draws: passed %v, why %q", v.Passed, v.Why)
	}
	// Exactly half (2 of the first 4 draws) still holds.
	st.Points = st.Points[:4]
	st.Points[2].Report.Runs[0].Result.Jobs[0].FinishS = 300
	if v := st.Verdicts()[0]; !v.Passed || v.Robust.Held != 2 || v.Robust.Judged != 4 {
		t.Errorf("2 of 4 draws: passed %v, %+v", v.Passed, v.Robust)
	}
}

func TestPercentile(t *testing.T) {
	xs := []float64{4, 1, 3, 2} // sorted 1 2 3 4
	for _, tc := range []struct{ p, want float64 }{{0, 1}, {1, 4}, {0.5, 2.5}, {0.025, 1.075}, {0.975, 3.925}} {
		if got := Percentile(xs, tc.p); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("p %g: %g, want %g", tc.p, got, tc.want)
		}
	}
}

const pairedDoc = `{"name": "pr", "title": "paired seeds",
 "cluster": {"servers": [{"count": 1, "gpus": 8, "gpu_type": "V100"}]},
 "workload": {"jobs": [{"id": "a", "gpus": 1, "model": "x", "duration_s": 10}]},
 "policies": [{"name": "fifo", "label": "A"}, {"name": "sjf", "label": "B"}],
 "seeds": [1, 2, 3],
 "sweep": {"label": "load", "values": [1, 2], "params": ["engine.restart_s"]},
 "checks": [
  {"id": "r", "description": "", "kind": "ratio", "metric": "avg_jct_s", "x": 1, "num": {"policy": "A"}, "den": {"policy": "B"}, "paper": 1, "precision": 0.01},
  {"id": "r-mean", "description": "", "kind": "ratio", "metric": "avg_jct_s", "num": {"policy": "A", "mean_over_sweep": true}, "den": {"policy": "B", "mean_over_sweep": true}, "paper": 1, "precision": 0.01}
 ]}`

// A ratio of two policies run on the same seeds pairs the seeds. By hand:
// A = 20, 40, 90 s and B = 10, 20, 40 s on seeds 1-3, so R = 50/(70/3) =
// 15/7. The residuals A_i − R·B_i are −10/7, −20/7, 30/7 (SD 10/√7 =
// 3.7796), so the spread of R is 3.7796/(70/3) = 0.16198 and twice its
// standard error 2·0.16198/√3 = 0.18704: |15/7 − 1| = 1.14 fails. Taken as
// independent, the relative spreads 0.72111 and 0.65465 would give
// 15/7·0.97395 = 2.0870 and a tolerance of 2.4099 that passes anything.
// B's runs are listed in reverse, so pairing by position would be wrong.
func TestPairedRatioSpread(t *testing.T) {
	st := seededStudy(t, pairedDoc, map[string][][]float64{
		"A": {{20, 40, 90}, {20, 40, 90}},
		"B": {{10, 20, 40}, {10, 20, 40}},
	})
	for _, p := range st.Points {
		runs := p.Report.Runs
		slices.Reverse(runs[3:]) // B's seeds 3, 2, 1
	}
	byID := map[string]Verdict{}
	for _, v := range st.Verdicts() {
		byID[v.ID] = v
	}
	for _, id := range []string{"r", "r-mean"} {
		v := byID[id]
		if v.Passed || v.Ours == nil || math.Abs(*v.Ours-15.0/7) > 1e-9 ||
			v.OursSD == nil || math.Abs(*v.OursSD-0.16198) > 1e-4 ||
			v.Tolerance == nil || math.Abs(*v.Tolerance-0.18704) > 1e-4 {
			t.Errorf("%s: passed %v ours %v ± %v tolerance %v, want fail 2.1429 ± 0.16198 tolerance 0.18704", id, v.Passed, deref(v.Ours), deref(v.OursSD), deref(v.Tolerance))
		}
		if !strings.Contains(v.ToleranceBasis, "paired seed by seed") {
			t.Errorf("%s: basis %q does not say the seeds are paired", id, v.ToleranceBasis)
		}
	}
}

// Quantities without the same seeds cannot be paired: the relative
// spreads add in quadrature over the fewer seeds. A = 20, 40, 90 s; B =
// 10, 20 s (seeds 1 and 2): R = 50/15 = 3.3333 with relative spreads
// 0.72111 and 0.47140, so SD 3.3333·0.86153 = 2.8718 and twice the
// standard error over 2 seeds 2·2.8718/√2 = 4.0613.
func TestUnpairedRatioSpread(t *testing.T) {
	st := seededStudy(t, pairedDoc, map[string][][]float64{
		"A": {{20, 40, 90}, {20, 40, 90}},
		"B": {{10, 20}, {10, 20}},
	})
	for _, v := range st.Verdicts() {
		if v.ID != "r" {
			continue
		}
		if !v.Passed || v.Tolerance == nil || math.Abs(*v.Tolerance-4.0613) > 1e-3 || strings.Contains(v.ToleranceBasis, "paired") {
			t.Errorf("r: passed %v tolerance %v (%s), want pass with 4.0613, unpaired", v.Passed, deref(v.Tolerance), v.ToleranceBasis)
		}
	}
}
