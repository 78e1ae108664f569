package workload

import (
	"math"
	"slices"
	"testing"
)

// The traces match spec 003 §5.4's sanity numbers: Shockwave-style mean
// duration 1.17 h and mean demand 1.64 GPUs, 1-GPU jobs vision models and
// 8-GPU jobs language models; Gavel-style mean demand 1.9 GPUs.
func TestTesseraeTraces(t *testing.T) {
	p := DefaultTesseraeTraceParams()
	p.Jobs = 20000
	jobs, err := tesseraeTrace{*p}.Generate(3)
	if err != nil {
		t.Fatal(err)
	}
	var dur, gpus float64
	for _, j := range jobs {
		dur += j.DurationS
		gpus += float64(j.GPUs)
		if j.GPUs == 1 && !slices.Contains(p.VisionModels, j.Model) || j.GPUs == 8 && !slices.Contains(p.LanguageModels, j.Model) {
			t.Fatalf("job %s: %d GPUs runs %s", j.Name, j.GPUs, j.Model)
		}
		if j.DurationS < 0.2*3600-1e-6 || j.DurationS > 5*3600+1e-6 {
			t.Fatalf("duration %v outside 0.2–5 h", j.DurationS)
		}
	}
	n := float64(len(jobs))
	if h := dur / n / 3600; math.Abs(h-1.17) > 0.05 {
		t.Errorf("mean duration %.3f h, spec 1.17 h", h)
	}
	if g := gpus / n; math.Abs(g-1.64) > 0.03 {
		t.Errorf("mean demand %.3f GPUs, spec 1.64", g)
	}
	if gap := jobs[len(jobs)-1].ArrivalS / (n - 1); math.Abs(gap-45) > 2 {
		t.Errorf("mean gap %.1f s, want 45 s at 80 jobs/h", gap)
	}
	p.Style = "gavel"
	jobs, _ = tesseraeTrace{*p}.Generate(3)
	gpus = 0
	for _, j := range jobs {
		gpus += float64(j.GPUs)
	}
	if g := gpus / n; math.Abs(g-1.9) > 0.05 {
		t.Errorf("gavel style: mean demand %.3f GPUs, want 1.9", g)
	}
	p.Style = "philly"
	if _, err := (tesseraeTrace{*p}).Generate(1); err == nil {
		t.Error("accepted style philly")
	}
}

// max_gpus caps each job's GPU count and changes nothing else: the same
// arrivals, models and durations as without it.
func TestTesseraeMaxGPUs(t *testing.T) {
	for _, style := range []string{"shockwave", "gavel"} {
		p := DefaultTesseraeTraceParams()
		p.Style, p.Jobs = style, 500
		all, err := tesseraeTrace{*p}.Generate(5)
		if err != nil {
			t.Fatal(err)
		}
		p.MaxGPUs = 2
		capped, err := tesseraeTrace{*p}.Generate(5)
		if err != nil {
			t.Fatal(err)
		}
		larger := 0
		for i, j := range capped {
			a := all[i]
			if a.GPUs > 2 {
				larger++
			}
			if j.GPUs != min(a.GPUs, 2) || j.Model != a.Model || j.DurationS != a.DurationS || j.ArrivalS != a.ArrivalS {
				t.Fatalf("%s: job %s capped at 2 GPUs is %+v, uncapped %+v", style, j.Name, j, a)
			}
		}
		if larger == 0 {
			t.Errorf("%s: no job of the 500 asks for more than 2 GPUs; the test checks nothing", style)
		}
	}
}
