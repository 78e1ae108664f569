package metrics

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"

	"github.com/schedlab/schedlab/sim/engine"
)

// randomRecords makes n records with a few models, sizes and statuses.
func randomRecords(seed uint64, n int) []engine.JobRecord {
	rng := rand.New(rand.NewPCG(seed, 7))
	models := []string{"resnet50", "bert", "yolov3", "ncf", "a3c"}
	recs := make([]engine.JobRecord, n)
	for i := range recs {
		arr := rng.Float64() * 1e5
		r := engine.JobRecord{Job: 0, Model: models[rng.IntN(len(models))], GPUs: 1 << rng.IntN(4), ArrivalS: arr,
			FirstStartS: -1, FinishS: -1, QueueS: -1, GPUSeconds: rng.Float64() * 1e4, Preemptions: rng.IntN(3)}
		switch rng.IntN(10) {
		case 0:
			r.Status = engine.Unschedulable
		case 1:
			r.Status = engine.Pending
		default:
			r.Status = engine.Finished
			r.FirstStartS = arr + float64(rng.IntN(100)) // ties on purpose
			r.FinishS = r.FirstStartS + float64(1+rng.IntN(500))
			r.QueueS = r.FirstStartS - arr
			r.WaitS = r.QueueS
		}
		recs[i] = r
	}
	return recs
}

func TestStreamEqualsSummaries(t *testing.T) {
	for _, n := range []int{0, 1, 7, 1000} {
		recs := randomRecords(uint64(n), n)
		res := &engine.Result{Jobs: recs}
		st := NewStream(n, 4)
		for i := range recs {
			st.Add(&recs[i])
		}
		if got, want := st.Summary(res, 64), Summarize(res, 64); !reflect.DeepEqual(got, want) {
			t.Errorf("n=%d: summary %+v, want %+v", n, got, want)
		}
		if got, want := st.ByModel(), ByModel(recs); !reflect.DeepEqual(got, want) && n > 0 {
			t.Errorf("n=%d: by model %+v, want %+v", n, got, want)
		}
		gs, gl := st.BySize()
		ws, wl := BySize(recs, 4)
		if !reflect.DeepEqual(gs, ws) || !reflect.DeepEqual(gl, wl) {
			t.Errorf("n=%d: by size %+v %+v, want %+v %+v", n, gs, gl, ws, wl)
		}
		all, byModel, small, large := Summaries(res, 64, 4)
		if !reflect.DeepEqual(all, Summarize(res, 64)) || !reflect.DeepEqual(byModel, ByModel(recs)) ||
			!reflect.DeepEqual(small, ws) || !reflect.DeepEqual(large, wl) {
			t.Errorf("n=%d: Summaries differs from Summarize, ByModel and BySize", n)
		}
		x, y := st.CDF(n + 1)
		ex, ey := CDF(recs)
		if len(ex) > 0 && (!reflect.DeepEqual(x, ex) || !reflect.DeepEqual(y, ey)) {
			t.Errorf("n=%d: a CDF with room for every point differs from the exact one", n)
		}
		// thinned, from the walk of the sorted cells, as from the sorted list
		x, y = st.CDF(10)
		if wx, wy := ThinCDF(ex, 10); !reflect.DeepEqual(x, wx) || !reflect.DeepEqual(y, wy) {
			t.Errorf("n=%d: the thinned CDF %v %v, want %v %v", n, x, y, wx, wy)
		}
	}
}

// stepAt is the value at v of a CDF given as points (x ascending, y the
// fraction done by x): the largest y whose x ≤ v, 0 before the first.
func stepAt(x, y []float64, v float64) float64 {
	i := sort.Search(len(x), func(i int) bool { return x[i] > v })
	if i == 0 {
		return 0
	}
	return y[i-1]
}

// TestThinCDFBound checks the stated bound 0 ≤ F(x) − F'(x) ≤ 1/k against
// the exact empirical CDF at every value and between values, with ties.
func TestThinCDFBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct{ n, k, distinct int }{
		{10, 3, 10}, {1000, 100, 1000}, {1000, 100, 7}, {99_999, 1000, 50_000}, {5000, 4999, 5000}, {20, 1, 20},
	} {
		t.Run(fmt.Sprintf("n%d-k%d-d%d", tc.n, tc.k, tc.distinct), func(t *testing.T) {
			v := make([]float64, tc.n)
			for i := range v {
				v[i] = float64(rng.IntN(tc.distinct)) * 1.5
			}
			sort.Float64s(v)
			ex, ey := CDF(recordsOf(v))
			x, y := ThinCDF(v, tc.k)
			if len(x) > tc.k || y[len(y)-1] != 1 {
				t.Fatalf("%d points (at most %d), last fraction %v", len(x), tc.k, y[len(y)-1])
			}
			worst := 0.0
			for _, q := range append(append([]float64(nil), v...), -1, v[len(v)-1]+1, v[0]+0.75) {
				for _, at := range []float64{q, q + 0.75} {
					d := stepAt(ex, ey, at) - stepAt(x, y, at)
					if d < -1e-12 || d > 1/float64(tc.k)+1e-12 {
						t.Fatalf("at %v: exact %v, thinned %v: off by %v, more than 1/k = %v", at, stepAt(ex, ey, at), stepAt(x, y, at), d, 1/float64(tc.k))
					}
					worst = max(worst, d)
				}
			}
			if tc.distinct == tc.n && tc.k < tc.n && worst < 0.5/float64(tc.k) {
				t.Errorf("largest gap %v: the thinning kept more than it says", worst)
			}
		})
	}
}

func recordsOf(jct []float64) []engine.JobRecord {
	recs := make([]engine.JobRecord, len(jct))
	for i, v := range jct {
		recs[i] = engine.JobRecord{Status: engine.Finished, FinishS: v}
	}
	return recs
}
