//go:build js && wasm

package main

import (
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
