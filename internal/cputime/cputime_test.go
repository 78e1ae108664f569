package cputime

import (
	"runtime"
	"testing"
	"time"
)

// TestProcessCountsWork spins until the process's CPU time has grown by
// 20 ms; a reading that does not grow fails after 30 s of wall time (far
// more than a loaded machine needs to grant 20 ms).
func TestProcessCountsWork(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" && runtime.GOOS != "js" {
		t.Skip("CPU time is not measured here")
	}
	before := Process()
	start := time.Now()
	for loops := 0; Process()-before < 20*time.Millisecond; loops++ {
		if time.Since(start) > 30*time.Second {
			t.Fatalf("30 s of spinning (%d loops) counted as %v of CPU", loops, Process()-before)
		}
	}
}
