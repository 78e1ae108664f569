package experiment

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/scenario"
)

const everyRunDoc = `{"name": "e", "title": "a bound on every run",
 "cluster": {"servers": [{"count": 1, "gpus": 8, "gpu_type": "V100"}]},
 "workload": {"jobs": [{"id": "a", "gpus": 1, "model": "x", "duration_s": 10}]},
 "policies": [{"name": "fifo", "label": "A"}, {"name": "sjf", "label": "B"}],
 "seeds": [1, 2, 3],
 "sweep": {"label": "load", "values": [1, 2], "params": ["engine.restart_s"]},
 "reference": {"source": "made up", "unit": "s", "values": []},
 "checks": [
  {"id": "loose", "description": "", "kind": "value", "metric": "avg_jct_s", "of": {"policy": "A", "every_run": true}, "max": 110,
   "show": [{"policy": "B"}, {}]},
  {"id": "tight", "description": "", "kind": "value", "metric": "avg_jct_s", "of": {"policy": "A", "every_run": true}, "max": 105}
 ]}`

// A quantity over every run is the largest run's value, not the mean:
// A's runs are 90, 100, 110 s at load 1 and 30, 40, 50 s at load 2, so
// every mean (100 and 40) is under 105 but one run (110) is not: "tight"
// fails and "loose" (at most 110) holds. Its shown quantities print their
// range over the six runs: B 200–220 s, A 30–110 s.
func TestEveryRun(t *testing.T) {
	st := seededStudy(t, everyRunDoc, map[string][][]float64{
		"A": {{90, 100, 110}, {30, 40, 50}},
		"B": {{200, 200, 220}, {210, 200, 200}},
	})
	v := st.Value(scenario.Quantity{Policy: "A", Metric: "avg_jct_s", EveryRun: true})
	if v.Err != nil || v.Mean != 110 || v.Min != 30 || v.Max != 110 || v.N != 6 {
		t.Fatalf("every run: %+v, want largest 110, range 30–110 over 6 runs", v)
	}
	vs := st.Verdicts()
	if !vs[0].Passed || vs[1].Passed {
		t.Errorf("loose passed %v (want true), tight passed %v (want false)", vs[0].Passed, vs[1].Passed)
	}
	if want := "over 6 runs: B avg_jct_s 200 s–220 s, A avg_jct_s 30 s–110 s"; !strings.Contains(vs[0].Observed, want) {
		t.Errorf("observed %q lacks %q", vs[0].Observed, want)
	}
	if !strings.Contains(vs[1].Observed, "(largest over every run) = 110 s") {
		t.Errorf("observed %q does not name the largest run", vs[1].Observed)
	}
}

// every_run names no sweep value, and a detail of another scenario's
// claim names it as scenario-name/check-id.
func TestEveryRunAndDetailOfValidation(t *testing.T) {
	for _, tc := range []struct{ from, to, want string }{
		{`"of": {"policy": "A", "every_run": true}`, `"of": {"policy": "A", "every_run": true, "x": 1}`, "every_run"},
		{`"max": 105}`, `"max": 105, "detail_of": "e/loose"}`, "another scenario"},
		{`"max": 105}`, `"max": 105, "detail_of": "/loose"}`, "scenario-name/check-id"},
	} {
		doc := strings.Replace(everyRunDoc, tc.from, tc.to, 1)
		if doc == everyRunDoc {
			t.Fatalf("%q not in the document", tc.from)
		}
		if _, err := scenario.Parse([]byte(doc)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one about %q", tc.to, err, tc.want)
		}
	}
	doc := strings.Replace(everyRunDoc, `"max": 105}`, `"max": 105, "detail_of": "other/claim"}`, 1)
	sc, err := scenario.Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if c := &sc.Checks[1]; sc.Class(c) != scenario.ClassDetail {
		t.Errorf("a detail of another scenario's claim is %s", sc.Class(c))
	}
}

// Every built-in detail of another scenario's claim names a check of
// that scenario that is counted as a claim, so the claim is counted once.
func TestDetailsOfOtherScenarios(t *testing.T) {
	n := 0
	for _, name := range scenarios.Names() {
		data, _ := scenarios.Read(name)
		sc, err := scenario.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, c := range sc.Checks {
			other, id, ok := strings.Cut(c.DetailOf, "/")
			if !ok {
				continue
			}
			n++
			data, found := scenarios.Read(other)
			if !found {
				t.Errorf("%s/%s: no scenario %q", name, c.ID, other)
				continue
			}
			osc, err := scenario.Parse(data)
			if err != nil {
				t.Fatalf("%s: %v", other, err)
			}
			var claim *scenario.Check
			for i := range osc.Checks {
				if osc.Checks[i].ID == id {
					claim = &osc.Checks[i]
				}
			}
			if claim == nil || osc.Class(claim) != scenario.ClassClaim {
				t.Errorf("%s/%s: %s is not a claim", name, c.ID, c.DetailOf)
			}
		}
	}
	if n == 0 {
		t.Error("no built-in check details another scenario's claim")
	}
}
