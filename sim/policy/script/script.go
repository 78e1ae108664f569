// Package script is the policy family "script": a policy written in a
// few lines of Starlark (a small dialect of Python) in the scenario
// itself, so that a student can write one in the page, run it beside the
// built-in policies and share it by link, without compiling Go.
//
// A script takes one of two forms:
//
//   - def priority(job, now): returns a number for a job, smaller first.
//     schedlab starts the jobs in that order on free GPUs, as FIFO and SJF
//     do (backfill and placement are module-level settings). A priority
//     that reads nothing that changes over time is computed once, when
//     the job arrives; one that does (now, job.waited_s, ...) is
//     recomputed at every decision.
//   - def decide(state): sees the whole cluster and returns the jobs to
//     start, optionally with their GPUs, and the jobs to preempt: the
//     full form, for teaching-size scenarios.
//
// Scripts are deterministic and bounded: they see only the fields of
// FieldTable and a math module of exact or deterministic functions (the
// same bits natively and in WebAssembly); module globals are frozen after
// the top level runs, so a call cannot remember the last one; every call
// has a step budget (max_steps), and an error names the script line and
// the job it was computing.
//
// Built with the tag noscript (the Workers build of the JSON API, whose
// size budget has no room for the Starlark interpreter), the family keeps
// its name and parameters but refuses every script at its source, saying
// where scripts run: the page and the schedlab command.
package script

import "github.com/schedlab/schedlab/sim/policy"

// Params configure a script policy.
type Params struct {
	Source   string `json:"source" help:"the policy in Starlark (a small Python): def priority(job, now) returning a number, smaller first, or def decide(state) returning {\"start\": [...], \"preempt\": [...]}"`
	Oracle   bool   `json:"oracle,omitempty" help:"let the script read job.remaining_s, how long a job has left: knowledge a real scheduler lacks"`
	MaxSteps int    `json:"max_steps,omitempty" min:"0" max:"1000000000" help:"the most Starlark steps one call may take before the run stops with an error (a loop that never ends); 0 means 500,000"`
}

func init() {
	policy.Register(policy.Family[Params]{
		Name:  "script",
		Title: "Script",
		Paper: "your own policy, in Starlark",
		Doc: "A policy you write: either def priority(job, now), returning a number for a job " +
			"(smaller runs first, on its own GPUs, as FIFO and SJF do), or def decide(state), returning " +
			"the jobs to start and to preempt. Start from an example; what a script can read is listed in the page " +
			"under the script (What a script sees), by schedlab policies and in docs/scripts.md." + unavailable,
		Defaults: func() Params { return Params{Source: Template} },
		New:      New,
	})
}
