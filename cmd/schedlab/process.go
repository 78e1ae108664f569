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
// it or the collector waits for the memory limit (collectNearLimit), and
// returns what restores the previous setting.
func collectLessOften() (restore func()) {
	if os.Getenv("GOGC") != "" || collectsNearLimit {
		return func() {}
	}
	prev := debug.SetGCPercent(reproduceGOGC)
	return func() { debug.SetGCPercent(prev) }
}

// wasmMemoryLimit is the heap at which the collector starts in
// WebAssembly (collectNearLimit): a quarter of wasm32's 4 GiB.
const wasmMemoryLimit = 1 << 30

// collectsNearLimit is set once collectNearLimit has turned the
// proportional collector off.
var collectsNearLimit bool

// collectNearLimit turns the collector's proportional pacing off and lets
// it start only when the heap nears wasmMemoryLimit, unless the
// environment sets GOGC or GOMEMLIMIT. main calls it in WebAssembly only.
// There the collector runs on the program's one thread: natively it marks
// on another core beside the simulation, but under node a collection
// stops the run, and the first one also compiles the collector's code.
// A run's heap is nearly all live (the jobs, their records and the
// intervals, kept to the end), so the collections at 15, 30 and 60 MB of
// a 100,000-job run freed nothing and cost about a sixth of its CPU. The
// instance's memory never shrinks in WebAssembly anyway, and the peak was
// the same (204 MB for that run, 329 MB for a million jobs, streamed).
func collectNearLimit() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(wasmMemoryLimit)
	collectsNearLimit = true
}
