package engine

import "github.com/schedlab/schedlab/sim/workload"

// event is one entry of the event queue. ver invalidates completion and
// rate-change events whose job has since been rescheduled.
type event struct {
	t    float64
	kind EventKind
	job  workload.JobID
	ver  uint32
}

// Less orders events by time, then kind, then job: the deterministic
// tie-break of the engine.
func (a event) Less(b event) bool {
	if a.t != b.t {
		return a.t < b.t
	}
	if a.kind != b.kind {
		return a.kind < b.kind
	}
	return a.job < b.job
}
