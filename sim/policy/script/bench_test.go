//go:build !noscript

package script_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/policy/script"
	"github.com/schedlab/schedlab/sim/scenario"
)

// benchDoc is a Poisson workload of n jobs on 64 GPUs at about 90% load,
// with the given policy.
func benchDoc(n int, pol map[string]any) []byte {
	p, _ := json.Marshal([]any{pol})
	return []byte(fmt.Sprintf(`{"name": "bench", "cluster": {"servers": [{"count": 16, "gpus": 4, "gpu_type": "V100"}]},
		"workload": {"generator": {"kind": "poisson", "jobs": %d, "jobs_per_hour": 30,
			"gpu_mix": [{"gpus": 1, "weight": 0.5}, {"gpus": 2, "weight": 0.2}, {"gpus": 4, "weight": 0.2}, {"gpus": 8, "weight": 0.1}],
			"duration": {"dist": "lognormal", "mean_s": 3000, "sigma": 1.0, "min_s": 60}}},
		"policies": %s}`, n, p))
}

func benchRun(b *testing.B, doc []byte) {
	sc, err := scenario.Parse(doc)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	c0, ok := cpuTime()
	for b.Loop() {
		rep, err := experiment.Execute(context.Background(), sc, experiment.Options{Workers: 1, Lean: true})
		if err != nil {
			b.Fatal(err)
		}
		if e := rep.Runs[0].Err; e != nil {
			b.Fatal(e)
		}
	}
	if c1, _ := cpuTime(); ok {
		// the CPU time, which a machine shared with other work does not
		// inflate as it does the wall time
		b.ReportMetric(float64(c1-c0)/1e6/float64(b.N), "cpu-ms/op")
	}
}

// 10,000 jobs: the built-in SJF against the same order as a priority
// script, against a script whose key reads the time (recomputed for
// every waiting job at every decision).
func BenchmarkPriority10k(b *testing.B) {
	for _, c := range []struct {
		name string
		pol  map[string]any
	}{
		{"sjf", map[string]any{"name": "sjf"}},
		{"script-solo", map[string]any{"name": "script", "params": map[string]any{"source": "def priority(job, now):\n    return job.solo_s\n"}}},
		{"script-aging", map[string]any{"name": "script", "params": map[string]any{"source": "def priority(job, now):\n    return job.solo_s - job.waited_s\n"}}},
	} {
		b.Run(c.name, func(b *testing.B) { benchRun(b, benchDoc(10_000, c.pol)) })
	}
}

// The decide examples on growing workloads: how large a scenario a
// decide script runs in seconds.
func BenchmarkDecide(b *testing.B) {
	for _, name := range []string{"las-decide", "fairshare"} {
		var ex script.Example
		for _, e := range script.Examples {
			if e.Name == name {
				ex = e
			}
		}
		for _, n := range []int{1000, 4000, 16000} {
			b.Run(fmt.Sprintf("%s-%d", name, n), func(b *testing.B) {
				benchRun(b, benchDoc(n, map[string]any{"name": "script", "params": ex.Params()}))
			})
		}
	}
}
