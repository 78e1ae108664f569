package perf

import (
	"math"
	"testing"
)

// TestMemShareDraw checks the draw around the OJPP placeholders: the
// paper's three cells and Fig. 2's tuple kept, every other value moved by
// a lognormal factor of median 1 and σ 0.2, the same for a seed, and a
// peak that still fits one GPU.
func TestMemShareDraw(t *testing.T) {
	base := *DefaultMemShareParams()
	idx := map[string]int{}
	for i, m := range base.Models {
		idx[m] = i
	}
	var logs []float64
	for seed := uint64(1); seed <= 200; seed++ {
		p := base
		p.DrawSeed = seed
		d := p.Draw()
		if d2 := p.Draw(); d2.Matrix[0][1] != d.Matrix[0][1] || d2.Types[2].Delta != d.Types[2].Delta {
			t.Fatalf("seed %d: two draws differ", seed)
		}
		for _, c := range [][2]string{{"ResNet", "VGG19"}, {"VGG19", "ResNet"}, {"LeNet", "LSTM"}} {
			if got, want := d.Matrix[idx[c[0]]][idx[c[1]]], base.Matrix[idx[c[0]]][idx[c[1]]]; got != want {
				t.Fatalf("seed %d: published cell %s/%s = %v, want %v kept", seed, c[0], c[1], got, want)
			}
		}
		for i, ty := range d.Types {
			if ty.Name == "ResNet-Fig2" && ty != base.Types[i] {
				t.Fatalf("seed %d: Fig. 2's tuple moved: %+v", seed, ty)
			}
			if ty.Gamma+ty.Delta > 1+1e-12 || ty.P > 1 || ty.Alpha > 1 {
				t.Fatalf("seed %d: type %s out of range: %+v", seed, ty.Name, ty)
			}
		}
		if ps := d.Check(); len(ps) > 0 {
			t.Fatalf("seed %d: drawn params refused: %v", seed, ps)
		}
		// CNN next to LeNet (row 1, column 0) is a placeholder: 0.13.
		logs = append(logs, math.Log(d.Matrix[1][0]/0.13))
	}
	var m, ss float64
	for _, x := range logs {
		m += x
	}
	m /= float64(len(logs))
	for _, x := range logs {
		ss += (x - m) * (x - m)
	}
	sd := math.Sqrt(ss / float64(len(logs)-1))
	// 200 draws: the mean's standard error is 0.2/√200 ≈ 0.014.
	if math.Abs(m) > 0.045 || sd < 0.17 || sd > 0.23 {
		t.Errorf("log factor of a placeholder cell: mean %.3f, sd %.3f; want about 0 and 0.2", m, sd)
	}
	p := base
	p.DrawSeed, p.DrawSigma = 7, 0.5
	if d := p.Draw(); math.Abs(math.Log(d.Matrix[1][0]/0.13)) < 1e-9 {
		t.Errorf("draw_sigma 0.5: the cell did not move")
	}
	m0, err := NewMemShare(base)
	if err != nil {
		t.Fatal(err)
	}
	if m0.Pair(idx["CNN"], idx["LeNet"]) != 0.13 {
		t.Errorf("draw_seed 0 must keep the table: CNN/LeNet = %v", m0.Pair(1, 0))
	}
	p.DrawSeed, p.DrawSigma = 3, 0
	m3, err := NewMemShare(p)
	if err != nil {
		t.Fatal(err)
	}
	if m3.Pair(idx["CNN"], idx["LeNet"]) == 0.13 || m3.Params().DrawSeed != 3 {
		t.Errorf("draw_seed 3: the model kept the placeholder %v", m3.Pair(1, 0))
	}
}
