//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/schedlab/schedlab/web/app"
)

// showPreview shows the default scenario's results computed when the
// site was built (web/boot.js fetches them while this module loads), if
// they are of the run the page has just started; the page's own results
// replace them when its engine has run (see web/app's preview.go). The
// channel it returns is closed once that is done or there is nothing to
// show: the page's first render waits for it (a little), so that it draws
// what the first screen of index.html (web/snapshot, drawn from the same
// results) shows, over the same elements, instead of an empty results view
// that would replace them. (web/boot.js bounds the wait: its promise
// gives null two seconds after the module has compiled.)
func (b *browser) showPreview(a *app.App) <-chan struct{} {
	done := make(chan struct{}, 1)
	p := b.global.Get("schedlab").Get("preview")
	if p.Type() != js.TypeObject {
		done <- struct{}{}
		return done
	}
	var then js.Func
	then = js.FuncOf(func(_ js.Value, args []js.Value) any {
		then.Release()
		if len(args) == 0 || args[0].Type() != js.TypeObject {
			done <- struct{}{}
			return nil // not served: the page waits for its engine
		}
		arr := b.global.Get("Uint8Array").New(args[0])
		data := make([]byte, arr.Get("length").Int())
		js.CopyBytesToGo(data, arr)
		b.locked(func() {
			if _, err := a.ShowPreview(data); err != nil {
				b.Report("the results computed when the site was built could not be shown: " + err.Error())
			}
			// The page's first render follows once this unlocks (a
			// goroutine runs until it blocks: WebAssembly has one thread).
			done <- struct{}{}
		})
		return nil
	})
	p.Call("then", then)
	return done
}
