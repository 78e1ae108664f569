package conformance

import (
	"fmt"
	"slices"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
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
