package conformance

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/story"
	"github.com/schedlab/schedlab/sim/workload"
)

// CheckStories tells the story of every job of a run that kept stories
// (engine.Config.Stories) and says what in one does not match the job's
// record or the GPU intervals the Gantt chart draws, or "". Every story
// begins with the arrival and ends with the finish (or says the job can
// never run); it has as many starts, preemptions, moves and resizes as the
// record counts, the first start at the record's time on the GPUs whose
// intervals begin then, and each placement table it shows is the job's and
// chose the GPUs it started on. A policy that lays its decisions out (the
// queue and priority schedulers) does so for every start.
func CheckStories(c *cluster.Cluster, res *engine.Result) string {
	if res.Story == nil && len(res.Jobs) > 0 {
		return "the run kept no story notes"
	}
	x := story.NewIndex(res.StoryInput(c))
	explains := false
	for _, n := range res.Story {
		if n.Kind == story.Placed { // a queue or priority scheduler: it tables every start
			explains = true
			break
		}
	}
	for i := range res.Jobs {
		if msg := checkStory(x, res, &res.Jobs[i], explains); msg != "" {
			return fmt.Sprintf("the story of job %s: %s", res.Jobs[i].Name, msg)
		}
	}
	return ""
}

func checkStory(x *story.Index, res *engine.Result, r *engine.JobRecord, explains bool) string {
	st := x.Story(r.Job)
	steps := st.Steps
	if len(steps) < 2 {
		return fmt.Sprintf("%d steps, want at least its arrival and its end", len(steps))
	}
	if steps[0].Kind != "arrived" || steps[0].T != r.ArrivalS {
		return fmt.Sprintf("it begins with %s at %v, not its arrival at %v", steps[0].Kind, steps[0].T, r.ArrivalS)
	}
	count := map[string]int{}
	var first *story.Step
	for i := range steps {
		s := &steps[i]
		count[s.Kind]++
		if i > 0 && s.T < steps[i-1].T && s.Kind != "unfinished" && s.Kind != "unschedulable" {
			return fmt.Sprintf("step %d (%s at %v) comes before step %d (%s at %v)", i, s.Kind, s.T, i-1, steps[i-1].Kind, steps[i-1].T)
		}
		if s.Kind == "started" && first == nil {
			first = s
		}
		if msg := checkTable(res, r, s, explains); msg != "" {
			return msg
		}
	}
	for kind, want := range map[string]int{"started": r.Starts, "preempted": r.Preemptions, "migrated": r.Migrations, "resized": r.Resizes} {
		if count[kind] != want {
			return fmt.Sprintf("%d %s steps, the record counts %d", count[kind], kind, want)
		}
	}
	if r.Starts > 0 {
		if first.T != r.FirstStartS {
			return fmt.Sprintf("it first started at %v, the record says %v", first.T, r.FirstStartS)
		}
		if got, want := sorted(first.GPUs), startIntervals(res, r.Job, r.FirstStartS); res.Stats.DroppedIntervals == 0 && !slices.Equal(got, want) {
			return fmt.Sprintf("it first started on GPUs %v, the intervals that begin then are on %v", got, want)
		}
	}
	last := steps[len(steps)-1]
	switch r.Status {
	case engine.Finished:
		if last.Kind != "finished" || last.T != r.FinishS {
			return fmt.Sprintf("it ends with %s at %v, not its finish at %v", last.Kind, last.T, r.FinishS)
		}
	case engine.Unschedulable:
		if count["unschedulable"] != 1 {
			return "it does not say that the job can never run"
		}
	}
	return ""
}

// checkTable checks a step's placement table against the job and the
// GPUs it started on.
func checkTable(res *engine.Result, r *engine.JobRecord, s *story.Step, explains bool) string {
	if s.Table < 0 {
		if s.Kind == "started" && explains && res.Stats.DroppedTables == 0 {
			return fmt.Sprintf("its start at %v has no placement table, though the policy lays its decisions out", s.T)
		}
		return ""
	}
	if s.Table >= len(res.Tables) {
		return fmt.Sprintf("step %s points to table %d of %d", s.Kind, s.Table, len(res.Tables))
	}
	tb := &res.Tables[s.Table]
	switch {
	case tb.Job != r.Job:
		return fmt.Sprintf("its %s step at %v shows the table of job %d", s.Kind, s.T, tb.Job)
	case s.Kind == "started" && !slices.Equal(sorted(tb.Chosen), sorted(s.GPUs)):
		return fmt.Sprintf("it started on %v but its table chose %v", s.GPUs, tb.Chosen)
	case s.Kind != "started" && tb.Chosen != nil:
		return fmt.Sprintf("its %s step at %v shows a table that chose GPUs %v", s.Kind, s.T, tb.Chosen)
	}
	return ""
}

// startIntervals are the GPUs of job id's intervals that begin at t.
func startIntervals(res *engine.Result, id workload.JobID, t float64) []cluster.GPUID {
	var out []cluster.GPUID
	for _, iv := range res.Intervals {
		if iv.Job == id && iv.StartS == t {
			out = append(out, iv.GPU)
		}
	}
	return sorted(out)
}

func sorted(g []cluster.GPUID) []cluster.GPUID {
	out := slices.Clone(g)
	slices.Sort(out)
	return out
}

// CheckExplained says which start, preemption or wait of a run that kept
// stories its policy left unexplained, or "". A start or a preemption is
// explained by a reason note about the job at that instant (placed,
// backfill, evicted, why) or by the policy's own log entry about the job then;
// a wait (from the arrival or a stop to the next start) during which
// GPUs enough for the job were free at some time by a reason note
// about the job during it (blocks, waits, unplaced, round, why), a job that skipped
// ahead of it by backfilling, another job that blocked the queue, or a log
// entry about the job during it. The engine's facts and what a story
// infers from the GPU intervals do not count: they say what happened, not
// why; a wait during which fewer GPUs than the job needs were ever free
// at once needs no reason from the policy (the story says so from the
// intervals).
func CheckExplained(c *cluster.Cluster, res *engine.Result) string {
	if res.Story == nil && len(res.Jobs) > 0 {
		return "the run kept no story notes"
	}
	if res.Stats.DroppedNotes > 0 || res.Stats.DroppedLog > 0 {
		return "" // the records stop early: nothing to hold the policy to
	}
	n := len(res.Jobs)
	logAt := make([][]float64, n) // the times of each job's log entries
	for _, d := range res.Log {
		if d.Job >= 0 && int(d.Job) < n {
			logAt[d.Job] = append(logAt[d.Job], d.TimeS)
		}
	}
	notes := make([][]*story.Note, n) // each job's notes and those naming it as Other
	var blocks []*story.Note
	for i := range res.Story {
		nt := &res.Story[i]
		if nt.Job >= 0 && int(nt.Job) < n {
			notes[nt.Job] = append(notes[nt.Job], nt)
		}
		if nt.Kind == story.Backfill && nt.Other >= 0 && int(nt.Other) < n {
			notes[nt.Other] = append(notes[nt.Other], nt)
		}
		if nt.Kind == story.Blocks {
			blocks = append(blocks, nt)
		}
	}
	x := story.NewIndex(res.StoryInput(c))
	if res.Stats.DroppedIntervals > 0 {
		x = nil // the intervals stop early: every wait needs a reason
	}
	for id := range n {
		if msg := explained(res, x, workload.JobID(id), notes[id], logAt[id], blocks); msg != "" {
			return fmt.Sprintf("job %s: %s", res.Jobs[id].Name, msg)
		}
	}
	return ""
}

// explained checks one job's starts, stops and waits (see CheckExplained).
func explained(res *engine.Result, x *story.Index, id workload.JobID, notes []*story.Note, logAt []float64, blocks []*story.Note) string {
	logged := func(from, to float64, closed bool) bool {
		for _, t := range logAt {
			if t >= from && (t < to || closed && t == to) {
				return true
			}
		}
		return false
	}
	noted := func(t float64, kinds ...story.Kind) bool {
		for _, nt := range notes {
			if nt.T == t && nt.Job == id && slices.Contains(kinds, nt.Kind) {
				return true
			}
		}
		return false
	}
	waitExplained := func(from, to float64) bool {
		if x != nil {
			if most := x.MostFree(from, to); most >= 0 && most < res.Jobs[id].GPUs {
				return true // never room enough: no choice to explain
			}
		}
		if logged(from, to, false) {
			return true
		}
		for _, nt := range notes {
			if nt.T < from || nt.T > to {
				continue
			}
			switch {
			case nt.Job == id && (nt.Kind == story.Blocks || nt.Kind == story.Waits || nt.Kind == story.Unplaced || nt.Kind == story.Round || nt.Kind == story.Why):
				return true
			case nt.Other == id && nt.Kind == story.Backfill:
				return true
			}
		}
		var head *story.Note // the last job to block the queue before the wait ended
		for _, nt := range blocks {
			if nt.T >= to {
				break
			}
			if nt.Job != id {
				head = nt
			}
		}
		return head != nil && nextStart(res, head.Job, head.T) >= from
	}
	waitFrom, waiting := res.Jobs[id].ArrivalS, true
	for _, nt := range notes {
		if nt.Job != id {
			continue
		}
		switch nt.Kind {
		case story.Start:
			if !noted(nt.T, story.Placed, story.Backfill, story.Why) && !logged(nt.T, nt.T, true) {
				return fmt.Sprintf("its start at %v has no reason: no note of its policy and no log entry about it then", nt.T)
			}
			if waiting && nt.T > waitFrom && !waitExplained(waitFrom, nt.T) {
				return fmt.Sprintf("it waited from %v to %v with no reason recorded", waitFrom, nt.T)
			}
			waiting = false
		case story.Preempt, story.Pause:
			if !noted(nt.T, story.Evicted, story.Why) && !logged(nt.T, nt.T, true) {
				return fmt.Sprintf("its %s at %v has no reason: no note of its policy and no log entry about it then", nt.Kind, nt.T)
			}
			waitFrom, waiting = nt.T, true
		case story.Migrate, story.Resize:
			if !noted(nt.T, story.Placed, story.Why) && !logged(nt.T, nt.T, true) {
				return fmt.Sprintf("its %s at %v has no reason: no note of its policy and no log entry about it then", nt.Kind, nt.T)
			}
		}
	}
	return ""
}

// nextStart is the time job id started after t, from the notes, or +Inf.
func nextStart(res *engine.Result, id workload.JobID, t float64) float64 {
	for i := range res.Story {
		if nt := &res.Story[i]; nt.Job == id && nt.Kind == story.Start && nt.T >= t {
			return nt.T
		}
	}
	return math.Inf(1)
}

// Explains runs the policy name with its default parameters on every
// setting and seed where its registration says it can run, keeping
// stories, and reports each case in which its policy left a start, a
// preemption or a wait unexplained (CheckExplained).
func (s Suite) Explains(ctx context.Context, name string) Report {
	c := checker{reg: s.Policies, name: name}
	if c.reg == nil {
		c.reg = policy.Default
	}
	var out Report
	f, ok := c.reg.Lookup(name)
	if !ok {
		out.Problems = append(out.Problems, Problem{Policy: name, Msg: fmt.Sprintf("no policy named %q", name)})
		return out
	}
	c.f = f
	for _, k := range s.cases(0, Variant{}) {
		why, err := c.incompatible(k)
		if err != nil || why != "" {
			out.Refused++
			continue
		}
		o, err := run(ctx, c.reg, c.document(k), k.seed, true)
		msg := ""
		switch {
		case err != nil:
			msg = err.Error()
		case o.fluid:
			continue // a fluid model places no job: nothing to explain
		default:
			out.Ran++
			msg = CheckExplained(o.in.Cluster, o.res)
		}
		if msg != "" {
			out.Problems = append(out.Problems, c.problem(k, msg))
		}
	}
	return out
}
