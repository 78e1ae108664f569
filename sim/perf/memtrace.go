package perf

import (
	"math/rand/v2"
	"sort"
)

// Memory traces and profiling after the OJPP paper's Figs. 1 and 2 (spec
// 002 §6.1, §6.2): a worker's memory over time under the ⟨γ, δ, p⟩ model,
// and the tuple estimated back from random samples, as the paper profiles
// each job (100 samples on a P40).

// MemoryTrace returns n ticks of a worker's memory (fractions of a GPU):
// γ, plus δ while it peaks. Mode "bernoulli" peaks independently each tick
// with probability p (the paper's model); "square" peaks for the first
// round(p·period) ticks of every period, from a random phase (closer to a
// real training loop's cycle). Deterministic per seed.
func MemoryTrace(gamma, delta, p float64, n int, mode string, period int, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 0x3e3))
	out := make([]float64, n)
	high := int(p*float64(period) + 0.5)
	phase := 0
	if period > 0 {
		phase = r.IntN(period)
	}
	for t := range out {
		peak := false
		if mode == "square" && period > 0 {
			peak = (t+phase)%period < high
		} else {
			peak = r.Float64() < p
		}
		out[t] = gamma
		if peak {
			out[t] += delta
		}
	}
	return out
}

// ProfileTuple estimates ⟨γ, δ, p⟩ from memory samples (spec 002 §6.2):
// split them in two by 1-D 2-means, γ is the mean of the low cluster, δ
// the largest high sample minus γ and p the share of high samples. With
// no spread at all the worker never peaks.
func ProfileTuple(samples []float64) (gamma, delta, p float64) {
	xs := append([]float64(nil), samples...)
	sort.Float64s(xs)
	if len(xs) == 0 || xs[0] == xs[len(xs)-1] {
		if len(xs) == 0 {
			return 0, 0, 0
		}
		return xs[0], 0, 0
	}
	lo, hi := xs[0], xs[len(xs)-1]
	split := 0
	for range 100 { // Lloyd's iterations on sorted data: a threshold moves
		mid := (lo + hi) / 2
		split = sort.SearchFloat64s(xs, mid+1e-12)
		if split == 0 || split == len(xs) {
			break
		}
		nlo, nhi := mean(xs[:split]), mean(xs[split:])
		if nlo == lo && nhi == hi {
			break
		}
		lo, hi = nlo, nhi
	}
	gamma = mean(xs[:split])
	return gamma, xs[len(xs)-1] - gamma, float64(len(xs)-split) / float64(len(xs))
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// CollisionShare is the share of ticks at which at least two of the
// traces are at their peak (above their own minimum), Fig. 1's collisions.
func CollisionShare(traces ...[]float64) float64 {
	if len(traces) == 0 || len(traces[0]) == 0 {
		return 0
	}
	base := make([]float64, len(traces))
	for i, tr := range traces {
		base[i] = tr[0]
		for _, x := range tr {
			base[i] = min(base[i], x)
		}
	}
	hits := 0
	for t := range traces[0] {
		n := 0
		for i, tr := range traces {
			if tr[t] > base[i]+1e-12 {
				n++
			}
		}
		if n >= 2 {
			hits++
		}
	}
	return float64(hits) / float64(len(traces[0]))
}
