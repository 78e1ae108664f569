package scenario_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/scenario"
)

func doc(cluster, workload, extra string) string {
	if cluster == "" {
		cluster = `{"servers": [{"count": 2, "gpus": 4, "gpu_type": "V100"}]}`
	}
	if workload == "" {
		workload = `{"jobs": [{"id": "a", "arrival_s": 0, "gpus": 1, "model": "m", "duration_s": 60}]}`
	}
	return fmt.Sprintf(`{"name": "x", "cluster": %s, "workload": %s, "policies": [{"name": "fifo"}]%s}`, cluster, workload, extra)
}

func poisson(jobs string) string {
	return `{"generator": {"kind": "poisson", "jobs": ` + jobs + `, "jobs_per_hour": 10, "gpu_mix": [{"gpus": 1, "weight": 1}],
	  "duration": {"dist": "fixed", "mean_s": 60}, "models": [{"model": "m", "weight": 1}]}}`
}

// Every limit is checked before anything is built, with the limit, the
// value and what to reduce.
func TestLimits(t *testing.T) {
	groups := make([]string, 100)
	for i := range groups {
		groups[i] = `{"count": 100000, "gpus": 64, "gpu_type": "V100"}`
	}
	sweep := func(n int) string {
		vs := make([]string, n)
		for i := range vs {
			vs[i] = fmt.Sprint(i + 1)
		}
		return `"sweep": {"label": "l", "values": [` + strings.Join(vs, ",") + `], "params": ["engine.restart_s"]}`
	}
	seeds := func(n int) string {
		vs := make([]string, n)
		for i := range vs {
			vs[i] = fmt.Sprint(i + 1)
		}
		return `"seeds": [` + strings.Join(vs, ",") + `]`
	}
	for _, c := range []struct{ name, doc, want string }{
		{"gpus", doc(`{"servers": [`+strings.Join(groups, ",")+`]}`, "", ""),
			"cluster.servers: the cluster has 640,000,000 GPUs (count × gpus summed over the server groups: 100,000 × 64 + 100,000 × 64 + 100,000 × 64 + 100,000 × 64 + ...), above the limit of 100,000 GPUs; reduce the count or gpus"},
		{"gpus just over", doc(`{"servers": [{"count": 1563, "gpus": 64, "gpu_type": "V100"}]}`, "", ""), "above the limit of 100,000 GPUs"},
		{"base_jobs × scale", doc("", `{"generator": {"kind": "sjf-bsbf-sim", "base_jobs": 1000000, "scale": 100}}`, ""),
			"workload.generator: makes 100,000,000 jobs (base_jobs × scale), above the limit of 1,000,000 jobs per run; reduce base_jobs × scale"},
		{"poisson over", doc("", poisson("10000000"), ""), "workload.generator.jobs: must be at most 1000000, got 10000000"},
		{"job records", doc("", poisson("1000000"), `, "seeds": [1, 2, 3]`),
			"seeds: asks for 3,000,000 job records over all runs (jobs × seeds × policies, summed over 1 sweep values), above the limit of 2,000,000"},
		{"runs", doc("", "", ", "+sweep(100)+", "+seeds(101)), "sweep.values: asks for 10,100 runs (100 sweep values × 101 seeds × 1 policies), above the limit of 10,000 runs"},
		{"sweep values", doc("", "", ", "+sweep(101)), "sweep.values: lists 101 values, above the limit of 100"},
		{"swept job count", doc("", poisson("1000"), `, "sweep": {"label": "l", "values": [1, 2000], "scale": ["workload.generator.jobs"]}`),
			"workload.generator.jobs: must be at most 1000000, got 2000000 (at sweep value 2000)"},
	} {
		_, err := scenario.Parse([]byte(c.doc))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v\nwant %q", c.name, err, c.want)
		}
	}
}

// The largest allowed sizes are accepted, and Size reports them before
// anything is built.
func TestLargestAllowed(t *testing.T) {
	sc, err := scenario.Parse([]byte(doc(`{"servers": [{"count": 1562, "gpus": 64, "gpu_type": "V100"}, {"count": 16, "gpus": 2, "gpu_type": "K80"}]}`, poisson("1000000"), `, "seeds": [1, 2]`)))
	if err != nil {
		t.Fatal(err)
	}
	s := sc.Size()
	if s.GPUs != scenario.Limits.MaxGPUs || s.Jobs != scenario.Limits.MaxJobs || s.JobRuns != scenario.Limits.MaxJobRuns || s.Runs != 2 {
		t.Fatalf("size %+v", s)
	}
	if s.EstimatedBytes < 2_000_000*1024 || s.EstimatedBytes > 8<<30 {
		t.Fatalf("estimate %d bytes", s.EstimatedBytes)
	}
}

// A sweep that writes a whole number in float form (1e+06) into an integer
// field is accepted; one that names a path that does not exist is refused
// with the path.
func TestSweepVariantsAreValidated(t *testing.T) {
	ok := doc("", poisson("10"), `, "sweep": {"label": "l", "values": [1, 1000000], "params": ["workload.generator.jobs"]}`)
	if _, err := scenario.Parse([]byte(ok)); err != nil {
		t.Fatalf("1e+06 into an integer field: %v", err)
	}
	for bad, want := range map[string]string{
		`"params": ["workload.generator.jobz"]`:  `workload.generator.jobz: unknown field (did you mean "jobs"?) (at sweep value 1)`,
		`"scale": ["workload.generator.count"]`:  "workload.generator.count: the sweep scales this path, but the scenario has no number there (at sweep value 1)",
		`"params": ["cluster.servers[3].count"]`: "cluster.servers[3].count: no element [3] (at sweep value 1)",
	} {
		_, err := scenario.Parse([]byte(doc("", poisson("10"), `, "sweep": {"label": "l", "values": [1, 2], `+bad+`}`)))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v\nwant %q", bad, err, want)
		}
	}
}

// A scenario over a memory budget gets a sentence that says what to
// reduce; one within it gets none.
func TestOverBudget(t *testing.T) {
	sc, err := scenario.Parse([]byte(doc("", poisson("1000000"), `, "seeds": [1, 2]`)))
	if err != nil {
		t.Fatal(err)
	}
	s := sc.Size()
	msg := s.OverBudget(1 << 30)
	if !strings.Contains(msg, "2,000,000 job records over 2 runs), more than the 1.0 GB available here; reduce the jobs, seeds, sweep values or policies") {
		t.Fatalf("over budget: %q", msg)
	}
	if m := s.OverBudget(s.EstimatedBytes); m != "" {
		t.Fatalf("within budget: %q", m)
	}
}
