package app

import (
	"fmt"
	"github.com/schedlab/schedlab/sim/metrics"
	"math"

	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/sim/schema"
)

// What the page asks of a browser. Each policy of a comparison runs in
// its own engine worker, a WebAssembly program of at most 4 GB. A run of
// more than metrics.DefaultStreamAbove jobs streams: the worker keeps
// no job records and sends none (a 1,000,000-job FIFO run peaks under
// 400 MB natively); smaller runs send every record, and the page holds
// them all.
const (
	// MaxJobs is the most jobs one policy's run may have in the page.
	MaxJobs = 1_000_000
	// MaxJobRuns bounds jobs × policies of runs that keep their records
	// (at most metrics.DefaultStreamAbove jobs), the records the page
	// holds.
	MaxJobRuns = 1_000_000
	// MaxStreamedJobRuns bounds jobs × policies of streamed runs: the
	// workers run side by side, each holding its run's engine state, so
	// one policy may have 1,000,000 jobs and two 750,000.
	MaxStreamedJobRuns = 1_500_000
	// MaxGPUs is the most GPUs a cluster may have in the page (its
	// timeline draws every GPU).
	MaxGPUs = 65_536

	// A scenario opened from a link or restored from storage runs at
	// once only up to these sizes; a bigger one waits for the user.
	AutoRunJobRuns = 50_000
	AutoRunGPUs    = 4_096
)

// Size is how big a scenario is for the page: its jobs (per policy run),
// GPUs and policies. Jobs is estimated from the generator's parameters
// without generating them.
type Size struct {
	Jobs, GPUs, Policies int
	// JobsPath is the field that sets the number of jobs.
	JobsPath string
	// JobsWhat says in a sentence where the jobs come from: "the job
	// table has".
	JobsWhat string
}

// JobRuns is jobs × policies.
func (s Size) JobRuns() int { return s.Jobs * max(1, s.Policies) }

// SizeOf is a parsed scenario's size, from the counts the validator
// computes before anything is generated.
func SizeOf(sc *scenario.Scenario) Size {
	s := Size{Policies: len(sc.Policies), JobsPath: "workload.jobs", JobsWhat: "the job table has"}
	for _, g := range sc.Cluster.Servers {
		s.GPUs = satAdd(s.GPUs, satMul(g.Count, g.GPUs))
	}
	n, param := sc.JobCount()
	s.Jobs = int(min(n, math.MaxInt32))
	switch param {
	case "workload.jobs", "":
	case "base_jobs × scale":
		s.JobsPath, s.JobsWhat = "workload.generator.base_jobs", "the generator's base jobs × scale makes"
	default:
		s.JobsPath, s.JobsWhat = "workload.generator."+param, "this scenario has"
	}
	return s
}

func satMul(a, b int) int {
	if a > 0 && b > math.MaxInt32/a {
		return math.MaxInt32
	}
	return a * b
}

func satAdd(a, b int) int { return min(a+b, math.MaxInt32) }

// budgetProblems says what to reduce when a scenario is more than the
// page can simulate in a browser, each problem at the field to change.
func budgetProblems(s Size) []schema.Problem {
	var ps []schema.Problem
	cli := "or run it with the command line (schedlab run FILE), which has no such limit"
	switch {
	case s.Jobs > MaxJobs:
		ps = append(ps, schema.Problem{Path: s.JobsPath, Msg: fmt.Sprintf(
			"the page simulates at most %s jobs per policy in a browser and %s %s; lower it to %s or fewer, %s",
			results.Thousands(MaxJobs), s.JobsWhat, results.Thousands(s.Jobs), results.Thousands(MaxJobs), cli)})
	case s.JobRuns() > s.maxJobRuns():
		ps = append(ps, schema.Problem{Path: "policies", Msg: fmt.Sprintf(
			"%s policies × %s jobs is %s job runs, more than the %s the page holds in a browser; compare fewer policies or lower the jobs to %s, %s",
			results.Thousands(s.Policies), results.Thousands(s.Jobs), results.Thousands(s.JobRuns()), results.Thousands(s.maxJobRuns()), results.Thousands(s.maxJobRuns()/max(1, s.Policies)), cli)})
	}
	if s.GPUs > MaxGPUs {
		ps = append(ps, schema.Problem{Path: "cluster.servers", Msg: fmt.Sprintf(
			"the cluster has %s GPUs and the page simulates at most %s in a browser; lower the servers' count or GPUs, %s",
			results.Thousands(s.GPUs), results.Thousands(MaxGPUs), cli)})
	}
	return ps
}

// maxJobRuns is the bound on jobs × policies for runs of this size:
// streamed runs keep no records, so more of them fit.
func (s Size) maxJobRuns() int {
	if s.Jobs > metrics.DefaultStreamAbove {
		return MaxStreamedJobRuns
	}
	return MaxJobRuns
}

// autoRuns reports whether a scenario is small enough to run without
// asking when it was not chosen here (a link, or the stored scenario).
func (s Size) autoRuns() bool { return s.JobRuns() <= AutoRunJobRuns && s.GPUs <= AutoRunGPUs }

// Describe is the size in words: "400,000 jobs × 2 policies on 64 GPUs".
func (s Size) Describe() string {
	return fmt.Sprintf("%s × %s on %s", plural(s.Jobs, "job"), plural(s.Policies, "policy"), plural(s.GPUs, "GPU"))
}
