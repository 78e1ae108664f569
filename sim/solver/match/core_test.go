package match

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// classicSolve is the textbook form of solve (every column scanned twice
// per step), kept as the reference the faster loop must agree with.
func classicSolve[T int64 | float64](n, m int, cost []T, inf T) []int {
	u, v, minv := make([]T, n+1), make([]T, m+1), make([]T, m+1)
	p, way, used := make([]int, m+1), make([]int, m+1), make([]bool, m+1)
	for i := 1; i <= n; i++ {
		p[0] = i
		j0 := 0
		for j := range minv {
			minv[j], used[j] = inf, false
		}
		for {
			used[j0] = true
			i0, delta, j1 := p[j0], inf, 0
			for j := 1; j <= m; j++ {
				if used[j] {
					continue
				}
				if cur := cost[(i0-1)*m+j-1] - u[i0] - v[j]; cur < minv[j] {
					minv[j], way[j] = cur, j0
				}
				if minv[j] < delta {
					delta, j1 = minv[j], j
				}
			}
			for j := 0; j <= m; j++ {
				if used[j] {
					u[p[j]] += delta
					v[j] -= delta
				} else {
					minv[j] -= delta
				}
			}
			j0 = j1
			if p[j0] == 0 {
				break
			}
		}
		for j0 != 0 {
			j1 := way[j0]
			p[j0] = p[j1]
			j0 = j1
		}
	}
	out := make([]int, n)
	for j := 1; j <= m; j++ {
		if p[j] > 0 {
			out[p[j]-1] = j - 1
		}
	}
	return out
}

// The faster loop returns the classic form's assignment exactly, ties
// included, on integer and float costs (so AlloX's choices and the
// packing pairs did not move when it replaced the classic form).
func TestSolveMatchesClassic(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	var wi workspace[int64]
	var wf workspace[float64]
	for trial := 0; trial < 2000; trial++ {
		n := 1 + r.IntN(12)
		m := n + r.IntN(20)
		levels := []int{2, 3, 10, 1 << 30}[trial%4]
		ci := make([]int64, n*m)
		cf := make([]float64, n*m)
		for k := range ci {
			ci[k] = int64(r.IntN(levels))
			cf[k] = float64(r.IntN(levels))*0.1 + r.Float64()*float64(trial%2)
		}
		if got, want := wi.solve(n, m, ci, 1<<62), classicSolve(n, m, ci, int64(1)<<62); !slices.Equal(got, want) {
			t.Fatalf("trial %d int %d×%d: %v, classic %v", trial, n, m, got, want)
		}
		inf := 1e300
		if got, want := wf.solve(n, m, cf, inf), classicSolve(n, m, cf, inf); !slices.Equal(got, want) {
			t.Fatalf("trial %d float %d×%d: %v, classic %v", trial, n, m, got, want)
		}
	}
}

// BenchmarkSquare times n×n assignments with random costs and with six
// distinct levels (the tie-heavy case), the fast loop against the classic
// form.
func BenchmarkSquare(b *testing.B) {
	for _, n := range []int{128, 256, 512} {
		for _, levels := range []int{1 << 20, 6} {
			r := rand.New(rand.NewPCG(1, 2))
			cost := make([]int64, n*n)
			for k := range cost {
				cost[k] = int64(r.IntN(levels))
			}
			b.Run(fmt.Sprintf("%d_levels%d", n, levels), func(b *testing.B) {
				var sv Solver
				for b.Loop() {
					sv.solve(n, n, cost)
				}
			})
			b.Run(fmt.Sprintf("%d_levels%d_classic", n, levels), func(b *testing.B) {
				for b.Loop() {
					classicSolve(n, n, cost, int64(1)<<62)
				}
			})
		}
	}
}
