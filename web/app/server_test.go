//go:build !js

// The API's HTTP side is left out of js builds (sim/api/http.go).

package app_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/schedlab/schedlab/sim/api"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/app/apptest"
)

// serverFigure is a paper figure whose full set-up is small enough to
// run many times in a test: 20 seeds of 7 policies on 16 GPUs.
const serverFigure = "sjf-bsbf-table2"

// pageOnServer opens the figure on a full record, types the server's
// address and starts a server run.
func pageOnServer(t *testing.T, rec results.FigureRepro, url string) (*apptest.Browser, *app.App) {
	t.Helper()
	b := apptest.New(t)
	b.Client = &http.Client{Timeout: time.Minute}
	a := app.New(b)
	a.Repro = &results.Reproduction{Quick: false, Papers: []results.PaperRepro{{Paper: "sjf-bsbf", Figures: []results.FigureRepro{rec}}}}
	a.OpenFigure(serverFigure)
	if a.Fig == nil || !a.Fig.Record || !a.HasFullMode() {
		t.Fatal("the figure did not open on its record with a full mode")
	}
	a.SetServerURL(url)
	a.RerunOnServer()
	return b, a
}

// finish pumps the page until its server run ends, firing the retry
// timers it sets, each after step of the page's clock.
func finish(b *apptest.Browser, a *app.App, step time.Duration) {
	started := func() bool { return a.Fig.Server != "" || a.ServerCheck == "" }
	b.Pump(a, started)
	for a.FigureRunning() {
		b.Pump(a, func() bool { return b.PendingTimers() > 0 || !a.FigureRunning() })
		b.Advance(step)
	}
}

// A full re-run on a schedlab server (the real API, over HTTP) comes out
// identical to the record made natively, and the page says where it ran.
// A server that is busy for a while (503 with Retry-After) is asked
// again, and the run is still identical.
func TestServerRunIdenticalToRecord(t *testing.T) {
	rec := fullRecord(t, serverFigure, "Table II")
	h := api.New(api.Options{Workers: 1, MaxRunning: 2})
	var busy, points atomic.Int32
	busy.Store(3)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/sweep-point" {
			points.Add(1)
			if busy.Add(-1) >= 0 {
				w.Header().Set("Retry-After", "1")
				http.Error(w, `{"error":"busy"}`, http.StatusServiceUnavailable)
				return
			}
		}
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()

	b, a := pageOnServer(t, rec, srv.URL+"/")
	finish(b, a, time.Second)
	f := a.Fig
	if f.State != app.RunDone || f.Compare == nil {
		t.Fatalf("state %s (%s), notice %q, comparison %v", f.State, f.Err, a.Notice, f.Compare)
	}
	if !f.Compare.Identical || !f.Compare.Values {
		t.Errorf("a server run should be identical to the native record: %+v", f.Compare.Diffs)
	}
	if a.FigureStale() {
		t.Error("after a full run on the server the figure says the scenario changed since it was drawn")
	}
	if f.Server != srv.URL || !strings.Contains(a.FigureTime(), "on the server at "+srv.URL) {
		t.Errorf("server %q, time %q: the page should say the run was on %s", f.Server, a.FigureTime(), srv.URL)
	}
	if want := int32(len(f.Units) + 3); points.Load() != want {
		t.Errorf("%d point requests, want %d (every unit once, and the 3 refused again)", points.Load(), want)
	}
	// The server's pace is not the browser's: no time per simulation kept.
	for k := range b.Storage {
		if strings.HasPrefix(k, "schedlab-figure-seconds:") {
			t.Errorf("a server run stored %s, which the browser's estimates would read", k)
		}
	}
}

// Wrong addresses, no server, a server that refuses a point and one that
// stays busy each end with a sentence that says what happened.
func TestServerRunFailures(t *testing.T) {
	rec := results.FigureRepro{Figure: "Table II", Scenario: serverFigure}
	for _, tc := range []struct {
		name, url string
		handler   http.HandlerFunc
		want      string
	}{
		{name: "no scheme", url: "127.0.0.1:8080", want: "is not a web address"},
		{name: "empty", url: " ", want: "type the address of a schedlab server first"},
		{name: "query", url: "http://127.0.0.1:8080/?x=1", want: "has a query"},
		{name: "not schedlab", handler: func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) },
			want: "answered, but not as a schedlab server does (HTTP 404)"},
		{name: "refused point", handler: func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/v1/health" {
				_, _ = w.Write([]byte(`{"status":"ok","api":"v1"}`))
				return
			}
			w.WriteHeader(http.StatusUnprocessableEntity)
			_, _ = w.Write([]byte(`{"error":"more jobs than this server accepts","field":"scenario"}`))
		}, want: "HTTP 422, scenario: more jobs than this server accepts"},
		{name: "page not allowed", handler: func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/v1/health" {
				_, _ = w.Write([]byte(`{"status":"ok","api":"v1"}`))
				return
			}
			// What a browser shows of a POST the server's CORS answer
			// does not allow: no answer at all.
			conn, _, _ := w.(http.Hijacker).Hijack()
			_ = conn.Close()
		}, want: "answers, but not this page's runs"},
		{name: "always busy", handler: func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/v1/health" {
				_, _ = w.Write([]byte(`{"status":"ok","api":"v1"}`))
				return
			}
			http.Error(w, `{"error":"busy"}`, http.StatusServiceUnavailable)
		}, want: "was tried for 2 min (HTTP 503, busy)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := tc.url
			if tc.handler != nil {
				srv := httptest.NewServer(tc.handler)
				defer srv.Close()
				url = srv.URL
			}
			b, a := pageOnServer(t, rec, url)
			if tc.handler != nil {
				finish(b, a, 10*time.Second)
			}
			got := a.Notice
			if a.Fig.Err != "" {
				got = a.Fig.Err
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("the page says %q; want it to say %q", got, tc.want)
			}
		})
	}

	// A closed port: nothing answers.
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	b, a := pageOnServer(t, rec, url)
	finish(b, a, time.Second)
	if !strings.Contains(a.Notice, "No server answered at "+url) || !strings.Contains(a.Notice, "--allow-origin http://localhost") {
		t.Errorf("with nothing at %s the page says %q", url, a.Notice)
	}
}
