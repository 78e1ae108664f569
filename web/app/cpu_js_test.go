//go:build js

package app_test

import "time"

// processCPU is not known in WebAssembly.
func processCPU() time.Duration { return 0 }
