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
	for _, model := range []string{"linear", "knn", "best"} {
		_, rep, err := PredictMatrix(truth, types, PredictOptions{Model: model, Measured: 0.5, Seed: 1})
		if err != nil || math.IsNaN(rep.MAE) || rep.MAE <= 0 || rep.Measured != 21 {
			t.Fatalf("%s: %+v, %v", model, rep, err)
		}
		t.Logf("%s: %+v", model, rep)
	}
	if _, _, err := PredictMatrix(truth, types[:5], PredictOptions{}); err == nil {
		t.Error("a type list of the wrong length must be refused")
	}
}
