//go:build !unix && !js

package lp_test

import "time"

// cpuTime is not available here (e.g. js/wasm): benchmarks report wall time only.
func cpuTime() time.Duration { return 0 }
