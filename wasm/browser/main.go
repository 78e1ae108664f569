//go:build js && wasm

// Command browser is schedlab in the browser, as one WebAssembly module
// (schedlab.wasm) with two roles, so that a visitor downloads and compiles
// the Go runtime, the standard library, the scenario code and the
// Starlark interpreter once instead of twice:
//
//   - the page, on the main thread (web/boot.js starts it with no
//     argument): the Vugu components of package web, rendered into the
//     browser's DOM, with the app state of package web/app;
//   - the engine, in each Web Worker the page starts (web/worker.js starts
//     it with the argument "engine"; see engine.go and web/protocol).
package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"syscall/js"

	"github.com/vugu/vugu"
	"github.com/vugu/vugu/domrender"

	"github.com/schedlab/schedlab/web"
	"github.com/schedlab/schedlab/web/app"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == engineRole {
		runEngine()
		return
	}
	renderer, err := domrender.New("#vugu_mount_point")
	if err != nil {
		crash(fmt.Sprintf("starting the page: %v", err))
		return
	}
	defer renderer.Release()
	env := renderer.EventEnv()
	buildEnv, err := vugu.NewBuildEnv(env)
	if err != nil {
		crash(fmt.Sprintf("starting the page: %v", err))
		return
	}
	b := newBrowser(env)
	// The gallery's cards are read in a task of their own after the page
	// is on screen (see app.DeferGallery).
	app.DeferGallery = true
	// The committed record is read when first wanted (app.ReadRecord).
	app.RecordURL = "report.json"
	a := app.New(b)
	b.app = a
	b.flushOnHide()
	b.redrawOnResize()
	b.acceptDrops() // drop.go
	root := &web.Root{App: a}
	a.Start()
	<-b.showPreview(a)
	a.GalleryInSteps = b.galleryInSteps // steps.go; when the first results are drawn
	shown := a.Tab
	for {
		if err := render(renderer, buildEnv, root); err != nil {
			crash(err.Error())
			return
		}
		// Every view opens at its top (the run bar, the notices and, in
		// Results, the metrics), not at the scroll position of the view it
		// replaces. A focus request (a problem's field) scrolls after this.
		if a.Tab != shown {
			shown = a.Tab
			js.Global().Call("scrollTo", 0, 0)
		}
		// EventWait reports false when an event handler panicked (Vugu
		// recovers it); the page goes on, with a notice.
		if !renderer.EventWait() {
			env.Lock()
			a.Notice, a.NoticeErr = "Something went wrong handling that action (details in the browser console); your scenario is safe.", true
			env.UnlockOnly()
		}
	}
}

// render builds and renders the page, turning a panic into an error.
func render(r *domrender.JSRenderer, env *vugu.BuildEnv, root vugu.Builder) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error while drawing the page: %v\n%s", p, debug.Stack())
		}
	}()
	return r.Render(env.RunBuild(root))
}

// crash shows a last-resort message with a way to start afresh: the
// stored scenario may be what breaks the page.
func crash(msg string) {
	js.Global().Get("console").Call("error", "schedlab: "+msg)
	doc := js.Global().Get("document")
	div := doc.Call("createElement", "div")
	div.Set("className", "crash")
	div.Set("innerHTML", `<h2>schedlab stopped</h2><p>Something broke while showing the page. Your scenario is still stored in this browser.</p>
<p><button id="crash-export">Save the stored scenario as a file</button> <button id="crash-reset">Start again with the default scenario (the stored one is kept aside)</button></p><pre></pre>`)
	div.Call("querySelector", "pre").Set("textContent", msg)
	doc.Get("body").Call("prepend", div)
	doc.Call("getElementById", "crash-reset").Set("onclick", js.FuncOf(func(js.Value, []js.Value) any {
		// The stored scenario is set aside as a damaged copy (the page
		// then offers to download it), never just removed.
		store := js.Global().Get("localStorage")
		if s := store.Call("getItem", app.KeyScenario); s.Type() == js.TypeString {
			kept := false
			for i := 1; i <= 9 && !kept; i++ {
				key := app.KeyDamaged
				if i > 1 {
					key += "." + strconv.Itoa(i)
				}
				if store.Call("getItem", key).Type() == js.TypeString {
					continue
				}
				kept = guard("keeping the scenario", func() { store.Call("setItem", key, s.String()) }) == nil
			}
			if !kept {
				return nil // it stays where it is
			}
			store.Call("removeItem", app.KeyScenario)
		}
		js.Global().Get("location").Call("reload")
		return nil
	}))
	doc.Call("getElementById", "crash-export").Set("onclick", js.FuncOf(func(js.Value, []js.Value) any {
		if s := js.Global().Get("localStorage").Call("getItem", app.KeyScenario); s.Type() == js.TypeString {
			download("scenario.json", "application/json", []byte(s.String()))
		}
		return nil
	}))
}
