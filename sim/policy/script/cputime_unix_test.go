//go:build unix && !js && !noscript

package script_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process has used: what a test of speed
// compares on a machine that other work shares (the wall clock there
// measures the others too).
func cpuTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
