package tiresias

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

// overloaded returns n jobs shaped like the Philly log (mostly one GPU,
// run times from minutes to days) arriving about four times faster than
// 64 GPUs can serve them, so that the queue grows to thousands of jobs.
func overloaded(n int, seed uint64) []workload.Job {
	r := rand.New(rand.NewPCG(seed, 16))
	jobs := make([]workload.Job, n)
	t := 0.0
	for i := range jobs {
		gpus := []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 4, 8, 16}[r.IntN(20)]
		mean := []float64{600, 600, 1800, 7200, 36000}[r.IntN(5)] / float64(gpus)
		jobs[i] = workload.Job{Name: fmt.Sprintf("j%d", i), Model: "m", GPUs: gpus,
			ArrivalS: t, DurationS: 60 + mean*r.ExpFloat64()}
		t += 35 * r.ExpFloat64()
	}
	return jobs
}

// runBench runs jobs on 16 servers of 4 GPUs under p and returns the result.
func runBench(tb testing.TB, p Params, jobs []workload.Job, noLog bool) *engine.Result {
	tb.Helper()
	c, err := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{{Count: 16, GPUs: 4, GPUType: "V100"}}})
	if err != nil {
		tb.Fatal(err)
	}
	jobs, err = workload.Finalize(jobs)
	if err != nil {
		tb.Fatal(err)
	}
	m := perf.NewConstant(perf.ConstantParams{})
	if err := m.Prepare(c, jobs); err != nil {
		tb.Fatal(err)
	}
	res, err := engine.Run(context.Background(), engine.Config{Cluster: c, Jobs: jobs, Perf: m, Policy: New(p), NoLog: noLog})
	if err != nil {
		tb.Fatal(err)
	}
	return res
}

func defaults() Params {
	return Params{ThresholdsGPUH: []float64{16}, RoundS: 60, RestartS: 30, QueueOrder: "arrival"}
}

func benchOverloaded(b *testing.B, n int) {
	jobs := overloaded(n, 1)
	b.ResetTimer()
	for range b.N {
		res := runBench(b, defaults(), jobs, true)
		b.ReportMetric(float64(res.Stats.Events), "events")
	}
}

// Tiresias on 20,000 jobs that overload 64 GPUs: queues of thousands of
// jobs, a round every 60 s (the whole Philly log is 74,426 jobs).
func BenchmarkOverloaded20000Jobs64GPUs(b *testing.B) { benchOverloaded(b, 20000) }

// The first 5,000 of those jobs: a shorter queue, for before/after
// comparisons with the sort of every active job at every round.
func BenchmarkOverloaded5000Jobs64GPUs(b *testing.B) { benchOverloaded(b, 5000) }
