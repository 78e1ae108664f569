//go:build (!unix || js) && !noscript

package script_test

import "time"

// cpuTime is not known here (WebAssembly has no getrusage).
func cpuTime() (time.Duration, bool) { return 0, false }
