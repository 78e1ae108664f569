package policy_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/workload"
)

// benchPlace times one placement decision on 1,024 GPUs (128 servers of
// 8) with a random half taken, for jobs of 1, 2, 4, 8 and 16 GPUs in
// turn: what a queue scheduler pays per start it tries.
func benchPlace(b *testing.B, name string, bestFit bool, explain bool) {
	c, err := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{{Count: 128, GPUs: 8, GPUType: "V100", GPUMemoryGB: 32}}})
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	var taken []cluster.GPUID
	for g := range c.NumGPUs() {
		if r.IntN(2) == 0 {
			taken = append(taken, cluster.GPUID(g))
		}
	}
	jobs := []workload.Job{{Name: "filler", GPUs: len(taken), DurationS: 10, Model: "m"}}
	for i, n := range []int{1, 2, 4, 8, 16} {
		jobs = append(jobs, workload.Job{Name: string(rune('a' + i)), GPUs: n, DurationS: 10, Model: "m", MemoryGB: 8})
	}
	jobs, err = workload.Finalize(jobs)
	if err != nil {
		b.Fatal(err)
	}
	m := perf.NewConstant(perf.ConstantParams{})
	if err := m.Prepare(c, jobs); err != nil {
		b.Fatal(err)
	}
	place, err := policy.PlacementParams{Placement: name}.Build(bestFit)
	if err != nil {
		b.Fatal(err)
	}
	found := 0
	p := &decider{fn: func(s *engine.State) error {
		if err := s.Start(0, taken, engine.ActionOptions{}); err != nil {
			return err
		}
		b.ResetTimer()
		for i := range b.N {
			req := policy.RequestFor(s, workload.JobID(1+i%5))
			if explain {
				if place.Explain(req).Chosen != nil {
					found++
				}
			} else if place.Pick(req) != nil {
				found++
			}
		}
		b.StopTimer()
		end, _ := policy.PlacementByName("consolidated")
		for id := workload.JobID(1); id <= 5; id++ { // let the run end
			if err := s.Start(id, end.Pick(policy.RequestFor(s, id)), engine.ActionOptions{}); err != nil {
				return err
			}
		}
		return nil
	}}
	if _, err := engine.Run(context.Background(), engine.Config{Cluster: c, Jobs: jobs, Perf: m, Policy: p}); err != nil {
		b.Fatal(err)
	}
	if found == 0 {
		b.Fatal("nothing placed")
	}
}

func BenchmarkPlaceConsolidated1024GPUs(b *testing.B) { benchPlace(b, "consolidated", false, false) }
func BenchmarkPlaceConsolidatedBestFit1024GPUs(b *testing.B) {
	benchPlace(b, "consolidated", true, false)
}
func BenchmarkPlaceStrict1024GPUs(b *testing.B)        { benchPlace(b, "strict", false, false) }
func BenchmarkPlaceStrictBestFit1024GPUs(b *testing.B) { benchPlace(b, "strict", true, false) }

// Explaining a decision scores every server: what a page pays when a
// reader asks why a job went where it did.
func BenchmarkExplainConsolidated1024GPUs(b *testing.B) { benchPlace(b, "consolidated", false, true) }
