package engine

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/story"
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

// JobSplit is kept per job under perf models that split iteration times
// (perf.Splitter): the servers the job ran on, ascending, and its mean
// iteration time in parts (nil when it did no work).
type JobSplit struct {
	Servers []cluster.ServerID
	Split   *perf.IterSplit
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
// BusyGPUSeconds is the integral of busy GPUs from time 0 to TimeS, so that
// a thinned series (see Stats.UtilThinned) still integrates exactly between
// the points it kept.
type UtilPoint struct {
	TimeS          float64
	BusyGPUs       int
	Slots          int
	BusyGPUSeconds float64
}

// Recorder caps: beyond them the recorder summarises instead of growing,
// and Result.Notes says what it summarised. Each costs at most a few tens
// of MB.
const (
	// MaxUtilPoints bounds the utilisation steps; at the cap every other
	// step is merged into its neighbour (the busy GPU-seconds between the
	// kept points stay exact, see UtilPoint).
	MaxUtilPoints = 1 << 18
	// MaxIntervals bounds the per-GPU allocation intervals (Gantt chart
	// and timeline); later intervals are counted, not kept.
	MaxIntervals = 1 << 20
	// MaxSeriesPoints bounds one recorded series; at the cap every other
	// point is dropped (a series is a sample of a quantity over time).
	MaxSeriesPoints = 1 << 14
	// MaxSeriesTotal bounds the points of all series of a run; later
	// points are counted, not kept.
	MaxSeriesTotal = 1 << 21
)

// Decision is one entry of the decision log: why a policy did something.
// Its text is formatted when read (Msg), not when logged: most entries of
// a large run are never shown.
type Decision struct {
	TimeS float64
	Job   workload.JobID // -1 when not about one job
	// The text is w's text of note, or without w note.Name itself. (A
	// format and its arguments are a NoteWriter of their own, fmtNote: an
	// entry is 80 bytes, not 120, and a large run writes 100,000 of them
	// into fresh memory, whose first touch is most of their cost.)
	w    NoteWriter
	note Note
}

// fmtNote is an entry's format and its arguments, filled in when the
// entry is read (the arguments are of basic kinds: see immutable).
type fmtNote struct {
	format string
	args   []any
	inline [4]any // room for the usual few arguments, in one allocation
}

func (f *fmtNote) NoteText(workload.JobID, *Note) string { return fmt.Sprintf(f.format, f.args...) }

// A Note is what a policy keeps with a decision-log entry whose text is
// written only when the entry is read (State.LogNote): a name and a few
// numbers, stored in the entry itself, so that logging a start of every
// job of a large run allocates nothing (a closure per entry cost an
// allocation each, which in WebAssembly was the largest cost of
// logging).
type Note struct {
	Name    string
	X, Y    float64
	I, J, K int32
}

// A NoteWriter writes the text of the entries of one kind that a policy
// logs with State.LogNote. It must read only what does not change during
// the run (its policy's settings, the cluster), besides the note.
type NoteWriter interface {
	NoteText(job workload.JobID, n *Note) string
}

// funcNote is an entry whose text a function writes (State.LogFunc).
type funcNote func() string

func (f funcNote) NoteText(workload.JobID, *Note) string { return f() }

// MarshalJSON writes the entry as {"TimeS", "Job", "Msg"}.
func (d Decision) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		TimeS float64
		Job   workload.JobID
		Msg   string
	}{d.TimeS, d.Job, d.Msg()})
}

// SameLog reports whether two decision logs hold the same entries.
func SameLog(a, b []Decision) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].TimeS != b[i].TimeS || a[i].Job != b[i].Job || a[i].Msg() != b[i].Msg() {
			return false
		}
	}
	return true
}

// Msg is the entry's text.
func (d *Decision) Msg() string {
	if d.w != nil {
		return d.w.NoteText(d.Job, &d.note)
	}
	return d.note.Name
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

	UtilThinned      int     // times the utilisation steps were halved
	DroppedIntervals int64   // GPU intervals over MaxIntervals, not kept
	IntervalsUntilS  float64 // the kept intervals cover [0, IntervalsUntilS] when some were dropped
	SeriesThinned    int64   // times a series was halved at MaxSeriesPoints
	DroppedSeries    int64   // series points over MaxSeriesTotal, not kept
	DroppedSnapshots int64   // policy snapshots over MaxSnapshots or MaxSnapshotBytes, not kept
	DroppedNotes     int64   // story notes over MaxNotes, not kept
	DroppedTables    int64   // placement tables over MaxTableRows, not kept (their notes are)
	SnapshotsUntilS  float64 // time of the last snapshot kept
}

// RecorderCaps override the recorder's caps (zero fields keep the
// defaults MaxUtilPoints, MaxIntervals, MaxSeriesPoints, MaxSeriesTotal).
type RecorderCaps struct {
	UtilPoints, Intervals, SeriesPoints, SeriesTotal int
}

func (c RecorderCaps) withDefaults() RecorderCaps {
	set := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	set(&c.UtilPoints, MaxUtilPoints)
	set(&c.Intervals, MaxIntervals)
	set(&c.SeriesPoints, MaxSeriesPoints)
	set(&c.SeriesTotal, MaxSeriesTotal)
	return c
}

// Notes says in plain sentences what the recorder summarised or left out
// to stay within its caps; nil when it kept everything.
func (r *Result) Notes() []string {
	var out []string
	st := r.Stats
	if st.UtilThinned > 0 {
		out = append(out, fmt.Sprintf("utilisation over time was recorded at a coarser grain (every other step merged %d times, to stay within the recorder's cap); the utilisation metric stays exact", st.UtilThinned))
	}
	if st.DroppedIntervals > 0 {
		out = append(out, fmt.Sprintf("%d GPU intervals beyond the recorder's cap were not kept: the Gantt chart and the timeline cover only t ≤ %.0f s", st.DroppedIntervals, st.IntervalsUntilS))
	}
	if st.DroppedLog > 0 {
		out = append(out, fmt.Sprintf("the decision log keeps its first entries; %d later entries were not kept", st.DroppedLog))
	}
	if st.SeriesThinned > 0 {
		out = append(out, fmt.Sprintf("long series were thinned %d times (every other point dropped) to stay within the recorder's cap", st.SeriesThinned))
	}
	if st.DroppedSeries > 0 {
		out = append(out, fmt.Sprintf("%d series points beyond the recorder's cap were not kept", st.DroppedSeries))
	}
	if st.DroppedNotes > 0 {
		out = append(out, fmt.Sprintf("the jobs' stories keep their first %d records; %d later ones were not kept", MaxNotes, st.DroppedNotes))
	}
	if st.DroppedTables > 0 {
		out = append(out, fmt.Sprintf("the tables of candidate servers were kept for the first placement decisions only; %d later ones were not kept", st.DroppedTables))
	}
	if st.DroppedSnapshots > 0 {
		out = append(out, fmt.Sprintf("the policy's decision snapshots stop at t = %.0f s, the recorder's cap; %d later ones were not kept", st.SnapshotsUntilS, st.DroppedSnapshots))
	}
	return out
}

// Result is everything a run recorded.
type Result struct {
	Jobs        []JobRecord
	Intervals   []Interval
	Utilization []UtilPoint
	Log         []Decision
	Series      []Series // time series policies recorded (see State.Record)
	Snapshots   []Snapshot
	// Story holds the run's notes in time order and Tables the placement
	// decisions they point to, when the run asked for stories
	// (Config.Stories).
	Story  []story.Note
	Tables []story.Placement
	Stats  Stats
	// Splits, by job, under perf models that split iteration times
	// (perf.Splitter); nil for other models.
	Splits []JobSplit
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
	if !s.keepLog() {
		return
	}
	d := Decision{TimeS: s.now, Job: job}
	switch {
	case immutable(args):
		switch {
		case len(args) == 0 && strings.IndexByte(format, '%') < 0:
			d.note.Name = format // its own text: nothing to fill in
		case format != "":
			// the caller may reuse its slice: the note keeps a copy
			f := &fmtNote{format: format}
			f.args = append(f.inline[:0], args...)
			d.w = f
		}
	default:
		d.note.Name = fmt.Sprintf(format, args...) // a slice or pointer may change before it is read
	}
	s.log.add(d)
}

// logFunc appends an entry whose text fn makes when the entry is read.
func (s *State) logFunc(job workload.JobID, fn func() string) {
	if s.keepLog() {
		s.log.add(Decision{TimeS: s.now, Job: job, w: funcNote(fn)})
	}
}

// logNote appends an entry whose text w writes from n when it is read.
func (s *State) logNote(job workload.JobID, w NoteWriter, n Note) {
	if s.keepLog() {
		s.log.add(Decision{TimeS: s.now, Job: job, w: w, note: n})
	}
}

// keepLog reports whether a new log entry is kept, counting it as
// dropped when the log is full.
func (s *State) keepLog() bool {
	if s.cfg.NoLog {
		return false
	}
	if s.log.n >= s.maxLog {
		s.res.Stats.DroppedLog++
		return false
	}
	return true
}

// immutable reports whether every argument is a value of a basic kind
// (numbers, strings, booleans, and named types of these), whose text
// cannot change between logging and formatting.
func immutable(args []any) bool {
	for _, a := range args {
		switch a.(type) {
		case string, int, float64, int32, int64, uint64, bool:
			continue
		}
		if a == nil {
			return false
		}
		switch reflect.TypeOf(a).Kind() {
		case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
			reflect.Float32, reflect.Float64, reflect.String:
			continue
		}
		return false
	}
	return true
}

// recordUtil appends a utilization step if the counts changed.
func (s *State) recordUtil() {
	if s.cfg.NoIntervals {
		return
	}
	u := s.res.Utilization
	cum := 0.0
	if n := len(u); n > 0 {
		last := &u[n-1]
		if last.BusyGPUs == s.busyGPUs && last.Slots == s.slots {
			return
		}
		if last.TimeS == s.now {
			last.BusyGPUs, last.Slots = s.busyGPUs, s.slots
			return
		}
		cum = last.BusyGPUSeconds + float64(last.BusyGPUs)*(s.now-last.TimeS)
	}
	if len(u) >= s.caps.UtilPoints {
		s.res.Utilization = thinUtil(u)
		s.res.Stats.UtilThinned++
	}
	if u := s.res.Utilization; len(u) == cap(u) {
		s.res.Utilization = growUtil(u, s.caps.UtilPoints)
	}
	// appending to s.res.Utilization itself, not to u, stores the length
	// alone when the array has room (as a GPU's residents do in occupy)
	s.res.Utilization = append(s.res.Utilization, UtilPoint{TimeS: s.now, BusyGPUs: s.busyGPUs, Slots: s.slots, BusyGPUSeconds: cum})
}

// growUtil moves the full steps u into an array of twice the room, at
// most limit steps (recordUtil thins them there, so they never need
// more). A run of rounds has many times more steps than jobs and
// outgrows the room it starts with (two per job), and append grows a
// large slice by a quarter: a Gavel point's steps were copied a dozen
// times on their way to the cap, each time into fresh memory whose every
// page was a fault. Doubling copies them about once. (Asking for huge
// pages here, as hugepages.Make does, helped a single run but cost a
// study of hundreds of runs in one process a quarter more CPU.)
func growUtil(u []UtilPoint, limit int) []UtilPoint {
	room := min(max(2*cap(u), 1024), max(limit, len(u)+1))
	return append(make([]UtilPoint, 0, room), u...)
}

// thinUtil keeps every other step and the last one, in place.
func thinUtil(u []UtilPoint) []UtilPoint {
	n := len(u)
	k := 0
	for i := 0; i < n; i += 2 {
		u[k] = u[i]
		k++
	}
	if (n-1)%2 != 0 {
		u[k] = u[n-1]
		k++
	}
	return u[:k]
}

// droppedPastCap counts an interval ending now as dropped, as
// recordInterval would, when an earlier one already was (the log only
// grows, so every later one past the cap is too), and reports whether it
// did. It inlines: in a large run release's loop over a job's GPUs then
// makes no call, around which it kept its values on the stack at every
// GPU.
func (s *State) droppedPastCap(since float64) bool {
	if s.res.Stats.DroppedIntervals > 0 && s.now > since {
		s.res.Stats.DroppedIntervals++
		return true
	}
	return false
}

// recordInterval records that job id held GPU g from since until now, or
// counts the interval as dropped once the recorder's cap is reached.
func (s *State) recordInterval(g cluster.GPUID, id workload.JobID, since float64) {
	if s.cfg.NoIntervals || s.cfg.NoGPUIntervals || s.now <= since {
		return
	}
	if s.ivs.n >= s.caps.Intervals {
		if s.res.Stats.DroppedIntervals == 0 {
			s.res.Stats.IntervalsUntilS = s.now
		}
		s.res.Stats.DroppedIntervals++
		return
	}
	s.ivs.add(Interval{GPU: g, Job: id, StartS: since, EndS: s.now})
}
