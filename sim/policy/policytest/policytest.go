// Package policytest runs a policy in the engine for its tests, on a small
// cluster with every engine invariant checked after each instant, and
// asserts when jobs start and finish and what the decision log says. It is
// what each policy family's tests used to copy: make the cluster, finish
// the jobs, prepare them for the perf model, run, fail on any error.
package policytest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/internal/approx"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

// Servers returns a cluster of count servers of gpus GPUs of gpuType, with
// memGB of memory each (0: memory is not checked).
func Servers(t testing.TB, count, gpus int, gpuType string, memGB float64) *cluster.Cluster {
	t.Helper()
	return Cluster(t, cluster.Spec{Servers: []cluster.ServerGroup{{Count: count, GPUs: gpus, GPUType: gpuType, GPUMemoryGB: memGB}}})
}

// Cluster returns the cluster of spec.
func Cluster(t testing.TB, spec cluster.Spec) *cluster.Cluster {
	t.Helper()
	c, err := cluster.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Option changes the engine's configuration of a run: its seed, budgets,
// overheads, a believed model, the size of its log.
type Option func(*engine.Config)

// Seed runs with seed s.
func Seed(s uint64) Option { return func(c *engine.Config) { c.Seed = s } }

// Budgets runs with budgets b.
func Budgets(b engine.Budgets) Option { return func(c *engine.Config) { c.Budgets = b } }

// FullLog keeps every decision-log entry (the engine keeps the first
// 100,000 otherwise).
func FullLog() Option { return func(c *engine.Config) { c.MaxLogEntries = 1 << 30 } }

// Bench runs as benchmarks do: invariants checked per action only, no
// decision log.
func Bench() Option { return func(c *engine.Config) { c.Paranoid, c.NoLog = false, true } }

// Result is a run's records, with assertions on them that report to the
// test that made the run.
type Result struct {
	*engine.Result
	// Input is the jobs as the engine ran them: finalized (sorted by
	// arrival, IDs in order) and prepared for the perf model.
	Input []workload.Job
	t     testing.TB
}

// Run runs policy p on jobs in cluster c under perf model m (nil: the
// constant model, each job taking its duration_s alone), with every
// invariant checked after each instant, and fails the test on any error.
// The jobs are finalized and prepared for m first.
func Run(t testing.TB, c *cluster.Cluster, m perf.Model, p engine.Policy, jobs []workload.Job, opts ...Option) *Result {
	t.Helper()
	if m == nil {
		m = perf.NewConstant(perf.ConstantParams{})
	}
	jobs, err := workload.Finalize(jobs)
	if err != nil {
		t.Fatal(err)
	}
	if err := perf.Prepare(m, c, jobs); err != nil {
		t.Fatal(err)
	}
	cfg := engine.Config{Cluster: c, Jobs: jobs, Perf: m, Policy: p, Paranoid: true}
	for _, o := range opts {
		o(&cfg)
	}
	res, err := engine.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &Result{Result: res, Input: jobs, t: t}
}

// Wrap returns r reporting to t instead of the test that made the run.
func Wrap(t testing.TB, r *Result) *Result { return &Result{Result: r.Result, Input: r.Input, t: t} }

// Job returns the record of the job named name, and fails the test when
// there is none.
func (r *Result) Job(name string) engine.JobRecord {
	r.t.Helper()
	for _, j := range r.Jobs {
		if j.Name == name {
			return j
		}
	}
	r.t.Fatalf("no job named %q in the run", name)
	return engine.JobRecord{}
}

// same is the tolerance of the assertions: times agree up to rounding.
func same(got, want float64) bool { return approx.Equal(got, want, 1e-9, 1e-12) }

// WantStart asserts that job name first started at time at (-1: never).
func (r *Result) WantStart(name string, at float64) {
	r.t.Helper()
	if got := r.Job(name).FirstStartS; !same(got, at) {
		r.t.Errorf("%s first started at %v, want %v", name, got, at)
	}
}

// WantFinish asserts that job name finished at time at (-1: never).
func (r *Result) WantFinish(name string, at float64) {
	r.t.Helper()
	if got := r.Job(name).FinishS; !same(got, at) {
		r.t.Errorf("%s finished at %v, want %v", name, got, at)
	}
}

// WantRan asserts that job name first started at start and finished at
// finish.
func (r *Result) WantRan(name string, start, finish float64) {
	r.t.Helper()
	j := r.Job(name)
	if !same(j.FirstStartS, start) || !same(j.FinishS, finish) {
		r.t.Errorf("%s ran %v–%v, want %v–%v", name, j.FirstStartS, j.FinishS, start, finish)
	}
}

// WantLog asserts that an entry of the decision log at time at contains
// text; at < 0 accepts any time.
func (r *Result) WantLog(at float64, text string) {
	r.t.Helper()
	if !r.Logged(at, text) {
		r.t.Errorf("no log entry at %v contains %q; the log:\n%s", at, text, strings.Join(r.LogLines(), "\n"))
	}
}

// Logged reports whether an entry of the decision log at time at contains
// text; at < 0 accepts any time.
func (r *Result) Logged(at float64, text string) bool {
	for i := range r.Log {
		d := &r.Log[i]
		if (at < 0 || same(d.TimeS, at)) && strings.Contains(d.Msg(), text) {
			return true
		}
	}
	return false
}

// LogLines is the decision log, one "time job message" line per entry.
func (r *Result) LogLines() []string {
	out := make([]string, len(r.Log))
	for i := range r.Log {
		d := &r.Log[i]
		out[i] = fmt.Sprintf("%v %d %s", d.TimeS, d.Job, d.Msg())
	}
	return out
}
