//go:build js && wasm

package main

import (
	"runtime/debug"
	"syscall/js"
	"time"

	"github.com/schedlab/schedlab/web/protocol"
	"github.com/schedlab/schedlab/web/worker"
)

// engineRole is the argument web/worker.js starts this module with in
// an engine Web Worker (Go's os.Args[1]); the page starts it without.
const engineRole = "engine"

// runEngine is the engine Web Worker: it runs scenarios and draws their
// figures, speaking the messages of package protocol with the page. The
// logic lives in package worker (web/worker); this only converts messages
// between JavaScript and Go. It never returns.
func runEngine() {
	collectNearLimit()
	fetchFacesFromSite()
	h := worker.New(post)
	// A run is one long goroutine; sleeping a moment at each progress
	// report hands control back to the worker's event loop, which can then
	// deliver a "cancel" message.
	h.Yield = func() { time.Sleep(time.Millisecond) }
	js.Global().Set("onmessage", js.FuncOf(func(this js.Value, args []js.Value) any {
		h.Handle(protocol.FromJS(args[0].Get("data")))
		return nil
	}))
	post(protocol.NewMessage(protocol.TypeReady, 0, worker.Ready()))
	select {}
}

// post sends a message to the page, transferring the binary buffers
// instead of copying them.
func post(m protocol.Message) {
	obj, transfer := protocol.ToJS(m)
	js.Global().Call("postMessage", obj, transfer)
}

// The engine's collector: off until the heap nears engineMemoryLimit.
// WebAssembly has one thread, so a collection stops the run (natively
// it marks on another core beside it), and a run's heap is nearly all
// live to its end (jobs, records, intervals): at Go's default (GOGC=100)
// the page's 100,000-job FIFO run collected 8 times for about 0.4 s,
// freeing little. With this setting it collects once (0.08 s) and ran
// about a fifth faster in headless Chromium, its worker's memory 530 MiB
// against 400 MiB; a 200,000-job run collects 3 times instead of 6 and
// peaks lower than at the default (586 against 600–620 MiB), since the
// limit, not twice the live heap, sets when it collects. GOGC=200 saved
// no collector time (4 collections, 0.5 s) and, as 400 did, let memory
// grow with the heap (838 MiB at 200,000 jobs); a 768 MiB limit, no
// collection at 100,000 jobs but 829 MiB at 200,000 (docs/page-loading.md, "The engine workers'
// collector"). The command line in WebAssembly waits for 1 GiB
// (cmd/schedlab's collectNearLimit); a page's tab runs several workers
// and may be a phone's. Results do not depend on when the collector runs
// (TestBuiltResults compares the page's run with the command line's).
const (
	engineGCPercent   = -1
	engineMemoryLimit = 512 << 20
)

// collectNearLimit sets the engine worker's collector (see
// engineGCPercent).
func collectNearLimit() {
	debug.SetGCPercent(engineGCPercent)
	debug.SetMemoryLimit(engineMemoryLimit)
}
