//go:build js

package experiment_test

import (
	"syscall/js"
	"time"
)

// cpuTime is node's process CPU time (process.cpuUsage: user and system,
// every thread of node, so the compiler's and collector's threads too).
func cpuTime() time.Duration {
	proc := js.Global().Get("process")
	if proc.IsUndefined() {
		return 0
	}
	u := proc.Call("cpuUsage")
	return time.Duration(u.Get("user").Float()+u.Get("system").Float()) * time.Microsecond
}
