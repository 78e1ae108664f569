//go:build unix

package lp_test

import (
	"syscall"
	"time"
)

// cpuTime is the process's user and system CPU time, so benchmarks on a
// shared machine can report CPU per solve beside wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
