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

// A phone gets results at once too: the phone's build-time results serve
// phones of other widths (their figures scaled a little), are replaced
// by identical live results, and are never shown on a desktop; the
// desktop's are never shown on a phone, whose labels would be half size.
func TestPhonePreview(t *testing.T) {
	phone, err := At(PhoneWidth)
	if err != nil {
		t.Fatal(err)
	}
	desktop, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		width int
		data  []byte
		shown bool
	}{
		{390, phone, true}, {360, phone, true}, {430, phone, true},
		{1280, phone, false}, {700, phone, false}, {390, desktop, false}, {1280, desktop, true},
	} {
		b := apptest.New(t)
		b.Width = c.width
		a := app.New(b)
		a.Start()
		shown, err := a.ShowPreview(c.data)
		if err != nil || shown != c.shown {
			t.Errorf("%d px, the %s preview: shown %v, %v; want %v", c.width, map[bool]string{true: "phone's", false: "desktop's"}[len(c.data) == len(phone) && string(c.data) == string(phone)], shown, err, c.shown)
			continue
		}
		if !shown || c.width != 360 {
			continue
		}
		built := a.Res
		if !built.Built || len(built.CDF.PNG) == 0 || built.Policies[0].Gantt == nil {
			t.Fatalf("%d px: the phone's results are not on show with their figures", c.width)
		}
		b.Pump(a, func() bool { return a.Res != built && a.Res != nil && !a.Res.CDF.Pending })
		if a.Res.Built || a.Res.Check != app.CheckSame {
			t.Fatalf("%d px: live results: built %v, check %q; want live and %q", c.width, a.Res.Built, a.Res.Check, app.CheckSame)
		}
	}
}
