package tesserae

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy/tesserae/pack"
	"github.com/schedlab/schedlab/sim/workload"
)

// phased runs Tesserae-T's first round as usual and times the phases of
// the second, where every job is still active and the migration step has
// a previous placement to keep: scheduling (order and exclusive pass),
// packing (the matching) and migration (landing the plan).
type phased struct {
	*placer
	sched, pack, mig time.Duration
	done             bool
}

func (p *phased) Decide(s *engine.State, tr []engine.Trigger) error {
	if p.rounds == 0 {
		return p.placer.Decide(s, tr)
	}
	if p.done {
		return nil
	}
	p.done = true
	t0 := time.Now()
	fresh, placed, waiting, rank := p.schedule(s)
	t1 := time.Now()
	if _, err := p.placer.pack(s, fresh, placed, waiting); err != nil {
		return err
	}
	t2 := time.Now()
	prev := current(s)
	if _, err := p.land(prev, fresh, rank); err != nil {
		return err
	}
	p.sched, p.pack, p.mig = t1.Sub(t0), t2.Sub(t1), time.Since(t2)
	return nil
}

func scaleJobs(n int) []workload.Job {
	r := rand.New(rand.NewPCG(uint64(n), 9))
	ms := []string{"resnet50", "vgg19", "DCGAN", "PointNet", "Bert-Large", "GPT2-Medium"}
	jobs := make([]workload.Job, n)
	for i := range jobs {
		jobs[i] = workload.Job{Name: fmt.Sprintf("j%d", i), Model: ms[r.IntN(len(ms))],
			GPUs: []int{1, 1, 1, 1, 1, 1, 2, 2, 2, 4}[r.IntN(10)], DurationS: 1e6}
	}
	return jobs
}

// benchDecision times one decision of Tesserae-T with n active jobs on
// servers × 4 GPUs, split by phase (Figs. 2 and 14: decision time against
// active jobs and against GPUs). Each phase is reported in ms per op.
func benchDecision(b *testing.B, servers, n int, solver string) {
	c, err := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{{Count: servers, GPUs: 4, GPUType: "A100"}}})
	if err != nil {
		b.Fatal(err)
	}
	tab, _ := pack.Blox()
	jobs, err := workload.Finalize(scaleJobs(n))
	if err != nil {
		b.Fatal(err)
	}
	var sched, pk, mig time.Duration
	for b.Loop() {
		base := perf.NewConstant(perf.ConstantParams{})
		js := append([]workload.Job(nil), jobs...)
		if err := base.Prepare(c, js); err != nil {
			b.Fatal(err)
		}
		p := DefaultParams()
		p.PackSolver = solver
		pol, _ := New(p)
		ph := &phased{placer: pol.(*placer)}
		m := &perf.Composite{Base: base, Factors: []perf.Factor{perf.NewInterference(tab.Interference(1))}}
		_, err := engine.Run(context.Background(), engine.Config{Cluster: c, Jobs: js, Perf: m, Policy: ph, NoLog: true, NoIntervals: true,
			Budgets: engine.Budgets{MaxTimeS: p.RoundS + 1}})
		var be *engine.BudgetError
		if err != nil && !errors.As(err, &be) {
			b.Fatal(err)
		}
		if !ph.done {
			b.Fatal("the second round never came")
		}
		sched, pk, mig = sched+ph.sched, pk+ph.pack, mig+ph.mig
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) / float64(b.N) }
	b.ReportMetric(ms(sched), "sched-ms")
	b.ReportMetric(ms(pk), "pack-ms")
	b.ReportMetric(ms(mig), "migrate-ms")
	b.ReportMetric(ms(sched+pk+mig), "decision-ms")
}

// BenchmarkDecisionVsJobs is Fig. 2 / 14: 256 GPUs, 256 to 3,000 active
// jobs. The paper: Tesserae under 1 s with 3,000 active jobs (Python).
func BenchmarkDecisionVsJobs(b *testing.B) {
	for _, solver := range []string{"hungarian", "buckets"} {
		for _, n := range []int{256, 512, 1024, 2048, 3000} {
			b.Run(fmt.Sprintf("%s/jobs=%d", solver, n), func(b *testing.B) { benchDecision(b, 64, n, solver) })
		}
	}
}

// BenchmarkDecisionVsGPUs is decision time against cluster size with
// twice as many active jobs as GPUs (64 to 1,024 GPUs).
func BenchmarkDecisionVsGPUs(b *testing.B) {
	for _, solver := range []string{"hungarian", "buckets"} {
		for _, gpus := range []int{64, 256, 1024} {
			b.Run(fmt.Sprintf("%s/gpus=%d", solver, gpus), func(b *testing.B) { benchDecision(b, gpus/4, 2*gpus, solver) })
		}
	}
}
