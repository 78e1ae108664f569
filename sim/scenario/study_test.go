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
		{"ratio without bounds", edit(func(m map[string]any) { delete(check(1, m), "max") }), "checks[1]: a ratio needs a target, a min or a max"},
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
