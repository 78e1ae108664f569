//go:build !js

package e2e

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/doc"
)

// linkWithJobs is a share fragment of the default scenario with n jobs.
func linkWithJobs(t *testing.T, n int) string {
	t.Helper()
	return app.EncodeShare(defaultWithJobs(t, n))
}

// linkWithJobsOneSeed is linkWithJobs with the default single seed, so
// that the command line's limit on job records (jobs × seeds × policies)
// allows more jobs than the page does.
func linkWithJobsOneSeed(t *testing.T, n int) string {
	t.Helper()
	return app.EncodeShare(doc.Delete(defaultWithJobs(t, n), "seeds"))
}

func defaultWithJobs(t *testing.T, n int) any {
	t.Helper()
	data, _ := scenarios.Read(scenarios.Default)
	tree, err := doc.Parse(data)
	if err == nil {
		tree, err = doc.Set(tree, "workload.generator.jobs", json.Number(strconv.Itoa(n)))
	}
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// The notes that matter, in a real browser: a damaged stored scenario is
// kept and the page says so; a damaged link's note outlives the run; a
// big link waits; a scenario over the browser's budget is refused; a
// save the storage refuses is reported. Each is photographed on a laptop
// and a phone screen when SCHEDLAB_SCREENSHOTS names a folder.
func TestNotesInBrowser(t *testing.T) {
	dir := site(t)
	srv := serve(t, dir)
	ctx, cancel := browser(t, 5*time.Minute)
	defer cancel()
	errs := consoleErrors(ctx)
	p := &page{t: t, ctx: ctx}
	p.do(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL+"/"))
	p.started()

	t.Run("a damaged stored scenario is kept and reported", func(t *testing.T) {
		p.t = t
		stored := eval[string](p, `localStorage.getItem("schedlab.scenario.v1")`)
		damaged := stored[:len(stored)/2]
		eval[any](p, `localStorage.setItem("schedlab.scenario.v1", `+strconv.Quote(damaged)+`)`)
		p.do(chromedp.Reload())
		p.wait(`!!document.getElementById("note-corrupt")`, statusJS, 30*time.Second)
		p.wait(plotsShown+" && "+startupRunDone, statusJS, 60*time.Second) // the default ran …
		if !strings.Contains(p.text("note-corrupt"), "could not be read") {
			t.Errorf("note: %q", p.text("note-corrupt"))
		}
		if eval[string](p, `localStorage.getItem("schedlab.scenario.v1.corrupt")`) != damaged {
			t.Error("the damaged scenario was not kept")
		}
		if !eval[bool](p, `!!document.getElementById("note-corrupt-download")`) {
			t.Error("no download button")
		}
		p.shot("note-corrupt", 1280, 800)
		p.shot("note-corrupt", 390, 844)
		p.click("note-corrupt-dismiss")
		p.wait(`!document.getElementById("note-corrupt")`, statusJS, 5*time.Second)
	})

	t.Run("a damaged link's note outlives the run", func(t *testing.T) {
		p.t = t
		p.do(chromedp.Navigate("about:blank"), chromedp.Navigate(srv.URL+"/#s=AAAA!!"))
		time.Sleep(time.Second) // the page has started
		p.wait(`!!document.getElementById("note-link")`, statusJS, 30*time.Second)
		p.wait(plotsShown+` && !document.getElementById("cancel")`, statusJS, 60*time.Second)
		if !strings.Contains(p.text("note-link"), "could not be read") {
			t.Errorf("note after the run: %q", p.text("note-link"))
		}
		p.shot("note-link", 1280, 800)
		p.shot("note-link", 390, 844)
	})

	t.Run("a big link waits for the user", func(t *testing.T) {
		p.t = t
		p.do(chromedp.Navigate("about:blank"), chromedp.Navigate(srv.URL+"/#"+linkWithJobs(t, 100_000)))
		time.Sleep(time.Second) // the page has started
		p.wait(`!!document.getElementById("note-size")`, statusJS, 30*time.Second)
		time.Sleep(time.Second)
		if eval[bool](p, `!!document.getElementById("cancel")`) {
			t.Error("the big link is running")
		}
		if !strings.Contains(p.text("note-size"), "100,000 jobs × 2 policies on 16 GPUs") {
			t.Errorf("note: %q", p.text("note-size"))
		}
		p.shot("note-size", 1280, 800)
		p.shot("note-size", 390, 844)
	})

	t.Run("a scenario the command line accepts but over the browser's budget is refused", func(t *testing.T) {
		p.t = t
		p.do(chromedp.Navigate("about:blank"), chromedp.Navigate(srv.URL+"/#"+linkWithJobsOneSeed(t, 800_000)))
		time.Sleep(time.Second) // the page has started
		p.wait(`!!document.getElementById("problems")`, statusJS, 30*time.Second)
		if msg := p.text("problems"); !strings.Contains(msg, "2 policies × 800,000 jobs is 1,600,000 job runs, more than the 1,500,000") {
			t.Errorf("problems: %q", msg)
		}
		if !eval[bool](p, `document.getElementById("run").disabled`) {
			t.Error("Run is enabled")
		}
		p.shot("over-budget", 1280, 800)
		p.shot("over-budget", 390, 844)
	})

	t.Run("a save the storage refuses is reported", func(t *testing.T) {
		p.t = t
		p.do(chromedp.Navigate("about:blank"), chromedp.Navigate(srv.URL+"/#"+linkWithJobs(t, 30)))
		time.Sleep(time.Second) // the page has started
		p.wait(plotsShown, statusJS, 60*time.Second)
		// Fill the storage to its quota, then make the scenario grow.
		eval[any](p, `(() => { let n = 1 << 23, i = 0;
			while (n >= 16) { try { localStorage.setItem("filler" + i, "x".repeat(n)); i++; } catch (e) { n = n >> 1; } } })()`)
		p.click("tab-scenario")
		p.setValue("f-policies-0-label", "FIFO "+strings.Repeat("and a long label ", 200))
		p.wait(`!!document.getElementById("note-save")`, statusJS, 10*time.Second)
		if msg := p.text("note-save"); !strings.Contains(msg, "not saved") || !strings.Contains(msg, "storage for this page is full") {
			t.Errorf("note: %q", msg)
		}
		p.shot("note-save", 1280, 800)
		p.shot("note-save", 390, 844)
		eval[any](p, `Object.keys(localStorage).filter((k) => k.startsWith("filler")).forEach((k) => localStorage.removeItem(k))`)
		p.setValue("f-policies-0-label", "FIFO")
		p.wait(`!document.getElementById("note-save")`, statusJS, 10*time.Second)
	})

	if e := errs(); len(e) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(e, "\n"))
	}
}
