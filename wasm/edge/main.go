// Command edge serves schedlab's JSON API (sim/api) on Cloudflare Workers
// through github.com/syumai/workers: `make edge` builds it with the noplot
// tag (no gonum/plot, which alone would break the free plan's 3 MB) into
// build/edge with the runtime files workers-assets-gen writes, and
// wasm/edge's test runs it in workerd. Natively, workers.Serve is a plain
// HTTP server on $PORT, for debugging.
package main

import (
	"runtime/debug"

	"github.com/schedlab/schedlab/sim/api"
	"github.com/syumai/workers"
)

// memoryLimit keeps Go's heap (and so the instance's linear memory, which
// never shrinks) well under a Worker's 128 MB: the collector runs more
// often instead of letting the heap double between collections.
const memoryLimit = 80 << 20

func main() {
	debug.SetMemoryLimit(memoryLimit)
	// WebAssembly has one thread: runs of a request go one at a time.
	// Workers limit CPU time per request themselves.
	workers.Serve(api.New(api.Options{Workers: 1}))
}
