package match

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// bruteInt enumerates every assignment of the smaller side and returns the
// best total (least if min, else largest).
func bruteInt(n, m int, c []int64, min bool) int64 {
	best, found := int64(0), false
	usedCol := make([]bool, m)
	var rec func(i, left int, sum int64)
	k := n
	if m < n {
		k = m
	}
	rec = func(i, left int, sum int64) {
		if left == 0 {
			if !found || (min && sum < best) || (!min && sum > best) {
				best, found = sum, true
			}
			return
		}
		if n-i < left {
			return
		}
		// Row i takes a column, or (when rows outnumber columns) sits out.
		for j := 0; j < m; j++ {
			if !usedCol[j] {
				usedCol[j] = true
				rec(i+1, left-1, sum+c[i*m+j])
				usedCol[j] = false
			}
		}
		if n-i-1 >= left {
			rec(i+1, left, sum)
		}
	}
	rec(0, k, 0)
	return best
}

func checkAssignment(t *testing.T, n, m int, c []int64, rowCol []int, total int64) {
	t.Helper()
	seen := make([]bool, m)
	var sum int64
	matched := 0
	for i, j := range rowCol {
		if j < 0 {
			continue
		}
		if seen[j] {
			t.Fatalf("column %d used twice", j)
		}
		seen[j] = true
		sum += c[i*m+j]
		matched++
	}
	if matched != min(n, m) || sum != total {
		t.Fatalf("%d pairs (want %d), sum %d, reported total %d", matched, min(n, m), sum, total)
	}
}

// MinCost and MaxWeight are optimal against enumeration on hundreds of
// random small matrices of every shape, tie-heavy and not.
func TestIntAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	var sv Solver // reused, as placement reuses it
	for trial := 0; trial < 600; trial++ {
		n, m := 1+r.IntN(6), 1+r.IntN(6)
		levels := []int{3, 20, 1000}[trial%3]
		c := make([]int64, n*m)
		for k := range c {
			c[k] = int64(r.IntN(levels)) - int64(levels/4)
		}
		rc, total, err := sv.MinCost(n, m, c)
		if err != nil {
			t.Fatal(err)
		}
		checkAssignment(t, n, m, c, rc, total)
		if want := bruteInt(n, m, c, true); total != want {
			t.Fatalf("trial %d (%d×%d) min: %d, optimum %d", trial, n, m, total, want)
		}
		rc, total, err = sv.MaxWeight(n, m, c)
		if err != nil {
			t.Fatal(err)
		}
		checkAssignment(t, n, m, c, rc, total)
		if want := bruteInt(n, m, c, false); total != want {
			t.Fatalf("trial %d (%d×%d) max: %d, optimum %d", trial, n, m, total, want)
		}
	}
}

func TestIntBadInput(t *testing.T) {
	if _, _, err := MinCostInt(2, 2, []int64{1, 2, 3}); err == nil {
		t.Error("accepted a short matrix")
	}
	if _, _, err := MinCostInt(1, 1, []int64{MaxAbsCost + 1}); err == nil {
		t.Error("accepted a cost beyond the bound")
	}
	if rc, total, err := MinCostInt(3, 0, nil); err != nil || total != 0 || len(rc) != 3 || rc[0] != -1 {
		t.Errorf("3×0: %v %v %v", rc, total, err)
	}
}

// BenchmarkMinCost times the shapes placement uses: 8×8 GPU matchings (one
// per node pair), a 128×128 node matching, and 256×2,750 packing with few
// distinct weights (the tie-heavy slow case of spec 003 §7.3).
func BenchmarkMinCost(b *testing.B) {
	for _, c := range []struct{ n, m, levels int }{{8, 8, 5}, {128, 128, 1 << 20}, {128, 128, 6}, {256, 2750, 1 << 20}, {256, 2750, 20}} {
		b.Run(fmt.Sprintf("%dx%d_levels%d", c.n, c.m, c.levels), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			cost := make([]int64, c.n*c.m)
			for k := range cost {
				cost[k] = int64(r.IntN(c.levels))
			}
			var sv Solver
			for b.Loop() {
				if _, _, err := sv.MinCost(c.n, c.m, cost); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
