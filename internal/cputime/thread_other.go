//go:build !linux

package cputime

import "time"

// Thread is not measured on this system: it is always 0 (see the Linux
// version).
func Thread() time.Duration { return 0 }
