package pollux

import (
	"math"
	"math/bits"
	"slices"
)

// epsilon is the artifact's constant in the power mean: a job's term is
// 1/(speedup + ε), so a job with no GPUs (speedup 0) adds 1/ε = 1000 to
// the sum instead of making the mean 0. With it the objective still tells
// allocations apart when some jobs must wait, and it weighs every job left
// without GPUs as heavily as a job whose speedup is ε.
const epsilon = 1e-3

// term is one job's share of Σ 1/(speedup + ε), the quantity that the
// power mean with p = −1 over n jobs, n / Σ 1/(speedup + ε), decreases in.
func term(speedup float64) float64 { return 1 / (max(speedup, 0) + epsilon) }

// options are the GPU counts one job may be given this round and what each
// costs in the objective. The first entry is the count the job holds now,
// so that among equally good allocations the search keeps it.
type options struct {
	count []int
	cost  []float64
}

// prune keeps 0, the current count and each count that beats every smaller
// one it keeps: a count costing no less than a smaller one can always be
// replaced by the smaller one, which leaves GPUs to others.
func prune(cur int, costOf func(a int) float64, maxA int, pinned bool) options {
	var m optionMemory
	return m.prune(cur, costOf, maxA, pinned)
}

// optionMemory holds one round's options back to back, reused from round
// to round (reset) instead of two small slices per job and round.
type optionMemory struct {
	count []int
	cost  []float64
}

func (m *optionMemory) reset() { m.count, m.cost = m.count[:0], m.cost[:0] }

// prune is the package's prune, its options appended to m. A slice it
// returned stays valid when a later call grows m: it keeps the old array.
func (m *optionMemory) prune(cur int, costOf func(a int) float64, maxA int, pinned bool) options {
	from := len(m.count)
	add := func(a int, c float64) {
		m.count = append(m.count, a)
		m.cost = append(m.cost, c)
	}
	add(cur, costOf(cur))
	if !pinned {
		best := math.Inf(1)
		for a := 0; a <= max(maxA, cur); a++ {
			c := costOf(a)
			if a == cur {
				best = min(best, c)
				continue
			}
			if a > maxA || !(c < best) {
				continue
			}
			best = c
			add(a, c)
		}
	}
	return options{count: m.count[from:len(m.count):len(m.count)], cost: m.cost[from:len(m.cost):len(m.cost)]}
}

// solve returns, for each job, the count among its options that minimises
// the sum of the jobs' costs using at most n GPUs in all: an exact dynamic
// program over jobs and GPUs (a knapsack with one choice per job). It takes
// O(jobs · n · options) steps. Ties go to the earlier option (the current
// count first), and the earlier job in the order given.
func solve(jobs []options, n int) []int {
	out, _ := solveUntil(jobs, n, nil)
	return out
}

// solveUntil is solve, calling stop (when not nil) before each job's row
// of the program (jobs × GPUs steps in all, seconds for thousands of
// each) and giving up with its error.
func solveUntil(jobs []options, n int, stop func() error) ([]int, error) {
	var d program
	return d.solveUntil(jobs, n, stop)
}

// program is the dynamic program's memory, kept from round to round (a
// round on a long queue allocated tens of kilobytes).
type program struct {
	best, next []exact
	cost       []exact // one job's option costs, converted
	pick       []int32
}

// solveUntil is the package's solveUntil on d's memory. Two things make a
// row cheaper with the same result: each option runs over the GPU counts
// in turn (the same sums, compared in the same order for each count, so
// the same option wins), and counts above what the jobs so far can use at
// most are copied, as their sums are the same.
//
// The sums are exact (see exact), not rounded at each addition: the
// program then finds the true optimum of the costs, ties broken as the
// doc of solve says, whatever order the jobs' costs are added in. That is
// what lets a round leave out the waiting jobs that cannot get a GPU
// (see pollux.fresh) without changing what the others get.
func (d *program) solveUntil(jobs []options, n int, stop func() error) ([]int, error) {
	if n < 0 {
		n = 0
	}
	w := n + 1
	d.best = slices.Grow(d.best[:0], w)[:w]
	d.next = slices.Grow(d.next[:0], w)[:w]
	d.pick = slices.Grow(d.pick[:0], len(jobs)*w)[:len(jobs)*w]
	// best[g]: least cost of the jobs so far using at most g GPUs; it is
	// the same for every g ≥ reach, the most GPUs those jobs can use.
	best, next := d.best, d.next
	clear(best)
	reach := 0
	for i, o := range jobs {
		if stop != nil {
			if err := stop(); err != nil {
				return nil, err
			}
		}
		row := d.pick[i*w : (i+1)*w]
		most := 0
		for _, a := range o.count {
			most = max(most, a)
		}
		top := min(n, reach+most)
		for g := 0; g <= top; g++ {
			next[g] = infinite
			row[g] = -1
		}
		d.cost = d.cost[:0]
		for _, c := range o.cost {
			d.cost = append(d.cost, toExact(c))
		}
		for k, a := range o.count {
			c0 := d.cost[k]
			for g := a; g <= top; g++ {
				if c := best[g-a].plus(c0); c.less(next[g]) {
					next[g], row[g] = c, int32(k)
				}
			}
		}
		for g := top + 1; g <= n; g++ {
			next[g], row[g] = next[top], row[top]
		}
		reach = top
		best, next = next, best
	}
	out := make([]int, len(jobs))
	g := n
	for i := len(jobs) - 1; i >= 0; i-- {
		k := d.pick[i*w+g]
		if k < 0 { // no option fits; only possible when a job is pinned above n
			out[i] = 0
			continue
		}
		out[i] = jobs[i].count[k]
		g -= out[i]
	}
	return out, nil
}

// exact is a non-negative cost, or a sum of costs, in fixed point with 64
// bits on either side of the point: int + frac/2⁶⁴. A cost of the
// objective, 1/(speedup + ε), lies in (0, 1000], and every float64 from
// 2⁻¹¹ up is a whole number of 2⁻⁶⁴, so the costs convert exactly and
// their sums are exact, in any order (a float64 sum rounds at each
// addition, so the order in which costs are added could decide between
// nearly equal allocations). Costs below 2⁻¹¹ (a speedup above 2,000)
// lose their bits below 2⁻⁶⁴, rounded down.
type exact struct{ int, frac uint64 }

// infinite stands for +Inf (a count the job cannot have; NaN too): 2⁶²,
// above every sum of finite costs (each below 2⁵², and far fewer than
// 2¹⁰ of them that large). A sum with an infinite term is at least
// infinite, so it never wins a comparison with infinite, as +Inf < +Inf
// is false; the program keeps only sums that win one, so its sums are
// finite or infinite itself, and adding two never overflows.
var infinite = exact{int: 1 << 62}

// toExact converts a cost; negative costs (never made) count as 0.
func toExact(c float64) exact {
	if !(c < 0x1p52) { // +Inf, NaN, or beyond any cost
		return infinite
	}
	if !(c > 0) {
		return exact{}
	}
	i := math.Floor(c)
	return exact{int: uint64(i), frac: uint64((c - i) * 0x1p64)} // c − i is exact
}

func (x exact) plus(y exact) exact {
	frac, carry := bits.Add64(x.frac, y.frac, 0)
	return exact{int: x.int + y.int + carry, frac: frac}
}

// less orders sums: the borrow out of x − y.
func (x exact) less(y exact) bool {
	_, borrow := bits.Sub64(x.frac, y.frac, 0)
	_, borrow = bits.Sub64(x.int, y.int, borrow)
	return borrow != 0
}
