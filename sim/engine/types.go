package engine

import (
	"math"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/workload"
)

// EventKind is the kind of an event. At equal times, events apply in this
// order, so that GPUs freed by a completion are free for an arrival. The
// kinds that a job's rescheduling makes stale come before Arrival (see
// State.stale).
type EventKind uint8

const (
	Completion  EventKind = iota // a job finished its work
	OverheadEnd                  // a job's restart/migration overhead is over
	RateChange                   // the perf model announced a change of a job's rate
	Arrival                      // a job was submitted
	WakeUp                       // a wake-up the policy asked for
	numKinds
)

var kindNames = [...]string{"completion", "overhead-end", "rate-change", "arrival", "wake-up"}

func (k EventKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// EventMask is a set of event kinds.
type EventMask uint8

// Mask returns the set holding the given kinds.
func Mask(kinds ...EventKind) EventMask {
	var m EventMask
	for _, k := range kinds {
		m |= 1 << k
	}
	return m
}

// Has reports whether k is in the set.
func (m EventMask) Has(k EventKind) bool { return m&(1<<k) != 0 }

// Trigger is one event a policy is told about.
type Trigger struct {
	Kind EventKind
	Job  workload.JobID // -1 for wake-ups
	Time float64
}

// Options are what a policy needs from the engine.
type Options struct {
	// MaxJobsPerGPU is the sharing limit C; 0 or 1 means exclusive GPUs.
	MaxJobsPerGPU int
	// Elastic policies may start and resize jobs on any number of GPUs.
	Elastic bool
	// SameJobColocation lets two workers of one job share a GPU.
	SameJobColocation bool
	// AdaptiveBatch says the policy's jobs adapt their total batch size to
	// the GPUs they hold (Pollux); perf models that know statistical
	// efficiency then measure their progress by goodput.
	AdaptiveBatch bool
	// Subscribe lists the events the policy decides at; 0 means arrivals,
	// completions and wake-ups.
	Subscribe EventMask
	// FinishedInfo says the policy reads State.Info of finished jobs, so
	// the engine keeps every job's record even when it streams them (see
	// Config.OnRecord).
	FinishedInfo bool
	// IdleWithoutPending says a decision with no job pending does nothing
	// (a queue that starts waiting jobs and never preempts), so the
	// engine does not ask for it: at most completions of a lightly loaded
	// cluster nothing waits, and asking cost a call through the interface
	// and the policy's own look at its queue. It still counts in
	// Stats.PolicyCalls.
	IdleWithoutPending bool
}

// Policy decides, at the events it subscribed to, which jobs run where.
type Policy interface {
	Options() Options
	// Decide is called once per instant at which a subscribed event
	// occurred. An error ends the run.
	Decide(s *State, triggers []Trigger) error
}

// Status is where a job is in its life.
type Status uint8

const (
	NotArrived Status = iota
	Pending
	Running
	Finished
	Unschedulable // can never fit the cluster; reported, never waited on
)

var statusNames = [...]string{"not-arrived", "pending", "running", "finished", "unschedulable"}

func (s Status) String() string { return statusNames[s] }

// Overheads are the seconds of no progress charged when a job (re)starts or
// moves. The job holds its GPUs during the overhead.
type Overheads struct {
	FirstStartS float64 `json:"first_start_s,omitempty" min:"0" max:"1e10" unit:"s" help:"charged when a job starts for the first time"`
	RestartS    float64 `json:"restart_s,omitempty" min:"0" max:"1e10" unit:"s" help:"charged when a preempted job starts again (checkpoint restore)"`
	MigrationS  float64 `json:"migration_s,omitempty" min:"0" max:"1e10" unit:"s" help:"charged when a running job moves to other GPUs"`
	ResizeS     float64 `json:"resize_s,omitempty" min:"0" max:"1e10" unit:"s" help:"charged when an elastic job changes its GPU count"`
}

// ActionOptions refine one action.
type ActionOptions struct {
	// SubBatch is the per-GPU micro-batch to run with; 0 keeps the job's
	// batch size (on Start) or its current sub-batch (on Migrate/Resize).
	SubBatch int
	// OverheadS replaces the configured overhead for this action when
	// positive; NoOverhead charges none.
	OverheadS  float64
	NoOverhead bool
}

// JobInfo is the runtime state of one job, as a policy sees it.
type JobInfo struct {
	Status      Status
	GPUs        []cluster.GPUID // read-only; valid until the next action
	SubBatch    int
	Remaining   float64 // iterations left, at the current time
	Rate        float64 // iterations per second now (0 during an overhead)
	AttainedGPU float64 // GPU-seconds held so far
	RunTime     float64 // seconds holding GPUs so far
	FirstStart  float64 // -1 before the first start
	LastStart   float64 // -1 before the first start
	Starts      int
	Preemptions int
	Migrations  int
	Resizes     int
	InOverhead  bool
}

// Budgets bound a run.
type Budgets struct {
	MaxEvents int64   `json:"max_events,omitempty" min:"0" help:"stop with an error after this many events; 0 means 50 million"`
	MaxTimeS  float64 `json:"max_time_s,omitempty" min:"0" unit:"s" help:"stop with an error when simulated time passes this; 0 means 10 years"`
}

const (
	defaultMaxEvents = 50_000_000
	defaultMaxTimeS  = 10 * 365 * 24 * 3600
)

var inf = math.Inf(1)
