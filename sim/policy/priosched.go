package policy

import (
	"fmt"
	"math"
	"slices"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/internal/minheap"
	"github.com/schedlab/schedlab/sim/story"
	"github.com/schedlab/schedlab/sim/workload"
)

// PriorityScheduler is a preemptive scheduler with exclusive GPUs and gang
// scheduling, the building block of Tiresias and of least-attained-service
// or shortest-remaining-time policies. At every decision it asks each
// active job for its Priority, a key recomputed then (it may change as
// jobs run and wait), and walks the jobs from the smallest key, picking
// each whose GPUs fit in what is left of the cluster (a job that does not
// fit is skipped, so smaller ones behind it backfill). It then preempts
// the running jobs it did not pick and starts the picked pending ones
// where its Placement puts them; a picked job the placement cannot place
// (enough GPUs, but scattered) waits for a later decision, and the
// decision log says why. A running job that is picked again keeps its
// GPUs: it is never moved. A restart after a preemption costs RestartS of
// no progress; a first start costs what the engine charges every policy.
//
// Decisions come in rounds of RoundS seconds (at RoundS, 2·RoundS, ...; a
// job that arrives on a round boundary is decided then, even on an idle
// cluster), or, with RoundS 0, at every arrival and completion and when
// Wake asks.
type PriorityScheduler struct {
	Name string
	// Priority is job id's key now: the smallest runs first; ties go to
	// the earlier arrival (the lower job ID) unless TieBreak orders them.
	// It is asked at every decision, for every running and pending job,
	// in arrival order (with KeepPendingKeys, for a pending job only when
	// it starts to wait). An error ends the run, naming the job.
	Priority func(s *engine.State, id workload.JobID) (float64, error)
	// TieBreak, when set, says whether job a goes before job b when their
	// priorities are equal (it must order every pair one way).
	TieBreak func(a, b workload.JobID) bool
	// Label says what a key is in the decision log ("priority 3" by
	// default); it has no effect on the order.
	Label KeyLabel
	// RoundS is the round length in seconds; 0 decides at every arrival
	// and completion instead.
	RoundS float64
	// Wake, when RoundS is 0, returns the next time the order may change
	// on its own (a running job's key passing a pending one's), +Inf for
	// none; nil for none.
	Wake func(s *engine.State) float64
	// RestartS is the overhead of each restart after a preemption.
	RestartS float64
	// NoPreempt keeps running jobs running: only free GPUs are handed out
	// (a non-preemptive priority queue).
	NoPreempt bool
	// NoBackfill stops picking at the first job whose GPUs do not fit, so
	// that it is not overtaken by smaller jobs behind it.
	NoBackfill bool
	// Placement names where started jobs go (PlacementNames; "" is the
	// default), with BestFit as in PlacementParams.Build.
	Placement string
	BestFit   bool
	// KeepPendingKeys says a pending job's key cannot change while it
	// waits (it depends only on what the job did while it ran, as attained
	// service does), so it is computed once, when the job starts waiting,
	// and the waiting jobs are kept in order from decision to decision
	// instead of being sorted at each: the same decisions, faster on long
	// queues. It cannot be combined with TieBreak.
	KeepPendingKeys bool
	// RunningKeyUntil, with KeepPendingKeys, says until when a running
	// job's key cannot change: it is given the job and returns a time
	// before which the key stays what it is now (+Inf: for as long as the
	// job runs). A running job's key is then asked when it starts and
	// again only at the first decision at or after that time, the running
	// jobs are kept in order from decision to decision as the waiting
	// ones are, and a decision that preempts no one reads only the
	// waiting jobs it starts or passes over: the same decisions, in time
	// that does not grow with the cluster.
	RunningKeyUntil func(s *engine.State, id workload.JobID) float64
	// Preempting, when set, is told of each preemption just before it.
	Preempting func(s *engine.State, id workload.JobID)
	// Decided, when set, is called after each decision.
	Decided func(s *engine.State)
	// LogStarted and LogPreempted, when set, replace the log entries of a
	// start and a preemption; they are given the job's key.
	LogStarted, LogPreempted func(s *engine.State, id workload.JobID, key float64)
	// Explained, when set, is handed the explanation of every placement
	// decision (a start, or a picked job that waits); nil costs nothing.
	Explained func(s *engine.State, ex Explanation)

	place   *Placement
	waits   WaitNotes
	tell    teller
	ready   bool
	order   []prioEntry // this decision's jobs in priority order
	picked  []bool
	scratch []workload.JobID
	waiting minheap.Heap[prioEntry] // KeepPendingKeys: the pending jobs
	popped  []prioEntry
	picks   []prioEntry     // scratch of fastPicks
	run     runningOrder    // RunningKeyUntil: the running jobs
	gpus    []cluster.GPUID // scratch of the placement (see Placement.PickInto)
	wokeAt  float64         // the last wake-up asked for
	// decisions made by the waiting jobs alone (fastPicks), and by the
	// full order, with RunningKeyUntil
	fastDecisions, fullDecisions int
}

type prioEntry struct {
	key  float64
	id   workload.JobID
	gpus int32
}

// entry is job id's entry with key k.
func entry(s *engine.State, id workload.JobID, k float64) prioEntry {
	return prioEntry{key: k, id: id, gpus: int32(s.Job(id).GPUs)}
}

// Less orders by key, then job ID.
func (a prioEntry) Less(b prioEntry) bool {
	if a.key != b.key {
		return a.key < b.key
	}
	return a.id < b.id
}

// Options implements engine.Policy.
func (p *PriorityScheduler) Options() engine.Options {
	return engine.Options{MaxJobsPerGPU: 1, Subscribe: engine.Mask(engine.Arrival, engine.Completion, engine.WakeUp)}
}

// Decide implements engine.Policy.
func (p *PriorityScheduler) Decide(s *engine.State, triggers []engine.Trigger) error {
	if !p.ready { // files every waiting job, arrivals included
		if err := p.init(s); err != nil {
			return err
		}
	} else if p.KeepPendingKeys {
		for _, tr := range triggers {
			switch {
			case tr.Kind == engine.Arrival && s.Status(tr.Job) == engine.Pending:
				if err := p.file(s, tr.Job); err != nil {
					return err
				}
			case tr.Kind == engine.Completion && p.RunningKeyUntil != nil:
				p.run.remove(tr.Job)
			}
		}
	}
	due := p.RoundS == 0 || p.roundDue(s, triggers)
	if !due && s.Telling() {
		p.tellRound(s, triggers)
	}
	if due {
		if err := p.decide(s); err != nil {
			return err
		}
		if p.Decided != nil {
			p.Decided(s)
		}
	}
	return p.wake(s)
}

func (p *PriorityScheduler) init(s *engine.State) error {
	switch {
	case p.Priority == nil:
		return fmt.Errorf("%s: a priority scheduler needs a Priority", p.Name)
	case p.KeepPendingKeys && p.TieBreak != nil:
		return fmt.Errorf("%s: KeepPendingKeys cannot be combined with TieBreak", p.Name)
	case p.RunningKeyUntil != nil && !p.KeepPendingKeys:
		return fmt.Errorf("%s: RunningKeyUntil needs KeepPendingKeys", p.Name)
	case !(p.RoundS >= 0):
		return fmt.Errorf("%s: round_s: must be at least 0, got %v", p.Name, p.RoundS)
	}
	place, err := PlacementParams{Placement: p.Placement}.Build(p.BestFit)
	if err != nil {
		return err
	}
	p.place, p.ready = place, true
	if p.Label == nil {
		p.Label = NumberLabel("priority")
	}
	if p.KeepPendingKeys {
		var err error
		s.EachPending(func(id workload.JobID) bool {
			err = p.file(s, id)
			return err == nil
		})
		if err != nil {
			return err
		}
	}
	if p.RunningKeyUntil != nil { // jobs another policy started, if any
		var err error
		s.EachRunning(func(id workload.JobID) bool {
			err = p.keep(s, id)
			return err == nil
		})
		return err
	}
	return nil
}

// keep puts a running job in the kept running order with its key now.
func (p *PriorityScheduler) keep(s *engine.State, id workload.JobID) error {
	k, err := p.priority(s, id)
	if err != nil {
		return err
	}
	p.run.add(s, entry(s, id, k), p.RunningKeyUntil(s, id))
	return nil
}

// tellRound tells of each job that arrives between rounds that it waits
// for the next.
func (p *PriorityScheduler) tellRound(s *engine.State, triggers []engine.Trigger) {
	next := (math.Floor(s.Now()/p.RoundS) + 1) * p.RoundS
	for _, tr := range triggers {
		if tr.Kind == engine.Arrival && s.Status(tr.Job) == engine.Pending {
			s.TellRound(tr.Job, p.Name, p.RoundS, next)
		}
	}
}

// roundDue reports whether this instant is a round: a wake-up, or a round
// boundary that no wake-up marks because the cluster was idle.
func (p *PriorityScheduler) roundDue(s *engine.State, triggers []engine.Trigger) bool {
	for _, tr := range triggers {
		if tr.Kind == engine.WakeUp {
			return true
		}
	}
	now := s.Now()
	return now > 0 && math.Floor(now/p.RoundS)*p.RoundS == now
}

// priority asks for job id's key, naming the job in an error.
func (p *PriorityScheduler) priority(s *engine.State, id workload.JobID) (float64, error) {
	k, err := p.Priority(s, id)
	if err != nil {
		return 0, fmt.Errorf("%s: the priority of job %s: %w", p.Name, s.Job(id).Name, err)
	}
	if math.IsNaN(k) {
		return 0, fmt.Errorf("%s: the priority of job %s is not a number", p.Name, s.Job(id).Name)
	}
	return k, nil
}

// file puts a pending job among the waiting ones with its key now.
func (p *PriorityScheduler) file(s *engine.State, id workload.JobID) error {
	k, err := p.priority(s, id)
	if err != nil {
		return err
	}
	p.waiting.Push(entry(s, id, k))
	return nil
}

// decide orders the jobs, picks, preempts and starts.
func (p *PriorityScheduler) decide(s *engine.State) error {
	var err error
	switch {
	case p.RunningKeyUntil != nil:
		err = p.decideKept(s)
	case p.KeepPendingKeys:
		if err = p.orderKept(s); err == nil {
			err = p.apply(s)
		}
	default:
		if err = p.orderAll(s); err == nil {
			err = p.apply(s)
		}
	}
	if p.KeepPendingKeys { // the popped jobs still waiting go back
		for _, e := range p.popped {
			if s.Status(e.id) == engine.Pending {
				p.waiting.Push(e)
			}
		}
	}
	return err
}

// orderAll asks every active job for its key, in arrival order, and sorts.
func (p *PriorityScheduler) orderAll(s *engine.State) error {
	ids := p.scratch[:0]
	if !p.NoPreempt {
		s.EachRunning(func(id workload.JobID) bool { ids = append(ids, id); return true })
	}
	s.EachPending(func(id workload.JobID) bool { ids = append(ids, id); return true })
	slices.Sort(ids) // arrival order, for keys that remember who asked first
	p.scratch = ids
	p.order = p.order[:0]
	for _, id := range ids {
		k, err := p.priority(s, id)
		if err != nil {
			return err
		}
		p.order = append(p.order, entry(s, id, k))
	}
	slices.SortFunc(p.order, p.cmp)
	return nil
}

// decideKept decides with the running jobs kept in order: by the waiting
// jobs alone when that is provably the full order's decision (fastPicks),
// else as orderKept does, from the kept order.
func (p *PriorityScheduler) decideKept(s *engine.State) error {
	if err := p.run.refresh(s, p); err != nil {
		return err
	}
	if p.run.n != s.NumRunning() || (!p.NoPreempt && p.run.gpus != s.Cluster().NumGPUs()-s.FreeGPUs()) {
		return fmt.Errorf("%s: the running jobs kept in order (%d) are not those running (%d)", p.Name, p.run.n, s.NumRunning())
	}
	// A run that keeps stories takes the full order, whose walk tells why
	// each waiting job waits; the fast path makes the same decisions.
	p.popped = p.popped[:0]
	if !s.Telling() && p.fastPicks(s) {
		p.fastDecisions++
		for _, e := range p.picks {
			if err := p.startPicked(s, e); err != nil {
				return err
			}
		}
		return nil
	}
	p.fullDecisions++
	for _, e := range p.popped { // popped again by the full order
		p.waiting.Push(e)
	}
	if err := p.orderKept(s); err != nil {
		return err
	}
	return p.apply(s)
}

func (p *PriorityScheduler) cmp(a, b prioEntry) int {
	switch {
	case a.key < b.key:
		return -1
	case a.key > b.key:
		return 1
	case p.TieBreak != nil && p.TieBreak(a.id, b.id):
		return -1
	case p.TieBreak != nil && p.TieBreak(b.id, a.id):
		return 1
	}
	return int(a.id) - int(b.id)
}

// orderKept merges the running jobs, keyed now, with the waiting ones in
// the order they were filed, until the GPUs are spoken for: the waiting
// jobs left out would be neither picked nor preempted, so the decision is
// the one the full order gives.
func (p *PriorityScheduler) orderKept(s *engine.State) error {
	p.order, p.popped = p.order[:0], p.popped[:0]
	var err error
	switch {
	case p.NoPreempt:
	case p.RunningKeyUntil != nil:
		p.order = p.run.appendLive(p.order)
	default:
		s.EachRunning(func(id workload.JobID) bool {
			var k float64
			k, err = p.priority(s, id)
			p.order = append(p.order, entry(s, id, k))
			return err == nil
		})
		if err != nil {
			return err
		}
		slices.SortFunc(p.order, p.cmp)
	}
	running := len(p.order)
	left, stopped := p.capacity(s), false
	r := 0
	for !stopped && left > 0 && p.waiting.Len() > 0 {
		e := p.waiting.Pop()
		p.popped = append(p.popped, e)
		for r < running && p.order[r].Less(e) {
			left, stopped = p.count(s, p.order[r], left, stopped)
			r++
		}
		left, stopped = p.count(s, e, left, stopped)
	}
	// The merged order: running jobs and popped waiting ones by key,
	// each already in that order (a heap pops in Less order, which is
	// cmp's without TieBreak).
	p.order = mergeEntries(p.order, running, p.popped)
	return nil
}

// mergeEntries appends the entries of b to the first n of order, both in
// key order (and b not part of order), and returns them merged in key
// order, from the back.
func mergeEntries(order []prioEntry, n int, b []prioEntry) []prioEntry {
	order = slices.Grow(order[:n], len(b))[:n+len(b)]
	i, j := n-1, len(b)-1
	for k := len(order) - 1; j >= 0; k-- {
		if i >= 0 && b[j].Less(order[i]) {
			order[k] = order[i]
			i--
		} else {
			order[k] = b[j]
			j--
		}
	}
	return order
}

// count is the picking rule used to know when to stop popping: it
// reports what is left after job e and whether picking has stopped.
func (p *PriorityScheduler) count(s *engine.State, e prioEntry, left int, stopped bool) (int, bool) {
	if stopped {
		return left, true
	}
	if g := int(e.gpus); g <= left {
		return left - g, false
	}
	return left, p.NoBackfill
}

// capacity is how many GPUs the jobs in the order share.
func (p *PriorityScheduler) capacity(s *engine.State) int {
	if p.NoPreempt {
		return s.FreeGPUs()
	}
	return s.Cluster().NumGPUs()
}

// apply picks the jobs of p.order that fit, in that order, preempts the
// running jobs not picked, and starts the picked pending ones.
func (p *PriorityScheduler) apply(s *engine.State) error {
	left, stopped := p.capacity(s), false
	p.picked = slices.Grow(p.picked[:0], len(p.order))[:len(p.order)]
	for i, e := range p.order {
		was := left
		left, stopped = p.count(s, e, left, stopped)
		p.picked[i] = left < was
	}
	if s.Telling() {
		p.tellWaits(s)
	}
	for i, e := range p.order { // preempt first, so the GPUs are free
		if !p.picked[i] && s.Status(e.id) == engine.Running {
			if err := p.preempt(s, e); err != nil {
				return err
			}
		}
	}
	for i, e := range p.order {
		if !p.picked[i] || s.Status(e.id) != engine.Pending {
			continue
		}
		if err := p.startPicked(s, e); err != nil {
			return err
		}
	}
	return nil
}

// startPicked starts a picked pending job where the placement puts it,
// or notes why it waits.
func (p *PriorityScheduler) startPicked(s *engine.State, e prioEntry) error {
	req := RequestFor(s, e.id)
	gpus := p.place.PickInto(p.gpus, req)
	var ex *Explanation
	if explaining(s, e.id, p.Explained) {
		ex = explainFor(s, p.place, req, p.Explained)
	}
	if gpus == nil {
		p.waits.Note(s, e.id, p.Name, func() string { return p.place.WhyNot(req) })
		if s.Telling() {
			n := story.Note{Job: e.id, Kind: story.Unplaced, Other: -1, Need: req.gpus, Free: s.FreeGPUs(), Key: p.Label(e.key), Text: p.place.WhyNot(req)}
			p.tell.wait(s, n, func() Explanation { return derefOr(ex, p.place, req) })
		}
		return nil
	}
	p.waits.Clear(e.id)
	var o engine.ActionOptions // a first start costs what the engine charges every policy
	if s.Starts(e.id) > 0 {
		o = engine.ActionOptions{OverheadS: p.RestartS, NoOverhead: p.RestartS == 0}
	}
	if err := s.Start(e.id, gpus, o); err != nil { // Start copies gpus
		return err
	}
	p.gpus = gpus
	if p.RunningKeyUntil != nil {
		p.run.add(s, e, p.RunningKeyUntil(s, e.id))
	}
	p.logStart(s, e, gpus)
	if s.Telling() {
		p.tell.started(s, e.id, p.Label(e.key), ex)
	}
	return nil
}

// tellWaits tells why each waiting job of the order that was not picked
// waits: its turn came with fewer GPUs left than it needs. With
// NoBackfill the first such job blocks every job after it.
func (p *PriorityScheduler) tellWaits(s *engine.State) {
	left := p.capacity(s)
	for i, e := range p.order {
		g := s.Job(e.id).GPUs
		switch {
		case p.picked[i]:
			left -= g
		case p.NoBackfill:
			// the first job that does not fit stops the walk: the jobs
			// after it are not considered
			if s.Status(e.id) == engine.Pending {
				p.tell.wait(s, story.Note{Job: e.id, Kind: story.Blocks, Other: -1, Need: g, Free: left, Key: p.Label(e.key)}, nil)
			}
			return
		case s.Status(e.id) == engine.Pending:
			p.tell.wait(s, story.Note{Job: e.id, Kind: story.Waits, Other: -1, Need: g, Free: left, Key: p.Label(e.key)}, nil)
		}
	}
}

// derefOr is the explanation already made, or a new one.
func derefOr(ex *Explanation, p *Placement, r Request) Explanation {
	if ex != nil {
		return *ex
	}
	return p.Explain(r)
}

func (p *PriorityScheduler) preempt(s *engine.State, e prioEntry) error {
	if p.Preempting != nil {
		p.Preempting(s, e.id)
	}
	if err := s.Preempt(e.id); err != nil {
		return err
	}
	if p.RunningKeyUntil != nil {
		p.run.remove(e.id)
	}
	if s.Telling() {
		p.tell.evicted(s, e.id, p.Label(e.key))
	}
	switch {
	case p.LogPreempted != nil:
		p.LogPreempted(s, e.id, e.key)
	case !s.Logging():
		s.Log(e.id, "") // counted as a dropped entry when the log is full
	default:
		s.Log(e.id, "%s: preempted %s; %s", p.Name, s.Job(e.id).Name, p.Label(e.key))
	}
	if p.KeepPendingKeys {
		return p.file(s, e.id)
	}
	return nil
}

func (p *PriorityScheduler) logStart(s *engine.State, e prioEntry, gpus []cluster.GPUID) {
	switch {
	case p.LogStarted != nil:
		p.LogStarted(s, e.id, e.key)
	case !s.Logging():
		s.Log(e.id, "")
	default:
		where := describeGPUsLater(s.Cluster(), gpus)
		name, jobName, label := p.Name, s.Job(e.id).Name, p.Label(e.key)
		s.LogFunc(e.id, func() string { return fmt.Sprintf("%s: started %s on %s; %s", name, jobName, where(), label) })
	}
}

// wake asks for the next decision: the next round, or what Wake says.
func (p *PriorityScheduler) wake(s *engine.State) error {
	if s.NumPending()+s.NumRunning() == 0 {
		return nil
	}
	next := math.Inf(1)
	if p.RoundS > 0 {
		next = (math.Floor(s.Now()/p.RoundS) + 1) * p.RoundS
	} else if p.Wake != nil {
		next = p.Wake(s)
	}
	if math.IsInf(next, 1) || next <= s.Now() || next == p.wokeAt {
		return nil // the engine keeps one wake-up per time
	}
	p.wokeAt = next
	return s.WakeAt(next)
}
