package prebuild

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/app/apptest"
)

// The results computed when the site is built are shown at once, labelled,
// and the live run that replaces them is identical to them (apptest's
// Report fails the test when the page finds a difference).
func TestPreviewThenIdenticalLiveResults(t *testing.T) {
	data, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	b := apptest.New(t)
	a := app.New(b)
	a.Start()
	shown, err := a.ShowPreview(data)
	if err != nil || !shown {
		t.Fatalf("ShowPreview = %v, %v; want it shown", shown, err)
	}
	if a.Res == nil || !a.Res.Built || a.Res.CDF.Pending || len(a.Res.CDF.PNG) == 0 || a.Res.Policies[0].Gantt == nil {
		t.Fatalf("the build-time results are not on show with their figures: %+v", a.Res)
	}
	built := a.Res
	// When the live run ends, its line takes the progress bar's place at
	// once, while its figures are still being drawn: a gap there would move
	// the whole view up and back down under a reader's pointer.
	b.Pump(a, apptest.Done(a))
	if a.Res != built || !strings.HasPrefix(a.Notice, "Simulated 2 policies in ") {
		t.Fatalf("the live run ended with results %p (built %p) and the line %q; want the built ones and a line saying it was simulated", a.Res, built, a.Notice)
	}
	b.Pump(a, func() bool { return a.Res != built && a.Res != nil && !a.Res.CDF.Pending })
	if a.Res.Built || a.Res.Check != app.CheckSame {
		t.Fatalf("live results: built %v, check %q; want live and %q", a.Res.Built, a.Res.Check, app.CheckSame)
	}
	// A second preview is not shown over results.
	if shown, _ := a.ShowPreview(data); shown {
		t.Error("a preview was shown over live results")
	}
}

// A page that opens another scenario (here an edited default) never shows
// the default's preview.
func TestPreviewOnlyForItsScenario(t *testing.T) {
	data, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	b := apptest.New(t)
	a := app.New(b)
	a.Ed.SetValue("title", "Another title")
	a.Start()
	if shown, err := a.ShowPreview(data); err != nil || shown {
		t.Fatalf("ShowPreview of an edited scenario = %v, %v; want not shown", shown, err)
	}
	if _, err := a.ShowPreview(data[:len(data)/2]); err == nil {
		t.Error("a truncated preview gave no error")
	}
}
