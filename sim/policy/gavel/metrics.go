package gavel

import (
	"github.com/schedlab/schedlab/sim/metrics"
	"github.com/schedlab/schedlab/sim/policy/gavel/paper"
)

// The metrics of the Gavel figures are registered with the policies that
// record what they read.
func init() {
	for _, d := range paper.Metrics() {
		metrics.Register(d)
	}
}
