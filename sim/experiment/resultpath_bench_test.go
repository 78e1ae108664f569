package experiment_test

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/schedlab/schedlab/internal/cputime"
	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
)

// fifoScenario is FIFO on n Poisson jobs and 1,024 GPUs (128 servers × 8)
// at about 90% load: Gavel's GPU-count mix and exponential run times with
// a mean of one hour, as the engine's 100,000-job benchmark.
func fifoScenario(tb testing.TB, n int) *scenario.Scenario {
	tb.Helper()
	doc := fmt.Sprintf(`{"name": "fifo-%d", "title": "FIFO on %d jobs",
	 "cluster": {"servers": [{"count": 128, "gpus": 8, "gpu_type": "V100", "gpu_memory_gb": 32}]},
	 "workload": {"generator": {"kind": "poisson", "jobs": %d, "jobs_per_hour": 480,
	   "gpu_mix": [{"gpus": 1, "weight": 0.7}, {"gpus": 2, "weight": 0.1}, {"gpus": 4, "weight": 0.15}, {"gpus": 8, "weight": 0.05}],
	   "duration": {"dist": "exponential", "mean_s": 3600, "min_s": 60},
	   "models": [{"model": "resnet50", "weight": 2}, {"model": "bert", "weight": 1}, {"model": "yolov3", "weight": 1}, {"model": "ncf", "weight": 1}]}},
	 "policies": [{"name": "fifo"}], "seeds": [1]}`, n, n, n)
	sc, err := scenario.Parse([]byte(doc))
	if err != nil {
		tb.Fatal(err)
	}
	return sc
}

// heapPeak samples the heap in use until stop is called and returns the
// largest value seen, in MB.
func heapPeak() (stop func() float64) {
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	sample := func() {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		if m.HeapInuse > peak.Load() {
			peak.Store(m.HeapInuse)
		}
	}
	go func() {
		defer wg.Done()
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				sample()
			}
		}
	}()
	return func() float64 {
		close(done)
		wg.Wait()
		sample()
		return float64(peak.Load()) / (1 << 20)
	}
}

// runFIFO is the command line's result path for one run: build, simulate,
// summarise, then write the report (table or JSON).
func runFIFO(b *testing.B, sc *scenario.Scenario, jobs int, asJSON bool) {
	b.Helper()
	var peak float64
	var cpu time.Duration
	for range b.N {
		runtime.GC()
		stop := heapPeak()
		cpu0 := cputime.Process()
		rep, err := experiment.Execute(context.Background(), sc, experiment.Options{Workers: 1, StreamAbove: experiment.DefaultStreamAbove})
		if err != nil {
			b.Fatal(err)
		}
		if r := rep.Runs[0]; r.Err != nil || r.Summary.Finished != jobs {
			b.Fatalf("%v, %d of %d finished", r.Err, r.Summary.Finished, jobs)
		}
		if asJSON {
			if err := results.WriteOutput(io.Discard, rep.Output(1)); err != nil {
				b.Fatal(err)
			}
		} else {
			rep.Table(io.Discard)
		}
		cpu += cputime.Process() - cpu0
		peak = max(peak, stop())
	}
	b.ReportMetric(peak, "peak-heap-MB")
	// CPU seconds per run: on a shared machine the steadier measure
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
}

// BenchmarkFIFO100kWholePath is the 100,000-job row: the whole
// result path of `schedlab run` with its table (target: the whole CLI
// process under 0.5 s of CPU natively), and with its JSON.
func BenchmarkFIFO100kWholePath(b *testing.B) {
	sc := fifoScenario(b, 100_000)
	b.Run("table", func(b *testing.B) { runFIFO(b, sc, 100_000, false) })
	b.Run("json", func(b *testing.B) { runFIFO(b, sc, 100_000, true) })
}

// BenchmarkFIFO1MStreaming is the 1,000,000-job row, in streaming
// mode (target: under 400 MB and 4 s of CPU natively). Skipped under
// -short.
func BenchmarkFIFO1MStreaming(b *testing.B) {
	if testing.Short() {
		b.Skip("1,000,000 jobs: skipped under -short")
	}
	runFIFO(b, fifoScenario(b, 1_000_000), 1_000_000, false)
}
