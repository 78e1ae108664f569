package perf

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"sync"

	"github.com/schedlab/schedlab/sim/workload"
)

// Interference prediction after the OJPP paper's AIP (spec 002 §4): the
// scheduler measures some pairs of job types (its profiling runs) and a
// regression trained on them predicts the rest of the matrix. The paper
// compares linear, SVR, decision-tree and k-NN regression on system
// features it does not list, and picks the one with the lowest mean
// absolute error; here each type is described by what the
// library knows, [α, γ, δ, p], plus a one-hot of its identity (so that a
// linear model can learn how sensitive and how aggressive each type is),
// and a pair (victim a, aggressor b) by [f_a, f_b, f_a ⊙ f_b], standardised.

// PredictModels are the regressors PredictMatrix compares, in the order
// that breaks ties of their leave-one-out errors.
var PredictModels = []string{"linear", "knn", "svr", "tree"}

// PredictOptions configure PredictMatrix.
type PredictOptions struct {
	Model      string  // "linear", "knn", "svr", "tree" or "best" (the lowest leave-one-out error)
	Measured   float64 // share of the off-diagonal cells measured; the diagonal always is
	K          int     // neighbours of k-NN; 0 means 3
	Lambda     float64 // ridge penalty of the linear model; 0 means 1e-3
	SVR        SVROptions
	Tree       TreeOptions
	PredictAll bool   // replace the measured cells by predictions too
	Seed       uint64 // which cells are measured
}

// PredictReport says how well the prediction did.
type PredictReport struct {
	Measured  int     // cells measured (the training set)
	LinearLOO float64 // leave-one-out mean absolute error on the measured cells
	KNNLOO    float64
	SVRLOO    float64
	TreeLOO   float64
	Chosen    string  // the model that filled the matrix
	MAE       float64 // mean absolute error of the whole predicted matrix against the truth
	MAEUnseen float64 // the same over the cells not measured (NaN when all were)
}

// PredictMatrix measures a seeded subset of truth's cells and predicts the
// others. types[i] describes row and column i.
func PredictMatrix(truth [][]float64, types []workload.MemShareType, o PredictOptions) ([][]float64, PredictReport, error) {
	n := len(truth)
	if len(types) != n {
		return nil, PredictReport{}, fmt.Errorf("the matrix has %d rows but %d types", n, len(types))
	}
	if o.K <= 0 {
		o.K = 3
	}
	if o.Lambda <= 0 {
		o.Lambda = 1e-3
	}
	measured := measuredCells(n, o.Measured, o.Seed)
	feats := pairFeatures(types)
	var xs [][]float64
	var ys []float64
	for c := range measured {
		if measured[c] {
			xs, ys = append(xs, feats[c]), append(ys, truth[c/n][c%n])
		}
	}
	rep := PredictReport{Measured: len(ys)}
	fits := map[string]func([][]float64, []float64) predictor{
		"linear": func(tx [][]float64, ty []float64) predictor { return fitRidge(tx, ty, o.Lambda) },
		"knn":    func(tx [][]float64, ty []float64) predictor { return knnPredictor{tx, ty, o.K} },
		"svr":    func(tx [][]float64, ty []float64) predictor { return fitSVR(tx, ty, o.SVR) },
		"tree":   func(tx [][]float64, ty []float64) predictor { return fitTree(tx, ty, o.Tree) },
	}
	scores := cachedLOO(o, truth, types, func() [4]float64 {
		var out [4]float64
		for i, name := range PredictModels {
			out[i] = looMAE(xs, ys, fits[name])
		}
		return out
	})
	loo := []*float64{&rep.LinearLOO, &rep.KNNLOO, &rep.SVRLOO, &rep.TreeLOO}
	rep.Chosen = o.Model
	if o.Model == "" {
		rep.Chosen = "best"
	}
	bestLOO := math.Inf(1)
	for i, name := range PredictModels {
		*loo[i] = scores[i]
		if o.Model == "best" || o.Model == "" {
			if *loo[i] < bestLOO { // ties keep the earlier, simpler model
				bestLOO, rep.Chosen = *loo[i], name
			}
		}
	}
	if rep.Chosen == "best" {
		rep.Chosen = "linear" // fewer than two measured cells: nothing to compare
	}
	fit, ok := fits[rep.Chosen]
	if !ok {
		return nil, PredictReport{}, fmt.Errorf("unknown prediction model %q (want one of %v or best)", o.Model, PredictModels)
	}
	model := fit(xs, ys)
	pred := make([][]float64, n)
	unseen, nUnseen, all := 0.0, 0, 0.0
	for i := range pred {
		pred[i] = make([]float64, n)
		for k := range pred[i] {
			c := i*n + k
			v := max(0, model.predict(feats[c]))
			if measured[c] && !o.PredictAll {
				v = truth[i][k]
			}
			pred[i][k] = v
			e := math.Abs(v - truth[i][k])
			all += e
			if !measured[c] {
				unseen += e
				nUnseen++
			}
		}
	}
	rep.MAE = all / float64(n*n)
	rep.MAEUnseen = math.NaN()
	if nUnseen > 0 {
		rep.MAEUnseen = unseen / float64(nUnseen)
	}
	return pred, rep, nil
}

// looCache keeps the leave-one-out errors of recent trainings. They cost
// far more than the final fit (the SVR's dual converges slowly on these
// correlated features), and a study asks for the same ones many times:
// every policy of one seed measures the same cells. The value is a pure
// function of its key, so sharing it between concurrent runs changes no
// result.
var looCache = struct {
	sync.Mutex
	m map[string][4]float64
}{m: map[string][4]float64{}}

// looCacheSize bounds the cache; it is emptied when full.
const looCacheSize = 512

// cachedLOO returns compute()'s value for these inputs, computing it once.
func cachedLOO(o PredictOptions, truth [][]float64, types []workload.MemShareType, compute func() [4]float64) [4]float64 {
	o.Model, o.PredictAll = "", false // neither changes the scores
	key := fmt.Sprintf("%+v|%v|%+v", o, truth, types)
	looCache.Lock()
	v, ok := looCache.m[key]
	looCache.Unlock()
	if ok {
		return v
	}
	v = compute()
	looCache.Lock()
	if len(looCache.m) >= looCacheSize {
		clear(looCache.m)
	}
	looCache.m[key] = v
	looCache.Unlock()
	return v
}

// measuredCells marks the diagonal and a seeded share of the other cells
// (row-major), in a fixed order so that a seed always picks the same.
func measuredCells(n int, share float64, seed uint64) []bool {
	r := rand.New(rand.NewPCG(seed, 0xa1b))
	m := make([]bool, n*n)
	var off []int
	for c := range m {
		if c/n == c%n {
			m[c] = true
		} else {
			off = append(off, c)
		}
	}
	r.Shuffle(len(off), func(a, b int) { off[a], off[b] = off[b], off[a] })
	for _, c := range off[:int(math.Round(share*float64(len(off))))] {
		m[c] = true
	}
	return m
}

// pairFeatures returns the standardised feature vector of every cell.
func pairFeatures(types []workload.MemShareType) [][]float64 {
	n := len(types)
	f := make([][]float64, n)
	for i, t := range types {
		f[i] = append([]float64{t.Alpha, t.Gamma, t.Delta, t.P}, make([]float64, n)...)
		f[i][4+i] = 1
	}
	out := make([][]float64, n*n)
	for a := range n {
		for b := range n {
			v := append(append([]float64(nil), f[a]...), f[b]...)
			for x := range f[a] {
				v = append(v, f[a][x]*f[b][x])
			}
			out[a*n+b] = v
		}
	}
	standardise(out)
	return out
}

// standardise scales each column to mean 0 and standard deviation 1; a
// constant column becomes 0.
func standardise(xs [][]float64) {
	for c := range xs[0] {
		mean := 0.0
		for _, x := range xs {
			mean += x[c]
		}
		mean /= float64(len(xs))
		sd := 0.0
		for _, x := range xs {
			sd += (x[c] - mean) * (x[c] - mean)
		}
		sd = math.Sqrt(sd / float64(len(xs)))
		for _, x := range xs {
			if sd > 1e-12 {
				x[c] = (x[c] - mean) / sd
			} else {
				x[c] = 0
			}
		}
	}
}

type predictor interface{ predict(x []float64) float64 }

// looMAE is the leave-one-out mean absolute error of a model family.
func looMAE(xs [][]float64, ys []float64, fit func([][]float64, []float64) predictor) float64 {
	if len(ys) < 2 {
		return math.NaN()
	}
	sum := 0.0
	for i := range ys {
		tx := append(append([][]float64(nil), xs[:i]...), xs[i+1:]...)
		ty := append(append([]float64(nil), ys[:i]...), ys[i+1:]...)
		sum += math.Abs(fit(tx, ty).predict(xs[i]) - ys[i])
	}
	return sum / float64(len(ys))
}

// ridge is a linear model y = b + w·x.
type ridge struct {
	b float64
	w []float64
}

func (r ridge) predict(x []float64) float64 {
	y := r.b
	for i, w := range r.w {
		y += w * x[i]
	}
	return y
}

// fitRidge solves (XcᵀXc + λI) w = Xcᵀ(y − ȳ) on centred columns, so the
// intercept is not penalised.
func fitRidge(xs [][]float64, ys []float64, lambda float64) predictor {
	d := len(xs[0])
	mx := make([]float64, d)
	my := 0.0
	for i, x := range xs {
		for c := range d {
			mx[c] += x[c]
		}
		my += ys[i]
	}
	for c := range d {
		mx[c] /= float64(len(xs))
	}
	my /= float64(len(xs))
	a := make([][]float64, d)
	rhs := make([]float64, d)
	for r := range d {
		a[r] = make([]float64, d)
		a[r][r] = lambda
	}
	for i, x := range xs {
		for r := range d {
			xr := x[r] - mx[r]
			rhs[r] += xr * (ys[i] - my)
			for c := range d {
				a[r][c] += xr * (x[c] - mx[c])
			}
		}
	}
	w := solve(a, rhs)
	b := my
	for c := range d {
		b -= w[c] * mx[c]
	}
	return ridge{b: b, w: w}
}

// solve is Gaussian elimination with partial pivoting on a positive
// definite system (ridge keeps it so).
func solve(a [][]float64, b []float64) []float64 {
	n := len(b)
	for col := range n {
		p := col
		for r := col + 1; r < n; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[p][col]) {
				p = r
			}
		}
		a[col], a[p] = a[p], a[col]
		b[col], b[p] = b[p], b[col]
		for r := col + 1; r < n; r++ {
			f := a[r][col] / a[col][col]
			for c := col; c < n; c++ {
				a[r][c] -= f * a[col][c]
			}
			b[r] -= f * b[col]
		}
	}
	x := make([]float64, n)
	for r := n - 1; r >= 0; r-- {
		s := b[r]
		for c := r + 1; c < n; c++ {
			s -= a[r][c] * x[c]
		}
		x[r] = s / a[r][r]
	}
	return x
}

// knnPredictor averages the k nearest training cells (Euclidean; ties by
// training order).
type knnPredictor struct {
	xs [][]float64
	ys []float64
	k  int
}

func (m knnPredictor) predict(x []float64) float64 {
	idx := make([]int, len(m.xs))
	dist := make([]float64, len(m.xs))
	for i, t := range m.xs {
		idx[i] = i
		for c := range t {
			dist[i] += (t[c] - x[c]) * (t[c] - x[c])
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return dist[idx[a]] < dist[idx[b]] })
	k := min(m.k, len(idx))
	sum := 0.0
	for _, i := range idx[:k] {
		sum += m.ys[i]
	}
	return sum / float64(k)
}
