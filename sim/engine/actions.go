package engine

import (
	"fmt"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/story"
	"github.com/schedlab/schedlab/sim/workload"
)

// ActionError is an action the engine refused, with the reason.
type ActionError struct {
	Action string
	Job    string
	Reason string
}

func (e *ActionError) Error() string {
	return fmt.Sprintf("%s job %s: %s", e.Action, e.Job, e.Reason)
}

func (s *State) refuse(action string, id workload.JobID, format string, args ...any) error {
	return &ActionError{Action: action, Job: s.jobs[id].Name, Reason: fmt.Sprintf(format, args...)}
}

func (s *State) checkJob(action string, id workload.JobID) error {
	if !s.deciding || id < 0 || int(id) >= len(s.jobs) {
		return s.badJob(action, id)
	}
	return nil
}

// badJob is checkJob's error, kept apart so that checkJob inlines.
func (s *State) badJob(action string, id workload.JobID) error {
	if !s.deciding {
		return fmt.Errorf("%s: actions are only allowed inside Decide", action)
	}
	if id < 0 || int(id) >= len(s.jobs) {
		return fmt.Errorf("%s: no job %d", action, id)
	}
	return nil
}

// Start runs a pending job on the given GPUs, one per worker.
func (s *State) Start(id workload.JobID, gpus []cluster.GPUID, o ActionOptions) error {
	if err := s.checkJob("start", id); err != nil {
		return err
	}
	if a := s.jobs[id].ArrivalS; s.now < a {
		return s.refuse("start", id, "it is t=%v, before its arrival at t=%v", s.now, a)
	}
	j := s.kept(id) // a pending job is kept
	if j == nil || j.status != Pending {
		return s.refuse("start", id, "it is %s, not pending", s.Status(id))
	}
	r := &s.act[j.slot-1] // a pending job has its running state
	if err := s.checkGPUs("start", id, gpus, o.SubBatch, r); err != nil {
		return err
	}
	// no settle: a pending job does no work, and occupy restarts its
	// clock
	j.wait += s.now - r.waitSince
	overhead := s.cfg.Overheads.FirstStartS
	if j.starts > 0 {
		overhead = s.cfg.Overheads.RestartS
	} else {
		j.firstStart = s.now
		j.solo = s.soloTime(id, gpus)
	}
	j.starts++
	j.lastStart = s.now
	s.pending.remove(int(id))
	s.running.add(int(id))
	s.setStatus(id, j, Running)
	r.subBatch = o.SubBatch
	s.occupy(id, r, gpus)
	s.beginOverhead(r, pickOverhead(overhead, o))
	s.res.Stats.Actions++
	if s.cfg.Stories {
		s.tellFact(story.Start, id, gpus)
	}
	return nil
}

// Preempt stops a running job; it keeps its progress and becomes pending.
func (s *State) Preempt(id workload.JobID) error {
	return s.preempt(id, story.Preempt)
}

func (s *State) preempt(id workload.JobID, kind story.Kind) error {
	if err := s.checkJob("preempt", id); err != nil {
		return err
	}
	j := s.kept(id) // a running job is kept
	if j == nil || j.status != Running {
		return s.refuse("preempt", id, "it is %s, not running", s.Status(id))
	}
	r := s.run(id)
	s.settleJob(id, j, r)
	s.release(id, r)
	s.setStatus(id, j, Pending)
	j.preempts++
	r.waitSince = s.now
	r.overheadEnd = -inf
	s.running.remove(int(id))
	s.pending.add(int(id))
	s.res.Stats.Actions++
	if s.cfg.Stories {
		s.tellFact(kind, id, nil)
	}
	return nil
}

// Pause stops a running job as Preempt does, but does not count it as a
// preemption: for a policy whose job only idles until its lease's next
// round (the end of a Gavel micro-task).
func (s *State) Pause(id workload.JobID) error {
	if err := s.preempt(id, story.Pause); err != nil {
		return err
	}
	s.active(id).preempts-- // pending now, so kept
	return nil
}

// Migrate moves a running job to other GPUs, the same number of them.
func (s *State) Migrate(id workload.JobID, gpus []cluster.GPUID, o ActionOptions) error {
	return s.move("migrate", id, gpus, o)
}

// Resize gives a running job of an elastic policy a different set of GPUs,
// of any size.
func (s *State) Resize(id workload.JobID, gpus []cluster.GPUID, o ActionOptions) error {
	if !s.opts.Elastic {
		if err := s.checkJob("resize", id); err != nil {
			return err
		}
		return s.refuse("resize", id, "the policy is not elastic")
	}
	return s.move("resize", id, gpus, o)
}

func (s *State) move(action string, id workload.JobID, gpus []cluster.GPUID, o ActionOptions) error {
	if err := s.checkJob(action, id); err != nil {
		return err
	}
	j := s.kept(id) // a running job is kept
	if j == nil || j.status != Running {
		return s.refuse(action, id, "it is %s, not running", s.Status(id))
	}
	r := s.run(id)
	if action == "migrate" && len(gpus) != len(r.gpus) {
		return s.refuse(action, id, "it holds %d GPUs but was given %d (use Resize to change the count)", len(r.gpus), len(gpus))
	}
	if o.SubBatch == 0 {
		o.SubBatch = r.subBatch
	}
	if err := s.checkGPUs(action, id, gpus, o.SubBatch, r); err != nil {
		return err
	}
	s.settleJob(id, j, r)
	s.markDirty(id) // before release marks the jobs it affects, as occupy does
	s.release(id, r)
	overhead := s.cfg.Overheads.MigrationS
	if action == "resize" {
		overhead = s.cfg.Overheads.ResizeS
		j.resizes++
	} else {
		j.migrations++
	}
	r.subBatch = o.SubBatch
	s.occupy(id, r, gpus)
	s.beginOverhead(r, pickOverhead(overhead, o))
	s.res.Stats.Actions++
	if s.cfg.Stories {
		kind := story.Migrate
		if action == "resize" {
			kind = story.Resize
		}
		s.tellFact(kind, id, gpus)
	}
	return nil
}

func pickOverhead(configured float64, o ActionOptions) float64 {
	switch {
	case o.NoOverhead:
		return 0
	case o.OverheadS > 0:
		return o.OverheadS
	}
	return configured
}

// checkGPUs checks that job id, whose running state is r, may take gpus
// with the given sub-batch. What the job itself holds now counts as
// available, so that a move may keep some of its GPUs.
func (s *State) checkGPUs(action string, id workload.JobID, gpus []cluster.GPUID, subBatch int, r *jobRun) error {
	job := &s.jobs[id]
	if len(gpus) == 0 {
		return s.refuse(action, id, "no GPUs given")
	}
	if !s.opts.Elastic && len(gpus) != job.GPUs {
		return s.refuse(action, id, "it is gang-scheduled on %d GPUs but was given %d", job.GPUs, len(gpus))
	}
	if subBatch < 0 || (job.BatchSize > 0 && subBatch > job.BatchSize) {
		return s.refuse(action, id, "sub-batch %d is outside 1..%d", subBatch, job.BatchSize)
	}
	mem := s.jobMemoryGB(job, subBatch)
	held := r // what the job holds now
	if len(held.gpus) == 0 && s.takeAsIs(job, gpus, mem) {
		return nil
	}
	for i, g := range gpus {
		if g < 0 || int(g) >= len(s.c.GPUs) {
			return s.refuse(action, id, "GPU %d does not exist (the cluster has %d)", g, len(s.c.GPUs))
		}
		if firstIndexOf(gpus, g) != i {
			continue // each GPU is checked once, with all its copies
		}
		gpu := &s.c.GPUs[g]
		if job.GPUType != "" && gpu.Type != job.GPUType {
			return s.refuse(action, id, "GPU %d is a %s but the job needs %s", g, gpu.Type, job.GPUType)
		}
		copies := count(gpus, g)
		if copies > 1 && !s.opts.SameJobColocation {
			return s.refuse(action, id, "GPU %d is listed twice", g)
		}
		own := count(held.gpus, g)
		if n := len(s.residents[g]) - own + copies; n > s.limit {
			return s.refuse(action, id, "GPU %d would hold %d jobs, over the sharing limit of %d", g, n, s.limit)
		}
		memOthers := s.load[g].mem - float64(own)*held.mem
		if capGB := gpu.MemoryGB; capGB > 0 && mem > 0 && memOthers+mem*float64(copies) > capGB+1e-9 {
			return s.refuse(action, id, "GPU %d has %.3g GB free but the job needs %.3g GB", g, capGB-memOthers, mem*float64(copies))
		}
		computeOthers := s.load[g].compute - float64(own)*job.Compute
		if job.Compute > 0 && computeOthers+job.Compute*float64(copies) > 1+1e-9 {
			return s.refuse(action, id, "GPU %d has %.3g of its compute free but the job needs %.3g", g, 1-computeOthers, job.Compute*float64(copies))
		}
	}
	return nil
}

// takeAsIs reports whether a job that holds no GPUs may take gpus, when
// they are distinct: the loop of checkGPUs in one pass, for the usual
// start. When it says no (or the list has copies), checkGPUs's own loop
// finds the first problem and words it.
func (s *State) takeAsIs(job *workload.Job, gpus []cluster.GPUID, mem float64) bool {
	s.seenMark++
	if s.seenMark == 0 { // wrapped: older marks could match again
		clear(s.seen)
		s.seenMark = 1
	}
	for _, g := range gpus {
		if uint(g) >= uint(len(s.seen)) || s.seen[g] == s.seenMark {
			return false
		}
		s.seen[g] = s.seenMark
		gpu := &s.c.GPUs[g]
		if job.GPUType != "" && gpu.Type != job.GPUType || len(s.residents[g]) >= s.limit {
			return false
		}
		if capGB := gpu.MemoryGB; capGB > 0 && mem > 0 && s.load[g].mem+mem > capGB+1e-9 {
			return false
		}
		if job.Compute > 0 && s.load[g].compute+job.Compute > 1+1e-9 {
			return false
		}
	}
	return true
}

func firstIndexOf(gpus []cluster.GPUID, g cluster.GPUID) int {
	for i, h := range gpus {
		if h == g {
			return i
		}
	}
	return -1
}

func count(gpus []cluster.GPUID, g cluster.GPUID) int {
	n := 0
	for _, h := range gpus {
		if h == g {
			n++
		}
	}
	return n
}

// occupy places job id, whose running state is j, on gpus and marks
// affected rates for recomputation.
func (s *State) occupy(id workload.JobID, j *jobRun, gpus []cluster.GPUID) {
	if n := len(gpus); n <= cap(j.gpus) { // the slot's array from an earlier job: store the length alone
		j.gpus = j.gpus[:n]
		if n == 1 { // most jobs: no call to memmove
			j.gpus[0] = gpus[0]
		} else {
			copy(j.gpus, gpus)
		}
	} else {
		j.gpus = append(j.gpus[:0], gpus...)
	}
	s.split.placed(s.c, int(id), gpus)
	s.placeGen++
	j.mem = s.jobMemoryGB(&s.jobs[id], j.subBatch)
	compute, now := s.jobs[id].Compute, s.now
	// The GPUs a job takes usually lie on one server: its books (free
	// count, bucket, GPU type's count) change once per server and run of
	// its GPUs, not once per GPU.
	srv, taken := cluster.ServerID(-1), 0
	for _, g := range gpus {
		switch len(s.residents[g]) {
		case 0:
			gpu := &s.c.GPUs[g]
			if gpu.Server != srv {
				if taken > 0 {
					s.setServerFree(srv, -taken)
				}
				srv, taken = gpu.Server, 0
			}
			taken++
			s.freeSlots[srv] &^= 1 << (gpu.Slot & 63)
			s.busyGPUs++
		case 1: // its resident now shares g (it may be job id, taking a copy)
			s.act[s.active(s.residents[g][0].job).slot-1].crowded++
			j.crowded++
		default:
			j.crowded++
		}
		// appending to s.residents[g] itself, not to a copy of it, stores
		// the length alone when the array has room (no pointer, so no
		// write barrier)
		s.residents[g] = append(s.residents[g], resident{job: id, since: now})
		ld := &s.load[g]
		ld.mem += j.mem
		ld.compute += compute
	}
	if taken > 0 {
		s.setServerFree(srv, -taken)
	}
	s.slots += len(gpus)
	j.last = now
	s.markDirty(id)
	if s.coupled(j) {
		s.markCoupled(id, j.gpus)
	}
	s.recordUtil()
}

// release takes job id, settled, off its GPUs, recording its intervals;
// j is its running state.
//
// It does not mark job id's rate for recomputation: a completed or
// preempted job has none (recompute would skip it), and move, which keeps
// the job running, marks it first.
func (s *State) release(id workload.JobID, j *jobRun) {
	if s.coupled(j) {
		s.markCoupled(id, j.gpus)
	}
	s.placeGen++
	compute := s.jobs[id].Compute
	srv, freed := cluster.ServerID(-1), 0 // as in occupy
	for _, g := range j.gpus {
		rs := s.residents[g]
		for k, r := range rs {
			if r.job == id {
				if !s.droppedPastCap(r.since) {
					s.recordInterval(g, id, r.since)
				}
				if k < len(rs)-1 { // exclusive GPUs have one resident: nothing to move
					copy(rs[k:], rs[k+1:])
				}
				s.residents[g] = s.residents[g][:len(rs)-1] // the length alone, as in occupy
				rs = rs[:len(rs)-1]
				break
			}
		}
		if len(rs) > 0 {
			j.crowded--       // g held others too
			if len(rs) == 1 { // the one left holds g alone now
				s.act[s.active(rs[0].job).slot-1].crowded--
			}
			s.load[g].mem -= j.mem
			s.load[g].compute -= compute
			continue
		}
		s.load[g] = gpuLoad{} // no rounding residue
		gpu := &s.c.GPUs[g]
		if gpu.Server != srv {
			if freed > 0 {
				s.top = max(s.top, int(s.setServerFree(srv, freed)))
			}
			srv, freed = gpu.Server, 0
		}
		freed++
		s.freeSlots[srv] |= 1 << (gpu.Slot & 63)
		s.busyGPUs--
	}
	if freed > 0 {
		s.top = max(s.top, int(s.setServerFree(srv, freed))) // a freed GPU may raise it
	}
	s.slots -= len(j.gpus)
	j.gpus = j.gpus[:0]
	j.rate, j.modelRate = 0, 0
	j.ver++ // its completion event is stale
	s.recordUtil()
}

// setServerFree counts delta of server srv's GPUs as freed (delta > 0)
// or taken (< 0), moving the server to its new bucket, and returns its
// new free count.
func (s *State) setServerFree(srv cluster.ServerID, delta int) int32 {
	from := s.serverFree[srv]
	to := from + int32(delta)
	s.serverFree[srv] = to
	w, bit := srv>>6, uint64(1)<<(srv&63)
	s.buckets[from][w] &^= bit
	s.inBucket[from]--
	s.buckets[to][w] |= bit
	s.inBucket[to]++
	s.freeTotal += delta
	s.freeByType[s.serverType[srv]] += delta
	return to
}

// beginOverhead starts an overhead of d seconds for the job whose
// running state is j (it has just started or moved).
func (s *State) beginOverhead(j *jobRun, d float64) {
	if d <= 0 {
		j.overheadEnd = -inf
		return
	}
	j.overheadEnd = s.now + d // recompute schedules its end
	s.stall.overheadS = max(s.stall.overheadS, d)
}

// soloTime is how long job id would take alone on gpus.
func (s *State) soloTime(id workload.JobID, gpus []cluster.GPUID) float64 {
	// perf.SoloRate with one reused Alone: a new one per start escaped to
	// the heap (one allocation per job). Its cluster is set once, in
	// newState, and what it last held stays in it until the next start:
	// writing and clearing all of it at each start cost more than the
	// model's answer.
	s.alone.J, s.alone.Where = &s.jobs[id], perf.Placement{GPUs: gpus}
	r := s.cfg.Perf.Rate(&s.alone, id)
	if r <= 0 {
		return -1
	}
	return s.jobs[id].Iterations / r
}
