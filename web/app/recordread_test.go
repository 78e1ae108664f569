package app_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/app/apptest"
)

// smallRecord is a committed record of one figure, gavel-fig8-las-single,
// whose one counted claim holds.
const smallRecord = `{"quick":false,"papers":[{"paper":"gavel","figures":[{"figure":"Figure 8","scenario":"gavel-fig8-las-single","checks":[
	{"id":"a","claim":"","verdict":"pass"}]}]}]}`

// recordServer serves smallRecord at /report.json (or nothing, 404, when
// missing) and counts the requests; the page's App fetches it there.
func recordServer(t *testing.T, missing bool) (b *apptest.Browser, hits *atomic.Int32) {
	t.Helper()
	hits = new(atomic.Int32)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if missing || r.URL.Path != "/report.json" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(smallRecord))
	}))
	t.Cleanup(srv.Close)
	old := app.RecordURL
	app.RecordURL = srv.URL + "/report.json"
	t.Cleanup(func() { app.RecordURL = old })
	b = apptest.New(t)
	b.Client = srv.Client()
	return b, hits
}

// deferCards makes a's gallery cards wait, as the page's do, until
// App.GalleryInSteps is called, and counts the calls.
func deferCards(t *testing.T, a *app.App) *int {
	t.Helper()
	calls := new(int)
	a.Cards, a.Gallery = nil, nil
	a.GalleryInSteps = func() {
		*calls++
		a.LoadGallery()
	}
	return calls
}

// The committed record (and the gallery's cards) are read when first wanted, not as the page opens:
// after the page's first run has drawn its results, when the gallery is
// shown, or when a figure is opened, whichever comes first, and only once.
func TestRecordReadWhenWanted(t *testing.T) {
	t.Run("after the first results", func(t *testing.T) {
		b, hits := recordServer(t, false)
		a := app.New(b)
		cards := deferCards(t, a)
		a.Start()
		if a.RecordReading() || *cards != 0 {
			t.Fatalf("as the page opens, before its first run: record read %v, cards read %d times", a.RecordReading(), *cards)
		}
		b.Pump(a, apptest.Done(a))
		if a.RecordReading() || a.Repro != nil || *cards != 0 {
			t.Fatalf("before the first run's figures are drawn: record read %v, cards read %d times", a.Repro != nil, *cards)
		}
		b.Pump(a, func() bool { return a.Repro != nil })
		if !apptest.Drawn(a)() {
			t.Error("the record was read before the first results' figures")
		}
		if *cards != 1 || len(a.Cards) == 0 {
			t.Errorf("after the first results the cards were read %d times (%d cards), want once", *cards, len(a.Cards))
		}
		a.SetTab(app.TabGallery)
		if text, all := a.Badge("gavel-fig8-las-single"); text != "1 of 1 claims hold" || !all {
			t.Errorf("badge %q, all %v", text, all)
		}
		if n := hits.Load(); n != 1 {
			t.Errorf("%d requests for the record, want 1", n)
		}
	})
	t.Run("the gallery first", func(t *testing.T) {
		b, hits := recordServer(t, false)
		a := app.New(b)
		cards := deferCards(t, a)
		a.SetTab(app.TabGallery)
		if !a.RecordReading() || *cards != 1 {
			t.Fatalf("showing the gallery: record asked for %v, cards read %d times, want once", a.RecordReading(), *cards)
		}
		if text, _ := a.Badge("gavel-fig8-las-single"); text != app.BadgeLoading {
			t.Errorf("badge while the record is read: %q, want %q", text, app.BadgeLoading)
		}
		b.Pump(a, func() bool { return !a.RecordReading() })
		if text, _ := a.Badge("gavel-fig8-las-single"); text != "1 of 1 claims hold" {
			t.Errorf("badge once read: %q", text)
		}
		a.SetTab(app.TabScenario)
		a.SetTab(app.TabGallery)
		if n := hits.Load(); n != 1 || *cards != 1 {
			t.Errorf("%d requests for the record, cards read %d times, want 1 each", n, *cards)
		}
	})
	t.Run("Learn first", func(t *testing.T) {
		b, _ := recordServer(t, false)
		a := app.New(b)
		cards := deferCards(t, a)
		a.OpenLearn()
		if !a.RecordReading() || *cards != 1 {
			t.Fatalf("opening Learn: record asked for %v, cards read %d times, want once", a.RecordReading(), *cards)
		}
		b.Pump(a, func() bool { return !a.RecordReading() })
	})
	t.Run("a figure first", func(t *testing.T) {
		b, _ := recordServer(t, false)
		a := app.New(b)
		a.OpenFigure("sjf-bsbf-fig6a") // replaced by the next click
		a.OpenFigure("gavel-fig8-las-single")
		if a.Tab == app.TabFigure || !strings.Contains(a.Notice, "loading") {
			t.Fatalf("before the record is read: tab %s, notice %q", a.Tab, a.Notice)
		}
		b.Pump(a, func() bool { return !a.RecordReading() })
		if a.Tab != app.TabFigure || a.Fig == nil || a.Fig.Name != "gavel-fig8-las-single" || !a.Fig.Record || a.Notice != "" {
			t.Fatalf("once read: tab %s, figure %+v, notice %q", a.Tab, a.Fig, a.Notice)
		}
	})
	t.Run("no record", func(t *testing.T) {
		b, hits := recordServer(t, true)
		a := app.New(b)
		a.OpenFigure("gavel-fig8-las-single")
		b.Pump(a, func() bool { return !a.RecordReading() })
		if a.Tab != app.TabFigure || a.Fig == nil || a.Fig.Record || !a.FigureRunning() {
			t.Fatalf("without a record the figure should run here: tab %s, figure %+v", a.Tab, a.Fig)
		}
		a.CancelFigure()
		if text, _ := a.Badge("gavel-fig8-las-single"); text != app.BadgeNotRun {
			t.Errorf("badge without a record: %q", text)
		}
		if n := hits.Load(); n != 1 {
			t.Errorf("%d requests for the record, want 1", n)
		}
	})
}
