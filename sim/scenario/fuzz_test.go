package scenario_test

import (
	"encoding/json"
	"testing"

	"github.com/schedlab/schedlab/scenarios"
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
