//go:build js

package cputime

import (
	"syscall/js"
	"time"
)

// Process is node's process CPU time (process.cpuUsage: user and system,
// every thread of node, so its compiler's and collector's threads too),
// or 0 outside node.
func Process() time.Duration {
	proc := js.Global().Get("process")
	if proc.IsUndefined() {
		return 0
	}
	u := proc.Call("cpuUsage")
	return time.Duration(u.Get("user").Float()+u.Get("system").Float()) * time.Microsecond
}
