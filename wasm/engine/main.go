//go:build js && wasm

// Command engine is schedlab's simulation engine as a Web Worker: it runs
// scenarios and draws their figures, speaking the messages of package
// protocol with the page. The logic lives in package handler; this file
// only converts messages between JavaScript and Go.
package main

import (
	"syscall/js"
	"time"

	"github.com/schedlab/schedlab/wasm/engine/handler"
	"github.com/schedlab/schedlab/web/protocol"
)

func main() {
	h := handler.New(post)
	// A run is one long goroutine; sleeping a moment at each progress
	// report hands control back to the worker's event loop, which can then
	// deliver a "cancel" message.
	h.Yield = func() { time.Sleep(time.Millisecond) }
	js.Global().Set("onmessage", js.FuncOf(func(this js.Value, args []js.Value) any {
		h.Handle(fromJS(args[0].Get("data")))
		return nil
	}))
	post(protocol.NewMessage(protocol.TypeReady, 0, handler.Ready()))
	select {}
}

// fromJS copies a {type, id, json, bin} object into Go.
func fromJS(v js.Value) protocol.Message {
	m := protocol.Message{Type: v.Get("type").String()}
	if id := v.Get("id"); id.Type() == js.TypeNumber {
		m.ID = id.Int()
	}
	if j := v.Get("json"); j.Type() == js.TypeString {
		m.JSON = []byte(j.String())
	}
	if bin := v.Get("bin"); bin.Type() == js.TypeObject {
		keys := js.Global().Get("Object").Call("keys", bin)
		m.Bin = map[string][]byte{}
		for i := 0; i < keys.Length(); i++ {
			k := keys.Index(i).String()
			arr := bin.Get(k)
			b := make([]byte, arr.Get("length").Int())
			js.CopyBytesToGo(b, arr)
			m.Bin[k] = b
		}
	}
	return m
}

// post sends a message to the page, transferring the binary buffers
// instead of copying them.
func post(m protocol.Message) {
	obj := js.Global().Get("Object").New()
	obj.Set("type", m.Type)
	obj.Set("id", m.ID)
	obj.Set("json", string(m.JSON))
	transfer := js.Global().Get("Array").New()
	if m.Bin != nil {
		bin := js.Global().Get("Object").New()
		for name, b := range m.Bin {
			arr := js.Global().Get("Uint8Array").New(len(b))
			js.CopyBytesToJS(arr, b)
			bin.Set(name, arr)
			transfer.Call("push", arr.Get("buffer"))
		}
		obj.Set("bin", bin)
	}
	js.Global().Call("postMessage", obj, transfer)
}
