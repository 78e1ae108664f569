package script

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/schema"
	"github.com/schedlab/schedlab/sim/workload"
)

// Check implements schema.Checker: it compiles the script and runs it on
// a small made-up scenario, so that a mistake shows at the source field
// as it is typed (the page validates at every keystroke), with its line
// and a "did you mean" where Starlark finds a near name.
func (p *Params) Check() []schema.Problem {
	if err := testRun(*p, true); err != nil {
		return []schema.Problem{{Path: "source", Msg: err.Error()}}
	}
	return nil
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

// TestRun compiles a script and runs it on a made-up scenario of six
// jobs on ten GPUs, returning its first mistake as an Error, or a
// sentence when the run itself fails (a decide that never starts a job).
func TestRun(p Params) error { return testRun(p, false) }

// testRun is TestRun; checking bounds each call by CheckMaxSteps.
func testRun(p Params, checking bool) error {
	steps := p.MaxSteps
	if steps <= 0 {
		steps = DefaultMaxSteps
	}
	r := newRunner(steps)
	if checking && steps > CheckMaxSteps {
		r = newRunner(CheckMaxSteps)
		r.checking = true
	}
	pol, err := newPolicy(p, r)
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
