package mechanism

import (
	"math"
	"slices"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/workload"
)

// Quirks are the reference simulator's behaviours that mode ref-compat
// reproduces so that its runs agree with the reference job for job.
type Quirks struct {
	// ResetAtZero: a recompute is allowed whenever the last one was at
	// t = 0, as the reference's last-reset time starts at 0.
	ResetAtZero bool
	// IntegerSteps: a job runs int(throughput × round) whole steps per
	// round and stops when they are done; the round ends when its last
	// micro-task does.
	IntegerSteps bool
	// SplitSteps: a multi-GPU job's steps are split as steps // GPUs per
	// worker; a job with fewer steps left than GPUs fails its round, and
	// the reference drops it after maxFailedAttempts failures in a row.
	SplitSteps bool
	// UnallocatedWait: a job that arrived after the last recompute (no
	// row in the allocation) takes its place in a round's pick, using up
	// GPUs, but is given no workers, so it waits for the next recompute
	// instead of running on idle GPUs.
	UnallocatedWait bool
	// IdleUntilArrival: a round that runs nothing lasts until the next
	// arrival; with none left, the reference forgets when it last
	// recomputed, so a recompute that is due happens at once.
	IdleUntilArrival bool
}

// maxFailedAttempts is the reference's MAX_FAILED_ATTEMPTS.
const maxFailedAttempts = 5

// whole is the remaining work in whole steps: progress in rounds of whole
// steps leaves float dust that would otherwise count as a step.
func whole(rem float64) float64 {
	if r := math.Round(rem); math.Abs(rem-r) <= 1e-6*max(1, r) {
		return r
	}
	return rem
}

// markFailures decides which placed multi-GPU jobs fail their round
// (quirk SplitSteps): fewer whole steps left than GPUs. At the last
// allowed failure the job runs instead, finishing its steps (the
// reference drops it then; schedlab records it in gavel/dropped).
func (m *Mechanism) markFailures(s *engine.State, placed []placement) {
	for i := range placed {
		pl := &placed[i]
		if pl.k.b >= 0 || len(pl.gpus) < 2 {
			continue
		}
		tr := m.jobs[pl.k.a]
		rem := whole(s.Remaining(pl.k.a))
		if rem >= float64(len(pl.gpus)) {
			tr.failures = 0 // the reference counts failures in a row
			continue
		}
		tr.failures++
		if tr.failures < maxFailedAttempts {
			tr.failing = true
			continue
		}
		s.Record("gavel/dropped", pl.k.a, float64(tr.failures))
		s.Log(pl.k.a, "round %d: %s has %.0f steps left on %d GPUs: the reference drops it after %d failed rounds; schedlab runs its last steps", m.rounds.n, s.Job(pl.k.a).Name, rem, len(pl.gpus), tr.failures)
	}
}

// microTasks sets each placed job's micro-task (quirk IntegerSteps):
// int(rate × round) whole steps, or what is left; a job with steps left
// afterwards is stopped when they are done. It returns when the round
// ends, the last micro-task's end, and whether that is a completion.
func (m *Mechanism) microTasks(s *engine.State, placed []placement) (end float64, completes bool) {
	now := s.Now()
	end = now
	m.stops, m.stopHead, m.nextStop = m.stops[:0], 0, math.Inf(1)
	for i := range placed {
		pl := &placed[i]
		for _, id := range pl.k.members() {
			tr := m.jobs[id]
			tr.stopAt = math.Inf(1)
			if tr.failing {
				tr.taskEnd = now // a failed micro-task counts no time
				d := whole(s.Remaining(id)) / tr.thr[pl.j]
				if now+d > end {
					end, completes = now+d, false
				}
				continue
			}
			rate := s.BelievedRate(id)
			if !(rate > 0) {
				rate = tr.thr[pl.j]
			}
			rem := s.Remaining(id)
			steps := max(1, math.Floor(rate*m.cfg.RoundS))
			t, done := now+rem/rate, true
			if steps < whole(rem) {
				t, done = now+steps/rate, false
				tr.stopAt = t
				m.stops = append(m.stops, stop{t, id})
			}
			tr.taskEnd = t
			if t > end {
				end, completes = t, done
			}
		}
	}
	m.sorter.sort(m.stops)
	if len(m.stops) > 0 {
		m.nextStop = m.stops[0].t
	}
	return end, completes
}

// stop is a micro-task's stop: when, and whose.
type stop struct {
	t  float64
	id workload.JobID
}

// stopMicroTasks pauses the jobs whose micro-task is done (quirk
// IntegerSteps); their GPUs stay idle until the round ends. A pause is
// not a preemption: the job keeps its lease if the next round renews it.
//
// Only the jobs microTasks gave a stop can have one: every running job was
// placed in the round, and a job starts only in a round's apply, right
// before microTasks sets its stop. m.stops holds them by stop time; the
// jobs whose stop has come are paused in job order (the engine's order of
// running jobs), and leave the list whether they were paused or not (they
// no longer run, or the round is over and the next one sets their stops).
func (m *Mechanism) stopMicroTasks(s *engine.State, now float64) error {
	if !(m.nextStop <= now) {
		return nil
	}
	n := m.stopHead
	due := m.due[:0]
	for n < len(m.stops) && m.stops[n].t <= now {
		due = append(due, m.stops[n].id)
		n++
	}
	m.due = due
	slices.Sort(due)
	for _, id := range due {
		tr := m.jobs[id]
		if s.Status(id) == engine.Running && now < m.rounds.end {
			tr.stopAt = math.Inf(1)
			if err := s.Pause(id); err != nil {
				return err
			}
			if s.Telling() {
				s.TellWhy(id, "its micro-task for this round is done: %s's allocation gave it this share of the round, and the next round hands out new leases at %s",
					m.cfg.Title, results.Duration(m.rounds.end))
			}
			tr.stopped = true
		}
	}
	m.stopHead = n
	m.nextStop = math.Inf(1)
	if n < len(m.stops) {
		m.nextStop = m.stops[n].t
	}
	return nil
}

// roundEnds schedules the round's wake-ups under quirk IntegerSteps: one
// per micro-task that stops, and the round's end unless that is a job's
// completion (its completion event ends the round instead, so that a
// round never ends a hair before the job does). The stops are those
// microTasks has just listed, in time order, so equal times are adjacent.
func (m *Mechanism) roundEnds(s *engine.State, end float64, completes bool) error {
	last := math.NaN() // the last stop woken for
	for _, st := range m.stops {
		if st.t <= s.Now() || st.t == last {
			continue
		}
		last = st.t
		if err := s.WakeAt(st.t); err != nil {
			return err
		}
	}
	if completes || last == end {
		return nil
	}
	return s.WakeAt(end)
}

// idle handles a round that runs nothing (quirk IdleUntilArrival): it
// lasts until the next arrival; with no arrival left, a due recompute is
// forced and the round is tried again. It reports whether it did either.
func (m *Mechanism) idle(s *engine.State) (bool, error) {
	now := s.Now()
	next := math.Inf(1)
	for id := workload.JobID(0); int(id) < s.NumJobs(); id++ {
		if a := s.Job(id).ArrivalS; a > now && a < next {
			next = a
		}
	}
	if !math.IsInf(next, 1) {
		m.rounds.start, m.rounds.end = now, next
		return true, s.WakeAt(next)
	}
	if !m.ledger.due || m.ledger.force {
		return false, nil
	}
	m.ledger.force = true
	return true, m.round(s)
}
