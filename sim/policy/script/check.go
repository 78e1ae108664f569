//go:build !noscript

package script

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"go.starlark.net/starlark"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/schema"
	"github.com/schedlab/schedlab/sim/workload"
)

// Check implements schema.Checker: it compiles the script and calls it on
// a made-up moment of a cluster (madeUp), so that a mistake shows at the
// source field as it is typed (the page validates at every keystroke),
// with its line and a "did you mean" where Starlark finds a near name.
// Each call may take at most CheckMaxSteps there.
//
// It runs no simulation: the page validates in its own module, and a call
// of the engine there would link every policy's code into it (5 MB).
// TestRun runs the script through the engine; "Check my policy" runs the
// conformance battery.
func (p *Params) Check() []schema.Problem {
	if err := check(*p); err != nil {
		return []schema.Problem{{Path: "source", Msg: err.Error()}}
	}
	return nil
}

// CheckMaxSteps bounds a call in the check, which the page makes at every
// keystroke: a loop that never ends is stopped there in a tenth of the
// time a run allows, so that typing stays quick.
const CheckMaxSteps = 100_000

// check compiles the script and calls it on the made-up moment.
func check(p Params) error {
	steps := p.MaxSteps
	if steps <= 0 {
		steps = DefaultMaxSteps
	}
	r := newRunner(min(steps, CheckMaxSteps))
	r.checking = steps > CheckMaxSteps
	prog, err := compile(p.Source, r.th)
	if err != nil {
		return err
	}
	m, err := newMadeUp()
	if err != nil {
		return err
	}
	v := newView(p.Oracle)
	v.use(m, func(id workload.JobID) float64 { return m.jobs[id].DurationS })
	if prog.decide != nil {
		return m.checkDecide(prog, r, v)
	}
	for id := range m.jobs {
		in := func() string {
			return fmt.Sprintf("the priority of job %s at %s", m.jobs[id].Name, results.Duration(m.now))
		}
		out, err := r.call(prog.priority, starlark.Tuple{job{v: v, id: workload.JobID(id)}, starlark.Float(m.now)}, in)
		if err != nil {
			return err
		}
		if _, err := number(out); err != nil {
			return &Error{Line: int(prog.priority.Position().Line), Msg: "priority " + err.Error(), In: in()}
		}
	}
	return nil
}

// checkDecide calls decide on the made-up moment and checks what it
// returns as a run would: a preempted job runs, a started one waits, and
// GPUs it names exist, are free and are as many as the job needs.
func (m *madeUp) checkDecide(prog *program, r *runner, v *view) error {
	in := func() string { return "decide at " + results.Duration(m.now) }
	out, err := r.call(prog.decide, starlark.Tuple{state{v: v}}, in)
	if err != nil {
		return err
	}
	fail := func(format string, args ...any) error {
		return &Error{Line: int(prog.decide.Position().Line), Msg: "decide " + fmt.Sprintf(format, args...), In: in()}
	}
	d := &decidePolicy{}
	starts, preempts, err := d.actions(m, out)
	if err != nil {
		return fail("%v", err)
	}
	for _, id := range preempts {
		if m.status[id] != engine.Running {
			return fail("asked to preempt job %s, which is %s, not running", m.jobs[id].Name, m.status[id])
		}
	}
	for _, st := range starts {
		j := &m.jobs[st.id]
		if m.status[st.id] != engine.Pending {
			return fail("asked to start job %s, which is %s, not waiting", j.Name, m.status[st.id])
		}
		if st.gpus == nil {
			continue
		}
		if len(st.gpus) != j.GPUs {
			return fail("asked to start job %s on %d GPU(s), but it needs %d", j.Name, len(st.gpus), j.GPUs)
		}
		for i, g := range st.gpus {
			if m.NumJobsOn(g) > 0 && !slices.ContainsFunc(preempts, func(id workload.JobID) bool { return slices.Contains(m.gpus[id], g) }) {
				return fail("asked to start job %s on GPU %d, which job %s holds", j.Name, g, m.jobs[m.holder(g)].Name)
			}
			if slices.Contains(st.gpus[:i], g) {
				return fail("asked to start job %s on GPU %d twice", j.Name, g)
			}
		}
	}
	return nil
}

// madeUp is the moment of a cluster the check shows a script: ten GPUs
// (two 4-GPU V100 servers, a 2-GPU K80 server) at 5 minutes, two jobs
// running (one preempted once before), two waiting, one of which needs
// more GPUs than any server has.
type madeUp struct {
	c      *cluster.Cluster
	jobs   []workload.Job
	status []engine.Status
	gpus   [][]cluster.GPUID
	info   []engine.JobInfo
	now    float64
}

func newMadeUp() (*madeUp, error) {
	c, err := cluster.New(testCluster)
	if err != nil {
		return nil, err
	}
	m := &madeUp{c: c, now: 300}
	m.jobs = []workload.Job{
		{Name: "made-up-1", ArrivalS: 0, Model: "resnet50", GPUs: 2, DurationS: 3600, Iterations: 3600, Entity: "ann"},
		{Name: "made-up-2", ArrivalS: 30, Model: "bert", GPUs: 2, DurationS: 600, Iterations: 600, Weight: 2, Entity: "bob"},
		{Name: "made-up-3", ArrivalS: 120, Model: "bert", GPUs: 1, DurationS: 120, Iterations: 120, GPUType: "V100"},
		{Name: "made-up-4", ArrivalS: 200, Model: "gpt2", GPUs: 6, DurationS: 900, Iterations: 900, Entity: "ann"},
	}
	for i := range m.jobs {
		m.jobs[i].ID = workload.JobID(i)
	}
	m.status = []engine.Status{engine.Running, engine.Running, engine.Pending, engine.Pending}
	m.gpus = [][]cluster.GPUID{{0, 1}, {8, 9}, nil, nil}
	m.info = []engine.JobInfo{
		{Status: engine.Running, GPUs: m.gpus[0], Remaining: 3600 - 240, Rate: 1, AttainedGPU: 480, RunTime: 240, FirstStart: 60, LastStart: 60, Starts: 1},
		{Status: engine.Running, GPUs: m.gpus[1], Remaining: 600 - 200, Rate: 1, AttainedGPU: 400, RunTime: 200, FirstStart: 30, LastStart: 100, Starts: 2, Preemptions: 1},
		{Status: engine.Pending, Remaining: 120, FirstStart: -1, LastStart: -1},
		{Status: engine.Pending, Remaining: 900, FirstStart: -1, LastStart: -1},
	}
	return m, nil
}

func (m *madeUp) Now() float64                              { return m.now }
func (m *madeUp) NumJobs() int                              { return len(m.jobs) }
func (m *madeUp) Job(id workload.JobID) *workload.Job       { return &m.jobs[id] }
func (m *madeUp) Status(id workload.JobID) engine.Status    { return m.status[id] }
func (m *madeUp) Info(id workload.JobID) engine.JobInfo     { return m.info[id] }
func (m *madeUp) Remaining(id workload.JobID) float64       { return m.info[id].Remaining }
func (m *madeUp) MemoryGB(id workload.JobID, _ int) float64 { return m.jobs[id].MemoryGB }
func (m *madeUp) GPUsOf(id workload.JobID) []cluster.GPUID  { return m.gpus[id] }
func (m *madeUp) Cluster() *cluster.Cluster                 { return m.c }
func (m *madeUp) Pending() []workload.JobID                 { return m.filter(engine.Pending) }
func (m *madeUp) Running() []workload.JobID                 { return m.filter(engine.Running) }
func (m *madeUp) ServerFree(id cluster.ServerID) int {
	return m.free(func(g cluster.GPU) bool { return g.Server == id })
}
func (m *madeUp) FreeGPUs() int { return m.free(func(cluster.GPU) bool { return true }) }
func (m *madeUp) FreeGPUsOfType(t string) int {
	return m.free(func(g cluster.GPU) bool { return g.Type == t })
}
func (m *madeUp) NumJobsOn(g cluster.GPUID) int { return min(1, m.holder(g)+1) }

func (m *madeUp) filter(st engine.Status) []workload.JobID {
	var out []workload.JobID
	for i, s := range m.status {
		if s == st {
			out = append(out, workload.JobID(i))
		}
	}
	return out
}

// holder is the job on GPU g, or -1.
func (m *madeUp) holder(g cluster.GPUID) int {
	for i, gs := range m.gpus {
		if slices.Contains(gs, g) {
			return i
		}
	}
	return -1
}

func (m *madeUp) free(of func(cluster.GPU) bool) int {
	n := 0
	for _, g := range m.c.GPUs {
		if of(g) && m.holder(g.ID) < 0 {
			n++
		}
	}
	return n
}

// testJobs are the made-up jobs of TestRun: sizes from 1 GPU to more
// than a server, arrivals apart and together, so that a script meets
// waiting, running, finished and (with round_s) preempted jobs.
var testJobs = []workload.Job{
	{Name: "made-up-1", ArrivalS: 0, Model: "resnet50", GPUs: 2, DurationS: 300, Entity: "ann"},
	{Name: "made-up-2", ArrivalS: 0, Model: "bert", GPUs: 1, DurationS: 120, Weight: 2, Entity: "bob"},
	{Name: "made-up-3", ArrivalS: 30, Model: "resnet50", GPUs: 4, DurationS: 200, Entity: "ann"},
	{Name: "made-up-4", ArrivalS: 60, Model: "gpt2", GPUs: 6, DurationS: 90, Entity: "bob"},
	{Name: "made-up-5", ArrivalS: 60, Model: "bert", GPUs: 1, DurationS: 30},
	{Name: "made-up-6", ArrivalS: 150, Model: "resnet50", GPUs: 3, DurationS: 400, Entity: "cy"},
}

// testCluster is two 4-GPU servers of one type and one 2-GPU server of
// another.
var testCluster = cluster.Spec{Servers: []cluster.ServerGroup{
	{Count: 2, GPUs: 4, GPUType: "V100"},
	{Count: 1, GPUs: 2, GPUType: "K80"},
}}

// TestRun compiles a script and runs it through the engine on a made-up
// scenario of six jobs on ten GPUs, returning its first mistake as an
// Error, or a sentence when the run itself fails (a decide that never
// starts a job). It is heavier than the check and sees more: a whole run.
func TestRun(p Params) error {
	pol, err := New(p)
	if err != nil {
		return err
	}
	c, err := cluster.New(testCluster)
	if err != nil {
		return err
	}
	jobs, err := workload.Finalize(append([]workload.Job(nil), testJobs...))
	if err != nil {
		return err
	}
	model := perf.NewConstant(perf.ConstantParams{})
	if err := model.Prepare(c, jobs); err != nil {
		return err
	}
	_, err = engine.Run(context.Background(), engine.Config{
		Cluster: c, Jobs: jobs, Perf: model, Policy: pol, Seed: 1, NoIntervals: true, NoLog: true,
		Budgets: engine.Budgets{MaxEvents: 100_000},
	})
	var se *Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &se):
		return se
	}
	return fmt.Errorf("on a made-up test of %d jobs on %d GPUs, the run failed: %s", len(jobs), len(c.GPUs), strings.TrimSpace(err.Error()))
}
