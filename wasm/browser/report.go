//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/schedlab/schedlab/web/app"
)

// fetchReport reads the reproduction report served beside the page
// (report.json, copied there by build/site when it is committed) for the
// gallery's verdict badges. A missing report is no error: the badges then
// say "not yet run".
func (b *browser) fetchReport(a *app.App) {
	var onText, onResponse, onFail js.Func
	release := func() {
		onText.Release()
		onResponse.Release()
		onFail.Release()
	}
	onFail = js.FuncOf(func(js.Value, []js.Value) any {
		release()
		return nil
	})
	onText = js.FuncOf(func(_ js.Value, args []js.Value) any {
		text := args[0].String()
		release()
		b.locked(func() { a.SetReproduction([]byte(text)) })
		return nil
	})
	onResponse = js.FuncOf(func(_ js.Value, args []js.Value) any {
		r := args[0]
		if !r.Get("ok").Bool() {
			release()
			return nil
		}
		r.Call("text").Call("then", onText, onFail)
		return nil
	})
	b.global.Call("fetch", "report.json").Call("then", onResponse, onFail)
}
