package ojpp

import (
	"testing"

	"github.com/schedlab/schedlab/sim/workload"
)

// BenchmarkHeuristic1000Workers places a Mixed queue of 1,000 workers
// with the Heuristic (the target: under 50 ms natively).
func BenchmarkHeuristic1000Workers(b *testing.B) {
	m := memshare(b)
	gp := workload.DefaultOJPPParams()
	gp.Jobs = 182
	gen, _ := workload.LookupGenerator("ojpp")
	g, _ := gen.New(gp)
	jobs, _ := g.Generate(1)
	if err := m.Prepare(nil, jobs); err != nil {
		b.Fatal(err)
	}
	w := 0
	for _, j := range jobs {
		w += j.GPUs
	}
	b.ReportMetric(float64(w), "workers")
	p := preset(b, "ojpp")
	for b.Loop() {
		placeAll(b, m, p, jobs, w)
	}
}
