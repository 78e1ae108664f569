//go:build !nohttp

package api

import (
	"io"

	"github.com/schedlab/schedlab/sim/results"
)

// writeOutput writes a run's output one job record at a time, so that an
// answer over the limit stops there (see answer).
func writeOutput(w io.Writer, o results.Output) error { return results.WriteOutput(w, o) }
