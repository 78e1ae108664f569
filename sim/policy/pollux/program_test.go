package pollux

import (
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

// solveByRows is the dynamic program as it was written first: every GPU
// count of every row, each trying every option. program.solveUntil must
// pick the same options to the bit, ties included.
func solveByRows(jobs []options, n int) []int {
	if n < 0 {
		n = 0
	}
	best := make([]float64, n+1)
	next := make([]float64, n+1)
	w := n + 1
	pick := make([]int32, len(jobs)*w)
	for i, o := range jobs {
		row := pick[i*w : (i+1)*w]
		for g := 0; g <= n; g++ {
			next[g] = math.Inf(1)
			row[g] = -1
			for k, a := range o.count {
				if a > g {
					continue
				}
				if c := best[g-a] + o.cost[k]; c < next[g] {
					next[g], row[g] = c, int32(k)
				}
			}
		}
		best, next = next, best
	}
	out := make([]int, len(jobs))
	g := n
	for i := len(jobs) - 1; i >= 0; i-- {
		k := pick[i*w+g]
		if k < 0 {
			out[i] = 0
			continue
		}
		out[i] = jobs[i].count[k]
		g -= out[i]
	}
	return out
}

// On random instances shaped like Pollux's (the current count first, 0,
// then growing counts; integer costs so that ties are common; some +Inf;
// some jobs pinned to a count above the GPUs), one program reused across
// instances of different sizes picks what the row-by-row program picks.
func TestProgramMatchesRowByRow(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var d program
	for trial := range 3000 {
		nJobs, n := 1+rng.IntN(12), rng.IntN(20)
		jobs := make([]options, nJobs)
		for i := range jobs {
			cur := rng.IntN(5)
			if rng.IntN(10) == 0 {
				jobs[i] = options{count: []int{n + 1 + rng.IntN(3)}, cost: []float64{float64(rng.IntN(5))}}
				continue
			}
			jobs[i].count = append(jobs[i].count, cur)
			jobs[i].cost = append(jobs[i].cost, float64(rng.IntN(6)))
			for a := 0; a < 1+rng.IntN(8); a++ {
				if a == cur {
					continue
				}
				c := float64(rng.IntN(6))
				if rng.IntN(8) == 0 {
					c = math.Inf(1)
				}
				jobs[i].count = append(jobs[i].count, a)
				jobs[i].cost = append(jobs[i].cost, c)
			}
		}
		got, err := d.solveUntil(jobs, n, nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := solveByRows(jobs, n); !slices.Equal(got, want) {
			t.Fatalf("trial %d (%d GPUs, %+v): got %v, the row-by-row program %v", trial, n, jobs, got, want)
		}
	}
}

// bestExactly is the allocation the program must find, by trying every
// combination: the least sum of costs, summed exactly (as rationals), over
// combinations of at most n GPUs; among equal sums, the one whose last
// job has the earliest option, then the job before it, and so on (see
// solve).
func bestExactly(jobs []options, n int) []int {
	var best *big.Rat
	var bestPick []int
	pick := make([]int, len(jobs))
	var try func(i, used int)
	try = func(i, used int) {
		if i == len(jobs) {
			sum := new(big.Rat)
			for j, k := range pick {
				c := jobs[j].cost[k]
				if math.IsInf(c, 1) {
					return
				}
				sum.Add(sum, new(big.Rat).SetFloat64(c))
			}
			better := best == nil || sum.Cmp(best) < 0
			if !better && sum.Cmp(best) == 0 {
				for j := len(pick) - 1; j >= 0; j-- {
					if pick[j] != bestPick[j] {
						better = pick[j] < bestPick[j]
						break
					}
				}
			}
			if better {
				best, bestPick = sum, slices.Clone(pick)
			}
			return
		}
		for k, a := range jobs[i].count {
			if used+a <= n {
				pick[i] = k
				try(i+1, used+a)
			}
		}
	}
	try(0, 0)
	if bestPick == nil {
		return nil // no combination fits
	}
	out := make([]int, len(jobs))
	for i, k := range bestPick {
		out[i] = jobs[i].count[k]
	}
	return out
}

// The program's sums are exact: on costs drawn from a few values of
// Pollux's kind (1/(speedup + ε), where float64 sums round differently in
// different orders, so that many allocations tie exactly and others
// differ in the last bits), it finds the exact optimum with the ties
// broken as solve says, which a program summing in float64 does not.
func TestProgramSumsExactly(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	pool := []float64{term(0), term(0.1), term(0.25 * 0.7), term(0.25 * 0.7000000000000001), term(0.3), term(1.7), 0.1, 0.2, 0.3}
	var d program
	checked := 0
	defer func() {
		if checked < 2000 {
			t.Errorf("only %d instances had a solution", checked)
		}
	}()
	for trial := range 3000 {
		nJobs, n := 1+rng.IntN(7), rng.IntN(6)
		jobs := make([]options, nJobs)
		for i := range jobs {
			cur := rng.IntN(min(3, n+1))
			jobs[i].count = append(jobs[i].count, cur)
			jobs[i].cost = append(jobs[i].cost, pool[rng.IntN(len(pool))])
			for a := 0; a < 1+rng.IntN(4); a++ {
				if a == cur {
					continue
				}
				c := pool[rng.IntN(len(pool))]
				if rng.IntN(8) == 0 {
					c = math.Inf(1)
				}
				jobs[i].count = append(jobs[i].count, a)
				jobs[i].cost = append(jobs[i].cost, c)
			}
		}
		got, err := d.solveUntil(jobs, n, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := bestExactly(jobs, n)
		if want == nil {
			continue // infeasible: what the program gives then is TestProgramMatchesRowByRow's
		}
		checked++
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d (%d GPUs, %+v): got %v, the exact optimum %v", trial, n, jobs, got, want)
		}
	}
}

// Costs convert to fixed point exactly, and sums carry across the point.
func TestExactSums(t *testing.T) {
	for _, c := range []float64{0, 1000, term(0), term(0.3), 0.1, 0x1p-11, 3.5, 0x1p51} {
		x := toExact(c)
		if back := float64(x.int) + float64(x.frac)*0x1p-64; back != c {
			t.Errorf("%v converts to %v, back %v", c, x, back)
		}
	}
	if got, want := toExact(0.75).plus(toExact(0.5)), (exact{int: 1, frac: 1 << 62}); got != want {
		t.Errorf("0.75 + 0.5 = %v, want %v", got, want)
	}
	// 0.1 + 0.2 as exact binary fractions is not 0.3's, nor their float64 sum.
	if s := toExact(0.1).plus(toExact(0.2)); s == toExact(0.3) || s == toExact(0.1+0.2) {
		t.Errorf("0.1 + 0.2 summed exactly gave %v", s)
	}
	if !toExact(5).less(infinite) || infinite.less(infinite) || toExact(math.NaN()) != infinite || toExact(math.Inf(1)) != infinite ||
		toExact(7).plus(infinite).less(infinite) || infinite.plus(infinite).less(infinite) || toExact(0x1p52) != infinite {
		t.Error("infinite is not +Inf")
	}
	if !toExact(2.5).less(toExact(3)) || !toExact(2.25).less(toExact(2.5)) || toExact(2.5).less(toExact(2.5)) || toExact(3).less(toExact(2.75)) {
		t.Error("less does not order sums")
	}
}

// zeroOneFirst is a random instance whose first jobs have options 0 then
// 1 GPU (or 0 alone) at one cost for 0, as the waiting jobs that never ran
// come first in a round, followed by jobs of any options: costs from a
// few values, so that ties are common.
func zeroOneFirst(rng *rand.Rand, nJobs, n int) []options {
	pool := []float64{term(0.1), term(0.25 * 0.7), term(0.25 * 0.7000000000000001), term(0.3), term(1.7), 0.1, 0.2, 0.3}
	lead := rng.IntN(nJobs + 1)
	jobs := make([]options, nJobs)
	for i := range jobs {
		if i < lead {
			jobs[i] = options{count: []int{0}, cost: []float64{term(0)}}
			if rng.IntN(5) > 0 {
				jobs[i].count = append(jobs[i].count, 1)
				jobs[i].cost = append(jobs[i].cost, pool[rng.IntN(len(pool))])
			}
			continue
		}
		cur := rng.IntN(min(3, n+1))
		jobs[i].count = append(jobs[i].count, cur)
		jobs[i].cost = append(jobs[i].cost, pool[rng.IntN(len(pool))])
		for a := range 1 + rng.IntN(4) {
			if a != cur {
				jobs[i].count = append(jobs[i].count, a)
				jobs[i].cost = append(jobs[i].cost, []float64{term(0), pool[rng.IntN(len(pool))]}[min(a, 1)])
			}
		}
	}
	return jobs
}

// The leading jobs with options 0 and 1 GPU, set in one step (leading),
// get what the rows would give them, and the jobs after them too: against
// the exact optimum on small instances, and against the same program
// going by rows on larger ones.
func TestLeadingZeroOneJobs(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 13))
	var d, byRows program
	byRows.rows = true
	for trial := range 3000 {
		nJobs, n := 1+rng.IntN(7), rng.IntN(6)
		if trial%2 == 1 {
			nJobs, n = 1+rng.IntN(60), rng.IntN(25)
		}
		jobs := zeroOneFirst(rng, nJobs, n)
		got, err := d.solveUntil(jobs, n, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := byRows.solveUntil(jobs, n, nil)
		if err != nil {
			t.Fatal(err)
		}
		if trial%2 == 0 {
			if exact := bestExactly(jobs, n); exact != nil && !slices.Equal(got, exact) {
				t.Fatalf("trial %d (%d GPUs, %+v): got %v, the exact optimum %v", trial, n, jobs, got, exact)
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d (%d GPUs, %+v): got %v, by rows %v", trial, n, jobs, got, want)
		}
	}
}
