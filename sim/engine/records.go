package engine

import "github.com/schedlab/schedlab/sim/workload"

// rec is a job's record. For a job outside the kept records (streaming
// only: a job not yet arrived, or one whose record was handed over) it is
// a scratch record, rewritten at every such call, that holds its status
// and nothing else.
func (s *State) rec(id workload.JobID) *jobRec {
	// kept's test written out, so that rec inlines into Status
	if i := int(id); uint(i-s.recFrom) < uint(s.recTo-s.recFrom) {
		return &s.js[i&s.recMask]
	}
	return s.outsideRec(id)
}

// kept is a kept job's record, nil for a job outside the kept records.
func (s *State) kept(id workload.JobID) *jobRec {
	if i := int(id); uint(i-s.recFrom) < uint(s.recTo-s.recFrom) {
		return &s.js[i&s.recMask]
	}
	return nil
}

// active is the record of a job known to be kept: one that has arrived
// and is not yet handed over (pending, running, or finished within the
// current instant). It skips rec's check, on the engine's hottest paths.
func (s *State) active(id workload.JobID) *jobRec { return &s.js[int(id)&s.recMask] }

// outsideRec is kept apart from rec so that rec stays small enough to
// inline into its callers.
//
//go:noinline
func (s *State) outsideRec(id workload.JobID) *jobRec {
	s.outside = freshRec
	if int(id) < s.recFrom {
		s.outside.status = Finished
		if _, never := s.reasons[id]; never {
			s.outside.status = Unschedulable
		}
	}
	return &s.outside
}

// freshRec is the record of a job that has not arrived.
var freshRec = jobRec{firstStart: -1, lastStart: -1, finish: -1, solo: -1}

// streamRecords reports whether a run hands each job's record over as
// soon as it is final and keeps no record of it after: when records are
// streamed (OnRecord) and nothing else reads finished jobs' records (a
// perf model's iteration splits, a policy reading finished jobs' Info).
func streamRecords(cfg *Config, split *splitLog, opts Options) bool {
	return cfg.OnRecord != nil && split == nil && !opts.FinishedInfo
}

// initRecords sets up the kept records: every job's at once, or, when
// streaming, a small ring that grows with the jobs in the system.
func (s *State) initRecords() {
	s.status = make([]Status, len(s.jobs))
	if !s.streaming {
		s.js = make([]jobRec, len(s.jobs))
		for i := range s.js {
			s.js[i] = freshRec
		}
		s.recFrom, s.recTo, s.recMask = 0, len(s.jobs), -1
		return
	}
	s.js = make([]jobRec, 1024)
	s.recMask = len(s.js) - 1
}

// keepArrival gives job id, arriving now, a record in the ring (streaming
// only; jobs arrive in ID order).
func (s *State) keepArrival(id workload.JobID) {
	if !s.streaming {
		return
	}
	if s.recTo-s.recFrom == len(s.js) {
		ring := make([]jobRec, 2*len(s.js))
		mask := len(ring) - 1
		for i := s.recFrom; i < s.recTo; i++ {
			ring[i&mask] = s.js[i&s.recMask]
		}
		s.js, s.recMask = ring, mask
	}
	s.js[int(id)&s.recMask] = freshRec
	s.recTo = int(id) + 1
}

// handOver hands over, in ID order, the records of the oldest kept jobs
// that are final (finished or never to run), and drops them (streaming
// only). A job's work is checked before its record goes. The oldest
// job's record can go only if some job became final since the last
// call (State.final): at the other instants, about half of them, the
// call inlines to that test.
func (s *State) handOver() {
	if s.final {
		s.final = false
		s.handOverFinal()
	}
}

func (s *State) handOverFinal() {
	if !s.streaming {
		return
	}
	r := &s.handed // OnRecord's pointer to a local would cost an allocation per call
	for s.recFrom < s.recTo {
		i := s.recFrom
		j := &s.js[i&s.recMask]
		if j.status != Finished && j.status != Unschedulable {
			return
		}
		if s.workErr == nil && !s.workPlainlyDone(i, j) {
			s.workErr = s.checkJobWork(i, j)
		}
		s.record(r, i, j)
		s.cfg.OnRecord(r)
		s.recFrom++
	}
}

// record writes job i's record, as of now, into r.
func (s *State) record(r *JobRecord, i int, j *jobRec) {
	job := &s.jobs[i]
	// Field by field, every field (TestRecordSetsEveryField): a composite
	// literal was built on the stack from a zeroed template and then
	// copied whole into r, three passes over 176 bytes per job.
	r.Job, r.Name, r.Model, r.GPUs, r.Status = job.ID, job.Name, job.Model, job.GPUs, j.status
	r.Reason = ""
	r.ArrivalS, r.FirstStartS, r.FinishS, r.QueueS = job.ArrivalS, j.firstStart, j.finish, -1
	r.WaitS, r.RunS, r.GPUSeconds, r.SoloS, r.Iterations = j.wait, j.runTime, j.gpuSeconds, j.solo, j.done
	r.Preemptions, r.Migrations, r.Resizes, r.Starts = int(j.preempts), int(j.migrations), int(j.resizes), int(j.starts)
	if j.status == Unschedulable { // only those have a reason (a map lookup per job otherwise)
		r.Reason = s.reasons[job.ID]
	}
	if j.firstStart >= 0 {
		r.QueueS = j.firstStart - job.ArrivalS
	}
	if j.status == Pending {
		r.WaitS += s.now - s.act[j.slot-1].waitSince
	}
}

// finalRecords hands over every record not handed over yet, in ID order:
// all of them without streaming (into Result.Jobs unless OnRecord is
// set).
func (s *State) finalRecords() {
	if s.cfg.OnRecord == nil {
		s.res.Jobs = make([]JobRecord, len(s.jobs))
	}
	r := &s.handed
	for i := s.recFrom; i < len(s.jobs); i++ {
		s.record(r, i, s.rec(workload.JobID(i)))
		if s.cfg.OnRecord != nil {
			s.cfg.OnRecord(r)
		} else {
			s.res.Jobs[i] = *r
		}
	}
}
