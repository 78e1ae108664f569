//go:build !js

package main

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/api"
	"github.com/schedlab/schedlab/sim/api/apitest"
	"github.com/schedlab/schedlab/sim/scenario"
)

// TestEdgeSpeedup times a study run through 1, 2 and 4 workerd processes
// (one request at a time each: a Go instance holds its isolate's one
// thread while it simulates). It is a measurement, not a check, so it
// runs only when SCHEDLAB_EDGE_SPEEDUP names the study, e.g.
// SCHEDLAB_EDGE_SPEEDUP=sjf-bsbf-fig6a (add :quick for the quick version).
func TestEdgeSpeedup(t *testing.T) {
	name := os.Getenv("SCHEDLAB_EDGE_SPEEDUP")
	if name == "" {
		t.Skip("a measurement: set SCHEDLAB_EDGE_SPEEDUP=STUDY[:quick] to run it")
	}
	quick := false
	if n, ok := strings.CutSuffix(name, ":quick"); ok {
		name, quick = n, true
	}
	data, ok := scenarios.Read(name)
	if !ok {
		t.Fatalf("no built-in scenario %s", name)
	}
	sc, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	bin, dir := findWorkerd(t), bundle(t)
	var urls []string
	for range 4 {
		base, stop := startWorkerd(t, bin, dir)
		defer stop()
		urls = append(urls, base)
	}
	start := time.Now()
	apitest.RemoteMatchesLocal(t, urls[:1], name, quick, 1)
	t.Logf("local run and the check of identical output through 1 process: %s", time.Since(start).Round(time.Millisecond))
	var first time.Duration
	for _, n := range []int{1, 2, 4} {
		start := time.Now()
		if _, _, err := api.RunRemote(context.Background(), sc, quick, api.RemoteOptions{URLs: urls[:n], Parallel: n}); err != nil {
			t.Fatal(err)
		}
		took := time.Since(start)
		if n == 1 {
			first = took
		}
		t.Logf("%s through %d workerd process(es): %s, speed-up %.2f", name, n, took.Round(time.Millisecond), first.Seconds()/took.Seconds())
	}
}
