package workload

import (
	"math"
	"reflect"
	"testing"
)

func TestBSBFSimMatchesSpecDistributions(t *testing.T) {
	p := DefaultBSBFSimParams()
	p.Scale = 100 // 24,000 jobs
	jobs, err := bsbfSim{*p}.Generate(3)
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 24000 {
		t.Fatalf("%d jobs", len(jobs))
	}
	var large int
	var sumSmall, sumLarge float64
	gpus := map[int]int{}
	tasks := map[string]int{}
	for _, j := range jobs {
		gpus[j.GPUs]++
		tasks[j.Model]++
		if j.GPUs > 4 {
			large++
			sumLarge += j.DurationS
		} else {
			sumSmall += j.DurationS
		}
		if j.ArrivalS < 0 || j.ArrivalS >= 8*3600 || j.DurationS < 60 {
			t.Fatalf("job %s: arrival %v duration %v", j.Name, j.ArrivalS, j.DurationS)
		}
		// Above 10 GPU-hours the task does not depend on the draw.
		want := PolluxTask(float64(j.GPUs)*j.DurationS/3600, 0, stream(0, 99))
		if gh := float64(j.GPUs) * j.DurationS / 3600; gh >= 10 && j.Model != want {
			t.Fatalf("job with %.1f GPU-hours is %s, want %s", gh, j.Model, want)
		}
	}
	n := float64(len(jobs))
	if got := float64(large) / n; math.Abs(got-0.125) > 0.006 {
		t.Errorf("large share %.3f", got)
	}
	small := n - float64(large)
	for g, want := range map[int]float64{1: 0.7 * 0.875, 2: 0.1 * 0.875, 4: 0.2 * 0.875, 8: 0.6 * 0.125, 16: 0.3 * 0.125, 32: 0.1 * 0.125} {
		if got := float64(gpus[g]) / n; math.Abs(got-want) > 0.008 {
			t.Errorf("share of %d-GPU jobs %.4f, want %.4f", g, got, want)
		}
	}
	// Lognormal means (σ = 1, so the spread is wide: allow 5%).
	if m := sumSmall / small / 3600; math.Abs(m-0.55)/0.55 > 0.05 {
		t.Errorf("small mean %.3f h", m)
	}
	if m := sumLarge / float64(large) / 3600; math.Abs(m-1.7)/1.7 > 0.08 {
		t.Errorf("large mean %.3f h", m)
	}
	if math.Abs(float64(tasks["bert"])-float64(tasks["deepspeech2"])) > 0.1*float64(tasks["bert"]+tasks["deepspeech2"]) {
		t.Errorf("bert %d deepspeech2 %d", tasks["bert"], tasks["deepspeech2"])
	}
	again, _ := bsbfSim{*p}.Generate(3)
	if !reflect.DeepEqual(jobs, again) {
		t.Error("the same seed gave different jobs")
	}
}

func TestBSBFSimScaleKeepsTheWindow(t *testing.T) {
	p := DefaultBSBFSimParams()
	p.Scale = 0.5
	jobs, _ := bsbfSim{*p}.Generate(1)
	p.Scale = 2
	more, _ := bsbfSim{*p}.Generate(1)
	if len(jobs) != 120 || len(more) != 480 {
		t.Fatalf("%d and %d jobs", len(jobs), len(more))
	}
	if more[len(more)-1].ArrivalS > 8*3600 || more[len(more)-1].ArrivalS < 7*3600 {
		t.Errorf("last arrival %v", more[len(more)-1].ArrivalS)
	}
}

func TestBSBFTestbed(t *testing.T) {
	p := DefaultBSBFTestbedParams()
	iters := *p
	iters.WorkGPUS = 0 // the paper's iterations, work left to the perf model
	jobs, err := bsbfTestbed{iters}.Generate(5)
	if err != nil {
		t.Fatal(err)
	}
	large := 0
	for _, j := range jobs {
		switch j.GPUs {
		case 12, 16:
			large++
		case 1, 2, 4, 8:
		default:
			t.Errorf("job %s has %d GPUs", j.Name, j.GPUs)
		}
		if j.Iterations < 100 || j.Iterations > 5000 || j.Iterations != math.Round(j.Iterations) {
			t.Errorf("job %s: %v iterations", j.Name, j.Iterations)
		}
	}
	if len(jobs) != 30 || large != 10 {
		t.Errorf("%d jobs, %d large", len(jobs), large)
	}
	if gap := jobs[29].ArrivalS / 29; gap < 20 || gap > 70 {
		t.Errorf("mean gap %.1f s", gap)
	}
	// By default the sizes are solo seconds scaled to Table II's bound
	// (ruling R7): the same draws, 29,000 GPU-seconds in all.
	scaled, err := bsbfTestbed{*p}.Generate(5)
	if err != nil {
		t.Fatal(err)
	}
	work := 0.0
	for i, j := range scaled {
		work += float64(j.GPUs) * j.DurationS
		if j.Iterations != 0 || j.GPUs != jobs[i].GPUs || j.Model != jobs[i].Model {
			t.Errorf("job %s: %v iterations, %d GPUs (%d unscaled)", j.Name, j.Iterations, j.GPUs, jobs[i].GPUs)
		}
		// Sizes keep their proportions: seconds per drawn iteration are equal.
		if r0, r := scaled[0].DurationS/jobs[0].Iterations, j.DurationS/jobs[i].Iterations; math.Abs(r/r0-1) > 1e-3 {
			t.Errorf("job %s scaled by %v, job 0 by %v", j.Name, r, r0)
		}
	}
	if math.Abs(work-TestbedWorkGPUS) > 1 || TestbedWorkGPUS > 16*2317 {
		t.Errorf("total work %.1f GPU-s, want %d within Table II's 16 × 2317 s", work, TestbedWorkGPUS)
	}
	bad := *p
	bad.LargeJobs, bad.MinIterations = 40, 9000
	if ps := bad.Check(); len(ps) != 2 {
		t.Errorf("problems %v", ps)
	}
}
