package sharing

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy/policytest"
	"github.com/schedlab/schedlab/sim/workload"
)

// overloaded returns n jobs shaped like the Philly log as schedlab imports
// it (mostly one GPU, run times from minutes to days, Pollux's tasks by
// GPU-hours) arriving about four times faster than 64 GPUs can serve
// them, so that the queue grows to thousands of jobs.
func overloaded(n int, seed uint64) []workload.Job {
	r := rand.New(rand.NewPCG(seed, 16))
	jobs := make([]workload.Job, n)
	t := 0.0
	for i := range jobs {
		gpus := []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 4, 8, 16}[r.IntN(20)]
		d := 60 + []float64{600, 600, 1800, 7200, 36000}[r.IntN(5)]/float64(gpus)*r.ExpFloat64()
		gpuH := d * float64(gpus) / 3600
		var model string
		switch {
		case gpuH < 1:
			model = []string{"cifar10", "ncf"}[r.IntN(2)]
		case gpuH < 10:
			model = []string{"deepspeech2", "bert"}[r.IntN(2)]
		case gpuH < 100:
			model = "yolov3"
		default:
			model = "imagenet"
		}
		jobs[i] = workload.Job{Name: fmt.Sprintf("j%d", i), Model: model, GPUs: gpus, ArrivalS: t, DurationS: d}
		t += 35 * r.ExpFloat64()
	}
	return jobs
}

// runScale runs jobs on the SJF-BSBF paper's 16 × 4 RTX 2080 Ti (11 GB)
// under the default analytic model.
func runScale(tb testing.TB, jobs []workload.Job, p engine.Policy, paranoid bool) *engine.Result {
	tb.Helper()
	c := mustCluster(tb, 16, 4, 11)
	m := mustAnalytic(tb, perf.DefaultAnalyticParams(), c)
	opts := []policytest.Option{policytest.FullLog()}
	if !paranoid {
		opts = append(opts, policytest.Bench())
	}
	return policytest.Run(tb, c, m, p, jobs, opts...).Result
}

func benchScale(b *testing.B, n int, newPolicy func() engine.Policy) {
	jobs := overloaded(n, 1)
	b.ResetTimer()
	for range b.N {
		res := runScale(b, jobs, newPolicy(), false)
		b.ReportMetric(float64(res.Stats.Events), "events")
	}
}

// SJF-BSBF on 20,000 jobs that overload 64 GPUs: a queue of thousands of
// jobs, each pass at an arrival or completion walks it (the whole Philly
// log is 74,426 jobs).
func BenchmarkBSBFOverloaded20000Jobs64GPUs(b *testing.B) {
	benchScale(b, 20000, func() engine.Policy { return NewBSBF(DefaultBSBFParams()) })
}

// SJF-FFS on the same jobs.
func BenchmarkFFSOverloaded20000Jobs64GPUs(b *testing.B) {
	benchScale(b, 20000, func() engine.Policy { return NewFFS(DefaultFFSParams()) })
}

// SJF-FFS on 5,000 of those jobs.
func BenchmarkFFSOverloaded5000Jobs64GPUs(b *testing.B) {
	benchScale(b, 5000, func() engine.Policy { return NewFFS(DefaultFFSParams()) })
}

// SJF-BSBF on 5,000 of those jobs, for a quicker profile and before/after
// comparisons.
func BenchmarkBSBFOverloaded5000Jobs64GPUs(b *testing.B) {
	benchScale(b, 5000, func() engine.Policy { return NewBSBF(DefaultBSBFParams()) })
}
