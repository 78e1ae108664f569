// Package workload describes the jobs a simulation runs: the job spec with
// every field the implemented papers need, the model zoo, and the seeded
// generators that produce job lists.
package workload

import (
	"fmt"

	"github.com/schedlab/schedlab/sim/schema"
)

// JobID numbers a job within one run, from 0, in arrival order.
type JobID int32

// Job is one training job. Fields with a zero value are "not given"; the
// perf model decides what a missing field means (see sim/perf).
type Job struct {
	ID   JobID  `json:"-"`
	Name string `json:"id" help:"unique name of the job"`

	ArrivalS float64 `json:"arrival_s" min:"0" unit:"s" help:"time the job is submitted"`
	Model    string  `json:"model" help:"model name; perf models and interference matrices key on it"`
	GPUs     int     `json:"gpus" min:"1" max:"4096" help:"GPUs (workers) the job asks for, gang-scheduled"`

	// BatchSize is the per-GPU mini-batch the user asked for (B_k in the
	// SJF-BSBF paper); for Gavel job types it is the template's batch size.
	BatchSize  int     `json:"batch_size,omitempty" min:"0" help:"per-GPU mini-batch size asked for"`
	Iterations float64 `json:"iterations,omitempty" min:"0" help:"training iterations to run; needs a perf model that knows the model's speed"`
	DurationS  float64 `json:"duration_s,omitempty" min:"0" unit:"s" help:"run time alone on its GPUs (on the reference GPU type for heterogeneous models)"`

	Weight    float64 `json:"weight,omitempty" min:"0" help:"priority weight for fairness policies; 0 means 1"`
	Entity    string  `json:"entity,omitempty" help:"owner (team or user) for hierarchical policies"`
	MemoryGB  float64 `json:"memory_gb,omitempty" min:"0" unit:"GB" help:"GPU memory the job holds on each of its GPUs"`
	Compute   float64 `json:"compute,omitempty" min:"0" max:"1" help:"fraction of a GPU's compute each worker needs; 0 means not modelled"`
	DeadlineS float64 `json:"deadline_s,omitempty" min:"0" unit:"s" help:"absolute time by which the job should finish (its SLO); 0 means none"`
	GPUType   string  `json:"gpu_type,omitempty" help:"run only on GPUs of this type"`
}

// Bounds of job times and work, so that simulated time and rates stay
// finite and every completion lies strictly after its start.
const (
	MaxTimeS      = 1e10 // about 317 years
	MinDurationS  = 1e-3
	MaxIterations = 1e15
)

// Check bounds the job's times and work.
func (j *Job) Check() []schema.Problem {
	var ps []schema.Problem
	over := func(path string, v, hi float64) {
		if v > hi {
			ps = append(ps, schema.Problem{Path: path, Msg: fmt.Sprintf("must be at most %g, got %g", hi, v)})
		}
	}
	over("arrival_s", j.ArrivalS, MaxTimeS)
	over("duration_s", j.DurationS, MaxTimeS)
	over("deadline_s", j.DeadlineS, 2*MaxTimeS)
	over("iterations", j.Iterations, MaxIterations)
	over("weight", j.Weight, 1e6)
	over("memory_gb", j.MemoryGB, 1e6)
	if j.DurationS > 0 && j.DurationS < MinDurationS {
		ps = append(ps, schema.Problem{Path: "duration_s", Msg: fmt.Sprintf("must be at least %g s when given, got %g", MinDurationS, j.DurationS)})
	}
	return ps
}

// EffectiveWeight returns the job's weight, 1 when not given.
func (j *Job) EffectiveWeight() float64 {
	if j.Weight <= 0 {
		return 1
	}
	return j.Weight
}

// Finalize sorts jobs by arrival (stable, so equal arrivals keep their
// input order), numbers them densely and checks that names are unique and
// non-empty. It returns the jobs in their new order.
func Finalize(jobs []Job) ([]Job, error) {
	sortByArrival(jobs)
	seen := make(map[string]int, len(jobs))
	for i := range jobs {
		jobs[i].ID = JobID(i)
		if jobs[i].Name == "" {
			return nil, fmt.Errorf("job %d has no id", i)
		}
		if prev, dup := seen[jobs[i].Name]; dup {
			return nil, fmt.Errorf("job id %q is used twice (jobs %d and %d in arrival order)", jobs[i].Name, prev, i)
		}
		seen[jobs[i].Name] = i
	}
	return jobs, nil
}
