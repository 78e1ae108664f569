package engine

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/schedlab/schedlab/internal/hugepages"
	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/workload"
)

// Config is one simulation run.
type Config struct {
	Cluster *cluster.Cluster
	// Jobs must be finalized (sorted by arrival, IDs 0..n-1) and prepared
	// for Perf (see perf.Preparer).
	Jobs     []workload.Job
	Perf     perf.Model // the true model
	Believed perf.Model // what the policy is told; nil means Perf
	Policy   Policy
	// SharingLimit overrides the policy's MaxJobsPerGPU when positive.
	SharingLimit int
	Overheads    Overheads
	Budgets      Budgets
	Seed         uint64

	// Paranoid checks every invariant of the whole state after each
	// instant (for tests); otherwise each action is checked on its own.
	Paranoid bool
	// NoIntervals skips per-GPU intervals and utilization steps (large
	// runs that need only per-job records); NoLog skips the decision log.
	NoIntervals, NoLog bool
	// NoGPUIntervals skips the per-GPU intervals alone and keeps the
	// utilization steps, so that utilization stays exact: for a run whose
	// Gantt chart and timeline nobody draws (a study's, kept only as its
	// summary and metrics).
	NoGPUIntervals bool
	// UtilSteps, when it has room, is the array the run records its
	// utilization steps into (from its start; its length is ignored), and
	// Result.Utilization then shares it: runs one after another that hand
	// on an earlier run's steps, once nothing reads them, write memory
	// already touched instead of growing fresh arrays (a round-based run
	// records hundreds of thousands of steps). What the run records is
	// the same either way.
	UtilSteps []UtilPoint
	// Snapshots asks policies for structured records of their decisions
	// (see State.Snapshot); off unless a view needs them.
	Snapshots bool
	// Stories asks the engine and the policies for structured records of
	// what happened to each job and why (see State.Tell and package
	// story); off unless a view needs them.
	Stories bool
	// StoryOnly, when not nil, keeps the stories of these jobs alone
	// (with what they read about others) and every placement table of
	// theirs: a page asks for one job's whole story this way after a run
	// that reached the caps.
	StoryOnly []workload.JobID
	// MaxLogEntries caps the decision log; 0 means 100,000.
	MaxLogEntries int
	// Caps bound the other recordings (see RecorderCaps); zero keeps the
	// defaults.
	Caps RecorderCaps
	// OnRecord, when set, receives each job's record instead of
	// Result.Jobs, which stays nil: very large runs summarise their
	// records as they come (streaming mode) rather than keep them. The
	// records come in ID order, each as soon as it is final (the job
	// finished or can never run) and every job before it has been handed
	// over, the rest at the end of the run. The engine then keeps no
	// record of a handed-over job, and State.Info on it gives only its
	// status, unless the perf model splits iterations (perf.Splitter) or
	// the policy asks for finished jobs' Info (Options.FinishedInfo). The
	// record is valid only during the call.
	OnRecord func(r *JobRecord)

	// Window, when not empty, ends the run as soon as every job with an ID
	// in [Window.From, Window.To) has finished: the steady-state
	// measurement of continuous traces. Later jobs stay unfinished.
	Window Window

	// Progress, if set, is called about every ProgressEvery events (0
	// means 4,096) and once at the end.
	Progress      func(Progress)
	ProgressEvery int64
}

// Window is a range of job IDs (arrival order), From inclusive, To exclusive.
type Window struct{ From, To int }

// Empty reports whether the window selects no jobs.
func (w Window) Empty() bool { return w.To <= w.From }

// Contains reports whether job id is in the window.
func (w Window) Contains(id workload.JobID) bool { return int(id) >= w.From && int(id) < w.To }

// BudgetError is returned when a run exceeds its event or time budget.
type BudgetError struct {
	Time bool // the time budget; otherwise the event budget
	Msg  string
}

func (e *BudgetError) Error() string { return e.Msg }

// Progress reports how far a run has come.
type Progress struct {
	NowS     float64
	Events   int64
	Finished int
	Total    int
}

// Run simulates cfg to the end and returns what it recorded. On error the
// result holds what was recorded up to the error.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	s, err := newState(cfg)
	if err != nil {
		return nil, err
	}
	err = s.loop(ctx)
	if err == nil {
		err = s.checkWork()
	}
	s.finalize()
	return s.res, err
}

func newState(cfg Config) (*State, error) {
	if cfg.Cluster == nil || cfg.Perf == nil || cfg.Policy == nil {
		return nil, fmt.Errorf("engine: cluster, perf model and policy are required")
	}
	if len(cfg.Jobs) > maxJobs {
		return nil, fmt.Errorf("engine: %d jobs is more than a run can have (%d)", len(cfg.Jobs), maxJobs)
	}
	prev := math.Inf(-1) // the last job's arrival
	for i := range cfg.Jobs {
		// the loop reads every job of a run: the conditions are written
		// as ranges, which NaN falls outside, and the last arrival is kept
		j := &cfg.Jobs[i]
		if j.ID != workload.JobID(i) || j.ArrivalS < prev {
			return nil, fmt.Errorf("engine: jobs must be finalized (sorted by arrival, numbered from 0)")
		}
		if !(j.Iterations > 0 && j.Iterations <= math.MaxFloat64) { // not positive and finite
			return nil, fmt.Errorf("engine: job %s has no work (iterations %v); was it prepared for the perf model?", j.Name, j.Iterations)
		}
		if !(j.ArrivalS >= 0 && j.ArrivalS <= math.MaxFloat64) {
			return nil, fmt.Errorf("engine: job %s has arrival time %v", j.Name, j.ArrivalS)
		}
		prev = j.ArrivalS
	}
	if cfg.Budgets.MaxEvents == 0 {
		cfg.Budgets.MaxEvents = defaultMaxEvents
	}
	if cfg.Budgets.MaxTimeS == 0 {
		cfg.Budgets.MaxTimeS = defaultMaxTimeS
	}
	if w := cfg.Window; w.From < 0 || w.To > len(cfg.Jobs) {
		return nil, fmt.Errorf("engine: measurement window [%d, %d) is outside the %d jobs", w.From, w.To, len(cfg.Jobs))
	}
	if cfg.ProgressEvery == 0 {
		cfg.ProgressEvery = 1 << 12
	}
	opts := cfg.Policy.Options()
	if opts.Subscribe == 0 {
		opts.Subscribe = Mask(Arrival, Completion, WakeUp)
	}
	opts.Subscribe |= Mask(WakeUp) // a policy that asks for wake-ups wants them
	limit := max(opts.MaxJobsPerGPU, 1)
	if cfg.SharingLimit > 0 {
		limit = cfg.SharingLimit
	}
	c := cfg.Cluster
	// Models with per-run tables (perf.Binder) answer each rate query
	// without looking the job up by name; the bound copies are this run's.
	cfg.Perf = perf.Bind(cfg.Perf, c, cfg.Jobs)
	if cfg.Believed != nil {
		cfg.Believed = perf.Bind(cfg.Believed, c, cfg.Jobs)
	}
	s := &State{
		cfg: cfg, c: c, jobs: cfg.Jobs, limit: limit, opts: opts,
		believed: cfg.Believed, pending: newIDSet(len(cfg.Jobs)), running: newIDSet(len(cfg.Jobs)),
		residents: make([][]resident, c.NumGPUs()), load: make([]gpuLoad, c.NumGPUs()),
		seen: make([]uint32, c.NumGPUs()), serverFree: make([]int32, len(c.Servers)),
		freeTotal: c.NumGPUs(), serverType: make([]int8, len(c.Servers)), types: c.Types(),
		freeSlots: make([]uint64, len(c.Servers)), slotMasks: c.MaxGPUsPerServer() <= 64,
		rng: rand.New(rand.NewPCG(cfg.Seed, 0x9011c7)), res: &Result{}, maxLog: cfg.MaxLogEntries,
		caps: cfg.Caps.withDefaults(),
	}
	// Each GPU's residents start in one shared block, room for up to
	// residentRoom of them each side by side: a start or an end then
	// reads its GPUs' residents from neighbouring memory rather than
	// from a small array of its own per GPU scattered over the heap (a
	// cache miss per GPU at every end). A GPU shared by more grows its
	// own array.
	room := min(limit, residentRoom)
	block := make([]resident, room*c.NumGPUs())
	for g := range s.residents {
		s.residents[g] = block[g*room : g*room : (g+1)*room]
	}
	s.alone.C = c
	s.split = newSplitLog(cfg.Perf, len(cfg.Jobs))
	s.story = newStoryLog(cfg)
	// the model's optional interfaces, found once (through any wrappers):
	// in WebAssembly an assertion to an interface is a lookup in the
	// runtime's table at every call (natively a cache at each call site
	// answers it)
	s.memModel, _ = perf.As[perf.MemoryModel](cfg.Perf)
	s.timed, _ = perf.As[perf.Timed](cfg.Perf)
	s.coupling = cfg.Perf.Coupling() // a property of the model (a composite asks each of its parts)
	_, s.byThroughput = perf.As[perf.Throughputs](cfg.Perf)
	if s.believed == nil {
		s.believed = cfg.Perf
	}
	s.believedTP, _ = perf.As[perf.Throughputs](s.believed)
	// the true model's own answer is kept only when nothing but the
	// placements moves it, and it is the model the policy asks (an
	// implementer of PlacementRated is a pointer: == cannot panic)
	if pr, ok := cfg.Perf.(perf.PlacementRated); ok && pr.RateByPlacement() && s.timed == nil {
		s.rateMemo = s.believed == cfg.Perf
	}
	s.placeGen = 1
	if s.maxLog == 0 {
		s.maxLog = 100_000
	}
	s.log.first = min(s.maxLog, len(cfg.Jobs)) // a start of each job fits in one chunk
	s.freeByType = make([]int, len(s.types))
	for _, srv := range c.Servers {
		s.serverType[srv.ID] = int8(slices.Index(s.types, srv.Type)) // its GPUs' type
		s.freeByType[s.serverType[srv.ID]] += srv.NumGPUs
		s.freeSlots[srv.ID] = 1<<(srv.NumGPUs&63) - 1
		if srv.NumGPUs >= 64 {
			s.freeSlots[srv.ID] = ^uint64(0)
		}
	}
	s.buckets = make([][]uint64, c.MaxGPUsPerServer()+1)
	s.inBucket = make([]int32, len(s.buckets))
	s.top = len(s.buckets) - 1
	for k := range s.buckets {
		s.buckets[k] = make([]uint64, (len(c.Servers)+63)/64)
	}
	for _, srv := range c.Servers {
		s.serverFree[srv.ID] = int32(srv.NumGPUs)
		s.buckets[srv.NumGPUs][srv.ID>>6] |= 1 << (srv.ID & 63)
		s.inBucket[srv.NumGPUs]++
	}
	s.nextAt = s.arrivalOf(0)
	s.streaming = streamRecords(&cfg, s.split, opts)
	s.initRecords()
	switch {
	case cfg.NoIntervals:
	case cap(cfg.UtilSteps) > 0:
		s.res.Utilization = cfg.UtilSteps[:0]
	default:
		// about two steps per job up to the cap: large runs skip the
		// copies of a growing slice
		s.res.Utilization = hugepages.Make[UtilPoint](min(s.caps.UtilPoints, 2*len(cfg.Jobs)+2))[:0]
	}
	s.recordUtil()
	return s, nil
}

// residentRoom is the most residents per GPU the shared block of
// newState holds.
const residentRoom = 4

// loop processes instants until nothing is left to do.
func (s *State) loop(ctx context.Context) error {
	s.cancel.watch(ctx)
	var batch []event
	var triggers []Trigger
	nextProgress := s.cfg.ProgressEvery
	for {
		t, ok := s.nextTime()
		if !ok {
			return s.checkDone()
		}
		if t > s.cfg.Budgets.MaxTimeS {
			return &BudgetError{Time: true, Msg: fmt.Sprintf("simulated time passed the budget of %s before %s", results.DurationExact(s.cfg.Budgets.MaxTimeS), s.unfinishedSummary())}
		}
		if t < s.now {
			return fmt.Errorf("time goes back from t=%v to t=%v", s.now, t)
		}
		s.now = t
		batch = s.collect(batch[:0], t)
		triggers = triggers[:0]
		for _, e := range batch {
			if s.apply(e) && s.opts.Subscribe.Has(e.kind()) {
				triggers = append(triggers, Trigger{Kind: e.kind(), Job: e.job(), Time: t})
			}
		}
		s.res.Stats.Events += int64(len(batch))
		if len(triggers) > 0 && s.opts.IdleWithoutPending && s.pending.n == 0 {
			s.res.Stats.PolicyCalls++ // asked in effect: it would do nothing
		} else if len(triggers) > 0 {
			if err := s.decide(triggers); err != nil {
				return err
			}
		}
		if err := s.Interrupted(); err != nil {
			return err
		}
		if err := s.recompute(); err != nil {
			return err
		}
		s.handOver()
		if s.cfg.Paranoid {
			if err := s.CheckInvariants(); err != nil {
				return fmt.Errorf("invariant broken at t=%v: %w", s.now, err)
			}
		}
		if !s.stalled() {
			s.resetStall()
		} else if err := s.watchProgress(len(batch)); err != nil {
			return err
		}
		if s.res.Stats.Events > s.cfg.Budgets.MaxEvents {
			return &BudgetError{Msg: fmt.Sprintf("the run used more than its budget of %d events at t=%s before %s", s.cfg.Budgets.MaxEvents, results.DurationExact(s.now), s.unfinishedSummary())}
		}
		if !s.cfg.Window.Empty() && s.windowDone == s.cfg.Window.To-s.cfg.Window.From {
			return nil // the measured jobs are done; the rest does not matter
		}
		if s.res.Stats.Events >= nextProgress {
			nextProgress += s.cfg.ProgressEvery
			s.progress()
		}
	}
}

func (s *State) progress() {
	if s.cfg.Progress != nil {
		s.cfg.Progress(Progress{NowS: s.now, Events: s.res.Stats.Events, Finished: s.finished, Total: len(s.jobs)})
	}
}

// nextTime is the time of the next event, from the queue or the arrivals.
func (s *State) nextTime() (float64, bool) {
	s.compactEvents()
	// A stale event later than the next arrival can wait: the arrival
	// comes first either way, and staying stale (a job's version only
	// grows), the event is dropped when it is next on top before an
	// arrival. So an arrival's instant does not look the top event's job
	// up again (about half the instants).
	for s.events.Len() > 0 && s.events.Top().t <= s.nextAt && s.stale(s.events.Top()) {
		s.events.Pop()
	}
	t, ok := inf, false
	if s.events.Len() > 0 {
		t, ok = s.events.Top().t, true
	}
	if s.nextAt <= t && s.nextAt < inf { // the last job arrived: nextAt is +Inf
		t, ok = s.nextAt, true
	}
	return t, ok
}

// arrivalOf is job i's arrival time, +Inf past the last job.
func (s *State) arrivalOf(i int) float64 {
	if i < len(s.jobs) {
		return s.jobs[i].ArrivalS
	}
	return inf
}

// collect gathers every live event at time t, in (kind, job) order.
func (s *State) collect(batch []event, t float64) []event {
	if s.events.Len() > 0 && s.events.Top().t == t {
		// nextTime has just dropped the stale events before this one
		batch = append(batch, s.events.Pop())
	}
	for s.events.Len() > 0 && s.events.Top().t == t {
		if e := s.events.Pop(); !s.stale(e) {
			batch = append(batch, e)
		}
	}
	for s.nextAt == t { // t is finite
		batch = append(batch, mkEvent(t, Arrival, workload.JobID(s.next), 0))
		s.keepArrival(workload.JobID(s.next))
		s.next++
		s.nextAt = s.arrivalOf(s.next)
	}
	if len(batch) > 1 { // most instants have one event
		sortEvents(batch)
	}
	return batch
}

// sortEvents sorts a batch in place without allocating (sort.Slice cost
// an allocation per instant). No two live events of one instant have the
// same kind and job, so any sort gives the same order.
func sortEvents(batch []event) {
	if len(batch) > 16 {
		slices.SortFunc(batch, func(a, b event) int {
			switch {
			case a.Less(b):
				return -1
			case b.Less(a):
				return 1
			}
			return 0
		})
		return
	}
	for i := 1; i < len(batch); i++ {
		for j := i; j > 0 && batch[j].Less(batch[j-1]); j-- {
			batch[j], batch[j-1] = batch[j-1], batch[j]
		}
	}
}

// stale reports whether an event no longer holds: a completion,
// overhead end or rate change (the kinds before Arrival) of a job that
// has since stopped or been rescheduled.
func (s *State) stale(e event) bool {
	if e.key >= uint64(Arrival)<<61 { // e.kind() >= Arrival, and below uint32(e.key) is e.ver(): written out, stale inlines
		return false
	}
	// a job outside the kept records has no running state
	j := s.kept(e.job())
	return j == nil || j.status != Running || s.act[j.slot-1].ver != uint32(e.key) // e.ver()
}

// apply applies one event and reports whether it happened (a wake-up
// always does).
func (s *State) apply(e event) bool {
	switch e.kind() {
	case Arrival:
		return s.arrive(e.job())
	case Completion:
		s.complete(e.job())
	case OverheadEnd:
		s.settle(e.job())
		s.run(e.job()).overheadEnd = -inf
		s.markDirty(e.job())
	case RateChange:
		s.settle(e.job())
		s.markDirty(e.job())
	case WakeUp:
		s.wakes.remove(e.t)
	}
	return true
}

func (s *State) arrive(id workload.JobID) bool {
	job := &s.jobs[id]
	j := s.active(id) // arriving: kept from now on
	need := job.GPUs
	if s.opts.Elastic {
		need = 1
	}
	mem := s.jobMemoryGB(job, 0)
	ok, why := true, ""
	if job.GPUType != "" || !s.c.FitsAnyType(need, mem) { // most jobs fit without Fit's loop
		ok, why = s.c.Fit(need, mem, job.GPUType)
	}
	if ok && s.byThroughput {
		ok, why = perf.Runnable(s.cfg.Perf, s.c, job, need, mem)
	}
	if !ok {
		s.setStatus(id, j, Unschedulable)
		s.final = true
		if s.reasons == nil {
			s.reasons = map[workload.JobID]string{}
		}
		s.reasons[id] = why
		s.logf(id, "job %s can never run on this cluster: %s", job.Name, why)
		return false
	}
	s.setStatus(id, j, Pending)
	r := s.activate(id)
	r.waitSince = s.now
	r.last = s.now
	s.pending.add(int(id))
	return true
}

func (s *State) complete(id workload.JobID) {
	// a completion is live, so its job is running: kept, with a slot
	j := s.active(id)
	r := &s.act[j.slot-1]
	s.settleJob(id, j, r)
	if r.remaining > s.workTolerance(id) { // should be rounding dust; checkWork reports it
		f := s.faults[id]
		f.residual = r.remaining
		s.noteFault(id, f)
	}
	r.remaining = 0
	s.release(id, r)
	s.deactivate(id) // a finished job never holds GPUs again: free its state
	s.setStatus(id, j, Finished)
	s.final = true
	j.finish = s.now
	s.running.remove(int(id))
	s.finished++
	if s.cfg.Window.Contains(id) {
		s.windowDone++
	}
}

// settle advances a running job's progress to now at its current rate.
func (s *State) settle(id workload.JobID) {
	if r := s.run(id); r != nil {
		s.settleJob(id, s.active(id), r)
	}
}

// settleJob is settle for a job whose record j and running state r the
// caller has at hand (looking them up costs more than the rest on a
// completion's path).
func (s *State) settleJob(id workload.JobID, j *jobRec, r *jobRun) {
	dt := s.now - r.last
	if j.status == Running && dt > 0 {
		work := r.rate * dt
		s.stall.progressed = s.stall.progressed || work > 0
		if work > r.remaining {
			if over := work - r.remaining; over > s.workTolerance(id) {
				f := s.faults[id]
				f.overshoot = max(f.overshoot, over)
				s.noteFault(id, f)
			}
			work = r.remaining
		}
		r.remaining -= work
		j.done += work
		s.split.progressed(int(id), work)
		j.gpuSeconds += float64(len(r.gpus)) * dt
		j.runTime += dt
	}
	r.last = s.now
}

func (s *State) markDirty(id workload.JobID) {
	j := s.active(id)
	if !j.dirty {
		j.dirty = true
		s.dirtyList = append(s.dirtyList, id)
	}
}

// markCoupled settles and marks every job other than id whose rate job
// id's placement on gpus may change, according to the perf model's
// coupling.
// Occupy marks job id itself, and so does move before it calls release
// (settled already: release's callers settle it, and occupy has just
// restarted its clock); a job that completes or is preempted has no rate
// to recompute, and is not marked here (one started again in the same
// instant is marked by occupy; the dirty list's order does not matter,
// as an instant's events leave the queue sorted by kind and job). Occupy
// and release call this only when coupled says a neighbour may be
// affected: under an independent model (the usual one), or a job alone
// on its GPUs under SharedGPU, a start or an end calls nothing for it.
// The callers pass job id's GPUs from the running state they have at
// hand: looking it up again cost more than the loop on a space-sharing
// Gavel point, where every start and pause comes here.
func (s *State) markCoupled(id workload.JobID, gpus []cluster.GPUID) {
	switch s.coupling {
	case perf.SharedGPU:
		for _, g := range gpus {
			for _, r := range s.residents[g] {
				// settleDirty, tested here: most residents are marked
				// already (a round pauses and starts neighbours in turn),
				// and a call per resident cost more than the test
				if r.job != id && !s.active(r.job).dirty {
					s.settle(r.job)
					s.markDirty(r.job)
				}
			}
		}
	case perf.SharedServer:
		var seen []cluster.ServerID
		for _, g := range gpus {
			srv := s.c.GPUs[g].Server
			if containsServer(seen, srv) {
				continue
			}
			seen = append(seen, srv)
			for _, h := range s.c.Servers[srv].GPUs() {
				for _, r := range s.residents[h] {
					if r.job != id {
						s.settleDirty(r.job)
					}
				}
			}
		}
	case perf.Global:
		s.running.each(func(i int) bool {
			if workload.JobID(i) != id {
				s.settleDirty(workload.JobID(i))
			}
			return true
		})
	}
}

// coupled reports whether a start or an end of the job whose running
// state is j may change another job's rate, so that markCoupled must
// look: not under an independent model, nor under SharedGPU when each of
// the job's GPUs holds it alone (j.crowded == 0, kept by occupy and
// release), since its GPUs' residents are then the job itself. On a
// Gavel point without space sharing (the Gavel table is SharedGPU) that
// is every start and end, about two million calls a point that found
// nothing to mark.
func (s *State) coupled(j *jobRun) bool {
	return s.coupling != perf.Independent && (j.crowded != 0 || s.coupling != perf.SharedGPU || markAlone)
}

// markAlone makes coupled send a job alone on its GPUs to markCoupled
// too, the plain path (for the tests).
var markAlone = false

func (s *State) settleDirty(id workload.JobID) {
	if !s.active(id).dirty {
		s.settle(id)
		s.markDirty(id)
	}
}

func containsServer(list []cluster.ServerID, x cluster.ServerID) bool {
	for _, y := range list {
		if y == x {
			return true
		}
	}
	return false
}

// recompute asks the perf model for the rates of dirty jobs and schedules
// their completions.
func (s *State) recompute() error {
	timed := s.timed
	for _, id := range s.dirtyList {
		rec := s.active(id) // marked while active; records go only after recompute
		rec.dirty = false
		if rec.status != Running {
			continue
		}
		j := &s.act[rec.slot-1] // running, so it has a slot
		s.res.Stats.RateRecompute++
		var r float64
		if k := int(rec.slot - 1); s.rateMemo && k < len(s.memos) && s.memos[k].at == s.placeGen {
			r = s.memos[k].rate // asked of this placement already (BelievedRate)
		} else {
			r = s.cfg.Perf.Rate(s, id)
		}
		s.split.update(s, int(id))
		if !(r > 0) || math.IsInf(r, 0) {
			return fmt.Errorf("job %s cannot progress on GPUs %v: the perf model gives rate %v", s.jobs[id].Name, j.gpus, r)
		}
		eff := r
		if j.overheadEnd > s.now {
			eff = 0
		}
		if eff == j.rate && r == j.modelRate {
			continue // unchanged: its completion event still holds
		}
		j.modelRate, j.rate = r, eff
		j.ver++
		if eff > 0 {
			s.events.Push(mkEvent(s.now+j.remaining/eff, Completion, id, j.ver))
		} else if j.overheadEnd > s.now {
			s.events.Push(mkEvent(j.overheadEnd, OverheadEnd, id, j.ver))
		}
		if timed != nil {
			if t := timed.NextChange(s, id, s.now); t > s.now && !math.IsInf(t, 1) {
				s.events.Push(mkEvent(t, RateChange, id, j.ver))
			}
		}
	}
	s.dirtyList = s.dirtyList[:0]
	return nil
}

func (s *State) decide(triggers []Trigger) error {
	s.deciding = true
	err := s.cfg.Policy.Decide(s, triggers)
	s.deciding = false
	s.res.Stats.PolicyCalls++
	if err != nil {
		if stop := s.Interrupted(); stop != nil {
			return stop // the policy gave up because the run was stopped
		}
		return fmt.Errorf("policy failed at t=%s: %w", results.DurationExact(s.now), err)
	}
	return nil
}

// checkDone is called when no event is left: every job must be finished or
// unschedulable, or the run is stuck.
func (s *State) checkDone() error {
	if s.pending.n == 0 && s.running.n == 0 {
		return nil
	}
	if s.running.n > 0 {
		return fmt.Errorf("stuck at t=%s: %d jobs hold GPUs but none makes progress", results.DurationExact(s.now), s.running.n)
	}
	var names []string
	s.pending.each(func(i int) bool {
		names = append(names, fmt.Sprintf("%s (%d GPUs)", s.jobs[i].Name, s.jobs[i].GPUs))
		return len(names) < 5
	})
	return fmt.Errorf("stuck at t=%s: %d jobs are pending on an idle cluster and the policy starts none of them and asks for no wake-up, e.g. %s",
		results.DurationExact(s.now), s.pending.n, strings.Join(names, ", "))
}

func (s *State) unfinishedSummary() string {
	return fmt.Sprintf("%d of %d jobs finished (%d running, %d pending, %d not yet arrived)",
		s.finished, len(s.jobs), s.running.n, s.pending.n, len(s.jobs)-s.next)
}

// finalize closes open intervals and builds the per-job records.
func (s *State) finalize() {
	s.res.Stats.EndS = s.now
	s.res.Stats.FinishedJobs = s.finished
	s.EachRunning(func(id workload.JobID) bool {
		s.settle(id)
		for _, g := range s.run(id).gpus {
			for _, r := range s.residents[g] {
				if r.job == id {
					s.recordInterval(g, id, r.since)
				}
			}
		}
		return true
	})
	s.res.Splits = s.split.records(s.js)
	s.finalRecords()
	s.res.Intervals = sortedIntervals(s.ivs.chunks, len(s.c.GPUs))
	s.ivs = intervalLog{}
	s.res.Log = s.log.entries()
	s.log = decisionLog{}
	s.progress()
}
