//go:build js && wasm

package main

import (
	"fmt"
	"syscall/js"
)

// acceptDrops opens a file dropped anywhere on the page as the Import
// button would: a scenario JSON, or a trace that is imported in the page.
func (b *browser) acceptDrops() {
	doc := js.Global().Get("document")
	over := js.FuncOf(func(this js.Value, args []js.Value) any {
		ev := args[0]
		ev.Call("preventDefault") // without it the browser opens the file
		if dt := ev.Get("dataTransfer"); dt.Truthy() {
			dt.Set("dropEffect", "copy")
		}
		doc.Get("body").Get("classList").Call("add", "dropping")
		return nil
	})
	leave := js.FuncOf(func(this js.Value, args []js.Value) any {
		doc.Get("body").Get("classList").Call("remove", "dropping")
		return nil
	})
	drop := js.FuncOf(func(this js.Value, args []js.Value) any {
		ev := args[0]
		ev.Call("preventDefault")
		doc.Get("body").Get("classList").Call("remove", "dropping")
		dt := ev.Get("dataTransfer")
		if !dt.Truthy() || dt.Get("files").Length() == 0 {
			return nil
		}
		file := dt.Get("files").Index(0)
		name := file.Get("name").String()
		var then, fail js.Func
		then = js.FuncOf(func(this js.Value, args []js.Value) any {
			text := args[0].String()
			then.Release()
			fail.Release()
			b.locked(func() { b.app.OpenFile(name, text) })
			return nil
		})
		fail = js.FuncOf(func(this js.Value, args []js.Value) any {
			msg := args[0].Call("toString").String()
			then.Release()
			fail.Release()
			b.locked(func() { b.app.ImportErr = fmt.Sprintf("Could not read %s: %s", name, msg) })
			return nil
		})
		file.Call("text").Call("then", then, fail)
		return nil
	})
	doc.Call("addEventListener", "dragover", over)
	doc.Call("addEventListener", "dragleave", leave)
	doc.Call("addEventListener", "drop", drop)
}
