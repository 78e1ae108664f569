package cputime

import (
	"runtime"
	"testing"
	"time"
)

// TestThreadCountsOnlyThisThread spins on a locked thread until its CPU
// time has grown by 20 ms, then blocks while another goroutine spins for
// 100 ms of the process's CPU: the locked thread's reading must have
// grown by the first spin and hardly by the second (the process's time,
// read in its place, grows by both).
func TestThreadCountsOnlyThisThread(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("a thread's CPU time is measured on Linux only")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	before := Thread()
	start := time.Now()
	for Thread()-before < 20*time.Millisecond {
		if time.Since(start) > 30*time.Second {
			t.Fatalf("30 s of spinning counted as %v of this thread's CPU", Thread()-before)
		}
	}
	mine := Thread()
	done := make(chan time.Duration)
	go func() {
		p0 := Process()
		for Process()-p0 < 100*time.Millisecond && time.Since(start) < 60*time.Second {
		}
		done <- Process() - p0
	}()
	other := <-done
	if grew := Thread() - mine; grew > other/2 {
		t.Errorf("while another goroutine spun %v, this blocked thread's CPU grew by %v", other, grew)
	}
}
