// Package match solves the assignment problem: given an n×m cost matrix
// with n ≤ m, assign each row a distinct column at least total cost
// (the Hungarian method with potentials, O(n²·m)). AlloX uses it to put
// jobs in positions of GPU queues; Tesserae uses the integer form
// (MinCost, MaxWeight on int64 costs, any shape) for migration and
// packing matchings.
package match

import (
	"fmt"
	"math"
)

// Assign returns, for each row, its column, and the total cost. Costs
// must be finite; n ≤ m.
func Assign(cost [][]float64) ([]int, float64, error) {
	n := len(cost)
	if n == 0 {
		return nil, 0, nil
	}
	m := len(cost[0])
	if n > m {
		return nil, 0, fmt.Errorf("match: %d rows but only %d columns", n, m)
	}
	for i, row := range cost {
		if len(row) != m {
			return nil, 0, fmt.Errorf("match: row %d has %d columns, not %d", i, len(row), m)
		}
		for _, c := range row {
			if math.IsNaN(c) || math.IsInf(c, 0) {
				return nil, 0, fmt.Errorf("match: row %d has cost %v", i, c)
			}
		}
	}
	// 1-based potentials u (rows), v (columns); p[j] is the row matched to
	// column j (0 = none); way[j] the previous column on the path.
	u := make([]float64, n+1)
	v := make([]float64, m+1)
	p := make([]int, m+1)
	way := make([]int, m+1)
	minv := make([]float64, m+1)
	used := make([]bool, m+1)
	for i := 1; i <= n; i++ {
		p[0] = i
		j0 := 0
		for j := range minv {
			minv[j] = math.Inf(1)
			used[j] = false
		}
		for {
			used[j0] = true
			i0, delta, j1 := p[j0], math.Inf(1), 0
			for j := 1; j <= m; j++ {
				if used[j] {
					continue
				}
				cur := cost[i0-1][j-1] - u[i0] - v[j]
				if cur < minv[j] {
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
	total := 0.0
	for j := 1; j <= m; j++ {
		if p[j] > 0 {
			out[p[j]-1] = j - 1
			total += cost[p[j]-1][j-1]
		}
	}
	return out, total, nil
}
