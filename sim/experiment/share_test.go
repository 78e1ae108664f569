package experiment

import (
	"context"
	"math"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/metrics"
	"github.com/schedlab/schedlab/sim/scenario"
)

// shareDoc is a study of FIFO and SJF under load; first and second differ
// in their names, labels, checks and what they measure per model, and
// the second lists SJF with its default parameters spelled out.
func shareDoc(name, policies, checks string) string {
	return `{"name": "` + name + `", "title": "FIFO and SJF against load",
	 "cluster": {"servers": [{"count": 2, "gpus": 4, "gpu_type": "V100"}]},
	 "workload": {"generator": {"kind": "poisson", "jobs": 60, "jobs_per_hour": 20,
	   "gpu_mix": [{"gpus": 1, "weight": 3}, {"gpus": 4, "weight": 1}],
	   "duration": {"dist": "lognormal", "mean_s": 1800, "sigma": 1.2},
	   "models": [{"model": "m", "weight": 2}, {"model": "n", "weight": 1}]}},
	 "policies": ` + policies + `,
	 "seeds": [1, 2],
	 "measure": {"jobs_from": 10, "jobs_to": 50},
	 "sweep": {"label": "load", "values": [0.5, 1, 2], "scale": ["workload.generator.jobs_per_hour"]},
	 "checks": ` + checks + `}`
}

// TestRunShareSameOutput: a study that copies an earlier study's
// identical runs gives the same output as one that runs them, and runs
// only the runs that differ.
func TestRunShareSameOutput(t *testing.T) {
	first := shareDoc("first", `[{"name": "fifo"}, {"name": "sjf"}]`,
		`[{"id": "grows", "description": "FIFO's JCT grows", "kind": "trend", "metric": "avg_jct_s", "num": {"policy": "FIFO"}, "direction": "increasing"}]`)
	second := shareDoc("second", `[{"name": "sjf", "label": "Shortest first", "params": {"backfill": true}}, {"name": "fifo", "label": "No backfill", "params": {"backfill": false}}]`,
		`[{"id": "models", "description": "per model", "kind": "order", "metric": "avg_queue_s", "x": 1, "policies": ["Shortest first", "No backfill"], "groups": ["model:m", "model:n"], "at_least": 1},
		  {"id": "ratio", "description": "SJF against FIFO", "kind": "ratio", "metric": "makespan_s", "x": 2, "num": {"policy": "Shortest first"}, "den": {"policy": "No backfill"}, "max": 2}]`)
	a, b := mustParse(t, first), mustParse(t, second)
	var mu sync.Mutex
	ran := map[int]bool{} // runs that reported progress
	count := func(p Progress) {
		mu.Lock()
		ran[p.Run] = true
		mu.Unlock()
	}
	copied, alone := runShared(t, a, b, count)
	if got := copied.Copied["first"]; got != 6 {
		t.Errorf("copied %d runs from the first study, want 6", got)
	}
	if n := len(ran); n != 6 {
		t.Errorf("the second study ran %d runs with the share, want 6 (the FIFO ones without backfill)", n)
	}
	if x, y := studyJSON(t, copied), studyJSON(t, alone); x != y {
		t.Errorf("outputs differ:\ncopied: %s\nalone:  %s", x, y)
	}
	if !strings.Contains(studyJSON(t, copied), "Shortest first") {
		t.Errorf("a copied run lost its own label")
	}
}

// peerRatio is a metric that reads peers: the mean, over measured
// finished jobs, of a job's JCT over its JCT in the first peer's run.
func peerRatio(c metrics.Context) float64 {
	if len(c.Peers) == 0 {
		return math.NaN()
	}
	peer := c.Peers[0].Jobs
	sum, n := 0.0, 0
	for _, r := range c.Selected {
		if int(r.Job) < len(peer) && r.Status == engine.Finished && peer[r.Job].Status == engine.Finished && peer[r.Job].JCT() > 0 {
			sum += r.JCT() / peer[r.Job].JCT()
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

func init() {
	metrics.RegisterPeers(metrics.Def{Name: "test_peer_ratio", Doc: "a test's metric that reads peers", Fn: peerRatio})
}

// TestRunShareWithPeers: a study whose metrics compare its runs with each
// other copies runs too, serving a copy's job records to the other runs
// and computing the copy's own values against them, with the same output
// as the study run alone.
func TestRunShareWithPeers(t *testing.T) {
	first := shareDoc("first", `[{"name": "fifo"}, {"name": "sjf"}]`,
		`[{"id": "grows", "description": "FIFO's JCT grows", "kind": "trend", "metric": "avg_jct_s", "num": {"policy": "FIFO"}, "direction": "increasing"}]`)
	second := shareDoc("second", `[{"name": "fifo", "label": "No backfill", "params": {"backfill": false}}, {"name": "sjf", "label": "Shortest first"}]`,
		`[{"id": "a", "description": "against SJF", "kind": "value", "metric": "test_peer_ratio", "x": 2, "of": {"policy": "No backfill"}, "target": 1, "tolerance": 10},
		  {"id": "b", "description": "against FIFO", "kind": "value", "metric": "test_peer_ratio", "x": 2, "of": {"policy": "Shortest first"}, "target": 1, "tolerance": 10}]`)
	copied, alone := runShared(t, mustParse(t, first), mustParse(t, second), nil)
	if got := copied.Copied["first"]; got != 6 {
		t.Errorf("copied %d runs from the first study, want 6", got)
	}
	if x, y := studyJSON(t, copied), studyJSON(t, alone); x != y {
		t.Errorf("outputs differ:\ncopied: %s\nalone:  %s", x, y)
	}
	for _, pol := range []string{"No backfill", "Shortest first"} {
		x := 2.0
		if v := copied.Value(scenario.Quantity{Policy: pol, Metric: "test_peer_ratio", X: &x}); v.Err != nil || math.IsNaN(v.Mean) {
			t.Errorf("%s against its peer: %v, %v", pol, v.Mean, v.Err)
		}
	}
}

// runShared runs study a, then b copying what it can from a (reporting
// b's progress to progress), then b alone.
func runShared(t *testing.T, a, b *scenario.Scenario, progress func(Progress)) (copied, alone *Study) {
	t.Helper()
	share, err := NewRunShare([]*scenario.Scenario{a, b}, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := share.Shared(); got != 6 { // SJF at 3 loads × 2 seeds
		t.Fatalf("%d runs planned to be copied, want 6", got)
	}
	if _, err := RunStudy(context.Background(), a, StudyOptions{Workers: 2, Compact: true, Share: share}); err != nil {
		t.Fatal(err)
	}
	if copied, err = RunStudy(context.Background(), b, StudyOptions{Workers: 2, Compact: true, Share: share, Progress: progress}); err != nil {
		t.Fatal(err)
	}
	if alone, err = RunStudy(context.Background(), b, StudyOptions{Workers: 2, Compact: true}); err != nil {
		t.Fatal(err)
	}
	return copied, alone
}

func mustParse(t *testing.T, doc string) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// TestRunCPUEveryRunOnce: StudyOptions.RunCPU hears of every run the
// study simulates once, never of a run it copies, and does not change the
// study's output.
func TestRunCPUEveryRunOnce(t *testing.T) {
	// Runs long enough to be seen: a thread's CPU time is counted in
	// scheduler ticks (4 ms here), and six runs of 60 jobs take less.
	long := func(doc string) string { return strings.Replace(doc, `"jobs": 60,`, `"jobs": 3000,`, 1) }
	a := mustParse(t, long(shareDoc("first", `[{"name": "fifo"}, {"name": "sjf"}]`, `[]`)))
	b := mustParse(t, long(shareDoc("second", `[{"name": "sjf", "label": "Shortest first"}, {"name": "fifo", "label": "No backfill", "params": {"backfill": false}}]`, `[]`)))
	share, err := NewRunShare([]*scenario.Scenario{a, b}, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := RunStudy(context.Background(), a, StudyOptions{Workers: 2, Compact: true, Share: share}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	heard := map[*Run]int{}
	var total time.Duration
	st, err := RunStudy(context.Background(), b, StudyOptions{Workers: 2, Compact: true, Share: share, RunCPU: func(r *Run, cpu time.Duration) {
		mu.Lock()
		heard[r]++
		total += cpu
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	simulated := 0
	for _, p := range st.Points {
		for _, r := range p.Report.Runs {
			switch n := heard[r]; {
			case r.sharedFrom != "" && n != 0:
				t.Errorf("%s seed %d was copied but heard of %d times", r.label(), r.Seed, n)
			case r.sharedFrom == "" && n != 1:
				t.Errorf("%s seed %d was simulated but heard of %d times", r.label(), r.Seed, n)
			}
			if r.sharedFrom == "" {
				simulated++
			}
		}
	}
	if simulated != 6 || len(heard) != simulated {
		t.Errorf("heard of %d runs, %d simulated, want 6", len(heard), simulated)
	}
	if runtime.GOOS == "linux" && total <= 0 {
		t.Errorf("the runs took %v of CPU", total)
	}
	alone, err := RunStudy(context.Background(), b, StudyOptions{Workers: 2, Compact: true})
	if err != nil {
		t.Fatal(err)
	}
	if x, y := studyJSON(t, st), studyJSON(t, alone); x != y {
		t.Errorf("outputs differ with RunCPU:\nwith:    %s\nwithout: %s", x, y)
	}
}
