package paper

import (
	"fmt"
	"testing"
)

// BenchmarkFigure12 times policy computations against the number of active
// jobs (spec 001 §7 targets: LAS < 20 ms at any M ≤ 2048; LAS with SS,
// single-GPU, < 200 ms; per-job makespan, FTF and cost at M = 512 < 1 s;
// hierarchical water filling at M = 2048 < 60 s). `schedlab gavel-fig12`
// plots the same measurements on log-log axes.
func BenchmarkFigure12(b *testing.B) {
	for _, kind := range ScalabilityKinds {
		for _, m := range []int{32, 128, 512, 2048} {
			if (m > 512 && (kind == "makespan" || kind == "ftf" || kind == "cost")) || (m > 128 && kind == "hierarchical-ss") {
				continue // the per-job LPs' target is at 512 jobs; hierarchical-ss takes a minute at 512
			}
			b.Run(fmt.Sprintf("%s/M=%d", kind, m), func(b *testing.B) {
				total := 0.0
				for i := 0; i < b.N; i++ {
					p, err := Scalability(kind, m, uint64(i))
					if err != nil {
						b.Fatal(err)
					}
					total += p.Seconds
				}
				b.ReportMetric(1e3*total/float64(b.N), "solve-ms")
			})
		}
	}
}

func TestScalabilitySmall(t *testing.T) {
	for _, kind := range ScalabilityKinds {
		p, err := Scalability(kind, 32, 1)
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		if p.LPs == 0 || p.Seconds <= 0 {
			t.Errorf("%s: %+v", kind, p)
		}
	}
	if _, err := Scalability("nope", 8, 1); err == nil {
		t.Error("accepted an unknown kind")
	}
}
