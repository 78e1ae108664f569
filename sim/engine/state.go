package engine

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

// jobRec is what the engine keeps of every job for the whole run: its
// times, counters and status, enough for its record and for JobInfo. It
// is kept small (88 bytes), since a run of a million jobs has a million
// of them; what a job needs only while it is active lives in a jobRun.
type jobRec struct {
	firstStart float64
	lastStart  float64
	finish     float64
	solo       float64
	wait       float64
	runTime    float64
	gpuSeconds float64
	done       float64 // integral of the rate over time
	starts     int32
	preempts   int32
	migrations int32
	resizes    int32
	slot       int32 // 1 + index of its jobRun in State.act; 0 when it has none
	status     Status
	dirty      bool
}

// jobRun is the running state of an active job, from its arrival to its
// end (pending or running). Slots are reused once a job finishes, so the
// engine holds as many as there are jobs in the system at once, not one
// per job of the run.
type jobRun struct {
	gpus        []cluster.GPUID
	mem         float64 // memory held on each GPU
	remaining   float64 // iterations left at time last
	rate        float64 // effective rate (0 during an overhead)
	modelRate   float64 // the perf model's rate, ignoring overhead
	last        float64 // time remaining, service, done were settled
	overheadEnd float64 // end of the current overhead, or -inf
	waitSince   float64 // start of the current stretch with no GPUs
	subBatch    int
	ver         uint32
	// crowded counts the entries of gpus whose GPU holds more than one
	// job (a copy of the job itself counts): RateView's "alone" is
	// crowded == 0. Occupy and release keep it for the job and for the
	// neighbour that comes to share, or stops sharing, a GPU with it.
	crowded int32
}

// workFault is a finished job's work that checkWork reports: the work left
// when its completion fired, or the most it ran past its end. Only values
// over the tolerance are kept, so that a healthy run keeps none.
type workFault struct{ residual, overshoot float64 }

// gpuLoad is what a GPU's residents hold of it: memory (GB) and the
// fraction of its compute. The two are read and written together, so
// they sit side by side (one cache line, not two, per GPU of a start or
// an end).
type gpuLoad struct{ mem, compute float64 }

// resident is a job holding a GPU since a time.
type resident struct {
	job   workload.JobID
	since float64
}

// State is the simulation as a policy sees and changes it. Its read
// methods never change anything; its actions (Start, Preempt, Migrate,
// Resize, WakeAt, Log) are checked and applied at once.
type State struct {
	cancel   cancellation
	cfg      Config
	c        *cluster.Cluster
	jobs     []workload.Job
	js       []jobRec // the kept jobs' records, see rec
	act      []jobRun // active jobs' running state, by slot (see jobRec.slot)
	freeAct  []int32  // free slots of act
	limit    int
	opts     Options
	believed perf.Model

	now    float64
	events eventQueue
	next   int     // next job to arrive
	nextAt float64 // its arrival time (+Inf when every job has arrived): read at every instant

	compactAt int // the queue length at which stale events are dropped

	pending, running idSet
	finished         int
	windowDone       int // finished jobs inside the measurement window

	residents  [][]resident
	load       []gpuLoad
	serverFree []int32
	freeTotal  int
	freeByType []int
	serverType []int8 // each server's GPU type, indexed as freeByType is
	// freeSlots[srv] has bit i set when slot i of server srv holds no job
	// (when every server has at most 64 GPUs, see slotMasks)
	freeSlots []uint64
	slotMasks bool
	types     []string   // the cluster's GPU types, indexed as freeByType is
	buckets   [][]uint64 // buckets[k]: servers with exactly k free GPUs
	// inBucket[k] counts the servers in buckets[k]: a scan for the
	// emptiest server skips the empty buckets without reading their words
	// (at high load most of them), and stops in a bucket once it has seen
	// them all.
	inBucket []int32
	// top is at least the largest k with servers in buckets[k]: a GPU
	// freed raises it, and the scans for the emptiest server lower it to
	// what they find, so that at high load they do not look at every
	// empty bucket above the servers' few free GPUs.
	top      int
	busyGPUs int
	slots    int

	// seen[g] == seenMark marks GPU g as listed in the action being
	// checked (see takeAsIs)
	seen     []uint32
	seenMark uint32

	dirtyList []workload.JobID
	rng       *rand.Rand
	res       *Result
	ivs       intervalLog // the GPU intervals until finalize sorts them into res
	log       decisionLog // the decision log until finalize writes it into res
	maxLog    int
	deciding  bool
	wakes     wakeTimes // the wake-up times queued
	scratch   []workload.JobID

	seriesIndex map[seriesKey]int // see Record
	seriesTotal int               // points over all series, see Record
	// snapshotBytes is the JSON size of the snapshots kept, see Snapshot.
	snapshotBytes int
	caps          RecorderCaps
	stall         stallWatch                // see watchProgress
	split         *splitLog                 // per-job iteration splits, for perf.Splitter models
	story         storyLog                  // see Tell
	timed         perf.Timed                // the model's own clock (perf.Timed), or nil
	coupling      perf.Coupling             // cfg.Perf's coupling, asked once
	alone         perf.Alone                // scratch of soloTime
	memModel      perf.MemoryModel          // cfg.Perf as a MemoryModel, or nil
	byThroughput  bool                      // cfg.Perf has throughputs per GPU type (found with perf.As)
	believedTP    perf.Throughputs          // the believed model's throughputs per GPU type, or nil
	rateMemo      bool                      // BelievedRate's answers are the true model's, kept for recompute (see BelievedRate)
	placeGen      uint64                    // counts starts, ends and moves: the placements' version (see BelievedRate)
	memos         []rateMemo                // by slot of act: BelievedRate's last answer (see rateMemo)
	reasons       map[workload.JobID]string // why each unschedulable job can never run
	faults        map[workload.JobID]workFault

	// The jobs whose records are kept are IDs [recFrom, recTo), job id's
	// at js[id&recMask]. Without streaming that is every job, from the
	// start. When streaming (see Config.OnRecord) js is a ring: a job's
	// record enters it at the job's arrival and leaves when the record is
	// handed over, so the engine keeps records for the jobs in the
	// system, not for every job of the run.
	recFrom, recTo int
	recMask        int
	// status[id] is job id's status, as its record has it while kept
	// (setStatus writes both): one byte a job, for every job of the run,
	// so that Status inlines.
	status    []Status
	streaming bool
	final     bool      // a job finished or was found never to run since the last handOver
	outside   jobRec    // what rec returns for a job outside the ring
	workErr   error     // the first work fault of a handed-over job (see checkWork)
	handed    JobRecord // the record being handed to OnRecord
}

// Now is the current simulated time in seconds.
func (s *State) Now() float64 { return s.now }

// Cluster is the cluster being simulated.
func (s *State) Cluster() *cluster.Cluster { return s.c }

// NumJobs is the number of jobs in the run, arrived or not.
func (s *State) NumJobs() int { return len(s.jobs) }

// Job returns a job's spec. The caller must not modify it.
func (s *State) Job(id workload.JobID) *workload.Job { return &s.jobs[id] }

// Status returns where a job is in its life.
//
// It reads the status kept per job (status), not the job's record: a
// policy asks it of every job it lists, and rec, too large to inline,
// was a call each time.
func (s *State) Status(id workload.JobID) Status {
	if uint(id) < uint(len(s.status)) {
		return s.status[id]
	}
	if id < 0 { // as rec has it: before the first kept record
		return Finished
	}
	return NotArrived
}

// setStatus sets job id's status, j its record, and the copy Status
// reads.
func (s *State) setStatus(id workload.JobID, j *jobRec, st Status) {
	j.status = st
	s.status[id] = st
}

// Placement implements perf.State.
func (s *State) Placement(id workload.JobID) perf.Placement {
	r := s.run(id)
	if r == nil {
		return perf.Placement{}
	}
	return perf.Placement{GPUs: r.gpus, SubBatch: r.subBatch}
}

// RateView is the bound rate models' query in one call (see perf's
// rateViewer): Cluster(), Job(id), the GPUs job id holds
// (Placement(id).GPUs) and whether each of them holds it alone. That
// answer is kept by occupy and release (jobRun.crowded), not counted
// here over the job's GPUs at every query.
func (s *State) RateView(id workload.JobID) (*cluster.Cluster, *workload.Job, []cluster.GPUID, bool) {
	if r := s.run(id); r != nil {
		return s.c, &s.jobs[id], r.gpus, r.crowded == 0
	}
	return s.c, &s.jobs[id], nil, true
}

// JobsOn lists the jobs holding GPU g, in the order they took it. The
// slice is scratch space, valid until the next call.
func (s *State) JobsOn(g cluster.GPUID) []workload.JobID {
	s.scratch = s.scratch[:0]
	for _, r := range s.residents[g] {
		s.scratch = append(s.scratch, r.job)
	}
	return s.scratch
}

// NumJobsOn is the number of jobs holding GPU g.
func (s *State) NumJobsOn(g cluster.GPUID) int { return len(s.residents[g]) }

// GPUsOf returns the GPUs a job holds (read-only, and valid until its
// placement changes: the engine reuses the slice).
func (s *State) GPUsOf(id workload.JobID) []cluster.GPUID {
	if r := s.run(id); r != nil {
		return r.gpus
	}
	return nil
}

// Info returns a job's runtime state at the current time.
func (s *State) Info(id workload.JobID) JobInfo {
	j := s.rec(id)
	info := JobInfo{
		Status: j.status, AttainedGPU: j.gpuSeconds, RunTime: j.runTime,
		FirstStart: j.firstStart, LastStart: j.lastStart, Starts: int(j.starts), Preemptions: int(j.preempts),
		Migrations: int(j.migrations), Resizes: int(j.resizes),
	}
	r := s.run(id)
	if r == nil {
		if j.status != Finished {
			info.Remaining = s.jobs[id].Iterations // not arrived, or never to run
		}
		return info
	}
	info.GPUs, info.SubBatch, info.Remaining, info.Rate, info.InOverhead = r.gpus, r.subBatch, r.remaining, r.rate, r.overheadEnd > s.now
	if dt := s.now - r.last; j.status == Running && dt > 0 {
		info.Remaining = max(0, r.remaining-r.rate*dt)
		info.AttainedGPU += float64(len(r.gpus)) * dt
		info.RunTime += dt
	}
	return info
}

// Starts is Info's Starts alone: how many times job id has started.
func (s *State) Starts(id workload.JobID) int { return int(s.rec(id).starts) }

// AttainedGPU is Info's AttainedGPU alone: the GPU-seconds job id has
// held up to now. Policies of attained service ask it of every job they
// rank, and Info's whole record costs several times more.
func (s *State) AttainedGPU(id workload.JobID) float64 {
	j := s.kept(id)
	if j == nil {
		return 0 // not arrived, or handed over (see Config.OnRecord)
	}
	a := j.gpuSeconds
	if j.status == Running {
		r := &s.act[j.slot-1]
		if dt := s.now - r.last; dt > 0 {
			a += float64(len(r.gpus)) * dt
		}
	}
	return a
}

// run returns the running state of an active job, nil for a job that has
// not arrived, has finished or can never run.
func (s *State) run(id workload.JobID) *jobRun {
	if j := s.kept(id); j != nil && j.slot > 0 {
		return &s.act[j.slot-1]
	}
	return nil
}

// activate gives an arriving job its running state, in a free slot if
// there is one. Pointers into act are not kept across calls, so growing
// it is safe.
func (s *State) activate(id workload.JobID) *jobRun {
	var k int32
	if n := len(s.freeAct); n > 0 {
		k, s.freeAct = s.freeAct[n-1], s.freeAct[:n-1]
	} else {
		s.act = append(s.act, jobRun{})
		k = int32(len(s.act) - 1)
	}
	s.active(id).slot = k + 1
	r := &s.act[k]
	*r = jobRun{gpus: r.gpus[:0], remaining: s.jobs[id].Iterations, overheadEnd: -inf}
	return r
}

// deactivate frees a finished job's running state.
func (s *State) deactivate(id workload.JobID) {
	j := s.active(id)
	if j.slot == 0 {
		return
	}
	// The slot keeps its GPU list's array for the next job: a start
	// then allocates nothing (GPUsOf and Placement are read-only views,
	// valid until the job's placement changes). It is not cleared: a
	// free slot is read by no one, and activate sets all of it.
	s.freeAct = append(s.freeAct, j.slot-1)
	j.slot = 0
}

// Remaining returns a job's iterations left at the current time: Info's
// Remaining without the rest of Info (policies ask for it per job per
// round).
func (s *State) Remaining(id workload.JobID) float64 {
	r := s.run(id)
	if r == nil {
		if s.rec(id).status != Finished {
			return s.jobs[id].Iterations // not arrived, or never to run
		}
		return 0
	}
	if dt := s.now - r.last; s.active(id).status == Running && dt > 0 { // it has a running state, so it is kept
		return max(0, r.remaining-r.rate*dt)
	}
	return r.remaining
}

// NumPending is the number of arrived jobs holding no GPUs.
func (s *State) NumPending() int { return s.pending.n }

// NumRunning is the number of jobs holding GPUs.
func (s *State) NumRunning() int { return s.running.n }

// NumFinished is the number of finished jobs.
func (s *State) NumFinished() int { return s.finished }

// EachPending calls fn on pending jobs in arrival order until it returns
// false. fn may start jobs (which leave the pending set).
func (s *State) EachPending(fn func(id workload.JobID) bool) {
	s.pending.each(func(i int) bool { return fn(workload.JobID(i)) })
}

// EachRunning calls fn on running jobs in arrival order until it returns false.
func (s *State) EachRunning(fn func(id workload.JobID) bool) {
	s.running.each(func(i int) bool { return fn(workload.JobID(i)) })
}

// Pending returns the pending jobs in arrival order.
func (s *State) Pending() []workload.JobID {
	out := make([]workload.JobID, 0, s.pending.n)
	s.EachPending(func(id workload.JobID) bool { out = append(out, id); return true })
	return out
}

// Running returns the running jobs in arrival order.
func (s *State) Running() []workload.JobID {
	out := make([]workload.JobID, 0, s.running.n)
	s.EachRunning(func(id workload.JobID) bool { out = append(out, id); return true })
	return out
}

// FreeGPUs is the number of GPUs holding no job.
func (s *State) FreeGPUs() int { return s.freeTotal }

// FreeGPUsOfType is the number of free GPUs of one type.
func (s *State) FreeGPUsOfType(t string) int {
	// a scan of the few types, not a map: placements ask at every start
	for i, u := range s.types {
		if u == t {
			return s.freeByType[i]
		}
	}
	return 0
}

// ServerFree is the number of free GPUs on a server.
func (s *State) ServerFree(id cluster.ServerID) int { return int(s.serverFree[id]) }

// EachServerByFree calls fn on servers with at least minFree free GPUs,
// those with the most free GPUs first and, among equals, by ID, until fn
// returns false.
func (s *State) EachServerByFree(minFree int, fn func(id cluster.ServerID, free int) bool) {
	floor := max(minFree, 1)
	for k := s.lowerTop(floor); k >= floor; k-- {
		if s.inBucket[k] > 0 && !s.eachInBucket(k, fn) {
			return
		}
	}
}

// FreeSlots returns the slots of server srv whose GPUs hold no job, as
// a bit mask (bit i for slot i), and whether the engine keeps such masks
// (it does when no server has more than 64 GPUs): a placement then
// visits a server's free GPUs alone rather than asking of each GPU.
func (s *State) FreeSlots(srv cluster.ServerID) (uint64, bool) {
	return s.freeSlots[srv], s.slotMasks
}

// MostFreeServer is the first server EachServerByFree visits among those
// of GPU type t with at least minFree free GPUs (the most free GPUs, then
// the lowest ID), with its free GPUs, and whether there is one: the
// emptiest-server placement's usual question, without a callback per
// server.
func (s *State) MostFreeServer(minFree int, t string) (cluster.ServerID, int, bool) {
	floor := max(minFree, 1)
	for k := s.lowerTop(floor); k >= floor; k-- {
		left := s.inBucket[k]
		for w := 0; left > 0; w++ {
			for word := s.buckets[k][w]; word != 0; word &= word - 1 {
				id := cluster.ServerID(w<<6 | bits.TrailingZeros64(word))
				if s.c.Servers[id].Type == t {
					return id, k, true
				}
				left--
			}
		}
	}
	return 0, 0, false
}

// EmptiestServer is MostFreeServer over the servers of every GPU type:
// on a cluster of one type the same server, found without comparing
// types (a placement's usual question at every start).
func (s *State) EmptiestServer(minFree int) (cluster.ServerID, int, bool) {
	floor := max(minFree, 1)
	for k := s.lowerTop(floor); k >= floor; k-- {
		if s.inBucket[k] == 0 {
			continue
		}
		for w, word := range s.buckets[k] {
			if word != 0 {
				return cluster.ServerID(w<<6 | bits.TrailingZeros64(word)), k, true
			}
		}
	}
	return 0, 0, false
}

// lowerTop lowers top to the largest k >= floor with servers in
// buckets[k], or to floor-1 when there is none, and returns it.
func (s *State) lowerTop(floor int) int {
	k := s.top
	for k >= floor && s.inBucket[k] == 0 {
		k--
	}
	s.top = k
	return k
}

// EachServerByFreeAsc is EachServerByFree with the fewest free GPUs first
// (best fit).
func (s *State) EachServerByFreeAsc(minFree int, fn func(id cluster.ServerID, free int) bool) {
	for k := max(minFree, 1); k < len(s.buckets); k++ {
		if s.inBucket[k] > 0 && !s.eachInBucket(k, fn) {
			return
		}
	}
}

// eachInBucket calls fn on the servers with exactly k free GPUs, by ID; it
// reports whether fn asked to go on.
func (s *State) eachInBucket(k int, fn func(id cluster.ServerID, free int) bool) bool {
	left := s.inBucket[k]
	for w, word := range s.buckets[k] {
		for word != 0 {
			b := bits.TrailingZeros64(word)
			word &= word - 1
			left--
			if !fn(cluster.ServerID(w<<6|b), k) {
				return false
			}
		}
		if left == 0 {
			break
		}
	}
	return true
}

// MemoryFreeGB is the memory left on GPU g; +Inf when memory is not modelled.
func (s *State) MemoryFreeGB(g cluster.GPUID) float64 {
	c := s.c.GPUs[g].MemoryGB
	if c == 0 {
		return inf
	}
	return c - s.load[g].mem
}

// MemoryGB is the memory job id would hold per GPU at a sub-batch size (0
// for its own batch size).
func (s *State) MemoryGB(id workload.JobID, subBatch int) float64 {
	if s.memModel == nil { // jobMemoryGB, written so that MemoryGB inlines
		return s.jobs[id].MemoryGB
	}
	return s.memModel.MemoryGB(&s.jobs[id], subBatch)
}

// SharingLimit is the most jobs a GPU may hold.
func (s *State) SharingLimit() int { return s.limit }

// Perf is the performance model the policy believes; it may differ from
// the one driving the simulation.
func (s *State) Perf() perf.Model { return s.believed }

// rateMemo is the believed model's rate of the job in a slot of act as
// BelievedRate last answered it, valid while the placements are those of
// at (State.placeGen). A job that takes over a slot starts after it is
// written (a start counts in placeGen), so what a slot's last job was
// told is never read for it. It lies beside act, not in jobRun, which is
// kept small.
type rateMemo struct {
	rate float64
	at   uint64
}

// BelievedRate is Perf().Rate(s, id). When the believed model is the
// true one and its rate depends on placements alone
// (perf.PlacementRated), the answer for a running job is kept until the
// next start, end or move anywhere, and the recompute that follows the
// decision reads it instead of asking the model again: a Gavel round asks
// the rate of each job it starts (its micro-task) just before the
// engine's recompute asks the same of the same placement.
func (s *State) BelievedRate(id workload.JobID) float64 {
	r := s.believed.Rate(s, id)
	if s.rateMemo {
		if j := s.kept(id); j != nil && j.slot > 0 {
			if len(s.memos) < len(s.act) {
				s.memos = slices.Grow(s.memos, len(s.act)-len(s.memos))[:len(s.act)]
			}
			s.memos[j.slot-1] = rateMemo{r, s.placeGen}
		}
	}
	return r
}

// BelievedThroughputs is the believed model (Perf) as perf.Throughputs,
// found once per run through any wrappers (perf.As), and whether it is
// one: placements ask at every start which GPU types a job runs on, and
// in WebAssembly each assertion to an interface is a lookup in the
// runtime's table.
func (s *State) BelievedThroughputs() (perf.Throughputs, bool) {
	return s.believedTP, s.believedTP != nil
}

// Rand is the policy's own random stream, seeded from the run's seed.
func (s *State) Rand() *rand.Rand { return s.rng }

// Log appends an entry to the decision log ("why"). job may be -1.
func (s *State) Log(job workload.JobID, format string, args ...any) { s.logf(job, format, args...) }

// LogFunc appends an entry to the decision log whose text fn makes when the
// entry is read, so that a policy logging at every start pays for the text
// only when someone reads it. fn must capture only values that do not
// change afterwards (copies, not the policy's scratch slices).
func (s *State) LogFunc(job workload.JobID, fn func() string) { s.logFunc(job, fn) }

// LogNote appends an entry to the decision log whose text w writes from n
// when the entry is read: LogFunc without an allocation per entry, for
// policies that log at every start of a large run.
func (s *State) LogNote(job workload.JobID, w NoteWriter, n Note) { s.logNote(job, w, n) }

// WakeAt asks for a wake-up at time t, which must be in the future.
func (s *State) WakeAt(t float64) error {
	if !(t > s.now) {
		return fmt.Errorf("wake-up at %v is not after the current time %v", t, s.now)
	}
	if t > s.cfg.Budgets.MaxTimeS {
		return nil // beyond the time budget: never reached
	}
	if s.wakes.add(t) {
		s.events.Push(mkEvent(t, WakeUp, -1, 0))
	}
	return nil
}

// jobMemoryGB is perf.JobMemoryGB under the run's true model, whose
// MemoryModel was asserted once.
func (s *State) jobMemoryGB(j *workload.Job, subBatch int) float64 {
	if s.memModel != nil {
		return s.memModel.MemoryGB(j, subBatch)
	}
	return j.MemoryGB
}
