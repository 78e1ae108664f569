//go:build !js

package e2e

import (
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/schedlab/schedlab/sim/api"
)

// serverFigure is a paper figure whose full set-up (20 seeds of 7
// policies on 16 GPUs) a server runs in seconds.
const serverFigure = "sjf-bsbf-table2"

// A reader runs a figure's full set-up on a schedlab server at another
// address than the page, as from the published site to a server of their
// own: a server that does not allow the page says so and how to start one
// that does; one that allows it runs every point, and the run comes out
// identical to the committed record. No serious accessibility violation
// in the form at either width.
func TestFigureOnServer(t *testing.T) {
	rep := committedRecord(t)
	need(t, recordOf(&rep, serverFigure) != nil, "a record of "+serverFigure)
	need(t, !rep.Quick, "a full record, to compare a full run with")
	axe, axeErr := os.ReadFile(axePath(t))
	srv := serve(t, site(t))
	closed := httptest.NewServer(api.New(api.Options{Workers: 1}))
	defer closed.Close()
	open := httptest.NewServer(api.New(api.Options{Workers: 1, AllowOrigins: []string{srv.URL}}))
	defer open.Close()

	ctx, cancel := browser(t, 10*time.Minute)
	defer cancel()
	errs := consoleErrors(ctx)
	p := &page{t: t, ctx: ctx}
	p.do(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL+"/"))
	p.started()
	p.openFigure(serverFigure)
	p.wait(`!!document.getElementById("figure-server-toggle") && !document.getElementById("figure-rerun-full").disabled`, figureStatusJS, 20*time.Second)
	p.click("figure-server-toggle")
	p.wait(`!!document.getElementById("figure-server-url")`, figureStatusJS, 10*time.Second)
	if form := p.text("figure-server"); !strings.Contains(form, "--allow-origin "+srv.URL) {
		t.Errorf("the form does not give the command for this page's origin %s: %q", srv.URL, form)
	}

	// A server that does not allow this page's origin.
	p.typeInto("figure-server-url", closed.URL)
	if !eval[bool](p, `!!document.getElementById("figure-server-url")`) {
		t.Fatal("typing an address closed the server form")
	}
	p.click("figure-rerun-server")
	p.wait(`!!document.querySelector(".figure-view .error")`, statusJS, time.Minute)
	if msg := eval[string](p, `document.querySelector(".figure-view .error").textContent`); !strings.Contains(msg, "not this page's runs") || !strings.Contains(msg, "--allow-origin "+srv.URL) {
		t.Errorf("a server that refuses the page: %q", msg)
	}

	// One that allows it.
	p.typeInto("figure-server-url", open.URL)
	start := time.Now()
	p.click("figure-rerun-server")
	p.wait(`!!document.getElementById("figure-compare") || !!document.querySelector(".figure-view .error")`, figureStatusJS, 5*time.Minute)
	wall := time.Since(start)
	if eval[bool](p, `!!document.querySelector(".figure-view .error")`) {
		t.Fatalf("the server run failed: %s", eval[string](p, figureStatusJS))
	}
	if id := eval[string](p, `document.getElementById("figure-compare").dataset.identical`); id != "true" {
		t.Errorf("the server run is not identical to the record: %s", eval[string](p, compareJS))
	}
	if tm := p.text("figure-time"); !strings.Contains(tm, "on the server at "+open.URL) {
		t.Errorf("the page does not say where the run ran: %q", tm)
	}
	if v := p.value("figure-server-url"); v != open.URL {
		t.Errorf("the address field holds %q after the run, want %q", v, open.URL)
	}
	t.Logf("full %s on a local server: %.1f s; %s", serverFigure, wall.Seconds(), eval[string](p, compareJS))

	for _, w := range []struct{ w, h int }{{1280, 800}, {390, 844}} {
		p.do(chromedp.EmulateViewport(int64(w.w), int64(w.h)))
		time.Sleep(300 * time.Millisecond)
		eval[any](p, `document.getElementById("figure-server").scrollIntoView()`)
		if !eval[bool](p, `!!document.getElementById("figure-server-url")`) {
			t.Errorf("at %d px the server form closed after the run", w.w)
		}
		p.shot("figure-server", w.w, w.h)
		if axeErr == nil {
			for _, v := range p.axeSerious(string(axe)) {
				t.Errorf("at %d px: %s", w.w, v)
			}
		}
	}
	for _, e := range errs() {
		if strings.Contains(e, "CORS") || strings.Contains(e, "Failed to fetch") || strings.Contains(e, "net::ERR_FAILED") {
			continue // the refused server's requests, which the test asked for
		}
		t.Errorf("console: %s", e)
	}
}
