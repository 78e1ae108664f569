//go:build !js

package e2e

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/schedlab/schedlab/sim/policy/script"
)

// speedDoc is sim/policy/script's benchmark workload: n Poisson jobs on
// 64 GPUs at about 90% load, with the given policies.
func speedDoc(n int, pols ...any) string {
	p, _ := json.Marshal(pols)
	return fmt.Sprintf(`{"name": "bench", "cluster": {"servers": [{"count": 16, "gpus": 4, "gpu_type": "V100"}]},
		"workload": {"generator": {"kind": "poisson", "jobs": %d, "jobs_per_hour": 30,
			"gpu_mix": [{"gpus": 1, "weight": 0.5}, {"gpus": 2, "weight": 0.2}, {"gpus": 4, "weight": 0.2}, {"gpus": 8, "weight": 0.1}],
			"duration": {"dist": "lognormal", "mean_s": 3000, "sigma": 1.0, "min_s": 60}}},
		"policies": %s}`, n, p)
}

// workerRunJS runs policy i of a scenario in a fresh engine worker of the
// page and resolves to the worker's time and the results' JSON.
const workerRunJS = `(doc, i) => new Promise((resolve, reject) => {
	const w = window.schedlab.newWorker();
	w.onmessage = (e) => {
		const m = e.data;
		if (m.type === "ready") {
			w.postMessage({ type: "run", id: 1, json: JSON.stringify({ document: doc, policy: i, figures: [] }) });
		} else if (m.type === "result") {
			const r = JSON.parse(m.json);
			w.terminate();
			resolve({ ms: r.elapsed_ms, output: JSON.stringify(r.output) });
		} else if (m.type === "error" || m.type === "exit") {
			w.terminate();
			reject(new Error(m.json));
		}
	};
})`

type workerRun struct {
	MS     float64 `json:"ms"`
	Output string  `json:"output"`
}

// A priority script against the built-in SJF on 10,000 jobs, and the
// decide examples on growing workloads, in the page's engine workers in
// Chromium: the figures of docs/scripts.md. The script gives SJF's
// metrics exactly; the times are logged (a shared machine makes them
// noisy: compare the ratio, measured in one run, alternating).
func TestScriptSpeedInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 10,000-job scenarios in Chromium (minutes)")
	}
	dir := site(t)
	srv := serve(t, dir)
	ctx, cancel := browser(t, 20*time.Minute)
	defer cancel()
	p := &page{t: t, ctx: ctx}
	p.do(chromedp.Navigate(srv.URL + "/"))
	p.started()
	run := func(doc string, i int) workerRun {
		t.Helper()
		data, _ := json.Marshal(doc)
		return eval[workerRun](p, fmt.Sprintf(`(%s)(%s, %d)`, workerRunJS, data, i))
	}
	metrics := func(out string) string {
		var o struct {
			Results []struct{ Metrics json.RawMessage }
		}
		if err := json.Unmarshal([]byte(out), &o); err != nil || len(o.Results) != 1 {
			t.Fatalf("results: %v %.200s", err, out)
		}
		return string(o.Results[0].Metrics)
	}
	doc := speedDoc(10_000, map[string]any{"name": "sjf"},
		map[string]any{"name": "script", "params": map[string]any{"source": "def priority(job, now):\n    return job.solo_s\n"}})
	var sjf, scr []float64
	for range 2 {
		a, b := run(doc, 0), run(doc, 1)
		if ma, mb := metrics(a.Output), metrics(b.Output); ma != mb {
			t.Errorf("the script's metrics differ from SJF's:\n%s\n%s", mb, ma)
		}
		sjf, scr = append(sjf, a.MS), append(scr, b.MS)
	}
	best := func(xs []float64) float64 { return min(xs[0], xs[1]) }
	t.Logf("10,000 jobs in Chromium: sjf %.0f ms, script %.0f ms (best of %v and %v): %.1f× sjf",
		best(sjf), best(scr), sjf, scr, best(scr)/best(sjf))
	for _, name := range []string{"las-decide", "fairshare"} {
		var ex script.Example
		for _, e := range script.Examples {
			if e.Name == name {
				ex = e
			}
		}
		for _, n := range []int{500, 1000, 2000, 4000} {
			r := run(speedDoc(n, map[string]any{"name": "script", "params": ex.Params()}), 0)
			metrics(r.Output)
			t.Logf("%s, %d jobs in Chromium: %.1f s", name, n, r.MS/1000)
			if r.MS > 30_000 {
				break
			}
		}
	}
}
