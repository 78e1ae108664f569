//go:build js && wasm

package main

import (
	"syscall/js"
	"time"

	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/protocol"
)

// yield hands the main thread back to the browser for a moment: a
// goroutine that sleeps lets Go return to the event loop, which runs
// what is queued (input, painting) before the sleep ends.
func yield() { time.Sleep(time.Millisecond) }

// inSteps applies a worker's result or figures message (possibly
// megabytes: 20,000 jobs' records, decision log and GPU intervals)
// without a long task: the message is copied into Go one binary part at
// a time, its records decoded in pieces (app.DecodeAhead), both outside
// the UI lock with the main thread handed back between pieces; then it is
// applied with the lock held, and the page rendered in a task of its own.
func (b *browser) inSteps(id int, data js.Value) {
	go func() {
		m := protocol.FromJSYielding(data, yield)
		ah := decodeAhead(id, m)
		yield()
		b.env.Lock()
		func() {
			defer b.app.Recover()
			b.app.OnWorkerAhead(id, m, ah)
		}()
		b.env.UnlockOnly()
		yield()
		b.env.Lock()
		b.env.UnlockRender()
	}()
}

// decodeAhead is app.DecodeAhead, with a panic (a malformed message)
// leaving the decoding to OnWorker, which reports it on the page.
func decodeAhead(id int, m protocol.Message) (ah *app.Ahead) {
	defer func() {
		if recover() != nil {
			ah = nil
		}
	}()
	return app.DecodeAhead(id, m, yield)
}

// galleryInSteps reads the gallery's cards, one scenario per task of the
// browser, outside the UI lock, and shows them with one render. The page
// calls it (App.GalleryInSteps) once its first results are drawn or the
// user turns to another view.
func (b *browser) galleryInSteps() {
	var cb js.Func
	cb = js.FuncOf(func(js.Value, []js.Value) any {
		cb.Release()
		go func() {
			g := app.ReadGallery(yield)
			b.env.Lock()
			defer b.env.UnlockRender()
			defer b.app.Recover()
			b.app.SetGallery(g)
		}()
		return nil
	})
	b.global.Call("setTimeout", cb, 0)
}
