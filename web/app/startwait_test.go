package app_test

import (
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/app/apptest"
)

// The page's first run starts before its engine workers are up: the run
// bar says how long they took apart from the run, so that thirty jobs
// do not read as seconds of simulating. A later run, with the workers
// ready, says only its own time.
func TestFirstRunNamesTheWorkersStart(t *testing.T) {
	b := apptest.New(t)
	a := app.New(b)
	a.Start() // the workers' "ready" waits in the fake browser's inbox
	b.Advance(3200 * time.Millisecond)
	b.Pump(a, apptest.Done(a))
	if a.Res == nil {
		t.Fatal("no results")
	}
	if a.Res.StartMS != 3200 {
		t.Errorf("StartMS %v, want 3200 (the clock moved 3.2 s before any worker was ready)", a.Res.StartMS)
	}
	if want := "(the simulator took 3.2 s to start in this browser)."; !strings.HasSuffix(a.Notice, want) || !strings.HasPrefix(a.Notice, "Simulated 2 policies in ") {
		t.Errorf("first run's notice %q, want it to end %q", a.Notice, want)
	}

	if got, want := a.Res.SimulatedSeconds(), 0.0; got != want {
		t.Errorf("SimulatedSeconds %v, want %v (the fake clock stood still while the run ran)", got, want)
	}

	a.RunAndShow()
	b.Pump(a, apptest.Done(a))
	if a.Res.StartMS != 0 || strings.Contains(a.Notice, "to start") {
		t.Errorf("second run: StartMS %v, notice %q; want no start named", a.Res.StartMS, a.Notice)
	}
}
