//go:build unix

package experiment_test

import (
	"syscall"
	"time"
)

// cpuTime is the process's user and system CPU time (every thread, so the
// collector's too): on a shared machine it is steadier than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
