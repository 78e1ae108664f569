package pack

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/sim/workload"
)

// BenchmarkMatch is the packing step of one round at 256 GPUs: the jobs
// that got GPUs (about 200 hosts when most ask for one GPU) against the
// rest of 2,048 active jobs, with the Blox table's few distinct weights
// (the tie-heavy case of spec 003 §7.3).
func BenchmarkMatch(b *testing.B) {
	tab, err := Blox()
	if err != nil {
		b.Fatal(err)
	}
	for _, active := range []int{512, 2048, 3000} {
		r := rand.New(rand.NewPCG(1, 1))
		var placed, pending []Job
		used := 0
		for i := 0; i < active; i++ {
			k := []int{1, 1, 1, 1, 1, 1, 2, 2, 2, 4}[r.IntN(10)]
			j := Job{ID: workload.JobID(i), Model: tab.Models[r.IntN(len(tab.Models))], GPUs: k}
			if used+k <= 256 {
				placed = append(placed, j)
				used += k
			} else {
				pending = append(pending, j)
			}
		}
		for _, sv := range []Solver{Exact, Hungarian, Buckets} {
			b.Run(fmt.Sprintf("256GPUs_%djobs_%s", active, sv), func(b *testing.B) {
				for b.Loop() {
					if _, err := Match(placed, pending, tab, Options{Objective: Combined, Solver: sv}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
