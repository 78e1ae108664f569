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
// WebAssembly has one thread, so the collector's marking stops the run
// (natively it runs on another core beside it), and a run's heap is
// nearly all live to its end (jobs, records, intervals): at Go's default
// (GOGC=100) a 100,000-job run in the page collected again and again and
// freed little. In headless Chromium (docs/page-loading.md, "The engine
// workers' collector") that run took 7.7 s at the default and 5.4 s with
// this setting, its worker's memory 402 MiB against 530 MiB; the limit
// keeps that bounded (a phone tab), where GOGC=200 or 400 let the
// memory grow with the heap instead. A run's results do not depend on
// when the collector runs (TestBuiltResults compares the page's run with
// the command line's).
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
