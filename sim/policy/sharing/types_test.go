package sharing

import (
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/policy/policytest"
)

// gpusOfType and hasType, which answer a one-type cluster without looking
// at its GPUs, agree with a look at every GPU, on a cluster of one type
// and one of two, for random lists of GPUs (the empty one too) and for
// every type name and one the cluster does not have.
func TestTypeCountsMatchAScan(t *testing.T) {
	one := policytest.Servers(t, 3, 4, "2080Ti", 0)
	two := policytest.Cluster(t, cluster.Spec{Servers: []cluster.ServerGroup{
		{Count: 2, GPUs: 4, GPUType: "V100"}, {Count: 1, GPUs: 2, GPUType: "K80"}}})
	r := rand.New(rand.NewPCG(7, 11))
	for _, c := range []*cluster.Cluster{one, two} {
		for range 200 {
			var gpus []cluster.GPUID
			for g := range c.NumGPUs() {
				if r.IntN(3) == 0 {
					gpus = append(gpus, cluster.GPUID(g))
				}
			}
			for _, typ := range append(c.Types(), "A100") {
				want := 0
				for _, g := range gpus {
					if c.GPUs[g].Type == typ {
						want++
					}
				}
				if got := gpusOfType(c, gpus, typ); got != want {
					t.Fatalf("%v of types %v: %d of type %s, a scan counts %d", gpus, c.Types(), got, typ, want)
				}
				if got := hasType(c, gpus, typ); got != (want > 0) {
					t.Fatalf("%v of types %v: has type %s %v, a scan counts %d", gpus, c.Types(), typ, got, want)
				}
			}
		}
	}
}
