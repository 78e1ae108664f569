package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

// sharerBed is the ground of the tests that run sharer: two servers of
// four V100s, n jobs drawn from r (arriving within span seconds, of 1, 2
// or 4 GPUs, 100 to 1,099 s long) and a constant model prepared for
// them. gpus, if not nil, may change job i's drawn GPU count (a job
// larger than the cluster never runs).
func sharerBed(t *testing.T, r *rand.Rand, n, span int, gpus func(i, drawn int) int) (*cluster.Cluster, []workload.Job, *perf.Constant) {
	t.Helper()
	c, err := cluster.New(cluster.Spec{Servers: []cluster.ServerGroup{{Count: 2, GPUs: 4, GPUType: "V100", GPUMemoryGB: 64}}})
	if err != nil {
		t.Fatal(err)
	}
	var in []workload.Job
	for i := range n {
		j := workload.Job{Name: "j" + string(rune('a'+i%26)) + string(rune('a'+i/26)), ArrivalS: float64(r.IntN(span)),
			GPUs: []int{1, 1, 2, 4}[r.IntN(4)], DurationS: float64(100 + r.IntN(1000)), Model: "m", MemoryGB: 4}
		if gpus != nil {
			j.GPUs = gpus(i, j.GPUs)
		}
		in = append(in, j)
	}
	jobs, err := workload.Finalize(in)
	if err != nil {
		t.Fatal(err)
	}
	m := perf.NewConstant(perf.ConstantParams{})
	if err := m.Prepare(c, jobs); err != nil {
		t.Fatal(err)
	}
	return c, jobs, m
}
