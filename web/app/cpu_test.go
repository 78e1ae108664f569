//go:build !js

package app_test

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the test process has used (user and system),
// which a benchmark reports beside wall time: on a loaded machine the wall
// time of one run varies several-fold.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
