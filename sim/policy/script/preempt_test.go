//go:build !noscript

package script_test

import (
	"context"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/policy/script"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/sim/workload"
)

// preemptDoc is a loaded cluster where preemption matters: 400 jobs of 1
// to 8 GPUs with long-tailed run times on 32 GPUs of two types.
const preemptDoc = `{"name": "preempt", "cluster": {"servers": [{"count": 6, "gpus": 4, "gpu_type": "V100"}, {"count": 1, "gpus": 8, "gpu_type": "K80"}]},
	"workload": {"generator": {"kind": "poisson", "jobs": 400, "jobs_per_hour": 20,
		"gpu_mix": [{"gpus": 1, "weight": 0.5}, {"gpus": 2, "weight": 0.2}, {"gpus": 4, "weight": 0.2}, {"gpus": 8, "weight": 0.1}],
		"duration": {"dist": "lognormal", "mean_s": 3600, "sigma": 1.4, "min_s": 60}}},
	"perf": {"model": "constant", "params": {"type_speed": [{"gpu_type": "K80", "speed": 0.4}]}},
	"policies": [{"name": "fifo"}]}`

// records runs a policy on preemptDoc's jobs and returns its records.
func records(t *testing.T, p engine.Policy) []engine.JobRecord {
	t.Helper()
	sc, err := scenario.Parse([]byte(preemptDoc))
	if err != nil {
		t.Fatal(err)
	}
	in, err := sc.Build(1)
	if err != nil {
		t.Fatal(err)
	}
	cfg := sc.EngineConfig(in, p, 1)
	cfg.Paranoid = true
	res, err := engine.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return res.Jobs
}

// A preemptive priority script makes the decisions of the priority
// scheduler given the same key in Go: LAS (keys of waiting jobs kept
// from round to round) and shortest remaining GPU time (with the oracle),
// and an aging key that reads the time (every key recomputed).
func TestPreemptiveScriptIsPriorityScheduler(t *testing.T) {
	for _, c := range []struct {
		name, src string
		oracle    bool
		key       func(s *engine.State, id workload.JobID) float64
	}{
		{"las", "preempt = True\ndef priority(job, now):\n    return job.attained_gpu_s\n", false,
			func(s *engine.State, id workload.JobID) float64 { return s.Info(id).AttainedGPU }},
		{"srgt", "preempt = True\nround_s = 120\nrestart_s = 10\ndef priority(job, now):\n    return job.gpus * job.remaining_s\n", true,
			func(s *engine.State, id workload.JobID) float64 {
				j := s.Job(id)
				return float64(j.GPUs) * (policy.SoloDuration(s, id) * (s.Remaining(id) / j.Iterations))
			}},
		{"aging", "preempt = True\ndef priority(job, now):\n    return job.attained_gpu_s - (now - job.arrival_s) / 10\n", false,
			func(s *engine.State, id workload.JobID) float64 {
				return s.Info(id).AttainedGPU - (s.Now()-s.Job(id).ArrivalS)/10
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			pol, err := script.New(script.Params{Source: c.src, Oracle: c.oracle})
			if err != nil {
				t.Fatal(err)
			}
			roundS, restartS := 60.0, 30.0
			if c.name == "srgt" {
				roundS, restartS = 120, 10
			}
			ref := &policy.PriorityScheduler{Name: "ref", RoundS: roundS, RestartS: restartS,
				Priority: func(s *engine.State, id workload.JobID) (float64, error) { return c.key(s, id), nil }}
			got, want := records(t, pol), records(t, ref)
			sameJobs(t, c.name, want, got)
			preempted := 0
			for _, r := range got {
				preempted += r.Preemptions
			}
			if preempted == 0 {
				t.Error("no job was preempted: the comparison shows little")
			}
			t.Logf("%d preemptions", preempted)
		})
	}
}

// A preemptive script's runtime error names the line and the job.
func TestPreemptiveErrorNamesJob(t *testing.T) {
	src := "preempt = True\ndef priority(job, now):\n    if job.attained_s > 0:\n        return job.nothing\n    return 0\n"
	pol, err := script.New(script.Params{Source: src})
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := scenario.Parse([]byte(preemptDoc))
	in, _ := sc.Build(1)
	_, err = engine.Run(context.Background(), sc.EngineConfig(in, pol, 1))
	if err == nil || !strings.Contains(err.Error(), "script: the priority of job j") || !strings.Contains(err.Error(), "script line 4 (the priority of job j") || !strings.HasSuffix(err.Error(), "): job has no .nothing field or method") {
		t.Errorf("got %v", err)
	}
}
