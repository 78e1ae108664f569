// Package match solves the assignment problem: given an n×m cost matrix
// with n ≤ m, assign each row a distinct column at least total cost
// (the Hungarian method with potentials, O(n²·m)). AlloX uses it to put
// jobs in positions of GPU queues; Tesserae uses the integer form
// (MinCost, MaxWeight on int64 costs, any shape) for migration and
// packing matchings.
package match

import (
	"errors"
	"fmt"
	"math"
)

// ErrStopped is AssignUntil's error when its stop function said so.
var ErrStopped = errors.New("the matching was stopped")

// Assign returns, for each row, its column, and the total cost. Costs
// must be finite; n ≤ m.
func Assign(cost [][]float64) ([]int, float64, error) {
	return AssignUntil(cost, nil)
}

// AssignUntil is Assign, asking stop (when not nil) before each row's
// search (n²·m steps in all, seconds for a few hundred rows), and giving
// up with ErrStopped when it returns true.
func AssignUntil(cost [][]float64, stop func() bool) ([]int, float64, error) {
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
	flat := make([]float64, 0, n*m)
	for _, row := range cost {
		if stop != nil && stop() {
			return nil, 0, ErrStopped
		}
		flat = append(flat, row...)
	}
	w := workspace[float64]{stop: stop}
	out := w.solve(n, m, flat, math.Inf(1))
	if out == nil {
		return nil, 0, ErrStopped
	}
	// The total adds the costs in column order, as it always has.
	colRow := make([]int, m)
	for j := range colRow {
		colRow[j] = -1
	}
	for i, j := range out {
		colRow[j] = i
	}
	total := 0.0
	for j, i := range colRow {
		if i >= 0 {
			total += cost[i][j]
		}
	}
	return out, total, nil
}
