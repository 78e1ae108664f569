package scenario_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/scenario"
)

type idle struct{ limit int }

func (idle) Options() engine.Options                      { return engine.Options{} }
func (idle) Decide(*engine.State, []engine.Trigger) error { return nil }

type idleParams struct {
	Limit int `json:"limit" min:"0" max:"9"`
}

// A scenario parsed with a registry of its own sees that registry's
// policies, its variants too, and the registered ones do not change.
func TestParseWithRegistry(t *testing.T) {
	reg := policy.Default.Clone()
	reg.Add(policy.Family[idleParams]{
		Name: "test-idle", Title: "Idle",
		Defaults: func() idleParams { return idleParams{Limit: 2} },
		New:      func(p idleParams) (engine.Policy, error) { return idle{p.Limit}, nil },
	}.Factory())
	doc := []byte(`{"name": "x", "cluster": {"servers": [{"count": 1, "gpus": 2, "gpu_type": "V100"}]},
	  "workload": {"jobs": [{"id": "a", "gpus": 1, "model": "m", "duration_s": 60}]},
	  "policies": [{"name": "test-idle", "params": {"limit": 5}}, {"name": "fifo"}], "seeds": [1, 2],
	  "quick": {"set": [{"param": "seeds", "value": [1]}]}}`)

	if _, err := scenario.Parse(doc); err == nil || !strings.Contains(err.Error(), `policies[0].name: unknown policy "test-idle"`) {
		t.Fatalf("the registered policies know test-idle: %v", err)
	}
	if _, ok := policy.Lookup("test-idle"); ok {
		t.Fatal("test-idle entered policy.Default")
	}
	sc, err := scenario.ParseWith(reg, doc)
	if err != nil {
		t.Fatal(err)
	}
	if got := sc.PolicyLabel(0); got != "Idle" {
		t.Errorf("label %q, want the registry's title Idle", got)
	}
	q, err := sc.QuickVariant()
	if err != nil {
		t.Fatal(err)
	}
	v, err := q.Variant(scenario.Assign{Param: "policies[0].params.limit", Value: json.RawMessage(`7`)})
	if err != nil {
		t.Fatalf("a variant lost the registry: %v", err)
	}
	p, err := v.NewPolicy(0)
	if err != nil || p.(idle).limit != 7 {
		t.Errorf("the variant's policy: %#v, %v", p, err)
	}
	if _, err := v.Variant(scenario.Assign{Param: "policies[0].params.limit", Value: json.RawMessage(`10`)}); err == nil || !strings.Contains(err.Error(), "policies[0].params.limit") {
		t.Errorf("the registry's parameter schema does not check variants: %v", err)
	}
}
