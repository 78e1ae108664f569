// Package perf holds the performance models: given where a job runs and
// who shares its GPUs, servers and links, at what rate (iterations per
// second) does it progress?
//
// Models compose. A base Model gives a job's rate on its placement; Factors
// slow it down for co-location interference, network contention and the
// like; Composite multiplies them. The engine drives the simulation with a
// "true" model and may hand a policy a different "believed" one.
package perf

import (
	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/workload"
)

// Placement is where a running job sits.
type Placement struct {
	GPUs []cluster.GPUID // one entry per worker; empty when the job holds none
	// SubBatch is the per-GPU micro-batch the job runs with, when a policy
	// shrank it to fit memory (gradient accumulation); 0 means the job's
	// own batch size.
	SubBatch int
}

// State is what a model may read about the cluster at one instant.
type State interface {
	Cluster() *cluster.Cluster
	Job(id workload.JobID) *workload.Job
	Placement(id workload.JobID) Placement
	// JobsOn lists the jobs holding GPU g, in the order they took it.
	JobsOn(g cluster.GPUID) []workload.JobID
}

// Coupling says whose placement a job's rate depends on. The engine uses it
// to recompute only the rates a placement change can affect.
type Coupling uint8

const (
	// Independent: only the job's own placement matters.
	Independent Coupling = iota
	// SharedGPU: also the jobs that hold one of its GPUs.
	SharedGPU
	// SharedServer: also the jobs that use one of its servers (links).
	SharedServer
	// Global: every running job.
	Global
)

// Model gives the rate of a running job.
type Model interface {
	// Rate returns iterations per second of job id at its placement in s;
	// it must be positive for a job that can run there and 0 for one that
	// cannot (e.g. a GPU type it has no throughput on).
	Rate(s State, id workload.JobID) float64
	Coupling() Coupling
}

// PlacementRated is implemented by models whose Rate(s, id) depends on
// the cluster, the run's jobs and where every job runs, and on nothing
// else: not on the time, a job's progress, or a state of the model's own
// that a query changes. Two queries with no start, end or move between
// them then give the same rate, and the engine may answer the second
// from the first (see engine.State.BelievedRate). A wrapper that adds
// anything must not pass it on.
type PlacementRated interface {
	RateByPlacement() bool
}

// Factor is a slowdown applied on top of a base model.
type Factor interface {
	// Slowdown returns how many times longer an iteration of job id takes
	// because of the others in s; 1 means not at all.
	Slowdown(s State, id workload.JobID) float64
	Coupling() Coupling
}

// Preparer is implemented by models that complete job specs before a run,
// e.g. turning a solo duration into iterations. Ask for it with As, which
// finds it behind wrappers: Prepare(m, c, jobs) does.
type Preparer interface {
	Prepare(c *cluster.Cluster, jobs []workload.Job) error
}

// MemoryModel is implemented by models that know how much GPU memory a job
// holds at a sub-batch size. Without one, a job holds its MemoryGB (see
// JobMemoryGB).
type MemoryModel interface {
	MemoryGB(j *workload.Job, subBatch int) float64
}

// Composite is a base model slowed down by factors. It answers Rate and
// Coupling itself and wraps its base (Unwrap), so that As finds through it
// what only the base knows: its memory (MemoryModel, which it also
// forwards itself, being asked at every placement), its preparation of
// jobs (Preparer), when its rates change with time (Timed; factors change
// only with placements, so the composite's rates change exactly when the
// base's do), and the concrete model a policy plans with (MemShare, RAR,
// Throughputs). What the factors change it answers itself: pair slowdowns
// (PairModel), and iteration splits (Splitter, through As), whose parts
// gain the time the factors add.
type Composite struct {
	Base    Model
	Factors []Factor
}

// Rate implements Model.
func (c *Composite) Rate(s State, id workload.JobID) float64 {
	r := c.Base.Rate(s, id)
	for _, f := range c.Factors {
		if r == 0 {
			break
		}
		r /= f.Slowdown(s, id)
	}
	return r
}

// Coupling implements Model: the widest of its parts.
func (c *Composite) Coupling() Coupling {
	k := c.Base.Coupling()
	for _, f := range c.Factors {
		k = max(k, f.Coupling())
	}
	return k
}

// Unwrap implements Wrapper.
func (c *Composite) Unwrap() Model { return c.Base }

// MemoryGB implements MemoryModel: the base's memory, which factors do
// not change. As would find it too; the engine asks at every placement,
// and this answers without As's walk.
func (c *Composite) MemoryGB(j *workload.Job, subBatch int) float64 {
	return JobMemoryGB(c.Base, j, subBatch)
}

// As answers for Splitter when the base splits its iterations (see
// As): the composite's split is the base's with the factors' extra time
// as its Interference part, so that the parts still add up to the
// composite's iteration time.
func (c *Composite) As(target any) bool {
	t, ok := target.(*Splitter)
	if !ok {
		return false
	}
	base, ok := As[Splitter](c.Base)
	if ok && t != nil {
		*t = compositeSplitter{c, base}
	}
	return ok
}

// compositeSplitter splits a composite's iterations.
type compositeSplitter struct {
	c    *Composite
	base Splitter
}

// IterSplit implements Splitter.
func (x compositeSplitter) IterSplit(s State, id workload.JobID) IterSplit {
	split := x.base.IterSplit(s, id)
	slowdown := 1.0
	for _, f := range x.c.Factors {
		slowdown *= f.Slowdown(s, id)
	}
	if slowdown != 1 {
		split.Interference = split.Total() * (slowdown - 1)
	}
	return split
}

// Wrapper is implemented by models built around another model, such as
// Composite. Unwrap returns the wrapped model, so that As can find what
// the wrapper does not answer itself, as errors.Unwrap does for errors
// and gonum's Untransposer for matrices.
type Wrapper interface {
	Model
	Unwrap() Model
}

// As finds the first model in m's chain that is a T, and returns it: m
// itself, then m.Unwrap(), and so on while the model is a Wrapper. It is
// how the engine and the policies ask a model what it can do (a Timed
// model, a Splitter) or which model it is (*MemShare, *RAR), so that a
// wrapper never hides what it wraps. As errors.As does, a model in the
// chain may answer for T itself with a method As(target any) bool that
// sets *target (a *T) and reports true, when it must change the answer of
// what it wraps (Composite's iteration splits). As first asks with a nil
// *T whether it would (the method then reports without setting), so that
// the many questions a hook does not answer cost no allocation: the
// engine asks for memory at every placement.
func As[T any](m Model) (T, bool) {
	for m != nil {
		if t, ok := m.(T); ok {
			return t, true
		}
		if a, ok := m.(interface{ As(any) bool }); ok && a.As((*T)(nil)) {
			var t T
			if a.As(&t) {
				return t, true
			}
		}
		w, ok := m.(Wrapper)
		if !ok {
			break
		}
		m = w.Unwrap()
	}
	var zero T
	return zero, false
}

// Prepare completes job specs for model m before a run, when m or a model
// it wraps is a Preparer.
func Prepare(m Model, c *cluster.Cluster, jobs []workload.Job) error {
	if p, ok := As[Preparer](m); ok {
		return p.Prepare(c, jobs)
	}
	return nil
}

// JobMemoryGB returns the memory job j holds per GPU under model m.
func JobMemoryGB(m Model, j *workload.Job, subBatch int) float64 {
	if mm, ok := m.(MemoryModel); ok { // the common case, without As's walk
		return mm.MemoryGB(j, subBatch)
	}
	if mm, ok := As[MemoryModel](m); ok {
		return mm.MemoryGB(j, subBatch)
	}
	return j.MemoryGB
}

// Alone is a State in which a single job runs on the given placement and
// nothing else runs: the setting of a job's solo rate.
type Alone struct {
	C     *cluster.Cluster
	J     *workload.Job
	Where Placement
}

func (a *Alone) Cluster() *cluster.Cluster { return a.C }

func (a *Alone) Job(id workload.JobID) *workload.Job {
	if id == a.J.ID {
		return a.J
	}
	return nil
}

func (a *Alone) Placement(id workload.JobID) Placement {
	if id == a.J.ID {
		return a.Where
	}
	return Placement{}
}

func (a *Alone) JobsOn(g cluster.GPUID) []workload.JobID {
	for _, x := range a.Where.GPUs {
		if x == g {
			return []workload.JobID{a.J.ID}
		}
	}
	return nil
}

// SoloRate is job j's rate under m when it runs alone on gpus.
func SoloRate(m Model, c *cluster.Cluster, j *workload.Job, gpus []cluster.GPUID) float64 {
	return m.Rate(&Alone{C: c, J: j, Where: Placement{GPUs: gpus}}, j.ID)
}

// Timed is implemented by models whose rates change on their own as time
// passes (e.g. a job's memory phase), not only when placements change.
type Timed interface {
	// NextChange returns when job id's rate will next change, or +Inf.
	NextChange(s State, id workload.JobID, now float64) float64
}
