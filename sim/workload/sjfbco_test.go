package workload

import (
	"reflect"
	"testing"
)

// Spec 004 §4.1–§4.2: the paper's size mix, every job inside all three
// stated ranges at once, all at time 0, deterministic for a seed.
func TestSJFBCOBatch(t *testing.T) {
	for _, mode := range []string{"rho_first", "rejection"} {
		p := DefaultSJFBCOParams()
		p.Sampling = mode
		jobs, err := sjfbcoGen{*p}.Generate(7)
		if err != nil {
			t.Fatal(err)
		}
		if len(jobs) != 160 {
			t.Fatalf("%s: %d jobs", mode, len(jobs))
		}
		sizes := map[int]int{}
		total := 0
		for _, j := range jobs {
			sizes[j.GPUs]++
			total += j.GPUs
			// F = round(ρ̂/τ0) may move ρ̂ = τ0·F by up to τ0/2 ≤ 0.025.
			tau := j.DurationS / j.Iterations
			if j.ArrivalS != 0 || j.Iterations < 1000 || j.Iterations > 6000 || tau < 0.01-1e-12 || tau > 0.05+1e-12 ||
				j.DurationS < 50-0.025 || j.DurationS > 300+0.025 {
				t.Fatalf("%s: job %s out of range: F=%v τ0=%v ρ̂=%v", mode, j.Name, j.Iterations, tau, j.DurationS)
			}
		}
		if want := map[int]int{1: 80, 2: 14, 4: 26, 8: 30, 16: 8, 32: 2}; !reflect.DeepEqual(sizes, want) || total != 644 {
			t.Errorf("%s: sizes %v (%d GPUs), want %v (644)", mode, sizes, total, want)
		}
		again, _ := sjfbcoGen{*p}.Generate(7)
		if !reflect.DeepEqual(jobs, again) {
			t.Errorf("%s: the same seed gives different jobs", mode)
		}
		other, _ := sjfbcoGen{*p}.Generate(8)
		if reflect.DeepEqual(jobs, other) {
			t.Errorf("%s: seeds 7 and 8 give the same jobs", mode)
		}
		if jobs[0].GPUs == 1 && jobs[1].GPUs == 1 && jobs[2].GPUs == 1 && jobs[3].GPUs == 1 && jobs[4].GPUs == 1 {
			t.Errorf("%s: the input order looks unshuffled", mode)
		}
	}
}

func TestSJFBCOParamsCheck(t *testing.T) {
	p := DefaultSJFBCOParams()
	p.TauMax, p.RhoMin = 0.001, 50 // τ0·F at most 6 < 50
	p.TauMin = 0.0005
	if ps := p.Check(); len(ps) != 1 || ps[0].Path != "rho_min" {
		t.Errorf("want one problem at rho_min, got %v", ps)
	}
	p = DefaultSJFBCOParams()
	p.FMax = 10
	if ps := p.Check(); len(ps) != 1 || ps[0].Path != "f_max" {
		t.Errorf("want one problem at f_max, got %v", ps)
	}
}
