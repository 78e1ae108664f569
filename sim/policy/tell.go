package policy

import (
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/story"
	"github.com/schedlab/schedlab/sim/workload"
)

// teller records the reasons of the queue and priority schedulers in a
// run's stories (engine.State.Tell) without repeating itself: a job that
// waits for the same reason decision after decision is told once, until
// it starts or the reason changes. It is used only when the run keeps
// stories, so a run without them pays one boolean test per decision.
type teller struct {
	last     []story.Kind // per job: the kind of its last reason note, 0 after a start
	lastFree []int32      // per job: the free GPUs that note named
}

func (t *teller) grow(s *engine.State) {
	if n := s.NumJobs(); len(t.last) < n {
		t.last = append(t.last, make([]story.Kind, n-len(t.last))...)
		t.lastFree = append(t.lastFree, make([]int32, n-len(t.lastFree))...)
	}
}

// wait tells why job id waits, unless its last note said the same; a
// table is laid out only for a new note (explain may be nil).
func (t *teller) wait(s *engine.State, n story.Note, explain func() Explanation) {
	t.grow(s)
	id := n.Job
	if t.last[id] == n.Kind && t.lastFree[id] == int32(n.Free) {
		return
	}
	t.last[id], t.lastFree[id] = n.Kind, int32(n.Free)
	if explain != nil && s.Explaining(id) {
		s.TellTable(n, explain())
		return
	}
	s.Tell(n)
}

// started tells why job id started where it did, after its start.
func (t *teller) started(s *engine.State, id workload.JobID, key string, ex *Explanation) {
	t.grow(s)
	t.last[id], t.lastFree[id] = 0, 0
	n := story.Note{Job: id, Kind: story.Placed, Other: -1, Need: s.Job(id).GPUs, Key: key}
	if ex != nil {
		s.TellTable(n, *ex)
		return
	}
	s.Tell(n)
}

// evicted tells why running job id was preempted.
func (t *teller) evicted(s *engine.State, id workload.JobID, key string) {
	t.grow(s)
	t.last[id], t.lastFree[id] = 0, 0
	s.Tell(story.Note{Job: id, Kind: story.Evicted, Other: -1, Need: s.Job(id).GPUs, Key: key})
}

// explaining reports whether someone wants job id's placement decision
// laid out: the Explained hook, or the run's stories. Callers ask before
// explainFor, at every start (it inlines; explainFor does not).
func explaining(s *engine.State, id workload.JobID, hook func(*engine.State, Explanation)) bool {
	return hook != nil || s.Explaining(id)
}

// explainFor lays out job r's placement decision, for the Explained hook
// and the run's stories (when explaining says someone wants it).
func explainFor(s *engine.State, p *Placement, r Request, hook func(*engine.State, Explanation)) *Explanation {
	ex := p.Explain(r)
	if hook != nil {
		hook(s, ex)
	}
	return &ex
}
