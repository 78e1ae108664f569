//go:build !js

package e2e

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/doc"
)

// streamedJobs is the size of TestStreamedRunInBrowser's run: just above
// the streaming threshold, so that CI stays short;
// SCHEDLAB_STREAM_JOBS=1000000 measures the million-job run.
func streamedJobs(t *testing.T) int {
	n := experiment.DefaultStreamAbove + 1
	if s := os.Getenv("SCHEDLAB_STREAM_JOBS"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v <= experiment.DefaultStreamAbove {
			t.Fatalf("SCHEDLAB_STREAM_JOBS=%q: want a number above %d", s, experiment.DefaultStreamAbove)
		}
		n = v
	}
	return n
}

// fifoLink is a share fragment of FIFO on n Poisson jobs and 1,024 GPUs at
// about 90% load (the scenario of sim/experiment's FIFO benchmarks).
func fifoLink(t *testing.T, n int) string {
	t.Helper()
	tree, err := doc.Parse(fmt.Appendf(nil, `{"name": "fifo-%d", "title": "FIFO on %d jobs",
	 "cluster": {"servers": [{"count": 128, "gpus": 8, "gpu_type": "V100", "gpu_memory_gb": 32}]},
	 "workload": {"generator": {"kind": "poisson", "jobs": %d, "jobs_per_hour": 480,
	   "gpu_mix": [{"gpus": 1, "weight": 0.7}, {"gpus": 2, "weight": 0.1}, {"gpus": 4, "weight": 0.15}, {"gpus": 8, "weight": 0.05}],
	   "duration": {"dist": "exponential", "mean_s": 3600, "min_s": 60},
	   "models": [{"model": "resnet50", "weight": 2}, {"model": "bert", "weight": 1}, {"model": "yolov3", "weight": 1}, {"model": "ncf", "weight": 1}]}},
	 "policies": [{"name": "fifo"}]}`, n, n, n))
	if err != nil {
		t.Fatal(err)
	}
	return app.EncodeShare(tree)
}

// A run above the streaming threshold streams in the engine worker: the
// page shows progress while it runs, then the metrics (every job done),
// the JCT CDF drawn from the run's thinned CDF, and says in words that the
// run streamed and what it does not show; the timeline opens without job
// records and nothing logs an error.
func TestStreamedRunInBrowser(t *testing.T) {
	n := streamedJobs(t)
	dir := site(t)
	srv := serve(t, dir)
	ctx, cancel := browser(t, 15*time.Minute)
	defer cancel()
	errs := consoleErrors(ctx)
	p := &page{t: t, ctx: ctx}
	p.do(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL+"/#"+fifoLink(t, n)))
	time.Sleep(time.Second) // the page has started
	p.wait(`!!document.getElementById("note-size") && !document.getElementById("run").disabled`, statusJS, 30*time.Second)

	start := time.Now()
	p.click("run")
	p.wait(`!!document.getElementById("progress-text")`, statusJS, 30*time.Second)
	p.wait(`!document.getElementById("cancel") && !!document.getElementById("metrics")`, statusJS, 10*time.Minute)
	took := time.Since(start)
	p.wait(`(document.getElementById("results-notices") || {textContent: ""}).textContent.includes("FIFO streamed")`,
		`(document.getElementById("results-notices") || {textContent: "no notices in the results"}).textContent + " | " + `+statusJS, 10*time.Second)
	notice := p.text("results-notices")
	for _, want := range []string{results.Thousands(n) + " jobs are more than the 200,000", "Jobs CSV", "are not shown"} {
		if !strings.Contains(notice, want) {
			t.Errorf("notice %q does not say %q", notice, want)
		}
	}
	if done := eval[string](p, `document.querySelector("#metrics tbody tr td:last-child").textContent`); done != results.Thousands(n)+" of "+results.Thousands(n) {
		t.Errorf("jobs done: %q", done)
	}
	if line := eval[string](p, `document.querySelector(".intro .muted").textContent`); !strings.Contains(line, results.Thousands(n)+" jobs each") {
		t.Errorf("run line: %q", line)
	}
	p.wait(`(() => { const i = document.getElementById("plot-jct_cdf"); return !!i && i.complete && i.naturalWidth > 0; })()`, statusJS, time.Minute)
	heap := eval[float64](p, `performance.memory ? performance.memory.usedJSHeapSize / 1048576 : -1`)
	t.Logf("%d jobs streamed in the page: %.1f s from Run to results; page's JS heap %.0f MB", n, took.Seconds(), heap)
	p.shot("streamed", 1280, 800)
	p.shot("streamed", 390, 844)

	p.click("tab-timeline")
	p.wait(`document.body.textContent.includes("This run streamed")`, statusJS, 10*time.Second)
	p.shot("streamed-timeline", 1280, 800)
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(e, "\n"))
	}
}
