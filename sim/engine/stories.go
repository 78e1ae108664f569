package engine

import (
	"fmt"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/story"
	"github.com/schedlab/schedlab/sim/workload"
)

// Story caps: beyond them notes and placement tables are counted
// (Stats.DroppedNotes, Stats.DroppedTables), not kept. A note is a few
// tens of bytes and a table row about a hundred, so a run keeps at most
// about 20 MB of them.
const (
	MaxNotes     = 1 << 18
	MaxTableRows = 1 << 16
)

// storyLog is what a run with stories keeps beyond Result.Story and
// Result.Tables.
type storyLog struct {
	only      []bool // StoryOnly as a set by job ID; nil: every job
	tableRows int
}

func newStoryLog(cfg Config) storyLog {
	var l storyLog
	if cfg.Stories && cfg.StoryOnly != nil {
		l.only = make([]bool, len(cfg.Jobs))
		for _, id := range cfg.StoryOnly {
			if id >= 0 && int(id) < len(l.only) {
				l.only[id] = true
			}
		}
	}
	return l
}

// Telling reports whether the run keeps stories (Config.Stories), so that
// a policy can skip working out reasons nobody will read.
func (s *State) Telling() bool { return s.cfg.Stories && !s.cfg.NoLog }

// Explaining reports whether a placement table for job id would be kept
// (TellTable): the run keeps stories, of this job, and its tables are not
// full. A policy asks before laying a decision out.
func (s *State) Explaining(id workload.JobID) bool {
	return s.Telling() && s.story.tableRows < MaxTableRows && s.storyOf(id)
}

func (s *State) storyOf(id workload.JobID) bool {
	return s.story.only == nil || (id >= 0 && int(id) < len(s.story.only) && s.story.only[id])
}

// keeps reports whether a note is kept under Config.StoryOnly: notes about
// the chosen jobs, and those the chosen jobs' stories read about others
// (who blocked the queue, who took their GPUs).
func (s *State) keeps(n *story.Note) bool {
	return s.story.only == nil || s.storyOf(n.Job) || s.storyOf(n.Other) || n.Kind == story.Blocks || n.Kind == story.Start
}

// Tell records a note at the current time (its T and Table are set
// here). Without Config.Stories it does nothing; beyond MaxNotes it
// counts the note as dropped.
func (s *State) Tell(n story.Note) {
	if !s.Telling() {
		return
	}
	n.T, n.Table = s.now, -1
	if !s.keeps(&n) {
		return
	}
	if len(s.res.Story) >= MaxNotes {
		s.res.Stats.DroppedNotes++
		return
	}
	s.res.Story = append(s.res.Story, n)
}

// TellTable records a note with its placement decision laid out. A table
// that would pass MaxTableRows, or that is of a job whose story is not
// kept, is counted as dropped and the note is kept without it.
func (s *State) TellTable(n story.Note, table story.Placement) {
	if !s.Telling() {
		return
	}
	if !s.Explaining(n.Job) {
		if s.storyOf(n.Job) {
			s.res.Stats.DroppedTables++
		}
		s.Tell(n)
		return
	}
	if len(s.res.Story) >= MaxNotes {
		s.res.Stats.DroppedNotes++
		return
	}
	s.story.tableRows += max(1, len(table.Servers))
	n.T, n.Table = s.now, len(s.res.Tables)
	s.res.Tables = append(s.res.Tables, table)
	s.res.Story = append(s.res.Story, n)
}

// TellRound records that job id, which just arrived, waits for the
// policy's next round at nextS: policy (its name) decides who runs only
// at its rounds, every roundS seconds. A round policy calls it for each
// arrival between rounds.
func (s *State) TellRound(id workload.JobID, policy string, roundS, nextS float64) {
	if !s.Telling() {
		return
	}
	s.Tell(story.Note{Job: id, Kind: story.Round, Other: -1, Free: s.freeTotal, Key: policy,
		Text: fmt.Sprintf("every %s; the next is at %s", results.Duration(roundS), results.Duration(nextS))})
}

// TellWhy records the policy's own reason for what happens to job id now
// (story.Why), formatted only when the run keeps stories.
func (s *State) TellWhy(id workload.JobID, format string, args ...any) {
	if !s.Telling() {
		return
	}
	s.Tell(story.Note{Job: id, Kind: story.Why, Other: -1, Free: s.freeTotal, Text: fmt.Sprintf(format, args...)})
}

// tellFact records one of the engine's own facts about job id.
func (s *State) tellFact(kind story.Kind, id workload.JobID, gpus []cluster.GPUID) {
	if !s.Telling() {
		return
	}
	var held []cluster.GPUID
	if gpus != nil {
		held = append(make([]cluster.GPUID, 0, len(gpus)), gpus...) // the caller's slice is scratch
	}
	s.Tell(story.Note{Job: id, Kind: kind, Other: -1, GPUs: held, Need: len(gpus), Free: s.freeTotal})
}

// StoryInput is a finished run as its jobs' stories read it (see
// story.NewIndex); c is the run's cluster, for the GPUs' names.
func (r *Result) StoryInput(c *cluster.Cluster) story.Input {
	in := story.Input{Notes: r.Story, Cut: r.Stats.DroppedNotes > 0, NoNotes: r.Story == nil, NumGPUs: c.NumGPUs(),
		GPUName: func(g cluster.GPUID) string {
			if int(g) < len(c.GPUs) {
				return fmt.Sprintf("s%d/g%d", c.GPUs[g].Server, c.GPUs[g].Slot)
			}
			return fmt.Sprintf("GPU %d", g)
		}}
	in.Jobs = make([]story.Job, len(r.Jobs))
	for i := range r.Jobs {
		j := &r.Jobs[i]
		in.Jobs[i] = story.Job{Name: j.Name, Model: j.Model, GPUs: j.GPUs, ArrivalS: j.ArrivalS, StartS: j.FirstStartS, FinishS: j.FinishS,
			Unschedulable: j.Status == Unschedulable, Reason: j.Reason, Preemptions: j.Preemptions, Migrations: j.Migrations}
	}
	in.Log = make([]story.LogEntry, len(r.Log))
	for i := range r.Log {
		in.Log[i] = story.LogEntry{T: r.Log[i].TimeS, Job: r.Log[i].Job, Msg: r.Log[i].Msg()}
	}
	in.Intervals = make([]story.Interval, len(r.Intervals))
	for i, iv := range r.Intervals {
		in.Intervals[i] = story.Interval{GPU: iv.GPU, Job: iv.Job, StartS: iv.StartS, EndS: iv.EndS}
	}
	return in
}
