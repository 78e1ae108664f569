package perf

import (
	"math"
	"sort"
)

// The other two regressors the OJPP paper's AIP compares (spec 002 §4.1):
// ε-insensitive support vector regression and a CART regression tree.
// Both are small, deterministic and pure Go, so that the page can train
// them in the browser.

// SVROptions configure the linear ε-SVR (spec §4.2: ε = 0.01, C = 1).
type SVROptions struct {
	Epsilon float64 // half-width of the loss's insensitive tube; 0 means 0.01
	C       float64 // box bound on each dual variable (inverse regularisation); 0 means 1
	Epochs  int     // passes of coordinate descent at most; 0 means 2000
}

func (o SVROptions) withDefaults() SVROptions {
	if o.Epsilon <= 0 {
		o.Epsilon = 0.01
	}
	if o.C <= 0 {
		o.C = 1
	}
	if o.Epochs <= 0 {
		o.Epochs = 2000
	}
	return o
}

// fitSVR trains a linear ε-SVR, y ≈ b + w·x, by dual coordinate descent
// (Ho and Lin, "Large-scale linear support vector regression", JMLR 2012,
// the L1-loss solver of LIBLINEAR): minimise ½βᵀQβ − yᵀβ + ε‖β‖₁ subject
// to −C ≤ βᵢ ≤ C, with Qᵢⱼ = x̃ᵢ·x̃ⱼ and x̃ = [x, 1], so that the bias is
// an ordinary (regularised) weight; then w̃ = Σ βᵢ x̃ᵢ. Each one-variable
// step has a closed form (a soft threshold clipped to the box). Variables
// are visited in training order, so the result is deterministic.
func fitSVR(xs [][]float64, ys []float64, o SVROptions) predictor {
	o = o.withDefaults()
	n, d := len(xs), len(xs[0])+1
	ax := make([][]float64, n)
	for i, x := range xs {
		ax[i] = append(append(make([]float64, 0, d), x...), 1)
	}
	// The Gram matrix makes an epoch O(n²) instead of O(n·d); the
	// gradient g = Qβ − y is kept up to date as β changes.
	q := make([][]float64, n)
	for i := range q {
		q[i] = make([]float64, n)
		for j := range q[i] {
			for c := range d {
				q[i][j] += ax[i][c] * ax[j][c]
			}
		}
	}
	g := make([]float64, n)
	for i := range g {
		g[i] = -ys[i]
	}
	beta := make([]float64, n)
	for range o.Epochs {
		moved := 0.0
		for i := range beta {
			nb := softThreshold(beta[i]-g[i]/q[i][i], o.Epsilon/q[i][i])
			nb = math.Max(-o.C, math.Min(o.C, nb))
			if step := nb - beta[i]; step != 0 {
				for j := range g {
					g[j] += step * q[j][i]
				}
				beta[i] = nb
				moved = math.Max(moved, math.Abs(step)*q[i][i])
			}
		}
		if moved < 1e-6 { // no training prediction moved by more than this
			break
		}
	}
	w := make([]float64, d)
	for i, x := range ax {
		for c, v := range x {
			w[c] += beta[i] * v
		}
	}
	return ridge{b: w[d-1], w: w[:d-1]}
}

// softThreshold is sign(v)·max(|v| − t, 0).
func softThreshold(v, t float64) float64 {
	switch {
	case v > t:
		return v - t
	case v < -t:
		return v + t
	}
	return 0
}

// TreeOptions configure the CART regression tree (spec §4.2: depth ≤ 4,
// leaves of at least 2).
type TreeOptions struct {
	MaxDepth int // splits on a path at most; 0 means 4
	MinLeaf  int // training points a leaf keeps at least; 0 means 2
}

func (o TreeOptions) withDefaults() TreeOptions {
	if o.MaxDepth <= 0 {
		o.MaxDepth = 4
	}
	if o.MinLeaf <= 0 {
		o.MinLeaf = 2
	}
	return o
}

// tree is a CART regression tree: an inner node sends x left when
// x[feature] ≤ threshold; a leaf predicts the mean of its training points.
type tree struct {
	leaf        bool
	value       float64
	feature     int
	threshold   float64
	left, right *tree
}

func (t *tree) predict(x []float64) float64 {
	for !t.leaf {
		if x[t.feature] <= t.threshold {
			t = t.left
		} else {
			t = t.right
		}
	}
	return t.value
}

// fitTree grows a CART tree greedily: each node takes the split that
// lowers the squared error the most (thresholds at midpoints between
// consecutive distinct values; ties keep the lower feature, then the lower
// threshold) and stops at MaxDepth, when no split leaves MinLeaf points on
// both sides, or when no split lowers the error.
func fitTree(xs [][]float64, ys []float64, o TreeOptions) predictor {
	o = o.withDefaults()
	idx := make([]int, len(ys))
	for i := range idx {
		idx[i] = i
	}
	return growTree(xs, ys, idx, o.MaxDepth, o.MinLeaf)
}

func growTree(xs [][]float64, ys []float64, idx []int, depth, minLeaf int) *tree {
	sum := 0.0
	for _, i := range idx {
		sum += ys[i]
	}
	node := &tree{leaf: true, value: sum / float64(len(idx))}
	if depth == 0 || len(idx) < 2*minLeaf {
		return node
	}
	f, thr, ok := bestSplit(xs, ys, idx, minLeaf)
	if !ok {
		return node
	}
	var l, r []int
	for _, i := range idx {
		if xs[i][f] <= thr {
			l = append(l, i)
		} else {
			r = append(r, i)
		}
	}
	return &tree{feature: f, threshold: thr,
		left: growTree(xs, ys, l, depth-1, minLeaf), right: growTree(xs, ys, r, depth-1, minLeaf)}
}

// bestSplit scans every feature's sorted values with running sums; the
// error of a side with n points, sum s and sum of squares q is q − s²/n.
func bestSplit(xs [][]float64, ys []float64, idx []int, minLeaf int) (feature int, threshold float64, ok bool) {
	n := len(idx)
	tot, totSq := 0.0, 0.0
	for _, i := range idx {
		tot, totSq = tot+ys[i], totSq+ys[i]*ys[i]
	}
	best := totSq - tot*tot/float64(n) - 1e-12 // a split must lower the error
	order := append([]int(nil), idx...)
	for f := range xs[idx[0]] {
		sort.SliceStable(order, func(a, b int) bool { return xs[order[a]][f] < xs[order[b]][f] })
		ls, lq := 0.0, 0.0
		for k := 0; k < n-1; k++ {
			y := ys[order[k]]
			ls, lq = ls+y, lq+y*y
			nl := k + 1
			lo, hi := xs[order[k]][f], xs[order[k+1]][f]
			if nl < minLeaf || n-nl < minLeaf || lo == hi {
				continue
			}
			rs, rq := tot-ls, totSq-lq
			sse := lq - ls*ls/float64(nl) + rq - rs*rs/float64(n-nl)
			if sse < best {
				best, feature, threshold, ok = sse, f, (lo+hi)/2, true
			}
		}
	}
	return feature, threshold, ok
}
