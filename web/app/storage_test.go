package app_test

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/app/apptest"
)

// A stored scenario that cannot be read (truncated, or JSON that is not
// an object) is copied aside before anything is saved over it, the user
// is told with a way to download it, and the note outlives the run the
// page starts with.
func TestDamagedStoredScenarioIsKept(t *testing.T) {
	data, _ := scenarios.Read(scenarios.Default)
	truncated := string(data[:len(data)/2])
	f := apptest.New(t)
	f.Storage[app.KeyScenario] = truncated
	a := app.New(f)
	if a.Ed.Str("name") != scenarios.Default {
		t.Fatalf("opened %q instead of the default", a.Ed.Str("name"))
	}
	if got := f.Storage[app.KeyDamaged]; got != truncated {
		t.Fatalf("the damaged scenario was not kept under %s (%d bytes)", app.KeyDamaged, len(got))
	}
	n := a.NoteFor(app.NoteCorrupt)
	if n == nil || !n.Err || !strings.Contains(n.Text, "could not be read") || !strings.Contains(n.Text, app.KeyDamaged) {
		t.Fatalf("note: %+v", n)
	}
	a.Start()
	f.Pump(a, apptest.Done(a))
	if a.NoteFor(app.NoteCorrupt) == nil {
		t.Error("the note went away when the default scenario ran")
	}
	a.NoteDo(app.NoteCorrupt, "download")
	if got := string(f.Files["schedlab-damaged-scenario.json"]); got != truncated {
		t.Errorf("downloaded %d bytes, want the %d damaged ones", len(got), len(truncated))
	}
	a.Dismiss(app.NoteCorrupt)
	if a.NoteFor(app.NoteCorrupt) != nil {
		t.Error("dismissed note still shown")
	}
	// The next load is clean and keeps the copy.
	if b := app.New(f); b.NoteFor(app.NoteCorrupt) != nil || f.Storage[app.KeyDamaged] != truncated {
		t.Error("a clean reload still reports damage or lost the copy")
	}
	// Another damaged scenario does not replace the first copy; JSON that
	// is not an object counts as damaged.
	f.Storage[app.KeyScenario] = `[1, 2, 3]`
	app.New(f)
	if f.Storage[app.KeyDamaged] != truncated || f.Storage[app.KeyDamaged+".2"] != `[1, 2, 3]` {
		t.Errorf("copies: %q, %q", f.Storage[app.KeyDamaged], f.Storage[app.KeyDamaged+".2"])
	}
}

// When the damaged scenario cannot even be copied aside (the storage is
// full), it is left in place and nothing is saved over it until the user
// has downloaded it.
func TestDamagedScenarioHeldWhenStorageFull(t *testing.T) {
	f := apptest.New(t)
	damaged := `{"name": "mine", "cluster": ` + strings.Repeat(" ", 3000)
	f.Storage[app.KeyScenario] = damaged
	f.Quota = len(app.KeyScenario) + len(damaged) + 500
	a := app.New(f)
	n := a.NoteFor(app.NoteCorrupt)
	if n == nil || !strings.Contains(n.Text, "not saved until you download it") {
		t.Fatalf("note: %+v", n)
	}
	a.Import("other.json", `{"name": "x"}`)
	if f.Storage[app.KeyScenario] != damaged {
		t.Fatal("the damaged scenario was overwritten")
	}
	a.NoteDo(app.NoteCorrupt, "download")
	if string(f.Files["schedlab-damaged-scenario.json"]) != damaged {
		t.Fatal("download")
	}
	f.Quota = 0
	a.Import("other.json", `{"name": "x"}`)
	if !strings.Contains(f.Storage[app.KeyScenario], `"x"`) {
		t.Error("saving did not resume after the download")
	}
}

// A damaged link says so, and its note is not replaced by the run the
// page then starts.
func TestDamagedLinkNoteStays(t *testing.T) {
	f := apptest.New(t)
	f.Frag = "s=!!!"
	a := app.New(f)
	a.Start()
	f.Pump(a, apptest.Done(a))
	n := a.NoteFor(app.NoteLink)
	if n == nil || !strings.Contains(n.Text, "could not be read") || !strings.Contains(n.Text, "default scenario") {
		t.Fatalf("note after the run: %+v", n)
	}
	if a.Run == nil || a.Run.State != app.RunDone {
		t.Error("the default scenario did not run")
	}
}

// A scenario too big for the browser's storage is not silently lost: the
// page says it was not saved and how to keep it, and the note stays
// through a run until a save succeeds or it is dismissed.
func TestSaveFailureShown(t *testing.T) {
	f := apptest.New(t)
	a := app.New(f)
	saved := f.Storage[app.KeyScenario]
	f.Quota = 20_000
	big := `{"name": "big", "description": "` + strings.Repeat("long ", 10_000) + `"}`
	a.Import("big.json", big)
	n := a.NoteFor(app.NoteSave)
	if n == nil || !n.Err || !strings.Contains(n.Text, "not saved") || !strings.Contains(n.Text, "Export") {
		t.Fatalf("note: %+v", n)
	}
	if f.Storage[app.KeyScenario] != saved {
		t.Error("storage changed")
	}
	a.Open("tiny") // a run and other messages do not replace it
	f.Pump(a, apptest.Done(a))
	if a.NoteFor(app.NoteSave) != nil {
		t.Error("the note stayed after a later save succeeded")
	}
	a.Import("big.json", big)
	a.NoteDo(app.NoteSave, "export")
	if got := string(f.Files["big.json"]); !strings.Contains(got, "long long") {
		t.Errorf("export: %d bytes", len(got))
	}
	a.StartRun()
	if a.NoteFor(app.NoteSave) == nil {
		t.Error("the note went away without a save")
	}
	a.Dismiss(app.NoteSave)
	if a.NoteFor(app.NoteSave) != nil {
		t.Error("dismiss")
	}
}
