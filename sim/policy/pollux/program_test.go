package pollux

import (
	"math"
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
