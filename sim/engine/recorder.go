package engine

import (
	"fmt"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/workload"
)

// JobRecord is what happened to one job.
type JobRecord struct {
	Job         workload.JobID
	Name        string
	Model       string
	GPUs        int
	Status      Status
	Reason      string // why the job is unschedulable
	ArrivalS    float64
	FirstStartS float64 // -1 if it never started
	FinishS     float64 // -1 if it never finished
	// QueueS is the time from arrival to first start; WaitS is all the
	// time after arrival spent holding no GPUs (they differ for jobs that
	// were preempted).
	QueueS      float64
	WaitS       float64
	RunS        float64 // time holding GPUs
	GPUSeconds  float64
	SoloS       float64 // time it would take alone on its first GPUs
	Iterations  float64
	Preemptions int
	Migrations  int
	Resizes     int
	Starts      int
}

// JCT is the job completion time, finish minus arrival, or -1.
func (r *JobRecord) JCT() float64 {
	if r.FinishS < 0 {
		return -1
	}
	return r.FinishS - r.ArrivalS
}

// Interval is one stretch of time a job held a GPU.
type Interval struct {
	GPU    cluster.GPUID
	Job    workload.JobID
	StartS float64
	EndS   float64
}

// UtilPoint says that from TimeS on, BusyGPUs GPUs held at least one job
// and Slots job-GPU assignments existed (above BusyGPUs when GPUs are shared).
type UtilPoint struct {
	TimeS    float64
	BusyGPUs int
	Slots    int
}

// Decision is one entry of the decision log: why a policy did something.
type Decision struct {
	TimeS float64
	Job   workload.JobID // -1 when not about one job
	Msg   string
}

// Stats count the work the engine did.
type Stats struct {
	Events        int64
	PolicyCalls   int64
	Actions       int64
	EndS          float64
	DroppedLog    int64 // decision-log entries over the cap
	FinishedJobs  int
	RateRecompute int64
}

// Result is everything a run recorded.
type Result struct {
	Jobs        []JobRecord
	Intervals   []Interval
	Utilization []UtilPoint
	Log         []Decision
	Series      []Series // time series policies recorded (see State.Record)
	Stats       Stats
}

// Unfinished lists the jobs that did not finish.
func (r *Result) Unfinished() []JobRecord {
	var out []JobRecord
	for _, j := range r.Jobs {
		if j.Status != Finished {
			out = append(out, j)
		}
	}
	return out
}

func (s *State) logf(job workload.JobID, format string, args ...any) {
	if !s.cfg.NoLog {
		if len(s.res.Log) >= s.maxLog {
			s.res.Stats.DroppedLog++
			return
		}
		s.res.Log = append(s.res.Log, Decision{TimeS: s.now, Job: job, Msg: fmt.Sprintf(format, args...)})
	}
}

// recordUtil appends a utilization step if the counts changed.
func (s *State) recordUtil() {
	if s.cfg.NoIntervals {
		return
	}
	u := s.res.Utilization
	if n := len(u); n > 0 && u[n-1].BusyGPUs == s.busyGPUs && u[n-1].Slots == s.slots {
		return
	}
	if n := len(u); n > 0 && u[n-1].TimeS == s.now {
		u[n-1].BusyGPUs, u[n-1].Slots = s.busyGPUs, s.slots
		return
	}
	s.res.Utilization = append(u, UtilPoint{TimeS: s.now, BusyGPUs: s.busyGPUs, Slots: s.slots})
}

func (s *State) recordInterval(g cluster.GPUID, id workload.JobID, since float64) {
	if s.cfg.NoIntervals || s.now <= since {
		return
	}
	s.res.Intervals = append(s.res.Intervals, Interval{GPU: g, Job: id, StartS: since, EndS: s.now})
}
