package experiment

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/scenario"
)

// The command line's table runs record no decision log and no per-GPU
// intervals (NoLog, NoGPUIntervals): every summary must be the one a
// run that records them gives, for every kind of policy (sharing, the
// Gavel family's rounds and linear programs, OJPP's placement, Tesserae's
// matching, Pollux, SJF-BCO), since a policy may ask the engine whether
// it logs.
func TestRunsWithoutLogSummariseAlike(t *testing.T) {
	var names []string
	for _, n := range scenarios.Names() {
		if strings.HasPrefix(n, "learn-") || strings.HasPrefix(n, "compare-") {
			names = append(names, n)
		}
	}
	names = append(names, "fifo-vs-sjf", "gavel-small", "ojpp-online", "head-of-line", "sjf-bsbf-table4")
	policies := map[string]bool{}
	for _, name := range names {
		doc, ok := scenarios.Read(name)
		if !ok {
			t.Fatalf("no built-in scenario %q", name)
		}
		sc, err := scenario.Parse(doc)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		seeds := sc.RunSeeds()[:1]
		full, err := Execute(context.Background(), sc, Options{Seeds: seeds})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		bare, err := Execute(context.Background(), sc, Options{Seeds: seeds, NoLog: true, NoGPUIntervals: true})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i, r := range full.Runs {
			b := bare.Runs[i]
			policies[r.Policy] = true
			if r.Err != nil || b.Err != nil {
				t.Fatalf("%s %s: %v / %v", name, r.Policy, r.Err, b.Err)
			}
			if len(r.Result.Log) == 0 || len(b.Result.Log) != 0 || len(b.Result.Intervals) != 0 {
				t.Errorf("%s %s: %d and %d log entries, %d intervals without them, want some, none and none", name, r.Policy, len(r.Result.Log), len(b.Result.Log), len(b.Result.Intervals))
			}
			if !reflect.DeepEqual(r.Summary, b.Summary) || !reflect.DeepEqual(r.ByModel, b.ByModel) {
				t.Errorf("%s %s: summaries differ without the log:\n%+v\n%+v", name, r.Policy, r.Summary, b.Summary)
			}
		}
	}
	t.Logf("%d policies in %d scenarios: %v", len(policies), len(names), policies)
}
