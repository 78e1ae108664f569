package workload

import (
	"math"
	"reflect"
	"testing"
)

func TestGavelZooHas26TypesAnd19Distributed(t *testing.T) {
	if len(GavelZoo) != 26 || len(GavelDistributed()) != 19 {
		t.Fatalf("zoo %d, distributed %d", len(GavelZoo), len(GavelDistributed()))
	}
	if k := GavelZoo[6].Key(); k != "ResNet-50 (batch size 32)" {
		t.Fatalf("key %q", k)
	}
}

func TestGavelGeneratorMatchesSpecDistributions(t *testing.T) {
	p := DefaultGavelParams()
	p.Jobs, p.JobsPerHour, p.MultiGPU = 40000, 4, true
	jobs, err := NewGavel(*p).Generate(7)
	if err != nil {
		t.Fatal(err)
	}
	var sumMin float64
	sf := map[int]int{}
	for _, j := range jobs {
		sumMin += j.DurationS / 60
		sf[j.GPUs]++
		if j.GPUs > 1 && (j.Model == "Recommendation" || j.Model == "A3C" || j.Model == "CycleGAN") {
			t.Fatalf("%s cannot be distributed but got %d GPUs", j.Model, j.GPUs)
		}
		if j.DurationS < 60*math.Pow(10, 1.5)-1e-9 || j.DurationS > 60*1e4+1e-9 {
			t.Fatalf("duration %v out of range", j.DurationS)
		}
	}
	n := float64(len(jobs))
	// Spec 001 §5.4: mean ≈ 1,006 min. The long branch has a wide spread, so allow 4%.
	if mean := sumMin / n; math.Abs(mean-1006)/1006 > 0.04 {
		t.Errorf("mean duration %.0f min, want ≈1006", mean)
	}
	for gpus, want := range map[int]float64{1: 0.70, 2: 0.10, 4: 0.15, 8: 0.05} {
		if got := float64(sf[gpus]) / n; math.Abs(got-want) > 0.01 {
			t.Errorf("share of %d-GPU jobs %.3f, want %.2f", gpus, got, want)
		}
	}
	// Poisson arrivals at 4 jobs/h: mean gap 900 s.
	gap := jobs[len(jobs)-1].ArrivalS / (n - 1)
	if math.Abs(gap-900)/900 > 0.02 {
		t.Errorf("mean gap %.1f s, want ≈900", gap)
	}
	if jobs[0].ArrivalS != 0 {
		t.Errorf("first arrival %v, want 0", jobs[0].ArrivalS)
	}
}

func TestGavelStreamsAreIndependent(t *testing.T) {
	p := DefaultGavelParams()
	p.Jobs = 200
	single, _ := NewGavel(*p).Generate(3)
	p.MultiGPU = true
	multi, _ := NewGavel(*p).Generate(3)
	for i := range single {
		if single[i].DurationS != multi[i].DurationS || single[i].ArrivalS != multi[i].ArrivalS {
			t.Fatalf("job %d: turning on multi-GPU changed its duration or arrival", i)
		}
	}
	again, _ := NewGavel(*p).Generate(3)
	if !reflect.DeepEqual(multi, again) {
		t.Fatal("same seed gave different jobs")
	}
	other, _ := NewGavel(*p).Generate(4)
	if reflect.DeepEqual(multi, other) {
		t.Fatal("different seeds gave the same jobs")
	}
}

func TestGavelPrioritiesAndSLOs(t *testing.T) {
	p := DefaultGavelParams()
	p.Jobs, p.HighPriorityFraction, p.SLOFactors = 5000, 0.2, []float64{1.2, 2, 10}
	jobs, err := NewGavel(*p).Generate(1)
	if err != nil {
		t.Fatal(err)
	}
	high := 0
	for _, j := range jobs {
		if j.Weight == 5 {
			high++
		}
		f := (j.DeadlineS - j.ArrivalS) / j.DurationS
		if math.Abs(f-1.2) > 1e-9 && math.Abs(f-2) > 1e-9 && math.Abs(f-10) > 1e-9 {
			t.Fatalf("SLO factor %v not in the set", f)
		}
	}
	if frac := float64(high) / 5000; math.Abs(frac-0.2) > 0.02 {
		t.Errorf("high-priority share %.3f, want 0.2", frac)
	}
}

func TestGavelModelsFilter(t *testing.T) {
	p := DefaultGavelParams()
	p.Jobs, p.Models = 50, []string{"A3C", "ResNet-50 (batch size 128)"}
	jobs, err := NewGavel(*p).Generate(1)
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range jobs {
		if j.Model != "A3C" && !(j.Model == "ResNet-50" && j.BatchSize == 128) {
			t.Fatalf("unexpected job type %s/%d", j.Model, j.BatchSize)
		}
	}
	p.Models = []string{"nope"}
	if ps := p.Check(); len(ps) != 1 || ps[0].Path != "models" {
		t.Fatalf("unknown model accepted: %v", ps)
	}
}

func TestPoissonGenerator(t *testing.T) {
	p := DefaultPoissonParams()
	p.Jobs = 20000
	p.GPUMix = []ScaleShare{{1, 3}, {4, 1}}
	p.Duration = DurationDist{Dist: "lognormal", MeanS: 1000, Sigma: 1}
	p.Models = []ModelShare{{Model: "a", Weight: 1}, {Model: "b", Weight: 1, MemoryGB: 3}}
	jobs, err := NewPoisson(*p).Generate(11)
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	four, b := 0, 0
	for _, j := range jobs {
		sum += j.DurationS
		if j.GPUs == 4 {
			four++
		}
		if j.Model == "b" {
			b++
			if j.MemoryGB != 3 {
				t.Fatal("model memory not carried to the job")
			}
		}
	}
	if mean := sum / float64(len(jobs)); math.Abs(mean-1000)/1000 > 0.05 {
		t.Errorf("lognormal mean %.0f, want ≈1000", mean)
	}
	if f := float64(four) / float64(len(jobs)); math.Abs(f-0.25) > 0.015 {
		t.Errorf("4-GPU share %.3f, want 0.25", f)
	}
	if f := float64(b) / float64(len(jobs)); math.Abs(f-0.5) > 0.015 {
		t.Errorf("model b share %.3f, want 0.5", f)
	}
}

func TestDurationDistChecks(t *testing.T) {
	cases := []struct {
		d    DurationDist
		path string
	}{
		{DurationDist{Dist: "lognormal", MeanS: 10}, "duration.sigma"},
		{DurationDist{Dist: "loguniform", MaxS: 10}, "duration.min_s"},
		{DurationDist{Dist: "uniform", MinS: 20, MaxS: 10}, "duration.min_s"},
		{DurationDist{Dist: "exponential"}, "duration.mean_s"},
	}
	for _, tc := range cases {
		p := DefaultPoissonParams()
		p.Duration = tc.d
		ps := p.Check()
		if len(ps) != 1 || ps[0].Path != tc.path {
			t.Errorf("%+v: got %v, want one problem at %s", tc.d, ps, tc.path)
		}
	}
}

func TestFinalizeSortsAndRejectsDuplicates(t *testing.T) {
	jobs, err := Finalize([]Job{{Name: "b", ArrivalS: 5}, {Name: "a", ArrivalS: 1}, {Name: "c", ArrivalS: 5}})
	if err != nil {
		t.Fatal(err)
	}
	if jobs[0].Name != "a" || jobs[1].Name != "b" || jobs[2].Name != "c" || jobs[2].ID != 2 {
		t.Fatalf("order %v", jobs)
	}
	if _, err := Finalize([]Job{{Name: "a"}, {Name: "a"}}); err == nil {
		t.Fatal("duplicate accepted")
	}
}
