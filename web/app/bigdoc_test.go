package app_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/schedlab/schedlab/sim/trace"
	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/app/apptest"
	"github.com/schedlab/schedlab/web/protocol"
)

// phillyDocument is the scenario the page's import of the whole Philly
// log gives (74,426 jobs), read as an engine worker reads it.
func phillyDocument(tb testing.TB) string {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "data", "pollux", "traces", "philly.csv"))
	if err != nil {
		tb.Skipf("the Philly log is not available: %v", err) // a clone of the project alone has no ../shared
	}
	req := protocol.ImportRequest{Name: "philly.csv", Format: trace.Detect("philly.csv", data[:4096]),
		Options: trace.Options{Seed: 1, Scale: 1}, Scenario: "philly"}
	im := protocol.ImportTrace(req, data)
	if im.Err != "" {
		tb.Fatal(im.Err)
	}
	return im.Document
}

// renderEditor asks the editor what the Scenario tab's render asks.
func renderEditor(a *app.App) {
	e := a.Ed
	_ = e.JobRows()
	_ = e.Unplaced("workload")
	_ = e.Unplaced("")
	_ = e.AllProblems()
	_ = e.JobPages()
	_ = e.ClusterSummary()
	_ = e.WorkloadModels()
	_, _ = a.Builtin()
}

// BenchmarkOpenPhilly opens the imported Philly log in the editor the way
// the page does when the worker's reply arrives (App.Import: parse,
// validate, store), then asks what the editor's render asks.
func BenchmarkOpenPhilly(b *testing.B) {
	text := phillyDocument(b)
	b.ResetTimer()
	cpu := processCPU()
	defer func() { b.ReportMetric(float64(processCPU()-cpu)/float64(b.N)/1e9, "cpu-s/op") }()
	for range b.N {
		a := app.New(apptest.New(b))
		a.Import("philly.csv", text)
		if !a.Ed.Valid() {
			b.Fatalf("problems %v", a.Ed.Problems)
		}
		a.SetTab(app.TabScenario)
		renderEditor(a)
	}
}
