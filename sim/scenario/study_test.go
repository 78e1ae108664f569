package scenario_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/scenario"
)

const studyDoc = `{"name": "s",
 "cluster": {"servers": [{"count": 2, "gpus": 4, "gpu_type": "V100"}]},
 "workload": {"generator": {"kind": "poisson", "jobs": 40, "jobs_per_hour": 10,
   "gpu_mix": [{"gpus": 1, "weight": 1}], "duration": {"dist": "exponential", "mean_s": 600},
   "models": [{"model": "m", "weight": 1}]}},
 "policies": [{"name": "fifo"}, {"name": "sjf"}],
 "measure": {"jobs_from": 10, "jobs_to": 30},
 "sweep": {"label": "load", "values": [1, 1.5, 2], "params": ["perf.interference.uniform"], "scale": ["workload.generator.jobs", "workload.generator.jobs_per_hour"]},
 "reference": {"source": "made up", "unit": "h", "values": [{"policy": "SJF", "metric": "avg_jct_s", "x": 1, "value": 0.5}]},
 "checks": [
   {"id": "o", "description": "SJF first", "kind": "order", "metric": "avg_jct_s", "policies": ["SJF", "FIFO"], "tolerance": 0.05},
   {"id": "r", "description": "ratio", "kind": "ratio", "metric": "avg_jct_s", "x": 2, "num": {"policy": "SJF"}, "den": {"policy": "FIFO"}, "max": 1.05},
   {"id": "t", "description": "trend", "kind": "trend", "metric": "avg_jct_s", "num": {"policy": "FIFO"}, "direction": "non-decreasing"}
 ],
 "quick": {"seeds": [1], "values": [1], "checks": ["o"], "set": [{"param": "workload.generator.jobs", "value": 25}, {"param": "measure.jobs_to", "value": 20}]}}`

func TestSweepVariants(t *testing.T) {
	sc, err := scenario.Parse([]byte(studyDoc))
	if err != nil {
		t.Fatal(err)
	}
	v, err := sc.SweepVariant(2)
	if err != nil {
		t.Fatal(err)
	}
	in, err := v.Build(1)
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Jobs) != 80 || v.Perf.Interference == nil || v.Perf.Interference.Uniform != 2 {
		t.Fatalf("variant at 2: %d jobs, interference %+v", len(in.Jobs), v.Perf.Interference)
	}
	mid, err := sc.SweepVariant(1.5)
	if err != nil {
		t.Fatal(err)
	}
	if in, _ := mid.Build(1); len(in.Jobs) != 60 || mid.Perf.Interference.Uniform != 1.5 {
		t.Fatalf("variant at 1.5 has %d jobs", len(in.Jobs))
	}
	if w := sc.Window(); w.From != 10 || w.To != 30 {
		t.Fatalf("window %+v", w)
	}
	// A quick version of 25 jobs that keeps the window's end at 30 is
	// refused by the validator, with the field named, before any run.
	bad := strings.Replace(studyDoc, `, {"param": "measure.jobs_to", "value": 20}`, "", 1)
	if _, err := scenario.Parse([]byte(bad)); err == nil || !strings.Contains(err.Error(), "measure.jobs_to: is 30 but the workload has only 25 jobs") {
		t.Fatalf("window beyond the jobs: %v", err)
	}
}

func TestStudyProblems(t *testing.T) {
	edit := func(f func(m map[string]any)) string {
		var m map[string]any
		if err := json.Unmarshal([]byte(studyDoc), &m); err != nil {
			t.Fatal(err)
		}
		f(m)
		b, _ := json.Marshal(m)
		return string(b)
	}
	check := func(i int, m map[string]any) map[string]any {
		return m["checks"].([]any)[i].(map[string]any)
	}
	cases := []struct {
		name string
		doc  string
		want string
	}{
		{"unknown policy", edit(func(m map[string]any) { check(0, m)["policies"] = []any{"SJF", "Pollux"} }), `checks[0].policy: no policy is labelled "Pollux"`},
		{"unknown metric", edit(func(m map[string]any) { check(1, m)["metric"] = "avg_jtc_s" }), `checks[1].num.metric: unknown metric "avg_jtc_s"`},
		{"x not swept", edit(func(m map[string]any) { check(1, m)["x"] = 3 }), "checks[1].num.x: 3 is not a sweep value"},
		{"dup id", edit(func(m map[string]any) { check(1, m)["id"] = "o" }), `checks[1].id: "o" is used twice`},
		{"quick id", edit(func(m map[string]any) { m["quick"].(map[string]any)["checks"] = []any{"zz"} }), `quick.checks[0]: no check has the id "zz"`},
		{"window", edit(func(m map[string]any) { m["measure"].(map[string]any)["jobs_to"] = 5 }), "measure.jobs_to: must be above jobs_from (10), got 5"},
		{"bad sweep order", edit(func(m map[string]any) { m["sweep"].(map[string]any)["values"] = []any{1, 0.5} }), "sweep.values[1]: values must increase"},
		{"calibrated in quick", edit(func(m map[string]any) {
			check(0, m)["calibrated"] = true
			m["quick"].(map[string]any)["checks"] = []any{check(0, m)["id"]}
		}), `quick.checks[0]: check "o" is calibrated and cannot be required`},
		{"sweep ratio policy", edit(func(m map[string]any) {
			m["sweep"].(map[string]any)["ratios"] = []any{map[string]any{"num": "SJF", "den": "Nope"}}
		}), `sweep.ratios[0].den: no policy is labelled "Nope"`},
		{"ratio without bounds", edit(func(m map[string]any) { delete(check(1, m), "max") }), "checks[1]: a ratio needs the paper's number (paper), or a target, a min or a max"},
		{"paper without precision", edit(func(m map[string]any) { delete(check(1, m), "max"); check(1, m)["paper"] = 0.8 }), "checks[1].precision: is required with paper"},
		{"paper with a band", edit(func(m map[string]any) { check(1, m)["paper"] = 0.8; check(1, m)["precision"] = 0.01 }), "checks[1].max: cannot be combined with paper"},
		{"paper on an order", edit(func(m map[string]any) { check(0, m)["paper"] = 0.8; check(0, m)["precision"] = 0.01 }), "checks[0].paper: only a value or a ratio check compares with the paper's number, not a order"},
		{"bound without paper", edit(func(m map[string]any) { check(1, m)["bound"] = "at least" }), "checks[1].bound: is only used with the paper's number (paper)"},
		{"bad bound", edit(func(m map[string]any) {
			delete(check(1, m), "max")
			check(1, m)["paper"], check(1, m)["precision"], check(1, m)["bound"] = 0.8, 0.01, "about"
		}), "checks[1].bound"},
		{"detail of nothing", edit(func(m map[string]any) { check(2, m)["detail_of"] = "zz" }), `checks[2].detail_of: no check has the id "zz"`},
		{"detail of a detail", edit(func(m map[string]any) { check(1, m)["detail_of"] = "o"; check(2, m)["detail_of"] = "r" }), `checks[2].detail_of: "r" is itself a detail`},
		{"part not a detail", edit(func(m map[string]any) {
			m["checks"] = append(m["checks"].([]any), map[string]any{"id": "a", "description": "both", "kind": "all", "checks": []any{"o", "r"}})
			check(0, m)["detail_of"] = "a"
		}), `checks[3].checks[1]: check "r" must be a detail of this claim`},
		{"all without parts", edit(func(m map[string]any) {
			m["checks"] = append(m["checks"].([]any), map[string]any{"id": "a", "description": "both", "kind": "all"})
		}), "checks[3].checks: a claim made of parts names at least one check"},
		{"robustness check names x", edit(func(m map[string]any) {
			m["robustness"] = map[string]any{"draws": "the rates", "headline": map[string]any{"label": "JCT", "of": map[string]any{"policy": "SJF", "metric": "avg_jct_s"}}}
		}), "checks[1].x: a robustness figure judges each check in every draw"},
		{"robustness headline", edit(func(m map[string]any) {
			delete(check(1, m), "x")
			m["robustness"] = map[string]any{"draws": "the rates", "headline": map[string]any{"label": "JCT"}, "claims": []any{map[string]any{"check": "r", "claim": "other"}}}
		}), "robustness.headline: needs of, or num and den"},
		{"robustness claim form", edit(func(m map[string]any) {
			delete(check(1, m), "x")
			m["robustness"] = map[string]any{"draws": "the rates", "headline": map[string]any{"label": "JCT", "of": map[string]any{"policy": "SJF", "metric": "avg_jct_s"}}, "claims": []any{map[string]any{"check": "r", "claim": "other"}}}
		}), `robustness.claims[0].claim: must be scenario-name/check-id, got "other"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := scenario.Parse([]byte(c.doc))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v\nwant %q", err, c.want)
			}
		})
	}
}

func TestWithPolicyKeepsLabelAndDropsChecks(t *testing.T) {
	sc, err := scenario.Parse([]byte(studyDoc))
	if err != nil {
		t.Fatal(err)
	}
	one, err := sc.WithPolicy(1)
	if err != nil {
		t.Fatal(err)
	}
	if len(one.Policies) != 1 || one.PolicyLabel(0) != "SJF" || one.Reference != nil || len(one.Checks) != 0 || one.Quick != nil {
		t.Fatalf("reduced scenario: %+v", one.Policies)
	}
	if one.Sweep == nil || one.Window() != sc.Window() {
		t.Fatal("the sweep and the measured window must stay")
	}
	if _, err := sc.WithPolicy(2); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Fatalf("index 2: %v", err)
	}
}

func TestBaseSweepValue(t *testing.T) {
	sweep := func(s string) string {
		return strings.Replace(studyDoc, `"params": ["perf.interference.uniform"], "scale": ["workload.generator.jobs", "workload.generator.jobs_per_hour"]`, s, 1)
	}
	for _, tc := range []struct {
		name string
		doc  string
		x    float64
		ok   bool
	}{
		{"parameter missing from the document", studyDoc, 0, false},
		{"parameter in the document", sweep(`"params": ["workload.generator.jobs_per_hour"]`), 10, true},
		{"scale only", sweep(`"scale": ["workload.generator.jobs"]`), 1, true},
		{"no sweep", `{"name": "s", "cluster": {"servers": [{"count": 1, "gpus": 1, "gpu_type": "V100"}]},
		  "workload": {"jobs": [{"id": "a", "model": "m", "gpus": 1, "duration_s": 1}]}, "policies": [{"name": "fifo"}]}`, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := scenario.Parse([]byte(tc.doc))
			if err != nil {
				t.Fatal(err)
			}
			x, ok := sc.BaseSweepValue()
			if x != tc.x || ok != tc.ok {
				t.Errorf("got %g, %v; want %g, %v", x, ok, tc.x, tc.ok)
			}
		})
	}
}

// The tolerance of a check on the paper's number is the largest of the
// printed precision, twice the standard error and 10% of the number,
// unless the paper's set-up names a tighter one; values by hand.
func TestToleranceRule(t *testing.T) {
	f := func(x float64) *float64 { return &x }
	for _, tc := range []struct {
		paper, precision, twoSE float64
		tight                   *float64
		want                    float64
		basis                   string
	}{
		{3.029, 0.001, 0.05, nil, 0.3029, "10% of the paper's number"},
		{-7.8, 0.1, 0.3, nil, 0.78, "10% of the paper's number"},
		{0.05, 0.01, 0.002, nil, 0.01, "the paper's printed precision"},
		{2.0, 0.1, 0.5, nil, 0.5, "2 × the standard error of our mean"},
		{2.0, 0.1, 0.5, f(0.05), 0.05, "the tighter tolerance set for this claim"},
		{2.0, 0.1, 0.05, f(1.0), 0.2, "10% of the paper's number"}, // a looser one is not used
	} {
		c := scenario.Check{Paper: &tc.paper, Precision: tc.precision, TightTolerance: tc.tight}
		got, basis := c.ToleranceFor(tc.twoSE)
		if diff := got - tc.want; diff > 1e-12 || diff < -1e-12 || basis != tc.basis {
			t.Errorf("paper %g precision %g 2SE %g: %g (%s), want %g (%s)", tc.paper, tc.precision, tc.twoSE, got, basis, tc.want, tc.basis)
		}
	}
}

// A claim made of parts, a paper number with a one-sided bound and an
// exploration check parse, and each check gets its class.
func TestCheckClasses(t *testing.T) {
	doc := strings.Replace(studyDoc, `{"id": "t", "description": "trend", "kind": "trend", "metric": "avg_jct_s", "num": {"policy": "FIFO"}, "direction": "non-decreasing"}`,
		`{"id": "t", "description": "trend", "kind": "trend", "metric": "avg_jct_s", "num": {"policy": "FIFO"}, "direction": "non-decreasing", "detail_of": "both"},
		 {"id": "both", "description": "both", "kind": "all", "checks": ["t"]},
		 {"id": "p", "description": "at least", "kind": "value", "metric": "avg_jct_s", "x": 1, "of": {"policy": "SJF"}, "paper": 0.4, "precision": 0.01, "bound": "at least", "exploration": "a load the paper does not run"},
		 {"id": "c", "description": "tuned", "kind": "value", "metric": "avg_jct_s", "x": 1, "of": {"policy": "SJF"}, "paper": 0.4, "precision": 0.01, "calibrated": true, "exploration": "both"}`, 1)
	sc, err := scenario.Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"o": "claim", "r": "claim", "t": "detail", "both": "claim", "p": "exploration", "c": "calibrated"}
	for i := range sc.Checks {
		c := &sc.Checks[i]
		if got := sc.Class(c); got != want[c.ID] {
			t.Errorf("%s: class %s, want %s", c.ID, got, want[c.ID])
		}
	}
	sc.Exploration = "a setting of ours"
	if got := sc.Class(&sc.Checks[0]); got != "exploration" {
		t.Errorf("in an exploration scenario a claim is %s", got)
	}
}
