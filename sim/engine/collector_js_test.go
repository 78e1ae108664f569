//go:build js && wasm

package engine_test

import (
	"os"
	"runtime/debug"
	"testing"
)

// pageMemoryLimit is the heap at which the page's engine workers start
// collecting (wasm/browser's engineMemoryLimit, with its collector's
// proportional pacing off: engineGCPercent).
const pageMemoryLimit = 512 << 20

// collectAsDeployed sets the collector as the page's engine workers set
// theirs, so that the benchmarks under node measure the engine as the
// browser runs it, and returns what restores the previous setting. (The
// command line in WebAssembly waits for 1 GiB, collectNearLimit in
// cmd/schedlab.) An environment that sets GOGC or GOMEMLIMIT keeps its
// own, to compare settings.
func collectAsDeployed() (restore func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	percent := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(pageMemoryLimit)
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}

// TestCollectAsDeployed checks that the benchmarks' collector is the
// page's while they run and that the previous one comes back after.
func TestCollectAsDeployed(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("the environment sets the collector")
	}
	restore := collectAsDeployed()
	percent := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(-1)
	restore()
	if percent != -1 || limit != pageMemoryLimit {
		t.Errorf("while benchmarking: GOGC %d, limit %d; want -1 (off) and %d", percent, limit, pageMemoryLimit)
	}
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("after: GOGC %d, want the default 100 back", p)
	}
}
