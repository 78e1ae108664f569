//go:build js && wasm

// Command edge serves schedlab's JSON API (sim/api) on Cloudflare
// Workers. worker.mjs, beside this file, starts a fresh instance of this
// module for every request (no state passes from one request to the
// next), takes the API from it once it is ready and hands it the
// request; `make edge` builds the bundle into build/edge and wasm/edge's
// test runs it in workerd.
//
// The bundle is built with the noplot and nohttp tags: no gonum/plot and
// no net/http, so that it stays well under the free plan's 3 MB for a
// gzipped Worker (build/wasmsize holds its budget). Natively
// (main_other.go) the package serves the API over HTTP, for debugging.
package main

import (
	"bytes"
	"context"
	"runtime/debug"
	"syscall/js"

	"github.com/schedlab/schedlab/sim/api"
)

// memoryLimit keeps Go's heap (and so the instance's linear memory, which
// never shrinks) well under a Worker's 128 MB: the collector runs more
// often instead of letting the heap double between collections.
const memoryLimit = 80 << 20

// ready tells worker.mjs that globalThis.schedlabAPI is set; worker.mjs
// gives each instance its own ready, so that it takes the API of the
// instance it started even when requests overlap.
//
//go:wasmimport schedlab ready
func ready()

func main() {
	debug.SetMemoryLimit(memoryLimit)
	// WebAssembly has one thread: runs of a request go one at a time.
	// Workers limit CPU time per request themselves.
	// The Workers API is a public service, not a developer's machine:
	// pages of any origin may POST to it.
	h := api.New(api.Options{Workers: 1, AllowOrigins: []string{"*"}})
	done := make(chan struct{}) // closed by exit
	// answer(method, path, length, body, contentType, origin) returns a
	// promise of {status, headers: [[name, value], …], body: Uint8Array}.
	answer := js.FuncOf(func(_ js.Value, args []js.Value) any {
		req := api.Request{Method: args[0].String(), Path: args[1].String(), Length: int64(args[2].Int()),
			ContentType: header(args[4]), Origin: header(args[5])}
		if body := args[3]; !body.IsNull() && !body.IsUndefined() {
			b := make([]byte, body.Length())
			js.CopyBytesToGo(b, body)
			req.Body = bytes.NewReader(b)
		}
		// The answer is computed on a goroutine of its own: a JavaScript
		// callback must not block.
		var executor js.Func
		executor = js.FuncOf(func(_ js.Value, p []js.Value) any {
			executor.Release()
			resolve := p[0]
			go func() { resolve.Invoke(toJS(h.Answer(context.Background(), req))) }()
			return nil
		})
		return js.Global().Get("Promise").New(executor)
	})
	// exit() ends the instance, once worker.mjs holds the answer: main
	// must not return while Go has called into JavaScript, as it has when
	// the answer is resolved.
	exit := js.FuncOf(func(js.Value, []js.Value) any {
		close(done)
		return nil
	})
	obj := js.Global().Get("Object").New()
	obj.Set("answer", answer)
	obj.Set("exit", exit)
	obj.Set("maxBodyBytes", h.Limits().MaxBodyBytes)
	js.Global().Set("schedlabAPI", obj)
	ready()
	<-done
}

// header is a header's value as worker.mjs passes it: null when absent.
func header(v js.Value) string {
	if v.Type() != js.TypeString {
		return ""
	}
	return v.String()
}

// toJS is the response as worker.mjs turns it into a Response.
func toJS(r api.Response) js.Value {
	headers := js.Global().Get("Array").New()
	for _, kv := range r.Header {
		headers.Call("push", js.ValueOf([]any{kv[0], kv[1]}))
	}
	body := js.Global().Get("Uint8Array").New(len(r.Body))
	js.CopyBytesToJS(body, r.Body)
	out := js.Global().Get("Object").New()
	out.Set("status", r.Status)
	out.Set("headers", headers)
	out.Set("body", body)
	return out
}
