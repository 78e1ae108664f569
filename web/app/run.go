package app

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/web/protocol"
)

// Run states.
const (
	RunRunning    = "running"
	RunCancelling = "cancelling"
	RunDone       = "done"
	RunCancelled  = "cancelled"
	RunFailed     = "failed"
)

// Run is one comparison: every policy of a scenario on one seed, each
// policy in its own engine worker when there are enough.
type Run struct {
	ID      int
	Doc     string // the scenario as compact JSON
	Seed    uint64
	Parts   []*Part
	State   string
	Err     string
	Started time.Time
	WallMS  float64
	// StartMS is how long the run waited for the page's engine workers to
	// start before its first policy went to one (0 when one was ready).
	StartMS float64
	// starting is set when no engine worker was ready as the run began.
	starting bool
	// checked is when the watchdog last looked at the run.
	checked time.Time
	// Point is the figure's sweep point and seed the run is, if any.
	Point *PointOf
}

// The watchdog: while a run goes on, the page looks at it every
// WatchEvery; a policy whose worker has said nothing for Silence (a
// worker reports progress a few times a second) is said to be silent in
// the progress line, with a hint that it may be out of memory and that
// Cancel stops it. Dead workers are detected at once (see workerDied);
// this covers one stuck without dying.
const (
	WatchEvery = 5 * time.Second
	Silence    = 30 * time.Second
)

// watch checks run r until it ends.
func (a *App) watch(r *Run) {
	if r != a.Run || (r.State != RunRunning && r.State != RunCancelling) {
		return
	}
	r.checked = a.P.Now()
	a.P.After(WatchEvery, func() { a.watch(r) })
}

// Part is one policy of a run.
type Part struct {
	Index    int
	Label    string
	Name     string
	req      int
	worker   int
	State    string // queued, running, done, failed, cancelled
	Progress protocol.Progress
	Result   *PolicyResult
	// heard is when its worker last said something about it.
	heard time.Time
	// sent is when it went to a worker.
	sent time.Time
	// msg is the worker's result message, kept when the App records
	// (Preview).
	msg protocol.Message
	// width is the figure width its Gantt chart was asked for at.
	width float64
}

// WorkerID is the engine worker the part runs on (-1 before it starts).
func (p *Part) WorkerID() int { return p.worker }

// Part states.
const (
	PartQueued    = "queued"
	PartRunning   = "running"
	PartDone      = "done"
	PartFailed    = "failed"
	PartCancelled = "cancelled"
)

// CancelGrace is how long a cancelled run may take to stop by itself
// before its workers are terminated and replaced.
const CancelGrace = 400 * time.Millisecond

// Running reports whether a run is in progress.
func (a *App) Running() bool {
	return a.Run != nil && (a.Run.State == RunRunning || a.Run.State == RunCancelling)
}

// CanRun reports whether Run is enabled: the scenario is valid and no run
// is in progress (Cancel stops one; Run never restarts it silently).
func (a *App) CanRun() bool { return a.Ed.Valid() && !a.Running() }

// StartRun runs the scenario as it is now. A run in progress is
// cancelled first.
func (a *App) StartRun() {
	a.Ed.CheckNow() // an edit to a big document not checked yet
	if !a.Ed.Valid() {
		a.setNotice("Fix the problems listed below before running.", true)
		return
	}
	if a.Running() {
		a.CancelRun()
	}
	sc := a.Ed.Scenario()
	a.startRun(a.Ed.JSON(), sc, sc.RunSeeds()[0], nil)
}

// startRun runs document doc (parsed: sc) for seed, every policy; point
// names the figure's sweep point it is, if it is one.
func (a *App) startRun(doc string, sc *scenario.Scenario, seed uint64, point *PointOf) {
	if a.Running() {
		a.CancelRun()
	}
	r := &Run{ID: a.pool.nextID(), Doc: doc, Seed: seed, State: RunRunning, Started: a.P.Now(), Point: point}
	if ready, _ := a.Workers(); ready == 0 {
		r.starting = true
	}
	for i := range sc.Policies {
		r.Parts = append(r.Parts, &Part{Index: i, Label: sc.PolicyLabel(i), Name: sc.Policies[i].Name, State: PartQueued, worker: -1})
	}
	a.Run = r
	a.setNotice("", false)
	a.dropNote(NoteSize)   // it is running now
	a.dropNote(NoteEngine) // about an earlier run

	a.pool.ensure(min(a.maxWorkers(), len(r.Parts)))
	a.pool.dispatch()
	a.P.After(WatchEvery, func() { a.watch(r) })
}

// CancelRun stops the run in progress: the workers are asked to stop, and
// those that do not stop soon are replaced.
func (a *App) CancelRun() {
	r := a.Run
	if r == nil || r.State != RunRunning {
		return
	}
	r.State = RunCancelling
	for _, p := range r.Parts {
		switch p.State {
		case PartQueued:
			p.State = PartCancelled
		case PartRunning:
			a.P.PostWorker(p.worker, protocol.Message{Type: protocol.TypeCancel, ID: p.req})
		}
	}
	a.finishIfStopped(r)
	a.P.After(CancelGrace, func() {
		if r.State != RunCancelling {
			return
		}
		for _, p := range r.Parts {
			if p.State == PartRunning {
				a.pool.replace(p.worker)
				p.State = PartCancelled
			}
		}
		a.finishIfStopped(r)
		a.pool.dispatch()
	})
}

// finishIfStopped ends a run whose parts have all stopped.
func (a *App) finishIfStopped(r *Run) {
	for _, p := range r.Parts {
		if p.State == PartQueued || p.State == PartRunning {
			return
		}
	}
	r.WallMS = float64(a.P.Now().Sub(r.Started).Microseconds()) / 1000
	r.StartMS = r.startWait()
	switch {
	case r.State == RunCancelling:
		r.State = RunCancelled
		if r == a.Run {
			a.setNotice("Run cancelled; the results shown are from the previous run.", false)
		}
	case r.State == RunFailed:
	default:
		r.State = RunDone
		a.finishResults(r)
		return
	}
	a.openingDone() // no results to draw first
}

// startWait is how long, in milliseconds, a run begun with no engine
// worker ready waited for one: until its first policy was sent to a
// worker. 0 for a run that found a worker ready.
func (r *Run) startWait() float64 {
	if !r.starting {
		return 0
	}
	var first time.Time
	for _, p := range r.Parts {
		if !p.sent.IsZero() && (first.IsZero() || p.sent.Before(first)) {
			first = p.sent
		}
	}
	if first.IsZero() {
		return 0
	}
	return float64(first.Sub(r.Started).Microseconds()) / 1000
}

// Progress sums the progress of a run's parts: jobs finished, jobs in
// all, and the fraction done.
func (r *Run) Totals() (finished, total int, frac float64) {
	done := 0.0
	for _, p := range r.Parts {
		switch {
		case p.State == PartDone && p.Result != nil:
			n := len(p.Result.Out.Jobs)
			if p.Result.Out.Streamed {
				n = p.Result.Out.Metrics.Jobs // a streamed run sends no job records
			}
			finished += p.Result.Out.Metrics.Finished
			total += n
			done++
		case p.Progress.Total > 0:
			finished += p.Progress.Finished
			total += p.Progress.Total
			done += float64(p.Progress.Finished) / float64(p.Progress.Total)
		}
	}
	if len(r.Parts) > 0 {
		frac = done / float64(len(r.Parts))
	}
	return finished, total, frac
}

// ProgressPercent is the run's progress as a whole percentage.
func (r *Run) ProgressPercent() int {
	_, _, f := r.Totals()
	return int(f * 100)
}

// ProgressText describes a run in progress in one line: each policy's
// jobs finished and simulated time.
func (r *Run) ProgressText() string {
	var parts []string
	for _, p := range r.Parts {
		switch {
		case p.State == PartDone && p.Result != nil:
			parts = append(parts, fmt.Sprintf("%s done", p.Label))
		case p.State == PartRunning && !p.heard.IsZero() && r.checked.Sub(p.heard) >= Silence:
			parts = append(parts, fmt.Sprintf("%s: no word from the simulator for %s; it may be out of memory (Cancel stops it)", p.Label, results.Duration(r.checked.Sub(p.heard).Round(time.Second).Seconds())))
		case p.State == PartRunning && p.Progress.Total > 0:
			parts = append(parts, fmt.Sprintf("%s: %s of %s jobs finished, simulated time %s", p.Label,
				results.Thousands(p.Progress.Finished), results.Thousands(p.Progress.Total), results.Duration(p.Progress.NowS)))
		case p.State == PartRunning:
			parts = append(parts, p.Label+": starting")
		case p.State == PartQueued:
			parts = append(parts, p.Label+": waiting for a worker")
		}
	}
	if r.State == RunCancelling {
		return "Stopping… " + strings.Join(parts, " · ")
	}
	return strings.Join(parts, " · ")
}

// handleRunMessage applies a worker's reply to part p of run r.
func (a *App) handleRunMessage(r *Run, p *Part, m protocol.Message) {
	p.heard = a.P.Now()
	switch m.Type {
	case protocol.TypeProgress:
		var pr protocol.Progress
		if json.Unmarshal(m.JSON, &pr) == nil {
			p.Progress = pr
		}
		return
	case protocol.TypeResult:
		res, err := a.policyResult(p, m)
		if err != nil {
			p.State = PartFailed
			a.failRun(r, fmt.Sprintf("%s: %v", p.Label, err))
			break
		}
		p.Result = res
		p.State = PartDone
		if a.record {
			p.msg = m
		}
	case protocol.TypeError:
		var e protocol.Error
		_ = json.Unmarshal(m.JSON, &e)
		if e.Cancelled {
			p.State = PartCancelled
			break
		}
		p.State = PartFailed
		msg := e.Message
		for _, pr := range e.Problems {
			msg += "\n" + Where(pr.Path) + ": " + pr.Msg
		}
		a.failRun(r, p.Label+": "+msg)
	}
	a.finishIfStopped(r)
}

// failRun stops a run after one policy failed: the others are cancelled.
func (a *App) failRun(r *Run, msg string) {
	if r.State == RunFailed {
		return
	}
	r.State = RunFailed
	r.Err = msg
	a.setNotice("The run failed: "+msg, true)
	for _, p := range r.Parts {
		switch p.State {
		case PartQueued:
			p.State = PartCancelled
		case PartRunning:
			a.P.PostWorker(p.worker, protocol.Message{Type: protocol.TypeCancel, ID: p.req})
		}
	}
}
