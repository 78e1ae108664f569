//go:build js

package app_test

import (
	"syscall/js"
	"time"
)

// processCPU is the CPU time of the Node.js process running the test in
// WebAssembly (process.cpuUsage), or 0 in a browser.
func processCPU() time.Duration {
	proc := js.Global().Get("process")
	if !proc.Truthy() || !proc.Get("cpuUsage").Truthy() {
		return 0
	}
	u := proc.Call("cpuUsage")
	return time.Duration(u.Get("user").Float()+u.Get("system").Float()) * time.Microsecond
}
