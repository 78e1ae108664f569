package engine_test

import (
	"context"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy/fifo"
	"github.com/schedlab/schedlab/sim/policy/sjf"
	"github.com/schedlab/schedlab/sim/workload"
)

// bigTrace is 100,000 Poisson jobs on 1,024 GPUs (128 servers × 8) at about
// 90% load: Gavel's GPU-count mix (mean 1.9 GPUs) and exponential run times
// with a mean of one hour, so 480 jobs/h offer 912 of 1,024 GPUs.
func bigTrace(b *testing.B) (*cluster.Cluster, []workload.Job, perf.Model) {
	b.Helper()
	c := mkCluster(b, 128, 8, 32)
	p := workload.DefaultPoissonParams()
	p.Jobs, p.JobsPerHour = 100_000, 480
	p.GPUMix = []workload.ScaleShare{{GPUs: 1, Weight: 0.7}, {GPUs: 2, Weight: 0.1}, {GPUs: 4, Weight: 0.15}, {GPUs: 8, Weight: 0.05}}
	p.Duration = workload.DurationDist{Dist: "exponential", MeanS: 3600, MinS: 60}
	jobs, err := workload.NewPoisson(*p).Generate(1)
	if err != nil {
		b.Fatal(err)
	}
	m := perf.NewConstant(perf.ConstantParams{})
	if err := m.Prepare(c, jobs); err != nil {
		b.Fatal(err)
	}
	return c, jobs, m
}

func benchPolicy(b *testing.B, mk func() engine.Policy) { benchRun(b, mk, false) }

// benchRun runs the trace, keeping the jobs' stories when stories is set
// (as the page asks).
func benchRun(b *testing.B, mk func() engine.Policy, stories bool) {
	c, jobs, m := bigTrace(b)
	var events int64
	var notes int
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := engine.Run(context.Background(), engine.Config{Cluster: c, Jobs: jobs, Perf: m, Policy: mk(), Stories: stories})
		if err != nil {
			b.Fatal(err)
		}
		if res.Stats.FinishedJobs != len(jobs) {
			b.Fatalf("%d of %d jobs finished", res.Stats.FinishedJobs, len(jobs))
		}
		events = res.Stats.Events
		notes = len(res.Story) + int(res.Stats.DroppedNotes)
	}
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	if stories {
		b.ReportMetric(float64(notes), "notes")
	}
}

// BenchmarkFIFO100kJobs1024GPUs is the target: under 2 s natively,
// under 6 s in wasm under node.
func BenchmarkFIFO100kJobs1024GPUs(b *testing.B) {
	benchPolicy(b, func() engine.Policy { return fifo.New(fifo.Params{Backfill: true}) })
}

func BenchmarkSJF100kJobs1024GPUs(b *testing.B) {
	benchPolicy(b, func() engine.Policy { return sjf.New(sjf.Params{Key: "duration", Backfill: true}) })
}

// The same runs keeping every job's story: the cost of the page's
// records, to compare with the runs above in one go (-bench 100k).
func BenchmarkFIFO100kJobs1024GPUsStories(b *testing.B) {
	benchRun(b, func() engine.Policy { return fifo.New(fifo.Params{Backfill: true}) }, true)
}

func BenchmarkSJF100kJobs1024GPUsStories(b *testing.B) {
	benchRun(b, func() engine.Policy { return sjf.New(sjf.Params{Key: "duration", Backfill: true}) }, true)
}
