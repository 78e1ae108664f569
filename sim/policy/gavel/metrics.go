package gavel

import (
	"github.com/schedlab/schedlab/sim/metrics"
	"github.com/schedlab/schedlab/sim/policy/gavel/paper"
)

// The metrics of the Gavel figures are registered with the policies that
// record what they read.
func init() {
	for _, d := range paper.Metrics() {
		if d.Name == "ftf_rho" { // against the isolated policy's run
			metrics.RegisterPeers(d)
			continue
		}
		metrics.Register(d)
	}
}
