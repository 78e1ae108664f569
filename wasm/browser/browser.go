//go:build js && wasm

package main

import (
	"fmt"
	"strings"
	"syscall/js"
	"time"

	"github.com/vugu/vugu"

	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/protocol"
)

// browser is app.Platform in a real browser. Callbacks from JavaScript
// (worker messages, timers, files) run in their own goroutine and take
// the UI lock, as Vugu requires, then ask for a render.
type browser struct {
	env     vugu.EventEnv
	app     *app.App
	workers map[int]js.Value
	funcs   map[int][]js.Func
	global  js.Value
}

func newBrowser(env vugu.EventEnv) *browser {
	return &browser{env: env, workers: map[int]js.Value{}, funcs: map[int][]js.Func{}, global: js.Global()}
}

// locked runs f with the UI locked and re-renders after it; a panic in f
// becomes a notice instead of stopping the page.
func (b *browser) locked(f func()) {
	go func() {
		b.env.Lock()
		defer b.env.UnlockRender()
		defer b.app.Recover()
		f()
	}()
}

// guard catches JavaScript exceptions (a full localStorage, a browser
// without clipboard access) so that they never stop the page.
func guard(what string, f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s: %v", what, r)
		}
	}()
	f()
	return nil
}

func (b *browser) Cores() int {
	n := b.global.Get("navigator").Get("hardwareConcurrency")
	if n.Type() == js.TypeNumber && n.Int() > 0 {
		return n.Int()
	}
	return 2
}

func (b *browser) ViewportWidth() int {
	w := b.global.Get("innerWidth")
	if w.Type() == js.TypeNumber {
		return w.Int()
	}
	return 0
}

// StartWorker starts an engine worker through the page's helper (see
// index.html), which hands it the engine compiled once for all workers.
func (b *browser) StartWorker(id int) {
	w := b.global.Get("schedlab").Call("newWorker")
	onMessage := js.FuncOf(func(this js.Value, args []js.Value) any {
		data := args[0].Get("data")
		if t := data.Get("type").String(); t == protocol.TypeResult || t == protocol.TypeDrawn {
			b.inSteps(id, data) // steps.go
			return nil
		}
		m := protocol.FromJS(data)
		b.locked(func() { b.app.OnWorker(id, m) })
		return nil
	})
	onError := js.FuncOf(func(this js.Value, args []js.Value) any {
		msg := "the engine worker failed"
		if e := args[0]; e.Get("message").Type() == js.TypeString {
			msg += ": " + e.Get("message").String()
		}
		args[0].Call("preventDefault") // reported on the page instead of the console
		m := protocol.NewMessage(protocol.TypeError, 0, protocol.Error{Message: msg})
		b.locked(func() { b.app.OnWorker(id, m) })
		return nil
	})
	w.Set("onmessage", onMessage)
	w.Set("onerror", onError)
	b.workers[id] = w
	b.funcs[id] = []js.Func{onMessage, onError}
}

func (b *browser) PostWorker(id int, m protocol.Message) {
	w, ok := b.workers[id]
	if !ok {
		return
	}
	obj, transfer := protocol.ToJS(m)
	w.Call("postMessage", obj, transfer)
}

func (b *browser) StopWorker(id int) {
	if w, ok := b.workers[id]; ok {
		w.Call("terminate")
		delete(b.workers, id)
		for _, f := range b.funcs[id] {
			f.Release()
		}
		delete(b.funcs, id)
	}
}

func (b *browser) Load(key string) (v string, ok bool) {
	_ = guard("reading storage", func() {
		s := b.global.Get("localStorage").Call("getItem", key)
		if s.Type() == js.TypeString {
			v, ok = s.String(), true
		}
	})
	return v, ok
}

// Save stores a value in localStorage; a full storage (the browser's
// QuotaExceededError) is app.ErrStorageFull.
func (b *browser) Save(key, value string) (err error) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if e, ok := r.(js.Error); ok && e.Value.Get("name").String() == "QuotaExceededError" {
			err = app.ErrStorageFull
			return
		}
		err = fmt.Errorf("the browser refused to store it: %v", r)
	}()
	b.global.Get("localStorage").Call("setItem", key, value)
	return nil
}

func (b *browser) Fragment() string {
	return strings.TrimPrefix(b.global.Get("location").Get("hash").String(), "#")
}

func (b *browser) SetFragment(f string) {
	loc := b.global.Get("location")
	url := loc.Get("pathname").String() + loc.Get("search").String()
	if f != "" {
		url += "#" + f
	}
	_ = guard("updating the address", func() { b.global.Get("history").Call("replaceState", nil, "", url) })
}

func (b *browser) Location() string {
	loc := b.global.Get("location")
	return loc.Get("origin").String() + loc.Get("pathname").String() + loc.Get("search").String()
}

func (b *browser) BlobURL(data []byte, mime string) string {
	arr := js.Global().Get("Uint8Array").New(len(data))
	js.CopyBytesToJS(arr, data)
	opts := js.Global().Get("Object").New()
	opts.Set("type", mime)
	blob := js.Global().Get("Blob").New(js.Global().Get("Array").New(arr), opts)
	return b.global.Get("URL").Call("createObjectURL", blob).String()
}

// RevokeURL frees an object URL a little later rather than at once: the
// results that held it are replaced before the page re-renders, and an
// image that had not fetched its blob yet (one in a hidden panel, on a
// loaded machine) would fail with ERR_FILE_NOT_FOUND.
func (b *browser) RevokeURL(url string) {
	var revoke js.Func
	revoke = js.FuncOf(func(js.Value, []js.Value) any {
		b.global.Get("URL").Call("revokeObjectURL", url)
		revoke.Release()
		return nil
	})
	b.global.Call("setTimeout", revoke, revokeDelayMS)
}

// revokeDelayMS is how long a replaced object URL stays loadable.
const revokeDelayMS = 10_000

func (b *browser) Download(name, mime string, data []byte) { download(name, mime, data) }

// download saves bytes through a temporary link.
func download(name, mime string, data []byte) {
	arr := js.Global().Get("Uint8Array").New(len(data))
	js.CopyBytesToJS(arr, data)
	opts := js.Global().Get("Object").New()
	opts.Set("type", mime)
	blob := js.Global().Get("Blob").New(js.Global().Get("Array").New(arr), opts)
	url := js.Global().Get("URL").Call("createObjectURL", blob)
	doc := js.Global().Get("document")
	a := doc.Call("createElement", "a")
	a.Set("href", url)
	a.Set("download", name)
	a.Get("style").Set("display", "none")
	doc.Get("body").Call("appendChild", a)
	a.Call("click")
	a.Call("remove")
	var revoke js.Func
	revoke = js.FuncOf(func(js.Value, []js.Value) any {
		js.Global().Get("URL").Call("revokeObjectURL", url)
		revoke.Release()
		return nil
	})
	js.Global().Call("setTimeout", revoke, 60_000)
}

func (b *browser) Copy(text string) {
	_ = guard("copying", func() {
		clip := b.global.Get("navigator").Get("clipboard")
		if clip.Truthy() {
			p := clip.Call("writeText", text)
			p.Call("catch", js.FuncOf(func(js.Value, []js.Value) any { return nil })) // the link is shown anyway
		}
	})
}

// Focus focuses an element after the render that follows this event,
// which may be the one that creates it.
func (b *browser) Focus(id string) {
	var f js.Func
	f = js.FuncOf(func(js.Value, []js.Value) any {
		f.Release()
		el := js.Global().Get("document").Call("getElementById", id)
		if el.Truthy() {
			opts := js.Global().Get("Object").New()
			opts.Set("block", "center")
			el.Call("scrollIntoView", opts)
			el.Call("focus")
		}
		return nil
	})
	js.Global().Call("setTimeout", f, 60)
}

func (b *browser) After(d time.Duration, fn func()) {
	var f js.Func
	f = js.FuncOf(func(js.Value, []js.Value) any {
		f.Release()
		b.locked(fn)
		return nil
	})
	js.Global().Call("setTimeout", f, d.Milliseconds())
}

func (b *browser) Soon(d time.Duration, fn func()) {
	var f js.Func
	f = js.FuncOf(func(js.Value, []js.Value) any {
		f.Release()
		go func() {
			b.env.Lock()
			defer b.env.UnlockOnly()
			defer b.app.Recover()
			fn()
		}()
		return nil
	})
	js.Global().Call("setTimeout", f, d.Milliseconds())
}

// flushOnHide saves a pending change when the page is hidden or closed;
// JavaScript waits for nothing after that, so it runs in the callback.
func (b *browser) flushOnHide() {
	flush := js.FuncOf(func(js.Value, []js.Value) any {
		defer func() { _ = recover() }()
		b.app.Flush()
		return nil
	})
	js.Global().Call("addEventListener", "pagehide", flush)
	js.Global().Get("document").Call("addEventListener", "visibilitychange", flush)
}

// redrawOnResize renders the page again once its width settles after a
// resize (a phone turned, a window narrowed): the figures and the Gantt
// chart are drawn for the page's width (ViewportWidth), a phone's figure
// narrower, with labels at a readable size rather than scaled down.
func (b *browser) redrawOnResize() {
	last := b.ViewportWidth()
	var timer js.Value
	settled := js.FuncOf(func(js.Value, []js.Value) any {
		if w := b.ViewportWidth(); w != last {
			last = w
			b.locked(func() {})
		}
		return nil
	})
	resized := js.FuncOf(func(js.Value, []js.Value) any {
		js.Global().Call("clearTimeout", timer)
		timer = js.Global().Call("setTimeout", settled, 150)
		return nil
	})
	js.Global().Call("addEventListener", "resize", resized)
}

func (b *browser) Now() time.Time { return time.Now() }

func (b *browser) Report(msg string) {
	js.Global().Get("console").Call("error", "schedlab: "+msg)
}

// PickFile opens the browser's file chooser; the chosen file's text
// arrives later.
func (b *browser) PickFile(accept string, done func(name, text string, err error)) {
	doc := js.Global().Get("document")
	input := doc.Call("createElement", "input")
	input.Set("type", "file")
	input.Set("accept", accept)
	var onChange js.Func
	onChange = js.FuncOf(func(this js.Value, args []js.Value) any {
		onChange.Release()
		files := input.Get("files")
		if files.Length() == 0 {
			return nil
		}
		file := files.Index(0)
		name := file.Get("name").String()
		var then, fail js.Func
		then = js.FuncOf(func(this js.Value, args []js.Value) any {
			text := args[0].String()
			then.Release()
			fail.Release()
			b.locked(func() { done(name, text, nil) })
			return nil
		})
		fail = js.FuncOf(func(this js.Value, args []js.Value) any {
			msg := args[0].Call("toString").String()
			then.Release()
			fail.Release()
			b.locked(func() { done(name, "", fmt.Errorf("%s", msg)) })
			return nil
		})
		file.Call("text").Call("then", then, fail)
		return nil
	})
	input.Set("onchange", onChange)
	input.Call("click")
}
