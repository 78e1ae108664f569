package scenario_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/scenario"
)

// withBatchPolicy is the registered policies and one that plans a batch
// under any perf model, to reach the check on built jobs (no registered
// one has that combination); it stays out of policy.Default.
var withBatchPolicy = func() *policy.Registry {
	reg := policy.Default.Clone()
	reg.Add(policy.Family[policy.NoParams]{
		Name: "test-batch-any-model", Title: "BATCH",
		New:      func(policy.NoParams) (engine.Policy, error) { return nil, fmt.Errorf("not for running") },
		Requires: policy.Requires{Batch: true},
	}.Factory())
	return reg
}()

func requiresDoc(perf, workload, pol string) string {
	return `{"name": "t", "cluster": {"servers": [{"count": 2, "gpus": 4, "gpu_type": "V100", "gpu_memory_gb": 11}]},
	  "perf": {"model": "` + perf + `"}, "workload": ` + workload + `, "policies": [{"name": "fifo"}, {"name": "` + pol + `"}]}`
}

// The validator refuses what a policy's registration says it cannot run,
// at the policy's name, with the reason; and accepts what it can.
func TestPolicyRequirements(t *testing.T) {
	rarJobs := func(second float64) string {
		return fmt.Sprintf(`{"jobs": [{"id": "a", "gpus": 2, "model": "rar", "duration_s": 100, "iterations": 4000},
		  {"id": "b", "arrival_s": %g, "gpus": 2, "model": "rar", "duration_s": 100, "iterations": 4000}]}`, second)
	}
	bco := func(rate int) string {
		return fmt.Sprintf(`{"generator": {"kind": "sjf-bco", "sizes": [{"gpus": 1, "count": 3}, {"gpus": 2, "count": 2}], "jobs_per_hour": %d}}`, rate)
	}
	testbed := func(gap int) string {
		return fmt.Sprintf(`{"generator": {"kind": "sjf-bsbf-testbed", "jobs": 4, "large_jobs": 0, "mean_gap_s": %d}}`, gap)
	}
	for _, c := range []struct {
		name, doc, want string // want "": accepted
	}{
		{"ojpp on analytic", requiresDoc("analytic", testbed(0), "ojpp"),
			`policies[1].name: OJPP works only with perf model memshare, but perf.model is "analytic"`},
		{"sjf-bco on analytic", requiresDoc("analytic", testbed(0), "sjf-bco"), "works only with perf model ring_allreduce"},
		{"sjf-bco, jobs at 0", requiresDoc("ring_allreduce", rarJobs(0), "sjf-bco"), ""},
		{"sjf-bco, a job later", requiresDoc("ring_allreduce", rarJobs(30), "sjf-bco"),
			`policies[1].name: SJF-BCO plans an offline batch and needs every job at time 0, but workload.jobs[1] ("b") arrives at 30 s`},
		{"sjf-bco, batch generator", requiresDoc("ring_allreduce", bco(0), "sjfbco-ls"), ""},
		{"sjf-bco, arrivals over time", requiresDoc("ring_allreduce", bco(10), "sjfbco-ls"),
			"policies[1].name: LS plans an offline batch and needs every job at time 0, but workload.generator makes arrivals over time (its jobs_per_hour is not 0)"},
		{"batch, built jobs at 0", requiresDoc("analytic", testbed(0), "test-batch-any-model"), ""},
		{"batch, built jobs later", requiresDoc("analytic", testbed(60), "test-batch-any-model"),
			"policies[1].name: BATCH plans an offline batch and needs every job at time 0, but workload.generator makes job"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := scenario.ParseWith(withBatchPolicy, []byte(c.doc))
			switch {
			case c.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case c.want != "" && err == nil:
				t.Errorf("accepted, want %q", c.want)
			case c.want != "" && !strings.Contains(err.Error(), c.want):
				t.Errorf("got %v\nwant %q", err, c.want)
			}
		})
	}
}

// What a policy needs is said in one sentence for the CLI and the page.
func TestNeeds(t *testing.T) {
	for name, want := range map[string]string{
		"sjf-bco":     "Needs perf model ring_allreduce; every job arriving at time 0 (it plans one offline batch).",
		"ojpp":        "Needs perf model memshare.",
		"gavel-allox": "Needs jobs of at most 1 GPU(s).",
		"fifo":        "",
	} {
		f, _ := policy.Lookup(name)
		if got := f.Needs(); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}
