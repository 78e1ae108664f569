package app_test

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/app/apptest"
)

const goOOM = "runtime: out of memory: cannot allocate 4194304-byte block (3355443200 in use)\nfatal error: out of memory\n\ngoroutine 1 gp=0x1 m=0 mp=0x2 [running]:\nruntime.throw(...)\n"

// An engine worker whose Go program exits mid-run (out of memory) ends the
// run with a plain message and an offer to reduce the scenario, instead of
// "FIFO: starting" forever, and is replaced by a fresh worker.
func TestDeadWorkerEndsRun(t *testing.T) {
	f := apptest.New(t)
	a := app.New(f)
	a.LoadTree(bigScenario(300000))
	a.StartRun()
	// The doomed worker is frozen as soon as it has its part, so that it
	// cannot finish before it dies (a loaded machine can let a 300,000-job
	// run finish before the first progress of the other part is seen).
	f.Pump(a, func() bool { return a.Run.Parts[0].WorkerID() >= 0 })
	f.Freeze(a.Run.Parts[0].WorkerID())
	f.Pump(a, func() bool { _, total, _ := a.Run.Totals(); return total > 0 })
	f.Exit(a.Run.Parts[0].WorkerID(), 2, goOOM)
	f.Pump(a, apptest.Done(a))
	if a.Run.State != app.RunFailed {
		t.Fatalf("run state %s", a.Run.State)
	}
	n := a.NoteFor(app.NoteEngine)
	if n == nil || !n.Err || !strings.Contains(n.Text, "The simulator ran out of memory running FIFO on this scenario (300,000 jobs × 2 policies on 16 GPUs). Try fewer jobs or GPUs.") {
		t.Fatalf("note: %+v", n)
	}
	if len(n.Actions) != 1 || n.Actions[0].Label != "Run again with half the jobs (150,000)" {
		t.Fatalf("actions: %+v", n.Actions)
	}
	if ready, all := a.Workers(); all != 2 {
		t.Errorf("%d/%d workers, want the dead one replaced", ready, all)
	}
	a.NoteDo(app.NoteEngine, "reduce")
	if n, _ := a.Ed.Number("workload.generator.jobs"); n != 150000 || !a.Running() || a.NoteFor(app.NoteEngine) != nil {
		t.Fatalf("after reducing: %v jobs, running %v", n, a.Running())
	}
	a.CancelRun()
	f.Pump(a, apptest.Done(a))

	// A worker that fails (an uncaught error event) after it was ready is
	// dead too; the fresh workers run the next scenario to the end.
	a.LoadTree(bigScenario(300000))
	a.StartRun()
	f.Pump(a, func() bool { return a.Run.Parts[1].WorkerID() >= 0 })
	f.Freeze(a.Run.Parts[1].WorkerID())
	f.Pump(a, func() bool { _, total, _ := a.Run.Totals(); return total > 0 })
	f.Crash(a.Run.Parts[1].WorkerID(), "Uncaught RuntimeError: unreachable")
	f.Pump(a, apptest.Done(a))
	n = a.NoteFor(app.NoteEngine)
	if a.Run.State != app.RunFailed || n == nil || !strings.Contains(n.Text, "stopped unexpectedly while running SJF (Uncaught RuntimeError: unreachable)") {
		t.Fatalf("state %s, note %+v", a.Run.State, n)
	}
	a.LoadTree(bigScenario(200))
	a.StartRun()
	f.Pump(a, apptest.Done(a))
	if a.Run.State != app.RunDone || a.NoteFor(app.NoteEngine) != nil {
		t.Errorf("run after replacing: %s %s", a.Run.State, a.Run.Err)
	}
}

// A worker that stops answering without dying is pointed out in the
// progress line once it has been silent for a while.
func TestSilentWorkerShown(t *testing.T) {
	f := apptest.New(t)
	a := app.New(f)
	a.LoadTree(bigScenario(300000))
	a.StartRun()
	f.Pump(a, func() bool { _, total, _ := a.Run.Totals(); return total > 0 })
	f.FreezeAll()
	for i := 0; i < 4; i++ {
		f.Advance(app.WatchEvery)
	}
	if txt := a.Run.ProgressText(); strings.Contains(txt, "no word") {
		t.Fatalf("silent too early: %q", txt)
	}
	for i := 0; i < 4; i++ {
		f.Advance(app.WatchEvery)
	}
	if txt := a.Run.ProgressText(); !strings.Contains(txt, "FIFO: no word from the simulator for 40 s; it may be out of memory (Cancel stops it)") {
		t.Errorf("progress: %q", txt)
	}
	a.CancelRun()
	f.Advance(app.CancelGrace)
	if a.Running() {
		t.Error("cancel did not stop the silent run")
	}
}
