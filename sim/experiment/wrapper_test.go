package experiment

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/scenario"
)

// A neutral interference block (every slowdown 1) wraps a scenario's perf
// model in a perf.Composite and must change nothing: the policies that
// plan with the memshare or ring-all-reduce model find it through the
// wrapper (perf.As), the engine still sees memshare's memory drift
// (perf.Timed) and ring-all-reduce's iteration splits (perf.Splitter).
// Before perf.As, OJPP failed at t = 0 ("needs the memshare perf model"),
// FIFO and SJF-FFS ran 120 events instead of 174 and 175 on ojpp-fig10
// (the drift's rate changes vanished), and SJF-BCO left out its Theorem 5
// log.
func TestNeutralInterferenceChangesNothing(t *testing.T) {
	for _, c := range []struct {
		scenario string
		policies []string
		want     map[string]string // a log entry each policy must write
	}{
		{"ojpp-fig10", []string{"ojpp", "ojpap", "fifo", "sjf-ffs"}, nil},
		{"sjfbco-fig4", []string{"sjf-bco", "sjfbco-ff"}, map[string]string{"sjf-bco": "Theorem 5"}},
	} {
		t.Run(c.scenario, func(t *testing.T) {
			data, _ := scenarios.Read(c.scenario)
			sc, err := scenario.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			if sc, err = sc.QuickVariant(); err != nil {
				t.Fatal(err)
			}
			specs := make([]map[string]string, len(c.policies))
			for i, p := range c.policies {
				specs[i] = map[string]string{"name": p}
			}
			list, _ := json.Marshal(specs)
			plain, err := sc.Variant(scenario.Assign{Param: "policies", Value: list}, scenario.Assign{Param: "checks", Value: json.RawMessage(`[]`)}, scenario.Assign{Param: "quick", Value: json.RawMessage(`null`)})
			if err != nil {
				t.Fatal(err)
			}
			neutral, err := plain.Variant(scenario.Assign{Param: "perf.interference", Value: json.RawMessage(`{"uniform": 1}`)})
			if err != nil {
				t.Fatal(err)
			}
			seed := sc.Seeds[0]
			in, err := neutral.Build(seed)
			if err != nil {
				t.Fatal(err)
			}
			if _, wrapped := in.Perf.(*perf.Composite); !wrapped {
				t.Fatalf("the interference block did not wrap the model: %T", in.Perf)
			}
			for i, name := range c.policies {
				a, b := runPolicy(t, plain, i, seed), runPolicy(t, neutral, i, seed)
				if a.Stats.Events != b.Stats.Events {
					t.Errorf("%s: %d events without the block, %d with it", name, a.Stats.Events, b.Stats.Events)
				}
				if !reflect.DeepEqual(a.Jobs, b.Jobs) || !reflect.DeepEqual(a.Splits, b.Splits) || !reflect.DeepEqual(a.Series, b.Series) {
					t.Errorf("%s: the job records, splits or series differ with the block", name)
				}
				if !engine.SameLog(a.Log, b.Log) {
					t.Errorf("%s: the decision log differs with the block (%d entries, then %d)", name, len(a.Log), len(b.Log))
				}
				if want := c.want[name]; want != "" && !slices.ContainsFunc(b.Log, func(d engine.Decision) bool { return strings.Contains(d.Msg(), want) }) {
					t.Errorf("%s: no log entry says %q with the block", name, want)
				}
				t.Logf("%s: %d events, %d splits", name, b.Stats.Events, len(b.Splits))
			}
		})
	}
}

// runPolicy runs policy i of sc on seed with every invariant checked.
func runPolicy(t *testing.T, sc *scenario.Scenario, i int, seed uint64) *engine.Result {
	t.Helper()
	in, err := sc.Build(seed)
	if err != nil {
		t.Fatal(err)
	}
	p, err := sc.NewPolicy(i)
	if err != nil {
		t.Fatal(err)
	}
	cfg := sc.EngineConfig(in, p, seed)
	cfg.Paranoid = true
	res, err := engine.Run(context.Background(), cfg)
	if err != nil {
		t.Fatalf("%s: %v", sc.Policies[i].Name, err)
	}
	return res
}
