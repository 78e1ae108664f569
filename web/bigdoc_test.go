package web

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/schedlab/schedlab/sim/trace"
	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/app/apptest"
	"github.com/schedlab/schedlab/web/protocol"
)

// BenchmarkRenderPhilly renders the editor holding the imported Philly
// log (74,426 jobs), as the page does once it has opened it.
func BenchmarkRenderPhilly(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "..", "shared", "data", "pollux", "traces", "philly.csv"))
	if err != nil {
		b.Skipf("the Philly log is not available: %v", err)
	}
	req := protocol.ImportRequest{Name: "philly.csv", Format: trace.Detect("philly.csv", data[:4096]),
		Options: trace.Options{Seed: 1, Scale: 1}, Scenario: "philly"}
	im := protocol.ImportTrace(req, data)
	a := app.New(apptest.New(b))
	a.Import("philly.csv", im.Document)
	a.SetTab(app.TabScenario)
	b.ResetTimer()
	for range b.N {
		renderTB(b, a)
	}
}
