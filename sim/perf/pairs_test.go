package perf

import (
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/internal/approx"
	"github.com/schedlab/schedlab/sim/workload"
)

// memshare's ξ(a|b) must be what Rate gives a job beside that one partner
// on the same GPUs (solo rate over pair rate), for every pair of types
// and for 1- and 2-GPU jobs, so that SJF-BSBF plans with the slowdown the
// run will charge.
func TestMemSharePairSlowdownMatchesRate(t *testing.T) {
	m := defaultMemShare(t)
	c, err := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{{Count: 1, GPUs: 4, GPUType: "1080Ti", GPUMemoryGB: 11}}})
	if err != nil {
		t.Fatal(err)
	}
	for k := 1; k <= 2; k++ {
		gpus := ConsolidatedGPUs(c, k, "")
		for ia := range m.NumTypes() {
			for ib := range m.NumTypes() {
				jobs := []workload.Job{{Name: "a", Model: m.Type(ia).Name, GPUs: k}, {Name: "b", Model: m.Type(ib).Name, GPUs: k}}
				if err := m.Prepare(c, jobs); err != nil {
					t.Fatal(err)
				}
				solo := SoloRateAt(m, c, &jobs[0], gpus, 0)
				ra, _ := PairRates(m, c, &jobs[0], &jobs[1], gpus)
				xi := m.PairSlowdown(&jobs[0], &jobs[1])
				if !(xi > 1) || !approx.Equal(solo/ra, xi, 1e-9, 0) {
					t.Errorf("%d GPUs, %s beside %s: ξ = %v, solo/pair rate = %v", k, jobs[0].Model, jobs[1].Model, xi, solo/ra)
				}
				if got := PairSlowdown(m, &jobs[0], &jobs[1]); got != xi {
					t.Errorf("perf.PairSlowdown = %v, want the model's %v", got, xi)
				}
			}
		}
	}
}
