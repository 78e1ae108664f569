//go:build !noscript

package script

import (
	"fmt"
	"math"

	"go.starlark.net/starlark"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/workload"
)

// decidePolicy runs def decide(state): at each arrival and completion (and
// every round_s when set) it asks the script what to start and preempt.
type decidePolicy struct {
	prog  *program
	run   *runner
	v     *view
	place *policy.Placement
	waits policy.WaitNotes
	byID  map[string]workload.JobID // job names, built on first use
	state *engine.State             // the decision's, for print
}

func newDecide(p Params, prog *program, r *runner) *decidePolicy {
	d := &decidePolicy{prog: prog, run: r, v: newView(p.Oracle)}
	d.place, _ = policy.PlacementByName(prog.settings.Placement) // checked by compile
	r.print = func(msg string) { d.state.Log(-1, "script prints: %s", msg) }
	return d
}

// Options implements engine.Policy: exclusive GPUs, asked at arrivals,
// completions and its own wake-ups.
func (d *decidePolicy) Options() engine.Options {
	return engine.Options{MaxJobsPerGPU: 1, Subscribe: engine.Mask(engine.Arrival, engine.Completion, engine.WakeUp)}
}

// Decide implements engine.Policy.
func (d *decidePolicy) Decide(s *engine.State, _ []engine.Trigger) error {
	d.v.bind(s)
	d.state = s
	now := s.Now()
	in := func() string { return "decide at " + results.Duration(now) }
	out, err := d.run.call(d.prog.decide, starlark.Tuple{state{v: d.v}}, in)
	if err != nil {
		return err
	}
	line := int(d.prog.decide.Position().Line)
	fail := func(format string, args ...any) error {
		return &Error{Line: line, Msg: "decide " + fmt.Sprintf(format, args...), In: in()}
	}
	starts, preempts, err := d.actions(s, out)
	if err != nil {
		return fail("%v", err)
	}
	for _, id := range preempts {
		if s.Status(id) != engine.Running {
			return fail("asked to preempt job %s, which is %s, not running", s.Job(id).Name, s.Status(id))
		}
		if err := s.Preempt(id); err != nil {
			return fail("asked to preempt job %s: %v", s.Job(id).Name, err)
		}
		s.Log(id, "script: preempted %s", s.Job(id).Name)
	}
	for _, st := range starts {
		if err := d.start(s, st); err != nil {
			return fail("%v", err)
		}
	}
	if r := d.prog.settings.RoundS; r > 0 && s.NumPending()+s.NumRunning() > 0 {
		return s.WakeAt((math.Floor(now/r) + 1) * r)
	}
	return nil
}

// startAction is one job to start, on the given GPUs or where the
// placement puts it.
type startAction struct {
	id   workload.JobID
	gpus []cluster.GPUID // nil: the placement chooses
}

func (d *decidePolicy) start(s *engine.State, st startAction) error {
	name := s.Job(st.id).Name
	if s.Status(st.id) != engine.Pending {
		return fmt.Errorf("asked to start job %s, which is %s, not waiting", name, s.Status(st.id))
	}
	gpus := st.gpus
	if gpus == nil {
		req := policy.RequestFor(s, st.id)
		if gpus = d.place.Pick(req); gpus == nil {
			d.waits.Note(s, st.id, "script", func() string { return d.place.WhyNot(req) })
			return nil // it waits, as a queue policy's job would
		}
	}
	if err := s.Start(st.id, gpus, engine.ActionOptions{}); err != nil {
		return fmt.Errorf("asked to start job %s on GPUs %v: %v", name, gpus, err)
	}
	d.waits.Clear(st.id)
	s.Log(st.id, "script: started %s on %d GPU(s)", name, len(gpus))
	return nil
}

// actions reads decide's result: None, or a dict with "start" (a list of
// jobs, or of (job, [GPU numbers]) pairs) and "preempt" (a list of jobs);
// a job is a job value or its id.
func (d *decidePolicy) actions(s source, out starlark.Value) (starts []startAction, preempts []workload.JobID, err error) {
	if out == starlark.None {
		return nil, nil, nil
	}
	dict, ok := out.(*starlark.Dict)
	if !ok {
		return nil, nil, fmt.Errorf("returned %s; return a dict such as {\"start\": [job], \"preempt\": []} or None", out.Type())
	}
	for _, item := range dict.Items() {
		k, _ := starlark.AsString(item[0])
		if k != "start" && k != "preempt" {
			return nil, nil, fmt.Errorf("returned a dict with key %s; its keys are \"start\" and \"preempt\"", item[0].String())
		}
		list, err := listOf(k, item[1])
		if err != nil {
			return nil, nil, err
		}
		for i, x := range list {
			where := fmt.Sprintf("%s[%d]", k, i)
			if k == "preempt" {
				id, err := d.jobOf(s, where, x)
				if err != nil {
					return nil, nil, err
				}
				preempts = append(preempts, id)
				continue
			}
			st, err := d.startOf(s, where, x)
			if err != nil {
				return nil, nil, err
			}
			starts = append(starts, st)
		}
	}
	return starts, preempts, nil
}

func listOf(key string, v starlark.Value) ([]starlark.Value, error) {
	it, ok := v.(starlark.Indexable)
	if !ok {
		return nil, fmt.Errorf("returned %q: %s; give a list", key, v.Type())
	}
	out := make([]starlark.Value, it.Len())
	for i := range out {
		out[i] = it.Index(i)
	}
	return out, nil
}

// startOf reads one start: a job, or a (job, [GPU numbers]) pair.
func (d *decidePolicy) startOf(s source, where string, x starlark.Value) (startAction, error) {
	pair, isPair := x.(starlark.Indexable)
	if _, isStr := x.(starlark.String); isStr || !isPair {
		id, err := d.jobOf(s, where, x)
		return startAction{id: id}, err
	}
	if pair.Len() != 2 {
		return startAction{}, fmt.Errorf("returned %s = %s; give a job or a pair (job, [GPU numbers])", where, x.String())
	}
	id, err := d.jobOf(s, where+"[0]", pair.Index(0))
	if err != nil {
		return startAction{}, err
	}
	gs, err := listOf(where+"[1]", pair.Index(1))
	if err != nil {
		return startAction{}, err
	}
	gpus := make([]cluster.GPUID, len(gs))
	for i, g := range gs {
		n, err := starlark.AsInt32(g)
		if err != nil || n < 0 || n >= len(s.Cluster().GPUs) {
			return startAction{}, fmt.Errorf("returned %s[1][%d] = %s; a GPU number is from 0 to %d", where, i, g.String(), len(s.Cluster().GPUs)-1)
		}
		gpus[i] = cluster.GPUID(n)
	}
	return startAction{id: id, gpus: gpus}, nil
}

// jobOf reads a job: a job value or a job's id.
func (d *decidePolicy) jobOf(s source, where string, x starlark.Value) (workload.JobID, error) {
	switch j := x.(type) {
	case job:
		return j.id, nil
	case starlark.String:
		if d.byID == nil {
			d.byID = make(map[string]workload.JobID, s.NumJobs())
			for i := range s.NumJobs() {
				d.byID[s.Job(workload.JobID(i)).Name] = workload.JobID(i)
			}
		}
		if id, ok := d.byID[string(j)]; ok && s.Status(id) != engine.NotArrived {
			return id, nil
		}
		return 0, fmt.Errorf("returned %s = %s, which names no job that has arrived", where, j.String())
	}
	return 0, fmt.Errorf("returned %s = %s %s; give a job (from state.pending or state.running) or its id", where, x.Type(), x.String())
}
