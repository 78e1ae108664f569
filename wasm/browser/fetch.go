//go:build js && wasm

package main

import (
	"errors"
	"syscall/js"

	"github.com/schedlab/schedlab/web/app"
)

// Fetch implements app.Platform with the browser's fetch: a JSON POST or
// a GET, its status, Retry-After header and text given to done with the
// UI locked. A request the browser refuses (no server, or a server that
// does not allow this page's origin) comes back as Err.
func (b *browser) Fetch(method, url string, body []byte, done func(app.FetchReply)) {
	var onText, onResponse, onFail js.Func
	var reply app.FetchReply
	release := func() {
		onText.Release()
		onResponse.Release()
		onFail.Release()
	}
	onFail = js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := fetchFailure(args)
		release()
		b.locked(func() { done(app.FetchReply{Err: errors.New(msg)}) })
		return nil
	})
	onText = js.FuncOf(func(_ js.Value, args []js.Value) any {
		reply.Body = []byte(args[0].String())
		release()
		b.locked(func() { done(reply) })
		return nil
	})
	onResponse = js.FuncOf(func(_ js.Value, args []js.Value) any {
		r := args[0]
		reply.Status = r.Get("status").Int()
		if ra := r.Get("headers").Call("get", "Retry-After"); ra.Type() == js.TypeString {
			reply.RetryAfter = ra.String()
		}
		r.Call("text").Call("then", onText, onFail)
		return nil
	})
	opts := map[string]any{"method": method}
	if body != nil {
		opts["body"] = string(body)
		opts["headers"] = map[string]any{"Content-Type": "application/json"}
	}
	if err := guard("fetch", func() {
		b.global.Call("fetch", url, opts).Call("then", onResponse, onFail)
	}); err != nil {
		release()
		go done(app.FetchReply{Err: err})
	}
}

// fetchFailure is what a rejected fetch or body promise says: its
// error's message, or a plain sentence when it gives none.
func fetchFailure(args []js.Value) string {
	if len(args) > 0 && args[0].Type() == js.TypeObject && args[0].Get("message").Type() == js.TypeString {
		return args[0].Get("message").String()
	}
	return "the browser could not reach it"
}
