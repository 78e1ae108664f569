package main

import (
	"bytes"
	"testing"

	"github.com/schedlab/schedlab/internal/cputime"
)

// BenchmarkGavelStudiesFull is issue 16's last row: every Gavel figure in
// full (1,293 runs) on 2 workers, as `schedlab reproduce --paper gavel
// --parallel 2 --formats svg` runs them (target: under 15 minutes on 2
// cores). It takes about a quarter of an hour; make bench runs it once.
func BenchmarkGavelStudiesFull(b *testing.B) {
	cpu0 := cputime.Process()
	for range b.N {
		var out, errOut bytes.Buffer
		args := []string{"reproduce", "--paper", "gavel", "--parallel", "2", "--formats", "svg", "--out", b.TempDir()}
		if code := dispatch(args, &out, &errOut); code != exitOK {
			b.Fatalf("exit %d: %s", code, errOut.String())
		}
		b.Log(out.String())
	}
	b.ReportMetric((cputime.Process()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
}
