package scenario_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/experiment"
	_ "github.com/schedlab/schedlab/sim/policy/all"
	"github.com/schedlab/schedlab/sim/scenario"
)

// FuzzParse checks that no document makes the parser panic, and that a
// document it accepts survives a round trip through JSON unchanged in
// meaning. The seed corpus (every embedded scenario plus broken variants)
// runs in every plain `go test`.
func FuzzParse(f *testing.F) {
	for _, n := range scenarios.Names() {
		data, _ := scenarios.Read(n)
		f.Add(data)
	}
	for _, doc := range []string{
		``, `null`, `[]`, `{}`, `{"name": }`, `{"name": "x", "cluster": {"servers": [{"count": 1e400}]}}`,
		`{"name":"x","cluster":{"servers":[{"count":1,"gpus":4,"gpu_type":"V100"}]},"workload":{"generator":{"kind":"gavel","jobs":-1}},"policies":[{"name":"fifo"}]}`,
		`{"name":"x","cluster":{"servers":[{"count":1,"gpus":4,"gpu_type":"V100"}]},"workload":{"jobs":[{"id":"a","gpus":1,"model":"m","duration_s":1}]},"policies":[{"name":"sjf","params":[1]}]}`,
		`{"name":"x","perf":{"interference":{"models":["a"],"matrix":[[]]}},"workload":{"generator":"poisson"}}`,
	} {
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := scenario.Parse(data)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		again, err := json.Marshal(sc)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		sc2, err := scenario.Parse(again)
		if err != nil {
			t.Fatalf("accepted %s\nbut not its round trip %s:\n%v", data, again, err)
		}
		if len(sc2.Policies) != len(sc.Policies) || sc2.Name != sc.Name || len(sc2.Workload.Jobs) != len(sc.Workload.Jobs) {
			t.Fatalf("round trip changed the scenario")
		}
	})
}

// FuzzValidate sets one JSON path of a working scenario to a random JSON
// value, the edits a user (or a sweep) makes: the validator must never
// panic, and whatever it accepts must build and run (briefly: a budget of
// events and a deadline) without a panic, within the limits it checked.
func FuzzValidate(f *testing.F) {
	base := []byte(`{"name": "f", "cluster": {"servers": [{"count": 2, "gpus": 4, "gpu_type": "V100", "gpu_memory_gb": 16}]},
	  "workload": {"jobs": [{"id": "a", "arrival_s": 0, "gpus": 1, "model": "resnet50", "duration_s": 60},
	                        {"id": "b", "arrival_s": 5, "gpus": 2, "model": "bert", "duration_s": 30, "memory_gb": 4}]},
	  "policies": [{"name": "fifo"}, {"name": "sjf"}], "engine": {"max_events": 20000}}`)
	sc, err := scenario.Parse(base)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []struct{ path, value string }{
		{"cluster.servers[0].count", "3"}, {"cluster.servers[0].gpus", "4.0"}, {"cluster.servers[0].count", "1e400"},
		{"workload.jobs[0].gpus", "8"}, {"workload.jobs[1].arrival_s", "-1"}, {"workload.jobs", `[]`},
		{"perf.interference.uniform", "1.5"}, {"engine.sharing_limit", "2"}, {"seeds", "[18446744073709551615]"},
		{"workload.generator", `{"kind": "poisson", "jobs": 50}`}, {"policies[1].name", `"tiresias"`},
		{"policies[0]", `{"name": "sjf-bsbf"}`}, {"perf.model", `"analytic"`}, {"measure.jobs_to", "2"},
		{"sweep", `{"label": "x", "values": [1, 2], "params": ["engine.restart_s"]}`}, {"name", `"\u001b[2J"`},
	} {
		f.Add(s.path, []byte(s.value))
	}
	f.Fuzz(func(t *testing.T, path string, value []byte) {
		v, err := sc.Variant(scenario.Assign{Param: path, Value: value})
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		size := v.Size()
		if size.GPUs > scenario.Limits.MaxGPUs || size.Jobs > scenario.Limits.MaxJobs {
			t.Fatalf("accepted a scenario over the limits: %+v", size)
		}
		if size.Jobs > 200 || size.GPUs > 4096 || size.Runs > 8 {
			return // valid but too big to run in a fuzz iteration
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if _, err := experiment.Execute(ctx, v, experiment.Options{Seeds: v.RunSeeds()[:1]}); err != nil && ctx.Err() == nil {
			if strings.Contains(err.Error(), "panic") {
				t.Fatalf("%s = %s: %v", path, value, err)
			}
		}
	})
}
