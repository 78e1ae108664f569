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
package script

import (
	"fmt"

	"go.starlark.net/starlark"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/workload"
)

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
			"under the script (What a script sees), by schedlab policies and in docs/scripts.md.",
		Defaults: func() Params { return Params{Source: Template} },
		New:      New,
	})
}

// New compiles the script and returns its policy for one run.
func New(p Params) (engine.Policy, error) { return newPolicy(p, newRunner(p.MaxSteps)) }

func newPolicy(p Params, r *runner) (engine.Policy, error) {
	prog, err := compile(p.Source, r.th)
	if err != nil {
		return nil, err
	}
	switch {
	case prog.decide != nil:
		return newDecide(p, prog, r), nil
	case prog.settings.Preempt:
		return newPreemptive(p, prog, r), nil
	}
	return newPriority(p, prog, r), nil
}

// priorityPolicy runs def priority(job, now) as the order of a queue
// scheduler.
type priorityPolicy struct {
	policy.QueueScheduler
	prog *program
	run  *runner
	v    *view
	err  error // the first failed call, returned at the end of the decision
	// state is the decision's, for print
	state *engine.State
}

func newPriority(p Params, prog *program, r *runner) *priorityPolicy {
	pp := &priorityPolicy{prog: prog, run: r, v: newView(p.Oracle)}
	pp.QueueScheduler = policy.QueueScheduler{
		Name: "script", Order: policy.Order{Key: pp.key}, Label: policy.NumberLabel("priority"),
		Backfill: prog.settings.Backfill, Placement: prog.settings.Placement, Rekey: prog.usesNow,
	}
	r.print = func(msg string) { pp.state.Log(-1, "script prints: %s", msg) }
	return pp
}

// Decide implements engine.Policy.
func (p *priorityPolicy) Decide(s *engine.State, triggers []engine.Trigger) error {
	if p.err != nil {
		return p.err
	}
	p.v.bind(s)
	p.state = s
	if err := p.QueueScheduler.Decide(s, triggers); err != nil {
		return err
	}
	return p.err
}

// key calls priority(job, now). After the first failure it returns 0
// without calling again; Decide then ends the run with the error.
func (p *priorityPolicy) key(s *engine.State, id workload.JobID) float64 {
	if p.err != nil {
		return 0
	}
	p.v.varied = false
	now := s.Now()
	in := func() string {
		return fmt.Sprintf("the priority of job %s at %s", s.Job(id).Name, results.Duration(now))
	}
	v, err := p.run.call(p.prog.priority, starlark.Tuple{job{v: p.v, id: id}, starlark.Float(now)}, in)
	if err != nil {
		p.err = err
		return 0
	}
	if p.v.varied {
		p.Rekey = true // from the next decision on: this one's keys are all current
	}
	k, err := number(v)
	if err != nil {
		p.err = &Error{Line: int(p.prog.priority.Position().Line), Msg: "priority " + err.Error(), In: in()}
		return 0
	}
	return k
}

// preemptivePolicy runs def priority(job, now) with preempt = True on a
// priority scheduler: every round every job is ranked again.
type preemptivePolicy struct {
	policy.PriorityScheduler
	prog  *program
	run   *runner
	v     *view
	state *engine.State // the decision's, for print
}

func newPreemptive(p Params, prog *program, r *runner) *preemptivePolicy {
	pp := &preemptivePolicy{prog: prog, run: r, v: newView(p.Oracle)}
	st := prog.settings
	pp.PriorityScheduler = policy.PriorityScheduler{
		Name: "script", Priority: pp.key, Label: policy.NumberLabel("priority"),
		RoundS: st.RoundS, RestartS: st.RestartS, NoBackfill: !st.Backfill, Placement: st.Placement,
		KeepPendingKeys: prog.waitingKeysHold,
	}
	r.print = func(msg string) { pp.state.Log(-1, "script prints: %s", msg) }
	return pp
}

// Decide implements engine.Policy.
func (p *preemptivePolicy) Decide(s *engine.State, triggers []engine.Trigger) error {
	p.v.bind(s)
	p.state = s
	return p.PriorityScheduler.Decide(s, triggers)
}

// key calls priority(job, now).
func (p *preemptivePolicy) key(s *engine.State, id workload.JobID) (float64, error) {
	now := s.Now()
	in := func() string {
		return fmt.Sprintf("the priority of job %s at %s", s.Job(id).Name, results.Duration(now))
	}
	v, err := p.run.call(p.prog.priority, starlark.Tuple{job{v: p.v, id: id}, starlark.Float(now)}, in)
	if err != nil {
		return 0, err
	}
	k, err := number(v)
	if err != nil {
		return 0, &Error{Line: int(p.prog.priority.Position().Line), Msg: "priority " + err.Error(), In: in()}
	}
	return k, nil
}

// number reads a priority: an int or a float, not NaN.
func number(v starlark.Value) (float64, error) {
	switch x := v.(type) {
	case starlark.Int:
		f, _ := starlark.AsFloat(x)
		return f, nil
	case starlark.Float:
		if x != x {
			return 0, fmt.Errorf("returned nan; return a number")
		}
		return float64(x), nil
	case starlark.NoneType:
		return 0, fmt.Errorf("returned None: does a branch end without return?")
	}
	return 0, fmt.Errorf("returned %s %s; return a number (int or float), smaller runs first", v.Type(), v.String())
}
