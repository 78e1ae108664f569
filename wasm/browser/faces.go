//go:build js && wasm

package main

import (
	"fmt"
	"syscall/js"

	"github.com/schedlab/schedlab/sim/plot"
)

// fetchFacesFromSite makes an engine worker fetch the figures' two fonts
// when it first draws (sim/plot's FaceData): the page's module is built
// without them (build/wasmsize's lazyfaces tag) and web/worker.js hands
// the worker their file names, which build/site wrote beside the module.
// A worker given none (an older page) keeps FaceData as it is.
func fetchFacesFromSite() {
	names := js.Global().Get("schedlabFaces")
	if names.Type() != js.TypeObject || names.Length() != 2 {
		return
	}
	regular, bold := names.Index(0).String(), names.Index(1).String()
	plot.FaceData = func() ([]byte, []byte, error) {
		r, err := fetchBytes(regular)
		if err != nil {
			return nil, nil, err
		}
		b, err := fetchBytes(bold)
		if err != nil {
			return nil, nil, err
		}
		return r, b, nil
	}
}

// fetchBytes downloads url with the browser's fetch and waits for its
// body. It blocks its goroutine only: the worker's event loop goes on,
// delivering the promise's callbacks (a run or a draw is a goroutine of
// its own, see web/worker).
func fetchBytes(url string) ([]byte, error) {
	type reply struct {
		body []byte
		err  error
	}
	done := make(chan reply, 1)
	var onBody, onResponse, onFail js.Func
	release := func() {
		onBody.Release()
		onResponse.Release()
		onFail.Release()
	}
	onFail = js.FuncOf(func(_ js.Value, args []js.Value) any {
		err := fmt.Errorf("fetching %s: %s", url, fetchFailure(args))
		release()
		done <- reply{err: err}
		return nil
	})
	onBody = js.FuncOf(func(_ js.Value, args []js.Value) any {
		u8 := js.Global().Get("Uint8Array").New(args[0])
		body := make([]byte, u8.Length())
		js.CopyBytesToGo(body, u8)
		release()
		done <- reply{body: body}
		return nil
	})
	onResponse = js.FuncOf(func(_ js.Value, args []js.Value) any {
		r := args[0]
		if !r.Get("ok").Bool() {
			release()
			done <- reply{err: fmt.Errorf("fetching %s: the site answered HTTP %d", url, r.Get("status").Int())}
			return nil
		}
		r.Call("arrayBuffer").Call("then", onBody, onFail)
		return nil
	})
	if err := guard("fetch", func() {
		js.Global().Call("fetch", url).Call("then", onResponse, onFail)
	}); err != nil {
		release()
		return nil, err
	}
	r := <-done
	return r.body, r.err
}
