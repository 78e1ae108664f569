package scenario_test

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/scenario"
)

func keyDoc(name, policies, checks string) string {
	return `{"name": "` + name + `", "title": "FIFO and SJF against load",
	 "cluster": {"servers": [{"count": 2, "gpus": 4, "gpu_type": "V100"}]},
	 "workload": {"generator": {"kind": "poisson", "jobs": 60, "jobs_per_hour": 20,
	   "gpu_mix": [{"gpus": 1, "weight": 3}, {"gpus": 4, "weight": 1}],
	   "duration": {"dist": "lognormal", "mean_s": 1800, "sigma": 1.2},
	   "models": [{"model": "m", "weight": 2}, {"model": "n", "weight": 1}]}},
	 "policies": ` + policies + `,
	 "seeds": [1, 2],
	 "measure": {"jobs_from": 10, "jobs_to": 50},
	 "sweep": {"label": "load", "values": [0.5, 1, 2], "scale": ["workload.generator.jobs_per_hour"]},
	 "checks": ` + checks + `}`
}

// TestRunKey: runs with the same inputs, engine, window and decoded
// policy parameters have one key, whatever the scenario's name, labels
// and checks; any change to what runs changes it.
func TestRunKey(t *testing.T) {
	key := func(doc string, i int, seed uint64) string {
		sc, err := scenario.Parse([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		return sc.RunKey(i, seed)
	}
	base := keyDoc("a", `[{"name": "sjf"}, {"name": "fifo"}]`, `[]`)
	k := key(base, 0, 1)
	for _, c := range []struct {
		what string
		doc  string
		i    int
		seed uint64
		same bool
	}{
		{"another name, label and checks", keyDoc("b", `[{"name": "fifo", "label": "x"}, {"name": "sjf", "label": "y"}]`, `[{"id": "g", "description": "d", "kind": "trend", "metric": "avg_jct_s", "num": {"policy": "y"}, "direction": "increasing"}]`), 1, 1, true},
		{"defaults spelled out", keyDoc("a", `[{"name": "sjf", "params": {"backfill": true}}]`, `[]`), 0, 1, true},
		{"another seed", base, 0, 2, false},
		{"another policy", base, 1, 1, false},
		{"another parameter", keyDoc("a", `[{"name": "sjf", "params": {"backfill": false}}]`, `[]`), 0, 1, false},
		{"another window", strings.Replace(base, `"jobs_to": 50`, `"jobs_to": 40`, 1), 0, 1, false},
		{"another cluster", strings.Replace(base, `"count": 2`, `"count": 3`, 1), 0, 1, false},
		{"another load", strings.Replace(base, `"jobs_per_hour": 20`, `"jobs_per_hour": 21`, 1), 0, 1, false},
	} {
		if got := key(c.doc, c.i, c.seed); (got == k) != c.same || got == "" {
			t.Errorf("%s: same key %v, want %v", c.what, got == k, c.same)
		}
	}
}
