package match

import (
	"math"
	"math/rand/v2"
	"testing"
)

func brute(cost [][]float64) float64 {
	n, m := len(cost), len(cost[0])
	best := math.Inf(1)
	used := make([]bool, m)
	var rec func(i int, sum float64)
	rec = func(i int, sum float64) {
		if i == n {
			best = math.Min(best, sum)
			return
		}
		for j := 0; j < m; j++ {
			if !used[j] {
				used[j] = true
				rec(i+1, sum+cost[i][j])
				used[j] = false
			}
		}
	}
	rec(0, 0)
	return best
}

// The assignment is optimal (against enumeration) and a matching.
func TestAssignAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for trial := 0; trial < 300; trial++ {
		n := 1 + r.IntN(5)
		m := n + r.IntN(3)
		cost := make([][]float64, n)
		for i := range cost {
			cost[i] = make([]float64, m)
			for j := range cost[i] {
				cost[i][j] = float64(r.IntN(20)) - 5
			}
		}
		cols, total, err := Assign(cost)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int]bool{}
		sum := 0.0
		for i, j := range cols {
			if seen[j] {
				t.Fatalf("column %d used twice", j)
			}
			seen[j] = true
			sum += cost[i][j]
		}
		if want := brute(cost); math.Abs(total-want) > 1e-9 || math.Abs(sum-total) > 1e-9 {
			t.Fatalf("trial %d: total %v (sum %v), optimum %v", trial, total, sum, want)
		}
	}
	if _, _, err := Assign([][]float64{{1}, {2}}); err == nil {
		t.Error("accepted more rows than columns")
	}
	if _, _, err := Assign([][]float64{{math.NaN()}}); err == nil {
		t.Error("accepted a NaN cost")
	}
}

// TestAssignUntil: a matching stopped at once, or after k rows, gives up
// with ErrStopped; one never stopped is Assign's, asked once per row.
func TestAssignUntil(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	cost := make([][]float64, 6)
	for i := range cost {
		cost[i] = make([]float64, 9)
		for j := range cost[i] {
			cost[i][j] = float64(r.IntN(50))
		}
	}
	want, wantTotal, _ := Assign(cost)
	asked := 0
	got, total, err := AssignUntil(cost, func() bool { asked++; return false })
	if err != nil || total != wantTotal || len(got) != len(want) {
		t.Fatalf("never stopped: %v %v %v, want %v %v", got, total, err, want, wantTotal)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("never stopped: %v, want %v", got, want)
		}
	}
	if asked != 2*len(cost) { // copying each row, then searching from it
		t.Errorf("asked %d times for %d rows", asked, len(cost))
	}
	for _, after := range []int{0, 3, 8} {
		asked = 0
		if _, _, err := AssignUntil(cost, func() bool { asked++; return asked > after }); err != ErrStopped {
			t.Errorf("stopped after %d questions: %v", after, err)
		}
	}
}
