//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/schedlab/schedlab/web/app"
)

// showPreview shows the default scenario's results computed when the
// site was built (web/boot.js fetches them while this module loads), if
// they are of the run the page has just started; the page's own results
// replace them when its engine has run (see web/app's preview.go).
func (b *browser) showPreview(a *app.App) {
	p := b.global.Get("schedlab").Get("preview")
	if p.Type() != js.TypeObject {
		return
	}
	var then js.Func
	then = js.FuncOf(func(_ js.Value, args []js.Value) any {
		then.Release()
		if len(args) == 0 || args[0].Type() != js.TypeObject {
			return nil // not served: the page waits for its engine
		}
		arr := b.global.Get("Uint8Array").New(args[0])
		data := make([]byte, arr.Get("length").Int())
		js.CopyBytesToGo(data, arr)
		b.locked(func() {
			if _, err := a.ShowPreview(data); err != nil {
				b.Report("the results computed when the site was built could not be shown: " + err.Error())
			}
		})
		return nil
	})
	p.Call("then", then)
}
