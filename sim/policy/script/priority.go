//go:build !noscript

package script

import (
	"fmt"

	"go.starlark.net/starlark"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/workload"
)

// unavailable is added to the family's description in builds without
// scripts.
const unavailable = ""

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
