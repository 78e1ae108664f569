package perf

import (
	"math"
	"testing"

	"github.com/schedlab/schedlab/sim/workload"
)

// Ridge with a tiny penalty recovers an exactly linear target.
func TestRidgeRecoversALine(t *testing.T) {
	var xs [][]float64
	var ys []float64
	for i := range 10 {
		x := []float64{float64(i), float64(i*i%7) - 3}
		xs, ys = append(xs, x), append(ys, 2+3*x[0]-x[1])
	}
	m := fitRidge(xs, ys, 1e-9)
	if got := m.predict([]float64{20, 5}); math.Abs(got-(2+60-5)) > 1e-5 {
		t.Errorf("predict(20, 5) = %v, want 57", got)
	}
}

// k-NN by hand: the three nearest of 0, 1, 2, 10 to 0.9 are 1, 0, 2.
func TestKNNByHand(t *testing.T) {
	m := knnPredictor{xs: [][]float64{{0}, {1}, {2}, {10}}, ys: []float64{1, 2, 3, 100}, k: 3}
	if got := m.predict([]float64{0.9}); got != 2 {
		t.Errorf("k-NN = %v, want (1 + 2 + 3) / 3 = 2", got)
	}
}

func TestMeasuredCells(t *testing.T) {
	m := measuredCells(6, 0.5, 9)
	n := 0
	for c, on := range m {
		if c/6 == c%6 && !on {
			t.Fatalf("diagonal cell %d not measured", c)
		}
		if on {
			n++
		}
	}
	if n != 6+15 {
		t.Errorf("%d cells measured, want 6 + half of 30", n)
	}
}

// On the default matrix: every cell measured reproduces it exactly; half
// measured gives a finite error that the report states.
func TestPredictDefaultMatrix(t *testing.T) {
	truth, types := workload.OJPPMatrix, workload.OJPPTypes[:6]
	pred, rep, err := PredictMatrix(truth, types, PredictOptions{Model: "best", Measured: 1, Seed: 1})
	if err != nil || rep.MAE != 0 || pred[5][4] != 1.22 {
		t.Fatalf("all measured: MAE %v, err %v", rep.MAE, err)
	}
	for _, model := range append(PredictModels, "best") {
		_, rep, err := PredictMatrix(truth, types, PredictOptions{Model: model, Measured: 0.5, Seed: 1})
		if err != nil || math.IsNaN(rep.MAE) || rep.MAE <= 0 || rep.Measured != 21 {
			t.Fatalf("%s: %+v, %v", model, rep, err)
		}
		t.Logf("%s: %+v", model, rep)
	}
	if _, _, err := PredictMatrix(truth, types, PredictOptions{Model: "forest"}); err == nil {
		t.Error("an unknown model must be refused")
	}
	if _, _, err := PredictMatrix(truth, types[:5], PredictOptions{}); err == nil {
		t.Error("a type list of the wrong length must be refused")
	}
}

// A tree split by hand: on x = 1, 2, 3, 10, 11, 12 with y = 1, 1, 1, 5, 5, 7
// the split x ≤ 6.5 leaves squared errors 0 and 8/3, every other split
// more (x ≤ 2.5: 22.8; x ≤ 10.5: 12.75). With leaves of at least 2 the
// right side cannot split again ({10, 11 | 12} leaves one point), so it
// is a leaf at 17/3; the left side is constant and stays a leaf at 1.
func TestTreeSplitByHand(t *testing.T) {
	xs := [][]float64{{1, 0}, {2, 0}, {3, 0}, {10, 0}, {11, 0}, {12, 0}}
	ys := []float64{1, 1, 1, 5, 5, 7}
	m := fitTree(xs, ys, TreeOptions{MaxDepth: 2, MinLeaf: 2}).(*tree)
	if m.leaf || m.feature != 0 || m.threshold != 6.5 {
		t.Fatalf("root = %+v, want a split of feature 0 at 6.5", m)
	}
	if !m.left.leaf || m.left.value != 1 || !m.right.leaf || math.Abs(m.right.value-17.0/3) > 1e-12 {
		t.Errorf("children %+v and %+v, want leaves 1 and 17/3", m.left, m.right)
	}
	// With leaves of one point the right side splits at 11.5 into 5 and 7.
	m = fitTree(xs, ys, TreeOptions{MaxDepth: 2, MinLeaf: 1}).(*tree)
	if r := m.right; r.leaf || r.threshold != 11.5 || r.left.value != 5 || r.right.value != 7 {
		t.Errorf("right = %+v, want a split at 11.5 into 5 and 7", r)
	}
	if got := m.predict([]float64{11.7, 0}); got != 7 {
		t.Errorf("predict(11.7) = %v, want 7", got)
	}
	// Depth 0 is a single leaf at the mean; a constant target never splits.
	if m := fitTree(xs, []float64{2, 2, 2, 2, 2, 2}, TreeOptions{}).(*tree); !m.leaf || m.value != 2 {
		t.Errorf("constant target grew %+v", m)
	}
}

// On an exactly linear target with a wide box and a thin tube the ε-SVR
// recovers the line to within about ε; a narrow box (C) shrinks the slope.
func TestSVRRecoversALine(t *testing.T) {
	var xs [][]float64
	var ys []float64
	for i := range 12 {
		x := []float64{float64(i)/4 - 1.5, float64(i*i%5)/2 - 1}
		xs, ys = append(xs, x), append(ys, 0.5+0.8*x[0]-0.3*x[1])
	}
	m := fitSVR(xs, ys, SVROptions{Epsilon: 1e-3, C: 100}).(ridge)
	if math.Abs(m.w[0]-0.8) > 0.01 || math.Abs(m.w[1]+0.3) > 0.01 || math.Abs(m.b-0.5) > 0.01 {
		t.Errorf("w = %v, b = %v; want 0.8, −0.3 and 0.5", m.w, m.b)
	}
	for i, x := range xs {
		if e := math.Abs(m.predict(x) - ys[i]); e > 2e-3 {
			t.Errorf("point %d is %v outside the tube", i, e)
		}
	}
	small := fitSVR(xs, ys, SVROptions{Epsilon: 1e-3, C: 0.01}).(ridge)
	if math.Abs(small.w[0]) >= 0.7 {
		t.Errorf("C = 0.01 left the slope at %v; the box should shrink it", small.w[0])
	}
	// A tube wider than the data's spread predicts a constant.
	flat := fitSVR(xs, ys, SVROptions{Epsilon: 10, C: 100}).(ridge)
	if flat.w[0] != 0 || flat.w[1] != 0 || flat.b != 0 {
		t.Errorf("ε = 10 still fitted w = %v, b = %v", flat.w, flat.b)
	}
}

func BenchmarkPredictBest(b *testing.B) {
	for b.Loop() {
		if _, _, err := PredictMatrix(workload.OJPPMatrix, workload.OJPPTypes[:6], PredictOptions{Model: "best", Measured: 0.5, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
