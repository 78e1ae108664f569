package engine

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/workload"
)

// CheckInvariants verifies the whole state: no GPU over its memory,
// compute or sharing limit; every running job holds exactly its GPUs (all
// of its gang) and arrived before it started; the GPU books agree with the
// job books; no job did more work than it has; time never goes back. It
// is O(GPUs + jobs).
func (s *State) CheckInvariants() error {
	if err := s.checkClock(); err != nil {
		return err
	}
	slots := 0
	busy := 0
	free := 0
	listed := make([]int, len(s.jobs)) // GPU entries listing each job
	for g := range s.residents {
		rs := s.residents[g]
		slots += len(rs)
		if len(rs) == 0 {
			free++
			continue
		}
		busy++
		if len(rs) > s.limit {
			return fmt.Errorf("GPU %d holds %d jobs, over the sharing limit %d", g, len(rs), s.limit)
		}
		mem, comp := 0.0, 0.0
		for _, r := range rs {
			j := s.rec(r.job)
			listed[r.job]++
			if j.status != Running || j.slot == 0 {
				return fmt.Errorf("GPU %d holds job %s, which is %s", g, s.jobs[r.job].Name, j.status)
			}
			mem += s.run(r.job).mem
			comp += s.jobs[r.job].Compute
		}
		if c := s.c.GPUs[g].MemoryGB; c > 0 && mem > c+1e-6 {
			return fmt.Errorf("GPU %d holds %.4g GB, over its %.4g GB", g, mem, c)
		}
		if comp > 1+1e-6 {
			return fmt.Errorf("GPU %d is asked for %.4g of its compute", g, comp)
		}
		if math.Abs(mem-s.load[g].mem) > 1e-6 {
			return fmt.Errorf("GPU %d memory books say %.6g GB, residents hold %.6g GB", g, s.load[g].mem, mem)
		}
	}
	if slots != s.slots || busy != s.busyGPUs || free != s.freeTotal {
		return fmt.Errorf("counters drifted: slots %d/%d, busy %d/%d, free %d/%d", s.slots, slots, s.busyGPUs, busy, s.freeTotal, free)
	}
	for srv := range s.c.Servers {
		n := 0
		var mask uint64
		for _, g := range s.c.Servers[srv].GPUs() {
			if len(s.residents[g]) == 0 {
				n++
				mask |= 1 << (s.c.GPUs[g].Slot & 63)
			}
		}
		if s.slotMasks && mask != s.freeSlots[srv] {
			return fmt.Errorf("server %d has free slots %b, books say %b", srv, mask, s.freeSlots[srv])
		}
		if int32(n) != s.serverFree[srv] {
			return fmt.Errorf("server %d has %d free GPUs, books say %d", srv, n, s.serverFree[srv])
		}
		if s.buckets[n][srv>>6]&(1<<(srv&63)) == 0 {
			return fmt.Errorf("server %d has %d free GPUs but is not in that bucket", srv, n)
		}
	}
	for k, words := range s.buckets {
		n := 0
		for _, w := range words {
			n += bits.OnesCount64(w)
		}
		if int32(n) != s.inBucket[k] {
			return fmt.Errorf("%d servers have %d free GPUs, books say %d", n, k, s.inBucket[k])
		}
		if n > 0 && k > s.top {
			return fmt.Errorf("%d servers have %d free GPUs, above the top bucket %d", n, k, s.top)
		}
	}
	running := 0
	// jobs outside the kept records have not arrived, or finished and
	// were checked when their records were handed over (see rec)
	for i := s.recFrom; i < s.recTo; i++ {
		j, job := s.rec(workload.JobID(i)), &s.jobs[i]
		if j.done > job.Iterations*(1+1e-9)+1e-9 {
			return fmt.Errorf("job %s did %.9g iterations of %.9g", job.Name, j.done, job.Iterations)
		}
		if err := s.checkArrival(i); err != nil {
			return err
		}
		if s.status[i] != j.status {
			return fmt.Errorf("job %s is %s but Status says %s", job.Name, j.status, s.status[i])
		}
		var gpus []cluster.GPUID
		if r := s.run(workload.JobID(i)); r != nil {
			gpus = r.gpus
		}
		if active := j.status == Pending || j.status == Running; active != (j.slot > 0) {
			return fmt.Errorf("job %s is %s but has running state: %v", job.Name, j.status, j.slot > 0)
		}
		switch j.status {
		case Running:
			running++
			if !s.opts.Elastic && len(gpus) != job.GPUs {
				return fmt.Errorf("job %s holds %d of its %d GPUs", job.Name, len(gpus), job.GPUs)
			}
			for _, g := range gpus {
				if !holds(s.residents[g], workload.JobID(i)) {
					return fmt.Errorf("job %s thinks it holds GPU %d, which does not list it", job.Name, g)
				}
			}
			if listed[i] != len(gpus) {
				return fmt.Errorf("job %s holds %d GPUs but the GPU books list it on %d", job.Name, len(gpus), listed[i])
			}
			shared := 0
			for _, g := range gpus {
				if len(s.residents[g]) != 1 {
					shared++
				}
			}
			if c := s.run(workload.JobID(i)).crowded; int(c) != shared {
				return fmt.Errorf("job %s shares %d of its GPUs but its books say %d", job.Name, shared, c)
			}
		case Pending, Finished, NotArrived, Unschedulable:
			if len(gpus) != 0 {
				return fmt.Errorf("job %s is %s but holds %d GPUs", job.Name, j.status, len(gpus))
			}
			if r := s.run(workload.JobID(i)); r != nil && r.crowded != 0 {
				return fmt.Errorf("job %s is %s but its books say it shares %d GPUs", job.Name, j.status, r.crowded)
			}
		}
		if j.status == Pending && !s.pending.has(i) || j.status != Pending && s.pending.has(i) {
			return fmt.Errorf("job %s: pending set disagrees with status %s", job.Name, j.status)
		}
	}
	if running != s.running.n {
		return fmt.Errorf("%d jobs are running but the running set has %d", running, s.running.n)
	}
	return nil
}

// checkArrival verifies that job i has not started, and is not waiting or
// running, before its arrival. There is no tolerance: a start even 1e-13 s
// early is a negative queuing delay in the records.
func (s *State) checkArrival(i int) error {
	j, job := s.rec(workload.JobID(i)), &s.jobs[i]
	switch {
	case j.firstStart >= 0 && j.firstStart < job.ArrivalS:
		return fmt.Errorf("job %s started at t=%v, before its arrival at t=%v", job.Name, j.firstStart, job.ArrivalS)
	case j.lastStart >= 0 && j.lastStart < job.ArrivalS:
		return fmt.Errorf("job %s restarted at t=%v, before its arrival at t=%v", job.Name, j.lastStart, job.ArrivalS)
	case j.status != NotArrived && j.status != Unschedulable && s.now < job.ArrivalS:
		return fmt.Errorf("job %s is %s at t=%v, before its arrival at t=%v", job.Name, j.status, s.now, job.ArrivalS)
	}
	return nil
}

// checkClock verifies that nothing is due before the current time (the
// next instant would go back) and that no job was settled in the future.
func (s *State) checkClock() error {
	if s.events.Len() > 0 {
		if e := s.events.Top(); e.t < s.now {
			return fmt.Errorf("time goes back: a %s event is due at t=%v, before the current time t=%v", e.kind(), e.t, s.now)
		}
	}
	if s.next < len(s.jobs) && s.jobs[s.next].ArrivalS < s.now {
		return fmt.Errorf("time goes back: job %s arrives at t=%v, before the current time t=%v", s.jobs[s.next].Name, s.jobs[s.next].ArrivalS, s.now)
	}
	for i := s.recFrom; i < s.recTo; i++ {
		if r := s.run(workload.JobID(i)); r != nil && r.last > s.now {
			return fmt.Errorf("time goes back: job %s was advanced to t=%v, after the current time t=%v", s.jobs[i].Name, r.last, s.now)
		}
	}
	return nil
}

func holds(rs []resident, id workload.JobID) bool {
	for _, r := range rs {
		if r.job == id {
			return true
		}
	}
	return false
}

// checkWork verifies, at the end of a run, that each finished job did
// exactly its work: the integral of its rate over time matches its
// iterations, its completion fired with nothing left, and it never ran past
// its end.
func (s *State) checkWork() error {
	if s.workErr != nil {
		return s.workErr // a job before the kept records, found when its record was handed over
	}
	for i := s.recFrom; i < s.recTo; i++ {
		if err := s.checkJobWork(i, s.rec(workload.JobID(i))); err != nil {
			return err
		}
	}
	return nil
}

// checkJobWork is checkWork for job i, whose record is j.
func (s *State) checkJobWork(i int, j *jobRec) error {
	job := &s.jobs[i]
	if j.status != Finished {
		return nil
	}
	tol := s.workTolerance(workload.JobID(i))
	var f workFault
	if s.faults != nil { // a healthy run has none
		f = s.faults[workload.JobID(i)]
	}
	switch {
	case f.residual > tol:
		return fmt.Errorf("job %s completed with %.9g of its %.9g iterations left", job.Name, f.residual, job.Iterations)
	case f.overshoot > tol:
		return fmt.Errorf("job %s ran %.9g iterations past its end", job.Name, f.overshoot)
	case math.Abs(j.done-job.Iterations) > tol:
		return fmt.Errorf("job %s finished after %.9g of its %.9g iterations", job.Name, j.done, job.Iterations)
	}
	return nil
}

// workPlainlyDone reports that checkJobWork(i, j) would return nil
// because the run is healthy (no fault noted) and job i finished within
// its tolerance: the usual case, small enough to inline into handOver,
// which then skips the call. When it says no, checkJobWork decides.
func (s *State) workPlainlyDone(i int, j *jobRec) bool {
	return s.faults == nil && j.status == Finished &&
		math.Abs(j.done-s.jobs[i].Iterations) <= s.workTolerance(workload.JobID(i))
}

// workTolerance is the work a job may miss or overrun by rounding.
func (s *State) workTolerance(id workload.JobID) float64 { return 1e-6*s.jobs[id].Iterations + 1e-9 }

// noteFault keeps a job's work fault for checkWork.
func (s *State) noteFault(id workload.JobID, f workFault) {
	if s.faults == nil {
		s.faults = map[workload.JobID]workFault{}
	}
	s.faults[id] = f
}

// stallEvents is how many events in a row may pass, while jobs hold
// GPUs, with no job finishing and none advancing, before the run may be
// called a livelock. A policy that restarts or moves jobs more often than
// their overheads allow would otherwise spin until the event budget, tens
// of millions of events later.
const stallEvents = 10_000

// stallWatch follows progress for watchProgress.
type stallWatch struct {
	progressed bool    // some job did work since the last look (set by settle)
	events     int64   // events since the last progress that ended a held interval
	heldS      float64 // simulated time since the last progress with jobs on GPUs
	sinceS     float64 // time of the last progress
	lastS      float64 // time of the last look
	held       bool    // some job held GPUs after the last look
	finished   int     // finished jobs at the last progress
	overheadS  float64 // the longest overhead charged in the run so far
}

// watchProgress is called after each instant of n events. It fails when,
// with jobs waiting or running all along, no job finished or advanced for
// stallEvents events and for more than twice the longest overhead the run
// has charged: a legitimate stretch without progress (every running job
// in a long restart overhead while the policy wakes each second) ends
// when that overhead does. Only the intervals in which some job held GPUs
// count, the only ones in which a job could have run: jobs that wait with
// none running (thousands of arrivals before a round-based policy's next
// round) are a queue, not a livelock; a policy that never starts them is
// reported as stuck once its events run out. Work is noticed when a job
// is settled; a job running undisturbed at a positive rate is not
// settled, so before failing it looks for one.
// The loop calls it only after an instant in which no job was seen to
// advance or finish (stalled); after the others (about half) it resets
// the watch itself.
func (s *State) watchProgress(n int) error {
	w := &s.stall
	if w.progressed || s.finished != w.finished || s.running.n+s.pending.n == 0 {
		s.resetStall()
		return nil
	}
	if w.held {
		w.events += int64(n)
		w.heldS += s.now - w.lastS
	}
	w.lastS, w.held = s.now, s.running.n > 0
	if w.events < stallEvents || w.heldS <= 2*w.overheadS {
		return nil
	}
	if s.anyAdvancing() {
		s.resetStall()
		return nil
	}
	return fmt.Errorf("no progress (a livelock): %d events over %s of simulated time with jobs on GPUs since t=%gs finished no job and advanced none; "+
		"%s, every running job in an overhead or at rate 0. Does the policy restart, move or resize jobs more often than their overheads allow?",
		w.events, results.DurationExact(w.heldS), w.sinceS, s.unfinishedSummary())
}

// stalled reports whether no job was seen to advance or finish since the
// watch was last reset.
func (s *State) stalled() bool { return !s.stall.progressed && s.finished == s.stall.finished }

func (s *State) resetStall() {
	// field by field, overheadS kept: the literal was built whole and
	// copied, at about half the instants
	w := &s.stall
	w.progressed, w.events, w.heldS = false, 0, 0
	w.sinceS, w.lastS, w.held, w.finished = s.now, s.now, s.running.n > 0, s.finished
}

// anyAdvancing reports whether a running job makes progress now.
func (s *State) anyAdvancing() bool {
	found := false
	s.running.each(func(i int) bool {
		found = s.run(workload.JobID(i)).rate > 0
		return !found
	})
	return found
}

// CheckRecords verifies the per-job records of a run that did not go
// through the engine's state (a policy with its own simulator, such as a
// fluid model): no job starts before it arrives or finishes before it
// starts. There is no tolerance, as in CheckInvariants.
func CheckRecords(jobs []workload.Job, res *Result) error {
	for _, r := range res.Jobs {
		if int(r.Job) < 0 || int(r.Job) >= len(jobs) {
			return fmt.Errorf("record of job %s names job %d of %d", r.Name, r.Job, len(jobs))
		}
		a := jobs[r.Job].ArrivalS
		switch {
		case r.FirstStartS >= 0 && r.FirstStartS < a:
			return fmt.Errorf("job %s started at t=%v, before its arrival at t=%v", r.Name, r.FirstStartS, a)
		case r.FinishS >= 0 && r.FinishS < max(a, r.FirstStartS):
			return fmt.Errorf("job %s finished at t=%v, before it arrived (t=%v) or started (t=%v)", r.Name, r.FinishS, a, r.FirstStartS)
		case r.Status == Finished && r.FinishS < 0:
			return fmt.Errorf("job %s is finished but has no finish time", r.Name)
		}
	}
	return nil
}
