package tesserae

import (
	"math/rand/v2"

	"github.com/schedlab/schedlab/sim/policy/tesserae/pack"
)

// clone copies a table's values so that an estimator can change them.
func clone(t *pack.Table) *pack.Table {
	out := *t
	out.T = make([][][]float64, len(t.T))
	for c := range t.T {
		out.T[c] = make([][]float64, len(t.T[c]))
		for i := range t.T[c] {
			out.T[c][i] = append([]float64(nil), t.T[c][i]...)
		}
	}
	return &out
}

// linear is Sia's linear model (spec 003 §4.2): only 1-GPU pairs are
// profiled, and a pair of k-GPU jobs is believed to keep the 1-GPU
// normalised throughputs. Pairs with no 1-GPU profile (the language
// models) keep their own values.
func linear(t *pack.Table) *pack.Table {
	out := clone(t)
	if len(t.GPUs) == 0 || t.GPUs[0] != 1 {
		return out
	}
	for c := 1; c < len(t.T); c++ {
		for i := range t.T[c] {
			for j := range t.T[c][i] {
				if t.T[0][i][j] > 0 && t.T[0][j][i] > 0 && t.T[c][i][j] > 0 {
					out.T[c][i][j] = t.T[0][i][j]
				}
			}
		}
	}
	return out
}

// completed is matrix completion (Gavel, Quasar; spec 003 §4.2): per GPU
// count, each measured unordered pair is profiled with probability
// budget; the others are estimated by a rank-1 fit T[i][j] ≈ u[i]·v[j] to
// the profiled entries (alternating least squares). Which pairs cannot
// share at all (0: out of memory or never measured) is taken as known.
func completed(t *pack.Table, budget float64, seed uint64) *pack.Table {
	r := rand.New(rand.NewPCG(seed, 0xc0ffee))
	out := clone(t)
	for c := range t.T {
		m := t.T[c]
		n := len(m)
		seen := make([][]bool, n)
		for i := range seen {
			seen[i] = make([]bool, n)
		}
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				if r.Float64() < budget {
					seen[i][j], seen[j][i] = true, true
				}
			}
		}
		u, v := rank1(m, seen)
		for i := range m {
			for j := range m[i] {
				if m[i][j] > 0 && !seen[i][j] {
					out.T[c][i][j] = max(0, u[i]*v[j])
				}
			}
		}
	}
	return out
}

// rank1 fits m[i][j] ≈ u[i]·v[j] over the profiled, measured entries.
// Rows or columns with none keep the mean of all of them.
func rank1(m [][]float64, seen [][]bool) (u, v []float64) {
	n := len(m)
	u, v = make([]float64, n), make([]float64, n)
	sum, cnt := 0.0, 0
	for i := range m {
		for j := range m[i] {
			if seen[i][j] && m[i][j] > 0 {
				sum += m[i][j]
				cnt++
			}
		}
	}
	mean := 1.0
	if cnt > 0 {
		mean = sum / float64(cnt)
	}
	for i := range u {
		u[i], v[i] = 1, mean
	}
	for it := 0; it < 50; it++ {
		fit(m, seen, u, v, false)
		fit(m, seen, v, u, true)
	}
	return u, v
}

// fit sets each x[a] to the least-squares factor against y over row a
// (or column a when transposed).
func fit(m [][]float64, seen [][]bool, x, y []float64, transposed bool) {
	for a := range x {
		num, den := 0.0, 0.0
		for b := range y {
			i, j := a, b
			if transposed {
				i, j = b, a
			}
			if seen[i][j] && m[i][j] > 0 {
				num += m[i][j] * y[b]
				den += y[b] * y[b]
			}
		}
		if den > 0 {
			x[a] = num / den
		}
	}
}
