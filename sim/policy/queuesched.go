package policy

import (
	"fmt"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/story"
	"github.com/schedlab/schedlab/sim/workload"
)

// QueueScheduler is a non-preemptive scheduler with exclusive GPUs and gang
// scheduling: at each arrival and completion it starts pending jobs in
// its Order, each on the GPUs its Placement picks. With Backfill, a job
// that cannot start is skipped and later ones may start; without it, the
// first job that cannot start blocks the queue.
type QueueScheduler struct {
	Name  string
	Order Order
	// Label says what a job's key is in the decision log; it has no
	// effect on the order.
	Label     KeyLabel
	Backfill  bool
	BestFit   bool
	Placement string // a name from PlacementNames; "" is the default
	// Rekey recomputes every pending job's key at each decision, for a
	// key that changes while the job waits (one that reads the time);
	// otherwise a job's key is computed once, when it arrives.
	Rekey bool
	// Explained, when set, is handed the explanation of every placement
	// decision (a start, or a wait); nil costs nothing.
	Explained func(s *engine.State, ex Explanation)

	q      *SizeQueues
	place  *Placement
	waits  WaitNotes
	tell   teller
	starts *startNotes // writes the log's entries of starts
	failed error
	picked []cluster.GPUID // scratch of the placement (see Placement.PickInto)
}

// Order ranks a QueueScheduler's pending jobs by a key computed once, when
// the job arrives (or at each decision, see QueueScheduler.Rekey).
type Order struct {
	Key func(s *engine.State, id workload.JobID) float64
	// LargestFirst serves the job with the largest key first; otherwise
	// the smallest goes first. Ties go to the earlier arrival either way.
	LargestFirst bool
}

// KeyLabel formats a job's key for the decision log, e.g. "arrived at
// 12.5 min" or "GPUs 4".
type KeyLabel func(key float64) string

// TimeLabel labels a key that is a time or a duration in seconds.
func TimeLabel(name string) KeyLabel {
	return func(k float64) string { return name + " " + fmtSeconds(k) }
}

// NumberLabel labels a key that is a plain number.
func NumberLabel(name string) KeyLabel {
	return func(k float64) string { return fmt.Sprintf("%s %.6g", name, k) }
}

// Options implements engine.Policy. With no job pending a decision
// starts nothing and tells nothing (IdleWithoutPending).
func (p *QueueScheduler) Options() engine.Options {
	return engine.Options{MaxJobsPerGPU: 1, Subscribe: engine.Mask(engine.Arrival, engine.Completion), IdleWithoutPending: true}
}

// queueKey is the key as the queue stores it: smaller first.
func (p *QueueScheduler) queueKey(k float64) float64 {
	if p.Order.LargestFirst {
		return -k
	}
	return k
}

// Decide implements engine.Policy.
func (p *QueueScheduler) Decide(s *engine.State, triggers []engine.Trigger) error {
	if p.q == nil {
		p.q = NewSizeQueues()
		p.place, p.failed = PlacementParams{Placement: p.Placement}.Build(p.BestFit)
	}
	if p.failed != nil {
		return p.failed
	}
	if !p.Rekey && p.q.Len() == 0 && len(triggers) == 1 && triggers[0].Kind == engine.Arrival &&
		!s.Telling() && !explaining(s, triggers[0].Job, p.Explained) {
		return p.decideAlone(s, triggers[0].Job)
	}
	if p.Rekey {
		p.q.Reset()
		s.EachPending(func(id workload.JobID) bool {
			p.q.Push(id, s.Job(id).GPUs, p.queueKey(p.Order.Key(s, id)))
			return true
		})
	} else {
		for _, t := range triggers {
			if t.Kind == engine.Arrival {
				p.q.Push(t.Job, s.Job(t.Job).GPUs, p.queueKey(p.Order.Key(s, t.Job)))
			}
		}
	}
	var blocked []blockedJob
	tell := s.Telling()
	for s.FreeGPUs() > 0 && p.q.Len() > 0 {
		limit := s.FreeGPUs()
		if !p.Backfill {
			limit = int(^uint(0) >> 1)
		}
		id, size, key, ok := p.q.Best(limit)
		if !ok {
			break
		}
		if size > s.FreeGPUs() {
			if tell {
				p.tell.wait(s, story.Note{Job: id, Kind: story.Blocks, Other: -1, Need: size, Free: s.FreeGPUs(), Key: p.keyText(key)}, nil)
			}
			break // strict order: the head waits, and so does everyone behind it
		}
		req := RequestFor(s, id)
		gpus := p.place.PickInto(p.picked, req)
		var ex *Explanation
		if explaining(s, id, p.Explained) {
			ex = explainFor(s, p.place, req, p.Explained)
		}
		p.q.Pop(size)
		if gpus == nil {
			blocked = append(blocked, blockedJob{id, size, key})
			p.waits.Note(s, id, p.Name, func() string { return p.place.WhyNot(req) })
			if tell {
				p.tellUnplaced(s, req, key, ex)
			}
			if !p.Backfill {
				break
			}
			continue
		}
		if tell && p.Backfill {
			p.tellBackfill(s, id, key, blocked)
		}
		if err := s.Start(id, gpus, engine.ActionOptions{}); err != nil { // Start copies gpus
			return err
		}
		p.logStart(s, id, gpus, key)
		// keep a larger array for the next pick; a smaller one is
		// p.picked's own (storing it again cost a write barrier's check
		// at every start)
		if cap(gpus) > cap(p.picked) {
			p.picked = gpus
		}
		if tell {
			p.tell.started(s, id, p.keyText(key), ex)
		}
	}
	if tell && p.Backfill {
		p.tellHead(s, blocked)
	}
	for _, b := range blocked {
		p.q.Push(b.id, b.size, b.key)
	}
	return nil
}

// decideAlone is Decide when job id has just arrived to an empty queue,
// with no story or explanation asked for: most arrivals of a large run.
// It does what Decide's loop would do, without passing the job through
// the queue: the queue's best job would be this one, the only one, and
// the job joins the queue only if it does not start.
func (p *QueueScheduler) decideAlone(s *engine.State, id workload.JobID) error {
	size, key := s.Job(id).GPUs, p.queueKey(p.Order.Key(s, id))
	if free := s.FreeGPUs(); free == 0 || size > free { // the loop would not try it
		p.q.Push(id, size, key)
		return nil
	}
	req := RequestFor(s, id)
	gpus := p.place.PickInto(p.picked, req)
	if gpus == nil { // blocked: the loop would put it back
		p.q.Push(id, size, key)
		p.waits.Note(s, id, p.Name, func() string { return p.place.WhyNot(req) })
		return nil
	}
	if err := s.Start(id, gpus, engine.ActionOptions{}); err != nil {
		return err
	}
	p.logStart(s, id, gpus, key)
	if cap(gpus) > cap(p.picked) { // as in Decide
		p.picked = gpus
	}
	return nil
}

// keyText is a job's key as the decision log says it.
func (p *QueueScheduler) keyText(key float64) string {
	if p.Label == nil {
		return ""
	}
	return p.Label(p.queueKey(key))
}

// tellUnplaced tells why a job with GPUs enough free cannot start: the
// placement refused every set of them. In strict order it blocks the
// queue.
func (p *QueueScheduler) tellUnplaced(s *engine.State, req Request, key float64, ex *Explanation) {
	kind := story.Unplaced
	if !p.Backfill {
		kind = story.Blocks
	}
	n := story.Note{Job: req.id, Kind: kind, Other: -1, Need: req.gpus, Free: s.FreeGPUs(), Key: p.keyText(key), Text: p.place.WhyNot(req)}
	if ex != nil {
		p.tell.wait(s, n, func() Explanation { return *ex })
		return
	}
	p.tell.wait(s, n, func() Explanation { return p.place.Explain(req) })
}

// ahead is the job first in the order among those still queued and those
// that could not be placed at this decision, if any.
func (p *QueueScheduler) ahead(blocked []blockedJob) (blockedJob, bool) {
	id, size, key, ok := p.q.Best(int(^uint(0) >> 1))
	best := blockedJob{id, size, key}
	for _, b := range blocked {
		if !ok || b.key < best.key || b.key == best.key && b.id < best.id {
			best, ok = b, true
		}
	}
	return best, ok
}

// tellBackfill tells that job id starts ahead of a job earlier in the
// order that cannot start: backfilling.
func (p *QueueScheduler) tellBackfill(s *engine.State, id workload.JobID, key float64, blocked []blockedJob) {
	a, ok := p.ahead(blocked)
	if !ok || a.key > key || a.key == key && a.id > id {
		return
	}
	s.Tell(story.Note{Job: id, Kind: story.Backfill, Other: a.id, Need: a.size, Free: s.FreeGPUs(), Key: p.keyText(key)})
}

// tellHead tells, after a backfilling decision, why the job first in the
// order still waits, when GPUs are free that it cannot use.
func (p *QueueScheduler) tellHead(s *engine.State, blocked []blockedJob) {
	if s.FreeGPUs() == 0 {
		return
	}
	a, ok := p.ahead(blocked)
	if !ok || a.size <= s.FreeGPUs() {
		return // it could not be placed: told already
	}
	p.tell.wait(s, story.Note{Job: a.id, Kind: story.Waits, Other: -1, Need: a.size, Free: s.FreeGPUs(), Key: p.keyText(a.key)}, nil)
}

type blockedJob struct {
	id   workload.JobID
	size int
	key  float64
}

// logStart logs a start. The text is written when the log is read, from
// a note kept in the entry (gpus is scratch, so only what describes it
// is kept): a start of every job of a large run is logged, and a closure
// per entry cost an allocation each, which WebAssembly pays dearly.
func (p *QueueScheduler) logStart(s *engine.State, id workload.JobID, gpus []cluster.GPUID, key float64) {
	if !s.Logging() {
		s.Log(id, "") // the log is full (counted as a dropped entry) or off
		return
	}
	job, c := s.Job(id), s.Cluster()
	if p.starts == nil || p.starts.c != c {
		p.starts = &startNotes{p: p, c: c}
	}
	s.LogNote(id, p.starts, engine.Note{Name: job.Name, X: p.queueKey(key), Y: s.Now() - job.ArrivalS,
		I: int32(gpus[0]), J: int32(len(gpus)), K: int32(c.ServersSpanned(gpus))})
}

// startNotes writes the log entries of starts: the job's name, its queue
// key (X), how long it waited (Y), its first GPU (I), its GPU count (J)
// and how many servers they span (K).
type startNotes struct {
	p *QueueScheduler
	c *cluster.Cluster
}

func (w *startNotes) NoteText(_ workload.JobID, n *engine.Note) string {
	return fmt.Sprintf("%s: started %s on %s; %s, waited %s", w.p.Name, n.Name,
		describeGPUSet(w.c, cluster.GPUID(n.I), int(n.J), int(n.K)), w.p.Label(n.X), fmtSeconds(n.Y))
}

// describeGPUsLater reads from gpus now what names the set briefly (e.g.
// "4 GPUs on server 2") and writes the text when called.
func describeGPUsLater(c *cluster.Cluster, gpus []cluster.GPUID) func() string {
	n, g0, k := c.ServersSpanned(gpus), gpus[0], len(gpus)
	return func() string { return describeGPUSet(c, g0, k, n) }
}

func describeGPUSet(c *cluster.Cluster, g0 cluster.GPUID, count, n int) string {
	first := c.GPUs[g0].Server
	switch {
	case count == 1:
		// named as the Gantt chart's rows and the timeline's grid name it
		return fmt.Sprintf("GPU s%d/g%d", first, c.GPUs[g0].Slot)
	case n == 1:
		return fmt.Sprintf("%d GPUs on server %d", count, first)
	}
	return fmt.Sprintf("%d GPUs on %d servers", count, n)
}

// fmtSeconds writes a time as every decision log and the page do:
// 4.5 s, 42 s, 12.5 min, 3.20 h, 2.1 d.
func fmtSeconds(s float64) string { return results.Duration(s) }
