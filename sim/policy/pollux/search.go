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
	order      []int   // the leading jobs with a GPU option, best first (see leading)
	oneCost    []exact // their costs at one GPU
	idx        []int   // scratch for leading

	rows bool // tests: every job by rows, leading not used
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
	// best[g]: least cost of the jobs so far using at most g GPUs; it is
	// the same for every g ≥ reach, the most GPUs those jobs can use.
	best, next := d.best, d.next
	m, reach := d.leading(jobs, best)
	rest := jobs[m:]
	d.pick = slices.Grow(d.pick[:0], len(rest)*w)[:len(rest)*w]
	for i, o := range rest {
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
	for i := len(rest) - 1; i >= 0; i-- {
		k := d.pick[i*w+g]
		if k < 0 { // no option fits; only possible when a job is pinned above n
			out[m+i] = 0
			continue
		}
		out[m+i] = rest[i].count[k]
		g -= out[m+i]
	}
	for _, i := range d.order[:min(g, len(d.order))] {
		out[i] = 1
	}
	return out, nil
}

// leading sets best to what the rows of the leading jobs whose options are
// 0 then 1 GPU (or 0 alone; the waiting jobs that never ran, which come
// first in Pollux's order) would leave in it, without the rows, and
// returns how many jobs that is and the most GPUs they use. Their cost at
// 0 must be the same, A (below 2⁴⁰, so that A times the jobs stays far
// below infinite), and above their cost at 1. With j of them on one
// GPU the least sum is A·(m − j) plus the j least costs at 1, and it only
// falls with j; so best[g] takes the min(g, k) least of the k costs. In
// the rows, the last of these jobs gets a GPU, with g GPUs left to them,
// only if its cost is below the g-th least of the jobs before it, and
// so on back: they take the min(g, k) least, the earlier job first among
// equal costs. d.order lists them in that order for solveUntil.
func (d *program) leading(jobs []options, best []exact) (m, reach int) {
	d.order = d.order[:0]
	d.oneCost = d.oneCost[:0]
	var zero float64
	for m < len(jobs) {
		o := jobs[m]
		if d.rows || len(o.count) == 0 || o.count[0] != 0 || len(o.count) > 2 || (m > 0 && o.cost[0] != zero) || !(o.cost[0] < 0x1p40) {
			break
		}
		if len(o.count) == 2 {
			if o.count[1] != 1 || !(o.cost[1] < o.cost[0]) {
				break
			}
			d.order = append(d.order, m)
			d.oneCost = append(d.oneCost, toExact(o.cost[1]))
		}
		zero = o.cost[0]
		m++
	}
	clear(best)
	if m == 0 {
		return 0, 0
	}
	// By cost at 1 as converted (a conversion that rounds could make two
	// costs equal), then position.
	d.idx = d.idx[:0]
	for i := range d.order {
		d.idx = append(d.idx, i)
	}
	slices.SortFunc(d.idx, func(x, y int) int {
		if d.oneCost[x].less(d.oneCost[y]) {
			return -1
		}
		if d.oneCost[y].less(d.oneCost[x]) {
			return 1
		}
		return x - y
	})
	k := len(d.idx)
	a := toExact(zero)
	sum := exact{}
	for j := 0; j <= min(k, len(best)-1); j++ {
		if j > 0 {
			sum = sum.plus(d.oneCost[d.idx[j-1]])
		}
		best[j] = sum.plus(a.times(uint64(m - j)))
	}
	for g := k + 1; g < len(best); g++ {
		best[g] = best[k]
	}
	for j, x := range d.idx {
		d.idx[j] = d.order[x]
	}
	d.order, d.idx = d.idx, d.order
	return m, min(k, len(best)-1)
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

// times is x·k, exact for the sums the program makes (below 2⁶² in all).
func (x exact) times(k uint64) exact {
	carry, frac := bits.Mul64(x.frac, k)
	return exact{int: x.int*k + carry, frac: frac}
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
