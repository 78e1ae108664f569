//go:build unix

package experiment

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/scenario"
)

// stressed is a built-in scenario made heavy for one policy: a bigger
// cluster and many jobs arriving at once, so that every decision has
// thousands of jobs to plan.
type stressed struct {
	policy, base     string
	servers, jobs    int
	jobsKey, rateKey string
	rate             float64
	patch            func(gen map[string]any)
	// cancelAfter is how long into the run the cancel comes; zero is
	// one second.
	cancelAfter time.Duration
	// lightDecisions marks a policy whose decisions are quick: what must
	// stop there is the engine's loop, which looks at its context every
	// instant. The CPU a cancelled run of it still spends is the records
	// of every job, which Run returns with its error (0.04–0.32 s for
	// 250,000 jobs on one machine, most of it the first touch of fresh
	// memory, and above half a second under load), so the test counts
	// the instants it went through after the cancel instead of bounding
	// its CPU.
	lightDecisions bool
}

func (c stressed) scenario(t testing.TB) *scenario.Scenario {
	t.Helper()
	data, _ := scenarios.Read(c.base)
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"sweep", "reference", "checks", "quick", "seeds", "measure"} {
		delete(m, k)
	}
	for _, g := range m["cluster"].(map[string]any)["servers"].([]any) {
		g.(map[string]any)["count"] = c.servers
	}
	gen := m["workload"].(map[string]any)["generator"].(map[string]any)
	if c.jobsKey != "" {
		gen[c.jobsKey] = c.jobs
	}
	if c.patch != nil {
		c.patch(gen)
	}
	if c.rateKey != "" {
		gen[c.rateKey] = c.rate
	}
	m["policies"] = []any{map[string]any{"name": c.policy}}
	m["engine"] = map[string]any{"max_events": 1 << 40}
	doc, _ := json.Marshal(m)
	sc, err := scenario.Parse(doc)
	if err != nil {
		t.Fatalf("%s on %s: %v", c.policy, c.base, err)
	}
	return sc
}

// stressCases are runs whose single decisions are heavy.
var stressCases = []stressed{
	// Pollux re-divides 20,000 GPUs among thousands of jobs every minute.
	{policy: "pollux", base: "sjf-bsbf-table4", servers: 5000, jobs: 20000, jobsKey: "base_jobs", patch: func(gen map[string]any) { gen["window_h"] = 0.5 }},
	// Tiresias must still be running when the cancel comes: 120,000 jobs
	// once ended 40 ms after a cancel at one second on a quiet machine,
	// and as the engine got faster 250,000 took only about 2 s of CPU, so
	// it is cancelled at 0.3 s.
	{policy: "tiresias", base: "sjf-bsbf-table4", servers: 5000, jobs: 250000, jobsKey: "base_jobs", cancelAfter: 300 * time.Millisecond, lightDecisions: true},
	// One makespan LP of 5,000 jobs takes minutes.
	{policy: "gavel-makespan", base: "gavel-makespan", servers: 300, jobs: 5000, jobsKey: "jobs"},
	// Finish-time fairness bisects over many LPs a round.
	{policy: "gavel-ftf", base: "gavel-fig10-ftf-multi", servers: 300, jobs: 20000, jobsKey: "jobs", rateKey: "jobs_per_hour", rate: 10000},
	// AlloX matches 64 jobs to 900 GPU queues.
	{policy: "gavel-allox", base: "gavel-fig8-las-single", servers: 300, jobs: 20000, jobsKey: "jobs", rateKey: "jobs_per_hour", rate: 10000},
	{policy: "tesserae-ftf", base: "tesserae-fig13-ftf", servers: 500, jobs: 20000, jobsKey: "jobs", rateKey: "jobs_per_hour", rate: 10000},
	// SJF-BCO's bisection simulates the whole batch of 2,900 jobs per trial.
	{policy: "sjf-bco", base: "sjfbco-fig4", servers: 10, patch: func(gen map[string]any) {
		gen["sizes"] = []any{map[string]any{"gpus": 1, "count": 2000}, map[string]any{"gpus": 2, "count": 500}, map[string]any{"gpus": 4, "count": 300}, map[string]any{"gpus": 8, "count": 100}}
	}},
}

// cpuTime is the CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestCancelStopsHeavyRuns cancels runs whose single decisions are heavy
// (a round re-planning thousands of jobs, one LP of thousands of rows, a
// matching, a bisection of simulations) one second into the run (less
// where the whole run is short: stressed.cancelAfter): each must stop
// within half a second of CPU, the collector's work included. A run of
// quick decisions (stressed.lightDecisions) must instead end at the
// first instant after the cancel.
// The engine looked at its context every 4,096 events, and no policy in
// its decisions, so a cancelled Pollux run of 100,000 jobs went on for
// minutes, a Gavel makespan run of 5,000 jobs for 53 s of CPU.
func TestCancelStopsHeavyRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds runs of thousands of jobs")
	}
	if raceDetector {
		t.Skip("bounds CPU time, which the race detector multiplies")
	}
	for _, c := range stressCases {
		t.Run(c.policy, func(t *testing.T) {
			sc := c.scenario(t)
			in, err := sc.Build(sc.RunSeeds()[0])
			if err != nil {
				t.Fatal(err)
			}
			p, err := sc.NewPolicy(0)
			if err != nil {
				t.Fatal(err)
			}
			cfg := sc.EngineConfig(&scenario.Inputs{Cluster: in.Cluster, Jobs: in.Jobs, Perf: in.Perf}, p, 1)
			ctx, cancel := context.WithCancel(context.Background())
			var cpuAt time.Duration
			var at time.Time
			after := c.cancelAfter
			if after == 0 {
				after = time.Second
			}
			// Progress comes at the end of every instant, after the
			// engine's look at its context. Set after the cancel, seen
			// counts the reports from then on: at most the instant in
			// which it was set, and the run's last report (finalize's).
			var seen atomic.Bool
			var instantsAfter atomic.Int64
			cfg.ProgressEvery = 1
			cfg.Progress = func(engine.Progress) {
				if seen.Load() {
					instantsAfter.Add(1)
				}
			}
			timer := time.AfterFunc(after, func() { cpuAt, at = cpuTime(), time.Now(); cancel(); seen.Store(true) })
			_, err = simulate(ctx, &Run{}, cfg, nil)
			if timer.Stop() {
				t.Fatalf("the run ended within %v (%v): make it heavier", after, err)
			}
			cpu, wall := cpuTime()-cpuAt, time.Since(at)
			var ce *engine.CancelledError
			if !errors.Is(err, context.Canceled) || !errors.As(err, &ce) {
				t.Errorf("the run's error is %v, want a cancellation", err)
			}
			t.Logf("%s: stopped %v of CPU (%v of wall time, %d progress reports) after the cancel: %v", c.policy, cpu.Round(time.Millisecond), wall.Round(time.Millisecond), instantsAfter.Load(), err)
			if c.lightDecisions {
				if n := instantsAfter.Load(); n > 2 {
					t.Errorf("%s reported progress %d times after the cancel, want at most 2 (the instant of the cancel and the run's end)", c.policy, n)
				}
			} else if cpu > 500*time.Millisecond {
				t.Errorf("%s went on for %v of CPU after the cancel", c.policy, cpu)
			}
		})
	}
}
