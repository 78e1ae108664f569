//go:build js && wasm

package protocol

import "syscall/js"

// FromJS copies a {type, id, json, bin} message object into Go.
func FromJS(v js.Value) Message { return FromJSYielding(v, nil) }

// FromJSYielding is FromJS calling yield (when not nil) after each
// binary part, so that a page copying a big result can hand its main
// thread back to the browser between parts.
func FromJSYielding(v js.Value, yield func()) Message {
	m := Message{Type: v.Get("type").String()}
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
			data := make([]byte, arr.Get("length").Int())
			js.CopyBytesToGo(data, arr)
			m.Bin[k] = data
			if yield != nil {
				yield()
			}
		}
	}
	return m
}

// ToJS builds the message object for postMessage and the list of its
// buffers to transfer (rather than copy) to the other side.
func ToJS(m Message) (obj, transfer js.Value) {
	obj = js.Global().Get("Object").New()
	obj.Set("type", m.Type)
	obj.Set("id", m.ID)
	obj.Set("json", string(m.JSON))
	transfer = js.Global().Get("Array").New()
	if len(m.Bin) > 0 {
		bin := js.Global().Get("Object").New()
		for k, data := range m.Bin {
			arr := js.Global().Get("Uint8Array").New(len(data))
			js.CopyBytesToJS(arr, data)
			bin.Set(k, arr)
			transfer.Call("push", arr.Get("buffer"))
		}
		obj.Set("bin", bin)
	}
	return obj, transfer
}
