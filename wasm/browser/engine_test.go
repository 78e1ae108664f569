//go:build js && wasm

package main

import (
	"runtime/metrics"
	"syscall/js"
	"testing"
	"time"

	"github.com/schedlab/schedlab/web/protocol"
)

// The engine worker starts with its own collector setting (off until the
// heap nears engineMemoryLimit), not Go's default: runEngine is started
// as web/worker.js starts it, with postMessage caught, and once it has
// said it is ready the runtime's own metrics are read back.
func TestEngineCollector(t *testing.T) {
	ready := make(chan string, 1)
	post := js.FuncOf(func(_ js.Value, args []js.Value) any {
		select {
		case ready <- args[0].Get("type").String():
		default:
		}
		return nil
	})
	defer post.Release()
	js.Global().Set("postMessage", post)
	go runEngine()
	select {
	case typ := <-ready:
		if typ != protocol.TypeReady {
			t.Fatalf("the engine's first message is %q, want %q", typ, protocol.TypeReady)
		}
	case <-time.After(time.Minute):
		t.Fatal("the engine did not say it was ready")
	}
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	if got := s[0].Value.Uint64(); int64(got) != -1 {
		t.Errorf("the engine's GOGC is %d, want off (-1): its collector should wait for the memory limit", int64(got))
	}
	if got := s[1].Value.Uint64(); got != engineMemoryLimit {
		t.Errorf("the engine's memory limit is %d bytes, want %d", got, engineMemoryLimit)
	}
	// The limit bounds a worker's memory on a phone; the command line's
	// 1 GiB would not.
	if engineMemoryLimit > 768<<20 || engineMemoryLimit < 128<<20 {
		t.Errorf("engineMemoryLimit %d MiB is outside 128–768 MiB", engineMemoryLimit>>20)
	}
}
