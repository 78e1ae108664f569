package migrate

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/sim/workload"
)

// benchPlans builds two successive plans of a nodes×gpus cluster: the
// same jobs (1-, 2-, 4- and 8-GPU, some 1-GPU ones packed) laid out by a
// random node order each time, as two fresh plans of nearby rounds are.
func benchPlans(nodes, gpus int, seed uint64) (Plan, Plan) {
	r := rand.New(rand.NewPCG(seed, 1))
	type job struct {
		id workload.JobID
		k  int
	}
	var jobs []job
	id := workload.JobID(0)
	for used := 0; used < nodes*gpus*9/10; {
		k := []int{1, 1, 1, 2, 2, 4, 8}[r.IntN(7)]
		k = min(k, gpus)
		jobs = append(jobs, job{id, k})
		id++
		used += k
	}
	lay := func(order []int) Plan {
		p := Plan{Nodes: make([][][]workload.JobID, nodes)}
		for n := range p.Nodes {
			p.Nodes[n] = make([][]workload.JobID, gpus)
		}
		n, gi := 0, 0
		for _, j := range jobs {
			if r.IntN(10) == 0 {
				continue // this job does not run in this round
			}
			if gi+j.k > gpus {
				n, gi = n+1, 0
			}
			if n >= nodes {
				break
			}
			for x := 0; x < j.k; x++ {
				p.Nodes[order[n]][gi+x] = []workload.JobID{j.id}
			}
			gi += j.k
		}
		return p
	}
	return lay(r.Perm(nodes)), lay(r.Perm(nodes))
}

// BenchmarkTwoLevel is the migration step at 256 GPUs (64×4) and 1,024
// GPUs (128×8); the issue asks for under 50 ms at 1,024 GPUs.
func BenchmarkTwoLevel(b *testing.B) {
	for _, c := range []struct{ nodes, gpus int }{{64, 4}, {128, 8}, {512, 8}} {
		prev, next := benchPlans(c.nodes, c.gpus, 9)
		b.Run(fmt.Sprintf("%dGPUs", c.nodes*c.gpus), func(b *testing.B) {
			for b.Loop() {
				if _, err := TwoLevel(prev, next); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFlat is Algorithm 5 at 256 GPUs, for contrast.
func BenchmarkFlat(b *testing.B) {
	prev, next := benchPlans(64, 4, 9)
	for b.Loop() {
		if _, err := Flat(prev, next); err != nil {
			b.Fatal(err)
		}
	}
}
