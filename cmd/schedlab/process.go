package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/pprof"
)

// startCPUProfile writes a CPU profile of the rest of the command to path
// (for go tool pprof); an empty path profiles nothing. The returned stop ends the profile and
// says on stderr if it could not be written.
func startCPUProfile(path string, stderr io.Writer) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintln(stderr, "schedlab: --cpuprofile:", err)
		}
	}, nil
}

// reproduceGOGC is the garbage collector's GOGC while reproduce runs,
// unless the environment sets GOGC. Gavel's allocators build and drop
// many small LPs a second while little stays live between runs, so at
// the default of 100 allocating and collecting take about a tenth of the
// CPU; at 200 the heap may grow to three times what is live rather than
// two (the Gavel studies' peak memory 869 → 1,252 MiB) and their runs
// take 1–7% less CPU (docs/gavel-performance.md, eighth pass).
const reproduceGOGC = 200

// collectLessOften sets GOGC to reproduceGOGC unless the environment sets
// it, and returns what restores the previous setting.
func collectLessOften() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	prev := debug.SetGCPercent(reproduceGOGC)
	return func() { debug.SetGCPercent(prev) }
}
