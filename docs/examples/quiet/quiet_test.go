package quiet

import (
	"context"
	"testing"

	"github.com/schedlab/schedlab/sim/experiment/conformance"
)

// The conformance check runs it on every perf model and generator.
func TestConforms(t *testing.T) {
	rep := conformance.Suite{Settings: conformance.Settings, Seeds: []uint64{1, 2, 3, 4, 5, 6, 7, 8, 20}}.Check(context.Background(), "example-quiet")
	for _, p := range rep.Problems {
		t.Error(p)
	}
	if rep.Ran == 0 {
		t.Error("no case ran")
	}
}
