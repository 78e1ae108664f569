package alloc

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/workload"
)

// BenchmarkWaterFilling times water filling's recomputes as a loaded run
// of gavel-las-priorities makes them: about 55 active jobs of 26 types,
// a fifth of weight 5, on 36 GPUs of each of three types, one job
// leaving and one arriving between recomputes (so each warm-starts from
// the last). One op is one recompute.
func BenchmarkWaterFilling(b *testing.B) {
	for _, aware := range []bool{true, false} {
		b.Run(fmt.Sprintf("aware=%v", aware), func(b *testing.B) {
			inputs := fillingWindow(55, 200)
			a := &Fair{Aware: aware, WaterFilling: true, PairThreshold: 1, LPs: &LPs{}}
			b.ResetTimer()
			k := 0
			for b.Loop() {
				if _, err := a.Allocate(inputs[k%len(inputs)]); err != nil {
					b.Fatal(err)
				}
				k++
			}
			b.ReportMetric(float64(a.LPs.Solved)/float64(k), "LPs/op")
		})
	}
}

// fillingWindow draws a stream of jobs and returns the inputs of a
// window of n active jobs sliding over it, steps times.
func fillingWindow(n, steps int) []*plan.Input {
	r := rand.New(rand.NewPCG(5, 6))
	f := &fakeThr{types: []string{"V100", "P100", "K80"}, solo: map[string][]float64{}}
	var models []string
	for k := 0; k < 26; k++ {
		name := fmt.Sprintf("m%d", k)
		models = append(models, name)
		f.solo[name] = []float64{2 + 18*r.Float64(), 1 + 9*r.Float64(), 0.5 + 4*r.Float64()}
	}
	stream := make([]workload.Job, n+steps)
	for i := range stream {
		w := 1.0
		if r.IntN(5) == 0 {
			w = 5
		}
		stream[i] = workload.Job{Model: models[r.IntN(len(models))], GPUs: []int{1, 1, 1, 2, 4, 8}[r.IntN(6)],
			Iterations: float64(1000 * (1 + r.IntN(50))), Weight: w}
	}
	var inputs []*plan.Input
	for s := 0; s < steps; s++ {
		jobs := append([]workload.Job(nil), stream[s:s+n]...)
		in := input(f, []float64{36, 36, 36}, jobs)
		for i := range in.Jobs {
			in.Jobs[i].ID = workload.JobID(s + i) // a job keeps its id while active
		}
		inputs = append(inputs, in)
	}
	return inputs
}
