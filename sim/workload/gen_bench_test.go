package workload

import "testing"

// BenchmarkPoissonGenerate100kJobs draws, names and orders the 100,000
// jobs of the command line's benchmark workload (build/benchreport's
// scenario: four GPU counts, four models, exponential durations of at
// least a minute), the generation part of the command line's FIFO row.
func BenchmarkPoissonGenerate100kJobs(b *testing.B) {
	p := PoissonParams{
		Jobs: 100_000, JobsPerHour: 480,
		GPUMix:   []ScaleShare{{1, 0.7}, {2, 0.1}, {4, 0.15}, {8, 0.05}},
		Duration: DurationDist{Dist: "exponential", MeanS: 3600, MinS: 60},
		Models: []ModelShare{{Model: "resnet50", Weight: 2}, {Model: "bert", Weight: 1},
			{Model: "yolov3", Weight: 1}, {Model: "ncf", Weight: 1}},
	}
	if ps := p.Check(); len(ps) > 0 {
		b.Fatal(ps)
	}
	g := NewPoisson(p)
	for b.Loop() {
		jobs, err := g.Generate(1)
		if err != nil || len(jobs) != p.Jobs {
			b.Fatalf("%d jobs, %v", len(jobs), err)
		}
	}
}
