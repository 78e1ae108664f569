//go:build linux

package cputime

import (
	"syscall"
	"time"
)

// rusageThread is Linux's RUSAGE_THREAD: the calling thread's usage only.
const rusageThread = 1

// Thread is the calling OS thread's user and system CPU time, or 0 when
// it cannot be read. A goroutine that reads it twice must stay on one
// thread in between (runtime.LockOSThread); it then counts that
// goroutine's work (and the collector's assists it made), not the
// background collector's nor other goroutines'.
func Thread() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(rusageThread, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
