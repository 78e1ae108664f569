//go:build nohttp

package api

import (
	"io"

	"github.com/schedlab/schedlab/sim/results"
)

// writeOutput encodes a run's output whole, with encoding/json, which the
// build links anyway: results.WriteOutput, which writes it a record at a
// time, would add about 70 KB of code to the Workers bundle (see the
// package comment), whose instances serve one request each under the
// runtime's own memory limit. The bytes are the same (results'
// TestWriteOutputMatchesEncodingJSON), and the answer limit still applies:
// checkAnswer refuses an answer certain to be over it before the run, and
// answer refuses the encoded output over it.
func writeOutput(w io.Writer, o results.Output) error { return writeJSON(w, o) }
