package app_test

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/app/apptest"
)

// One rule for every way of loading a scenario: the gallery and an
// imported file both run a valid scenario and show the Results view; Run
// is disabled while a run goes on (no silent restart) and comes back
// when it ends.
func TestEveryLoadRuns(t *testing.T) {
	f := apptest.New(t)
	a := app.New(f)
	a.Start()
	f.Pump(a, apptest.Done(a))
	a.SetTab(app.TabGallery)
	a.Open("tiny")
	if a.Tab != app.TabResults || !a.Running() {
		t.Fatalf("gallery: tab %s, running %v", a.Tab, a.Running())
	}
	if a.CanRun() {
		t.Error("Run is enabled during a run")
	}
	f.Pump(a, apptest.Done(a))
	if !a.CanRun() || a.Res == nil {
		t.Fatalf("after the run: can run %v, results %v", a.CanRun(), a.Res != nil)
	}
	a.Export()
	data := string(f.Files["tiny.json"])
	a.SetTab(app.TabScenario)
	a.Import("tiny.json", data)
	if a.Tab != app.TabResults || !a.Running() {
		t.Errorf("import: tab %s, running %v", a.Tab, a.Running())
	}
	f.Pump(a, apptest.Done(a))
	// Bringing back the scenario an Open or Import replaced loads it too.
	a.SetTab(app.TabScenario)
	a.Undo()
	if a.Tab != app.TabResults || !a.Running() {
		t.Errorf("undo: tab %s, running %v", a.Tab, a.Running())
	}
	f.Pump(a, apptest.Done(a))
	a.SetTab(app.TabScenario)
	a.RunAndShow()
	if a.Tab != app.TabResults || !a.Running() {
		t.Errorf("Run: tab %s, running %v", a.Tab, a.Running())
	}
	f.Pump(a, apptest.Done(a))
}

// An edited built-in scenario's results do not claim the original's
// title and description: they are marked edited and say what ran.
func TestEditedResultsSayWhatRan(t *testing.T) {
	f := apptest.New(t)
	a := app.New(f)
	a.Start()
	f.Pump(a, apptest.Done(a))
	orig := a.Res.Title
	if a.Res.Edited || strings.Contains(orig, "edited") {
		t.Fatalf("unedited results marked: %q", orig)
	}
	a.SetText(clusterField(t, a, "cluster.servers[0].count"), "3")
	a.SetText(clusterField(t, a, "cluster.servers[0].gpu_type"), "K80")
	a.RunAndShow()
	f.Pump(a, apptest.Done(a))
	if !a.Res.Edited || a.Res.Title != orig+" (edited)" {
		t.Errorf("title %q", a.Res.Title)
	}
	if d := a.Res.Description; !strings.Contains(d, "12 GPUs (3 servers of 4 K80)") || !strings.Contains(d, "30 jobs") || !strings.Contains(d, "FIFO") {
		t.Errorf("description %q", d)
	}
}

// The validator's new problems show at their fields in the editor, in
// words, all at once.
func TestNamesAtTheirFields(t *testing.T) {
	f := apptest.New(t)
	a := app.New(f)
	typ := clusterField(t, a, "cluster.servers[0].gpu_type")
	a.SetText(typ, "B200")
	if msg := a.Ed.FieldProblem(typ); !strings.Contains(msg, `unknown GPU type "B200"`) || !strings.Contains(msg, "V100") {
		t.Errorf("GPU type: %q", msg)
	}
	a.SetText(typ, "V100")
	a.Import("big.json", `{"name": "big", "cluster": {"servers": [{"count": 2, "gpus": 4, "gpu_type": "V100"}]},
	  "workload": {"jobs": [{"id": "a", "gpus": 9, "model": "bert", "duration_s": 60}]}, "policies": [{"name": "fifo"}]}`)
	if msg := a.Ed.Problem("workload.jobs[0].gpus"); !strings.Contains(msg, "asks for 9 GPUs, but the cluster has 8 GPUs in all") {
		t.Errorf("job size: %q (problems %v)", msg, a.Ed.Problems)
	}
	if a.Tab != app.TabScenario || a.Running() {
		t.Errorf("a scenario with problems: tab %s, running %v", a.Tab, a.Running())
	}
}
