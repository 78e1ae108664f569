package metrics

import (
	"testing"

	"github.com/schedlab/schedlab/sim/engine"
)

// A thinned utilisation series integrates exactly between the points it
// kept, and linearly within a merged gap.
func TestBusyUntilThinned(t *testing.T) {
	// Steps 2 busy on [0,10), 4 on [10,20), 0 after: 20 + 40 GPU-seconds.
	// Thinned, the point at 10 is merged away.
	steps := []engine.UtilPoint{{TimeS: 0, BusyGPUs: 2}, {TimeS: 20, BusyGPUs: 0, BusyGPUSeconds: 60}}
	for _, c := range []struct{ t, want float64 }{{-1, 0}, {0, 0}, {5, 15}, {20, 60}, {30, 60}} {
		if got := busyUntil(steps, c.t); got != c.want {
			t.Errorf("busy GPU-seconds until %v: %v, want %v", c.t, got, c.want)
		}
	}
}
