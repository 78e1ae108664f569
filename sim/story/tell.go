package story

import (
	"fmt"
	"sort"
	"strings"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/workload"
)

// Job is what a story needs of a job's record.
type Job struct {
	Name  string
	Model string
	GPUs  int
	// ArrivalS, StartS (first start) and FinishS are in seconds; StartS
	// and FinishS are negative when the job never started or finished.
	ArrivalS, StartS, FinishS float64
	// Unschedulable jobs can never run, for Reason.
	Unschedulable bool
	Reason        string
	Preemptions   int
	Migrations    int
}

// LogEntry is one entry of the run's decision log.
type LogEntry struct {
	T   float64
	Job workload.JobID // -1: about no one job
	Msg string
}

// Interval is one stretch of time a job held a GPU.
type Interval struct {
	GPU          cluster.GPUID
	Job          workload.JobID
	StartS, EndS float64
}

// Input is a run as its stories read it.
type Input struct {
	Jobs  []Job
	Notes []Note // in time order
	Log   []LogEntry
	// Intervals, when given, tell who shared a GPU with whom.
	Intervals []Interval
	// GPUName names a GPU as the Gantt chart's rows do ("s2/g0").
	GPUName func(cluster.GPUID) string
	// NumGPUs is the cluster's size: with Intervals, a story says how
	// many GPUs were free while the job waited.
	NumGPUs int
	// Cut says the run's notes stop early (they reached the recorder's
	// cap); NoNotes that the run kept none (it did not ask for stories).
	Cut, NoNotes bool
}

// Step is one line of a job's story.
type Step struct {
	T    float64
	Kind string // arrived, waited, blocked, skipped, started, why, preempted, paused, migrated, resized, shared, log, finished, unfinished, unschedulable
	Text string
	// Jobs are the other jobs the text names, in the order it names them.
	Jobs []workload.JobID
	// Table is the index of the step's placement decision in the run's
	// tables, or -1.
	Table int
	// GPUs are the GPUs the job holds after the step (started, migrated,
	// resized).
	GPUs []cluster.GPUID
}

// Story is one job's story.
type Story struct {
	Job     workload.JobID
	Name    string
	Model   string
	GPUs    int
	Summary string
	Steps   []Step
	// Missing says what the records do not cover, in a sentence; "" when
	// they cover everything.
	Missing string
}

// Index holds a run's records sorted for telling any of its jobs' stories.
type Index struct {
	in       Input
	byJob    [][]int32 // note indices by Job
	byOther  [][]int32 // Backfill note indices by Other
	blocks   []int32   // Blocks note indices, in time order
	starts   []int32   // fact note indices that give GPUs (start, migrate, resize), in time order
	logByJob [][]int32
	byGPU    [][]int32 // interval indices by GPU, by start time
	ivByJob  [][]int32
	busy     []busyStep // GPUs holding a job from each time on
	reasons  bool       // the policy records reasons (not facts only)
}

// busyStep says that from T on, Busy GPUs held at least one job.
type busyStep struct {
	T    float64
	Busy int
}

// NewIndex sorts a run's records once.
func NewIndex(in Input) *Index {
	n := len(in.Jobs)
	x := &Index{in: in, byJob: make([][]int32, n), byOther: make([][]int32, n), logByJob: make([][]int32, n)}
	valid := func(id workload.JobID) bool { return id >= 0 && int(id) < n }
	for i := range in.Notes {
		nt := &in.Notes[i]
		if valid(nt.Job) {
			x.byJob[nt.Job] = append(x.byJob[nt.Job], int32(i))
		}
		switch nt.Kind {
		case Backfill:
			if valid(nt.Other) {
				x.byOther[nt.Other] = append(x.byOther[nt.Other], int32(i))
			}
		case Blocks:
			x.blocks = append(x.blocks, int32(i))
		case Start, Migrate, Resize:
			x.starts = append(x.starts, int32(i))
		}
	}
	for i, e := range in.Log {
		if valid(e.Job) {
			x.logByJob[e.Job] = append(x.logByJob[e.Job], int32(i))
		}
	}
	if len(in.Intervals) > 0 {
		x.ivByJob = make([][]int32, n)
		maxGPU := 0
		for _, iv := range in.Intervals {
			maxGPU = max(maxGPU, int(iv.GPU)+1)
		}
		x.byGPU = make([][]int32, maxGPU)
		for i, iv := range in.Intervals {
			if iv.GPU >= 0 {
				x.byGPU[iv.GPU] = append(x.byGPU[iv.GPU], int32(i))
			}
			if valid(iv.Job) {
				x.ivByJob[iv.Job] = append(x.ivByJob[iv.Job], int32(i))
			}
		}
		for _, l := range x.byGPU {
			sort.SliceStable(l, func(a, b int) bool { return in.Intervals[l[a]].StartS < in.Intervals[l[b]].StartS })
		}
		x.busy = busySteps(in.Intervals, x.byGPU)
	}
	for i := range in.Notes {
		if !in.Notes[i].Kind.Fact() {
			x.reasons = true
			break
		}
	}
	return x
}

// busySteps is the number of GPUs holding at least one job over time,
// from the intervals (those of one GPU sorted by start).
func busySteps(ivs []Interval, byGPU [][]int32) []busyStep {
	type edge struct {
		t float64
		d int
	}
	var edges []edge
	for _, l := range byGPU {
		// merge the GPU's overlapping intervals (a shared GPU is busy once)
		for i := 0; i < len(l); {
			lo, hi := ivs[l[i]].StartS, ivs[l[i]].EndS
			j := i + 1
			for ; j < len(l) && ivs[l[j]].StartS <= hi; j++ {
				hi = max(hi, ivs[l[j]].EndS)
			}
			edges = append(edges, edge{lo, 1}, edge{hi, -1})
			i = j
		}
	}
	sort.Slice(edges, func(a, b int) bool { return edges[a].t < edges[b].t })
	var out []busyStep
	busy := 0
	for i, e := range edges {
		busy += e.d
		if i+1 < len(edges) && edges[i+1].t == e.t {
			continue
		}
		out = append(out, busyStep{e.t, busy})
	}
	return out
}

// mostFree is the most GPUs free at once in [from, to), or -1 when the
// index cannot say.
func (x *Index) mostFree(from, to float64) int {
	if x.busy == nil || x.in.NumGPUs <= 0 || !(to > from) {
		return -1
	}
	i := sort.Search(len(x.busy), func(k int) bool { return x.busy[k].T > from }) - 1
	least := 0 // busy before the first step: none
	if i >= 0 {
		least = x.busy[i].Busy
	}
	for k := i + 1; k < len(x.busy) && x.busy[k].T < to; k++ {
		least = min(least, x.busy[k].Busy)
	}
	return x.in.NumGPUs - least
}

// MostFree is the most GPUs free at once in [from, to), from the run's
// intervals, or -1 when the index cannot say (no intervals).
func (x *Index) MostFree(from, to float64) int { return x.mostFree(from, to) }

// NumJobs is the number of jobs of the run.
func (x *Index) NumJobs() int { return len(x.in.Jobs) }

// Blocking lists the run's head-of-line blocking notes in time order.
func (x *Index) Blocking() []Note {
	out := make([]Note, len(x.blocks))
	for i, k := range x.blocks {
		out[i] = x.in.Notes[k]
	}
	return out
}

// Notes lists the notes about job id (Note.Job), in time order.
func (x *Index) Notes(id workload.JobID) []Note {
	if id < 0 || int(id) >= len(x.byJob) {
		return nil
	}
	out := make([]Note, len(x.byJob[id]))
	for i, k := range x.byJob[id] {
		out[i] = x.in.Notes[k]
	}
	return out
}

// teller builds one story.
type teller struct {
	x     *Index
	id    workload.JobID
	job   *Job
	steps []Step
	held  []cluster.GPUID // what the job holds, as the facts go
	// the current wait: since when, and whether the job is waiting
	waitFrom float64
	waiting  bool
	reasons  bool // the policy gave reasons for this job
	starts   int
	// the last reason told, so that repeats widen it instead of adding
	// a step: its step, its note, the range of free GPUs it saw
	rStep    int
	rNote    *Note
	rLo, rHi int
}

// Story tells job id's story.
func (x *Index) Story(id workload.JobID) Story {
	if id < 0 || int(id) >= len(x.in.Jobs) {
		return Story{Job: id, Missing: fmt.Sprintf("there is no job %d in this run", id)}
	}
	j := &x.in.Jobs[id]
	t := &teller{x: x, id: id, job: j, waitFrom: j.ArrivalS, waiting: true}
	t.add(Step{T: j.ArrivalS, Kind: "arrived", Table: -1, Text: fmt.Sprintf("Arrived at %s, asking for %s.", at(j.ArrivalS), gpus(j.GPUs))})
	for _, k := range x.byJob[id] {
		nt := &x.in.Notes[k]
		if !nt.Kind.Fact() {
			t.reasons = true
		}
	}
	t.walk()
	t.end()
	st := Story{Job: id, Name: j.Name, Model: j.Model, GPUs: j.GPUs, Steps: t.steps, Summary: t.summary()}
	st.Missing = t.missing()
	return st
}

func (t *teller) add(s Step) {
	t.steps = append(t.steps, s)
}

// event is a note or a log entry in the order the story reads them.
type event struct {
	t     float64
	note  *Note // nil: a log entry
	log   *LogEntry
	order int // within an instant: waits, backfills and blocks first, then facts
}

// walk reads the job's notes, the notes of others about it and, when the
// policy gave no reasons, its log entries, in time order.
func (t *teller) walk() {
	x := t.x
	var evs []event
	for _, k := range x.byJob[t.id] {
		nt := &x.in.Notes[k]
		evs = append(evs, event{t: nt.T, note: nt, order: noteOrder(nt.Kind)})
	}
	for _, k := range x.byOther[t.id] {
		nt := &x.in.Notes[k]
		evs = append(evs, event{t: nt.T, note: nt, order: 0})
	}
	if !t.reasons {
		for _, k := range x.logByJob[t.id] {
			e := &x.in.Log[k]
			evs = append(evs, event{t: e.T, log: e, order: 3})
		}
	}
	sort.SliceStable(evs, func(a, b int) bool {
		if evs[a].t != evs[b].t {
			return evs[a].t < evs[b].t
		}
		return evs[a].order < evs[b].order
	})
	var passed []*Note // backfills past this job in the current wait
	for i := 0; i < len(evs); i++ {
		e := evs[i]
		if e.log != nil {
			t.add(Step{T: e.t, Kind: "log", Table: -1, Text: "The policy's log: " + e.log.Msg})
			continue
		}
		nt := e.note
		if nt.Other == t.id && nt.Kind == Backfill && nt.Job != t.id {
			passed = append(passed, nt)
			continue
		}
		switch nt.Kind {
		case Start, Migrate, Resize:
			if nt.Kind == Start {
				t.flushWait(nt.T, passed)
				passed = nil
			}
			// the reasons told at the same instant, after the fact
			var placed, backfill *Note
			for k := i + 1; k < len(evs) && evs[k].t == nt.T; k++ {
				if o := evs[k].note; o != nil && o.Job == t.id {
					switch o.Kind {
					case Placed:
						placed = o
					}
				}
			}
			for k := i - 1; k >= 0 && evs[k].t == nt.T; k-- {
				if o := evs[k].note; o != nil && o.Job == t.id && o.Kind == Backfill {
					backfill = o
				}
			}
			t.fact(nt, placed, backfill)
		case Preempt, Pause:
			var evicted *Note
			for k := i - 1; k >= 0 && evs[k].t == nt.T; k-- {
				if o := evs[k].note; o != nil && o.Job == t.id && o.Kind == Evicted {
					evicted = o
				}
			}
			t.stop(nt, evicted)
		case Blocks, Waits, Unplaced:
			t.reason(nt)
		case Why:
			t.rNote = nil
			t.add(Step{T: nt.T, Kind: "why", Table: -1, Text: capital(nt.Text) + "."})
		case Round:
			t.rNote = nil
			t.add(Step{T: nt.T, Kind: "waited", Table: -1,
				Text: fmt.Sprintf("It arrived between rounds: %s decides which jobs run only at its rounds, %s, so it waits at least until then.", nt.Key, nt.Text)})
		}
	}
	if t.waiting {
		end := t.job.FinishS
		if end < 0 {
			end = inf
		}
		t.flushWait(end, passed)
	}
}

func noteOrder(k Kind) int {
	switch k {
	case Evicted, Backfill, Blocks, Waits, Unplaced, Round:
		return 0
	case Placed, Why:
		return 2
	}
	return 1
}

var inf = 1e300

// flushWait ends a wait at time end: who blocked the queue meanwhile, and
// who skipped ahead.
func (t *teller) flushWait(end float64, passed []*Note) {
	if !t.waiting {
		return
	}
	before := len(t.steps)
	t.blockedBy(t.waitFrom, end)
	if len(passed) > 0 {
		t.skipped(passed)
	}
	if end > t.waitFrom && end < inf/2 {
		if first := t.firstReason(before); first < 0 {
			t.freeDuring(t.waitFrom, end, false)
		} else if first > t.waitFrom {
			t.freeDuring(t.waitFrom, first, true) // the stretch before the policy's first reason
		}
	}
}

// firstReason is the time of the first step since the wait began that
// says why the job waits, or -1 when none does.
func (t *teller) firstReason(from int) float64 {
	if !t.toldWait(from) {
		return -1
	}
	first := inf
	for _, s := range t.steps {
		switch s.Kind {
		case "blocked", "waited", "skipped", "log", "why":
			if s.T >= t.waitFrom {
				first = min(first, s.T)
			}
		}
	}
	return first
}

// toldWait reports whether the steps since index from say why the job
// waits.
func (t *teller) toldWait(from int) bool {
	for _, s := range t.steps[from:] {
		switch s.Kind {
		case "blocked", "waited", "skipped", "log", "why":
			return true
		}
	}
	for _, s := range t.steps {
		if (s.Kind == "blocked" || s.Kind == "waited") && s.T >= t.waitFrom {
			return true
		}
	}
	return false
}

// freeDuring says, from the intervals, how many GPUs were free while the
// job waited in [from, to) without a reason from its policy; part says
// that the policy gave its reasons from to on.
func (t *teller) freeDuring(from, to float64, part bool) {
	most := t.x.mostFree(from, to)
	if most < 0 || part && most >= t.job.GPUs {
		return // room enough, and the policy says why from to on
	}
	need := t.job.GPUs
	when := "While it waited"
	if part {
		when = "Until " + at(to)
	}
	var text string
	switch {
	case most == 0:
		text = when + ", every GPU was busy."
	case most < need:
		text = fmt.Sprintf("%s, at most %s free at once, fewer than the %d it needs.", when, isWere(most), need)
	default:
		text = fmt.Sprintf("%s, up to %s free at times, but the policy gave them to other jobs first.", when, isWere(most))
	}
	t.insert(Step{T: from, Kind: "waited", Table: -1, Text: text})
}

// insert puts a step among the others in time order, after those at its
// time.
func (t *teller) insert(s Step) {
	k := sort.Search(len(t.steps), func(i int) bool { return t.steps[i].T > s.T })
	t.steps = append(t.steps, Step{})
	copy(t.steps[k+1:], t.steps[k:])
	t.steps[k] = s
}

// blockedBy tells of the other jobs that blocked the queue while this one
// waited in [from, to): one step per stretch of one blocking job.
func (t *teller) blockedBy(from, to float64) {
	x := t.x
	i := sort.Search(len(x.blocks), func(k int) bool { return x.in.Notes[x.blocks[k]].T >= from })
	if i > 0 {
		// a job that blocked the queue before this one arrived, and still does
		if prev := &x.in.Notes[x.blocks[i-1]]; x.nextStart(prev.Job, prev.T) > from {
			i--
		}
	}
	for i < len(x.blocks) {
		first := &x.in.Notes[x.blocks[i]]
		if first.T >= to {
			return
		}
		if first.Job == t.id {
			i++
			continue
		}
		lo, hi := first.Free, first.Free
		k := i + 1
		for ; k < len(x.blocks); k++ {
			nt := &x.in.Notes[x.blocks[k]]
			if nt.Job != first.Job || nt.T >= to {
				break
			}
			lo, hi = min(lo, nt.Free), max(hi, nt.Free)
		}
		until := to
		if s := x.nextStart(first.Job, first.T); s < until {
			until = s
		}
		if k < len(x.blocks) {
			if nt := &x.in.Notes[x.blocks[k]]; nt.T < until {
				until = nt.T
			}
		}
		head := x.name(first.Job)
		var why string
		if first.Text != "" {
			why = fmt.Sprintf("%s was first in line and could not be placed (%s)", head, first.Text)
		} else {
			why = fmt.Sprintf("%s was first in line, needing %s with only %s free", head, gpus(first.Need), count(lo, hi))
		}
		span := "from " + at(max(first.T, from))
		if until < inf/2 {
			span += " to " + at(until)
		}
		t.insert(Step{T: max(first.T, from), Kind: "blocked", Table: -1, Jobs: []workload.JobID{first.Job},
			Text: fmt.Sprintf("Blocked %s: %s, so no job behind it could start. The queue keeps strict order: this is head-of-line blocking.", span, why)})
		i = k
	}
}

// nextStart is the time job id next started after t, or inf.
func (x *Index) nextStart(id workload.JobID, t float64) float64 {
	for _, k := range x.byJob[id] {
		if nt := &x.in.Notes[k]; nt.Kind == Start && nt.T >= t {
			return nt.T
		}
	}
	return inf
}

// skipped tells of the later jobs that started ahead of this one by
// backfilling while it waited.
func (t *teller) skipped(passed []*Note) {
	const listed = 6
	var names []string
	var ids []workload.JobID
	seen := map[workload.JobID]bool{}
	for _, nt := range passed {
		if seen[nt.Job] {
			continue
		}
		seen[nt.Job] = true
		ids = append(ids, nt.Job)
		if len(names) < listed {
			names = append(names, fmt.Sprintf("%s (at %s, %s free)", t.x.name(nt.Job), at(nt.T), gpus(nt.Free)))
		}
	}
	list := strings.Join(names, ", ")
	if len(ids) > listed {
		list += fmt.Sprintf(" and %d more", len(ids)-listed)
	}
	first := passed[0]
	what := "a later job skipped ahead of it by backfilling: "
	if len(ids) > 1 {
		what = fmt.Sprintf("%d later jobs skipped ahead of it by backfilling: ", len(ids))
	}
	t.insert(Step{T: first.T, Kind: "skipped", Table: -1, Jobs: ids,
		Text: fmt.Sprintf("While it waited for %s, %s%s. Backfilling starts a later job on GPUs the first in line cannot use yet.", gpus(first.Need), what, list)})
}

// reason tells why the job waits, as its policy said; the same reason
// told again (with other GPUs free) widens the step before.
func (t *teller) reason(nt *Note) {
	if p := t.rNote; p != nil && p.Kind == nt.Kind && p.Need == nt.Need && p.Text == nt.Text && t.rStep == len(t.steps)-1 {
		t.rLo, t.rHi = min(t.rLo, nt.Free), max(t.rHi, nt.Free)
		t.steps[t.rStep].Text = reasonText(p, t.rLo, t.rHi)
		return
	}
	kind := "waited"
	if nt.Kind == Blocks {
		kind = "blocked"
	}
	t.rNote, t.rLo, t.rHi, t.rStep = nt, nt.Free, nt.Free, len(t.steps)
	t.add(Step{T: nt.T, Kind: kind, Text: reasonText(nt, nt.Free, nt.Free), Table: nt.Table})
}

func reasonText(nt *Note, lo, hi int) string {
	key := ""
	if nt.Key != "" {
		key = " (" + nt.Key + ")"
	}
	switch nt.Kind {
	case Blocks:
		if nt.Text != "" {
			return fmt.Sprintf("First in line%s, but the placement accepts no set of free GPUs: %s. The queue keeps strict order, so every job behind it waits too: head-of-line blocking.", key, nt.Text)
		}
		return fmt.Sprintf("First in line%s, it needs %s while %s free, so it waits; the queue keeps strict order, so every job behind it waits too: head-of-line blocking.", key, gpus(nt.Need), freeRange(lo, hi))
	case Waits:
		return fmt.Sprintf("Its turn came%s with %s for it; it needs %s, so it waits and the scheduler goes on to later jobs.", key, leftRange(lo, hi), gpus(nt.Need))
	}
	return fmt.Sprintf("%s free, enough for its %d, but the placement accepts no set of them: %s.", capital(freeRange(lo, hi)), nt.Need, nt.Text)
}

// fact tells a start, a move or a resize.
func (t *teller) fact(nt, placed, backfill *Note) {
	t.rNote = nil
	where := t.x.where(nt.GPUs)
	table := -1
	why := ""
	if placed != nil {
		table = placed.Table
		if placed.Key != "" {
			why = " Its place in the order: " + placed.Key + "."
		}
	}
	var ids []workload.JobID
	switch nt.Kind {
	case Start:
		t.starts++
		verb := "Started"
		if t.starts > 1 {
			verb = "Restarted"
		}
		text := fmt.Sprintf("%s at %s on %s, %s.", verb, at(nt.T), where, afterWaiting(nt.T-t.waitFrom, t.starts > 1))
		if backfill != nil {
			text += fmt.Sprintf(" It skipped ahead of %s by backfilling: %s needs %s and only %s free.", t.x.name(backfill.Other), t.x.name(backfill.Other), gpus(backfill.Need), isAre(backfill.Free))
			ids = append(ids, backfill.Other)
		}
		if table >= 0 {
			text += " The table shows every server the placement considered."
		}
		t.add(Step{T: nt.T, Kind: "started", Text: text + why, Table: table, GPUs: nt.GPUs, Jobs: ids})
		t.waiting = false
		t.shared(nt)
	case Migrate:
		t.add(Step{T: nt.T, Kind: "migrated", Table: -1, GPUs: nt.GPUs,
			Text: fmt.Sprintf("Moved at %s from %s to %s.", at(nt.T), t.x.where(t.held), where)})
		t.shared(nt)
	case Resize:
		t.add(Step{T: nt.T, Kind: "resized", Table: -1, GPUs: nt.GPUs,
			Text: fmt.Sprintf("Resized at %s from %s to %s.", at(nt.T), gpus(len(t.held)), where)})
		t.shared(nt)
	}
	t.held = nt.GPUs
}

// stop tells a preemption or a pause: why, and who took the GPUs.
func (t *teller) stop(nt, evicted *Note) {
	t.rNote = nil
	takers := t.x.takers(t.id, nt.T, t.held)
	verb, kind := "Preempted", "preempted"
	if nt.Kind == Pause {
		verb, kind = "Paused until the policy's next round", "paused"
	}
	text := fmt.Sprintf("%s at %s, keeping its progress.", verb, at(nt.T))
	if evicted != nil && evicted.Key != "" {
		text += " Its place in the order (" + evicted.Key + ") came after the jobs the scheduler chose to run."
	}
	if len(takers) > 0 {
		names := make([]string, len(takers))
		for i, o := range takers {
			names[i] = t.x.name(o)
		}
		text += " Its GPUs went to " + joinAnd(names) + "."
	}
	t.add(Step{T: nt.T, Kind: kind, Text: text, Jobs: takers, Table: -1})
	t.held = nil
	t.waiting, t.waitFrom = true, nt.T
}

// takers are the jobs other than id that took any of gpus at time tm.
func (x *Index) takers(id workload.JobID, tm float64, gpus []cluster.GPUID) []workload.JobID {
	var out []workload.JobID
	i := sort.Search(len(x.starts), func(k int) bool { return x.in.Notes[x.starts[k]].T >= tm })
	for ; i < len(x.starts); i++ {
		nt := &x.in.Notes[x.starts[i]]
		if nt.T != tm {
			break
		}
		if nt.Job != id && overlaps(nt.GPUs, gpus) && !containsJob(out, nt.Job) {
			out = append(out, nt.Job)
		}
	}
	return out
}

// shared tells who else held the GPUs the job took, from the intervals.
func (t *teller) shared(nt *Note) {
	x := t.x
	if x.byGPU == nil {
		return
	}
	var others []workload.JobID
	var where []string
	for _, g := range nt.GPUs {
		if int(g) >= len(x.byGPU) {
			continue
		}
		for _, k := range x.byGPU[g] {
			iv := &x.in.Intervals[k]
			if iv.Job != t.id && iv.StartS <= nt.T && nt.T < iv.EndS {
				if !containsJob(others, iv.Job) {
					others = append(others, iv.Job)
				}
				if name := x.gpuName(g); !containsString(where, name) {
					where = append(where, name)
				}
			}
		}
	}
	if len(others) == 0 {
		return
	}
	names := make([]string, len(others))
	for i, o := range others {
		names[i] = x.name(o)
	}
	t.add(Step{T: nt.T, Kind: "shared", Table: -1, Jobs: others,
		Text: fmt.Sprintf("It shares %s with %s, already running there: jobs on one GPU slow each other down.", joinAnd(where), joinAnd(names))})
}

// end tells how the job's story ends.
func (t *teller) end() {
	j := t.job
	switch {
	case j.Unschedulable:
		t.add(Step{T: j.ArrivalS, Kind: "unschedulable", Table: -1, Text: "It can never run: " + j.Reason + "."})
	case j.FinishS >= 0:
		ran := ""
		if j.StartS > j.ArrivalS {
			ran = fmt.Sprintf(" (it waited %s before its first start)", results.Duration(j.StartS-j.ArrivalS))
		}
		t.add(Step{T: j.FinishS, Kind: "finished", Table: -1,
			Text: fmt.Sprintf("Finished at %s. Its job completion time (JCT), from arrival to finish, is %s%s.", at(j.FinishS), results.Duration(j.FinishS-j.ArrivalS), ran)})
	default:
		t.add(Step{T: j.ArrivalS, Kind: "unfinished", Table: -1, Text: "It had not finished when the run ended."})
	}
	t.fallback()
}

// fallback tells from the job's record what the notes do not.
func (t *teller) fallback() {
	j := t.job
	if t.starts > 0 || j.StartS < 0 {
		return
	}
	text := fmt.Sprintf("Started at %s, %s.", at(j.StartS), afterWaiting(j.StartS-j.ArrivalS, false))
	if j.Preemptions > 0 {
		text += fmt.Sprintf(" It was preempted %s.", times(j.Preemptions))
	}
	if j.Migrations > 0 {
		text += fmt.Sprintf(" It moved %s.", times(j.Migrations))
	}
	t.insert(Step{T: j.StartS, Kind: "started", Table: -1, Text: text})
}

// missing says what the records leave out.
func (t *teller) missing() string {
	in := t.x.in
	switch {
	case in.NoNotes:
		return "This run kept no records of its decisions beyond each job's times; run it again in the page to see why."
	case t.starts == 0 && t.job.StartS >= 0 && in.Cut:
		return "This run's records stop before this job started (the recorder keeps a run's first records only), so its start and its reasons are told from its times alone."
	}
	return ""
}

// summary is the story in one sentence.
func (t *teller) summary() string {
	j := t.job
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s, %s) arrived at %s", j.Name, j.Model, gpus(j.GPUs), at(j.ArrivalS))
	switch {
	case j.Unschedulable:
		b.WriteString(" and can never run.")
		return b.String()
	case j.StartS >= 0:
		fmt.Fprintf(&b, ", waited %s", results.Duration(j.StartS-j.ArrivalS))
	}
	if j.Preemptions > 0 {
		fmt.Fprintf(&b, ", was preempted %s", times(j.Preemptions))
	}
	if j.FinishS >= 0 {
		fmt.Fprintf(&b, " and finished at %s: JCT %s.", at(j.FinishS), results.Duration(j.FinishS-j.ArrivalS))
	} else {
		b.WriteString(" and had not finished when the run ended.")
	}
	return b.String()
}

func (x *Index) name(id workload.JobID) string {
	if id >= 0 && int(id) < len(x.in.Jobs) {
		return x.in.Jobs[id].Name
	}
	return fmt.Sprintf("job %d", id)
}

func (x *Index) gpuName(g cluster.GPUID) string {
	if x.in.GPUName != nil {
		return x.in.GPUName(g)
	}
	return fmt.Sprintf("GPU %d", g)
}

// where names a set of GPUs: "GPU s2/g0", "4 GPUs (s2/g0, s2/g1, s2/g2,
// s2/g3)", or for many, their count.
func (x *Index) where(g []cluster.GPUID) string {
	switch {
	case len(g) == 0:
		return "no GPUs"
	case len(g) == 1:
		return "GPU " + x.gpuName(g[0])
	case len(g) > 8:
		return fmt.Sprintf("%d GPUs (%s, …)", len(g), x.gpuName(g[0]))
	}
	names := make([]string, len(g))
	for i, h := range g {
		names[i] = x.gpuName(h)
	}
	return fmt.Sprintf("%d GPUs (%s)", len(g), strings.Join(names, ", "))
}

func at(t float64) string { return results.Duration(t) }

// afterWaiting is "after waiting 2.0 min", or for no wait "as soon as it
// arrived" (restarted: "at once").
func afterWaiting(d float64, restart bool) string {
	switch {
	case d > 0:
		return "after waiting " + results.Duration(d)
	case restart:
		return "at once"
	}
	return "as soon as it arrived"
}

func gpus(n int) string {
	if n == 1 {
		return "1 GPU"
	}
	return fmt.Sprintf("%d GPUs", n)
}

// isAre is "1 GPU is", "3 GPUs are", "no GPU is".
func isAre(n int) string {
	switch n {
	case 0:
		return "no GPU is"
	case 1:
		return "1 GPU is"
	}
	return fmt.Sprintf("%d GPUs are", n)
}

// count is "3", or "1 to 7" for a range.
func count(lo, hi int) string {
	if lo == hi {
		return fmt.Sprint(lo)
	}
	return fmt.Sprintf("%d to %d", lo, hi)
}

// isWere is "1 GPU was", "3 GPUs were".
func isWere(n int) string {
	if n == 1 {
		return "1 GPU was"
	}
	return fmt.Sprintf("%d GPUs were", n)
}

// freeRange is "3 GPUs are free" for one count, "2 to 5 GPUs are" for
// several.
func freeRange(lo, hi int) string {
	if lo == hi {
		return isAre(lo)
	}
	return fmt.Sprintf("%d to %d GPUs are", lo, hi)
}

// leftRange is "3 GPUs left", "2 to 5 GPUs left".
func leftRange(lo, hi int) string {
	if lo == hi {
		if lo == 0 {
			return "no GPU left"
		}
		return gpus(lo) + " left"
	}
	return fmt.Sprintf("%d to %d GPUs left", lo, hi)
}

func times(n int) string {
	if n == 1 {
		return "once"
	}
	return fmt.Sprintf("%d times", n)
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func joinAnd(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

func overlaps(a, b []cluster.GPUID) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

func containsJob(xs []workload.JobID, id workload.JobID) bool {
	for _, x := range xs {
		if x == id {
			return true
		}
	}
	return false
}

func containsString(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
