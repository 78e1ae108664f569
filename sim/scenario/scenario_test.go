package scenario_test

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scenarios"
	_ "github.com/schedlab/schedlab/sim/policy/all"
	"github.com/schedlab/schedlab/sim/scenario"
)

func TestEmbeddedScenariosParseAndBuild(t *testing.T) {
	names := scenarios.Names()
	if len(names) < 3 {
		t.Fatalf("only %d embedded scenarios", len(names))
	}
	for _, n := range names {
		data, _ := scenarios.Read(n)
		sc, err := scenario.Parse(data)
		if err != nil {
			t.Errorf("%s: %v", n, err)
			continue
		}
		if sc.Name != n {
			t.Errorf("%s.json is named %q inside", n, sc.Name)
		}
		if sc.Description == "" || sc.Title == "" {
			t.Errorf("%s: needs a title and a description for the gallery", n)
		}
		in, err := sc.Build(sc.RunSeeds()[0])
		if err != nil {
			t.Errorf("%s: build: %v", n, err)
			continue
		}
		if len(in.Jobs) == 0 || in.Cluster.NumGPUs() == 0 {
			t.Errorf("%s: empty inputs", n)
		}
	}
	if _, ok := scenarios.Read(scenarios.Default); !ok {
		t.Fatalf("default scenario %q is not embedded", scenarios.Default)
	}
}

func TestThreeMistakesGiveThreeLines(t *testing.T) {
	doc := `{"name": "bad",
	  "cluster": {"servers": [{"count": 2, "gpus": 0, "gpu_type": "V100"}]},
	  "workload": {"jobs": [{"id": "j1", "arrival_s": 0, "gpus": 1, "model": "resnet50", "duration_s": 600, "priority": 2}]},
	  "policies": [{"name": "fifo"}, {"name": "lottery"}]}`
	_, err := scenario.Parse([]byte(doc))
	if err == nil {
		t.Fatal("accepted")
	}
	lines := strings.Split(err.Error(), "\n")
	want := []string{
		"cluster.servers[0].gpus: must be at least 1, got 0",
		"workload.jobs[0].priority: unknown field",
		`policies[1].name: unknown policy "lottery"`,
	}
	if len(lines) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(want), err)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) && !containsLine(lines, w) {
			t.Errorf("no line starting %q in:\n%s", w, err)
		}
	}
}

func containsLine(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

func TestProblems(t *testing.T) {
	base := func(workload, policies string) string {
		return `{"name":"x","cluster":{"servers":[{"count":1,"gpus":4,"gpu_type":"V100"}]},"workload":` + workload + `,"policies":` + policies + `}`
	}
	job := `{"id":"a","gpus":1,"model":"m","duration_s":10}`
	cases := []struct {
		name, doc, want string
	}{
		{"syntax", `{"name": }`, "line 1, column 10"},
		{"no workload", base(`{}`, `[{"name":"fifo"}]`), "workload: needs jobs or a generator"},
		{"both", base(`{"jobs":[`+job+`],"generator":{"kind":"poisson"}}`, `[{"name":"fifo"}]`), "workload: give either jobs or generator"},
		{"dup id", base(`{"jobs":[`+job+`,`+job+`]}`, `[{"name":"fifo"}]`), `workload.jobs[1].id: "a" is already the id of workload.jobs[0]`},
		{"no duration", base(`{"jobs":[{"id":"a","gpus":1,"model":"m"}]}`, `[{"name":"fifo"}]`), "workload.jobs[0].duration_s: is required by the constant perf model"},
		{"generator kind", base(`{"generator":{"kind":"philly"}}`, `[{"name":"fifo"}]`), `workload.generator.kind: unknown generator "philly"; known generators: gavel`},
		{"generator param", base(`{"generator":{"kind":"gavel","jobs":0,"jobz":3}}`, `[{"name":"fifo"}]`), `workload.generator.jobz: unknown field (did you mean "jobs"?)`},
		{"generator range", base(`{"generator":{"kind":"gavel","jobs":0}}`, `[{"name":"fifo"}]`), `workload.generator.jobs: must be at least 1, got 0`},
		{"policy param", base(`{"jobs":[`+job+`]}`, `[{"name":"sjf","params":{"key":"size"}}]`), `policies[0].params.key: must be one of duration, gpus, gpu_time, got "size"`},
		{"same label", base(`{"jobs":[`+job+`]}`, `[{"name":"fifo"},{"name":"fifo"}]`), `policies[1].label: policies[0] is also called "FIFO"`},
		{"no policies", base(`{"jobs":[`+job+`]}`, `[]`), "policies: must list at least one policy"},
		{"interference", `{"name":"x","cluster":{"servers":[{"count":1,"gpus":4,"gpu_type":"V100"}]},"workload":{"jobs":[` + job + `]},"policies":[{"name":"fifo"}],"perf":{"interference":{"models":["a","b"],"matrix":[[1,1],[1,0.5]]}}}`, "perf.interference.matrix[1][1]: must be a slowdown of at least 1, got 0.5"},
		{"perf model", `{"name":"x","cluster":{"servers":[{"count":1,"gpus":4,"gpu_type":"V100"}]},"workload":{"jobs":[` + job + `]},"policies":[{"name":"fifo"}],"perf":{"model":"magic"}}`, `perf.model: unknown perf model "magic"`},
		{"plots", `{"name":"x","cluster":{"servers":[{"count":1,"gpus":4,"gpu_type":"V100"}]},"workload":{"jobs":[` + job + `]},"policies":[{"name":"fifo"}],"plots":["shares","series:a/b","pie","series:"]}`, "plots[2]: unknown plot \"pie\"; known plots: jct_cdf, gantt, queue_by_model, shares, wait_by_model, series:NAME\nplots[3]: unknown plot \"series:\""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := scenario.Parse([]byte(tc.doc))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v\nwant it to contain %q", err, tc.want)
			}
		})
	}
}
