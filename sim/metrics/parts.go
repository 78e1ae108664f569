package metrics

import (
	"math"
	"slices"
)

// sortedParts is an ascending list kept as ascending parts whose merge it
// is: a group's JCTs as Stream sorts them, in cells of one model and one
// size, never written out merged. The summaries read what they need (the
// sum in ascending order, the values at a few ranks) in one walk of the
// merge: at a million jobs the merged copies of the models' and sizes'
// lists cost about 30 MB of fresh memory, whose first touch cost more
// than the merging itself. Equal values may come from any part first;
// the sum and the values at each rank are the same either way, so every
// summary equals that of the merged list.
type sortedParts [][]float64

// len is the number of values.
func (p sortedParts) len() int {
	n := 0
	for _, x := range p {
		n += len(x)
	}
	return n
}

// walk calls fn on the values in ascending order with their ranks (from
// 0), picking the smallest head of the parts at each step: there are a
// few parts (two per model at most), so a scan beats a heap. The heads'
// values sit side by side, an exhausted part's as +Inf (JCTs are finite),
// so that the scan reads one small array rather than each part; on a
// tie the first part's head goes first, as before.
func (p sortedParts) walk(fn func(rank int, x float64)) {
	heads := make([]int, len(p))
	cur := make([]float64, len(p))
	for k, part := range p {
		cur[k] = math.Inf(1)
		if len(part) > 0 {
			cur[k] = part[0]
		}
	}
	n := p.len()
	for rank := 0; rank < n; rank++ {
		best, x := 0, cur[0]
		for k := 1; k < len(cur); k++ {
			if cur[k] < x {
				best, x = k, cur[k]
			}
		}
		fn(rank, x)
		h := heads[best] + 1
		heads[best] = h
		if part := p[best]; h < len(part) {
			cur[best] = part[h]
		} else {
			cur[best] = math.Inf(1)
		}
	}
}

// at returns the values at the given ranks, which must be ascending.
func (p sortedParts) at(ranks []int) []float64 {
	out := make([]float64, len(ranks))
	i := 0
	p.walk(func(rank int, x float64) {
		for i < len(ranks) && ranks[i] == rank {
			out[i] = x
			i++
		}
	})
	return out
}

// stats is mean and Percentile 50, 95 and 99 of the merged list, in one
// walk; the list must not be empty.
func (p sortedParts) stats() (avg, p50, p95, p99 float64) {
	n := p.len()
	var ranks []int // the ranks the percentiles read
	for _, q := range []float64{50, 95, 99} {
		lo, _, last := percentileRank(n, q)
		if last {
			ranks = append(ranks, n-1)
		} else {
			ranks = append(ranks, lo, lo+1)
		}
	}
	slices.Sort(ranks)
	ranks = slices.Compact(ranks)
	vals := make([]float64, len(ranks))
	sum, i := 0.0, 0
	p.walk(func(rank int, x float64) {
		sum += x // in ascending order, as mean adds a sorted list
		for i < len(ranks) && ranks[i] == rank {
			vals[i] = x
			i++
		}
	})
	value := func(rank int) float64 {
		k, _ := slices.BinarySearch(ranks, rank)
		return vals[k]
	}
	pct := func(q float64) float64 {
		lo, frac, last := percentileRank(n, q)
		if last {
			return value(n - 1)
		}
		return interpolate(value(lo), value(lo+1), frac)
	}
	return sum / float64(n), pct(50), pct(95), pct(99)
}
