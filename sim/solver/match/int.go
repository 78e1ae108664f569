package match

import "fmt"

// MaxAbsCost bounds the integer costs and weights the solvers accept, so
// that potentials and totals (up to n+m costs summed) never overflow.
const MaxAbsCost = int64(1) << 40

// Solver solves integer assignment problems and keeps its buffers between
// calls, so that the many small matchings of a placement step (one per
// node pair) allocate nothing. A Solver is not safe for concurrent use.
type Solver struct {
	ws workspace[int64]
	tr []int64
}

// MinCost assigns the rows and columns of the n×m matrix cost (row-major,
// cost[i*m+j]) one to one, as many pairs as the smaller side has, at least
// total cost. It works for either shape: rowCol[i] is row i's column, or
// -1 when n > m leaves row i out. Integer costs make the result exact and
// identical on every platform; among equally cheap assignments the
// result is deterministic but unspecified, so callers that care about
// ties fold a tie-break into the costs.
func (sv *Solver) MinCost(n, m int, cost []int64) (rowCol []int, total int64, err error) {
	if err := checkInt(n, m, cost); err != nil {
		return nil, 0, err
	}
	if n == 0 || m == 0 {
		return fill(n), 0, nil
	}
	if n <= m {
		rowCol = sv.solve(n, m, cost)
	} else {
		// Transpose: assign each column a row, then invert.
		sv.tr = grow(sv.tr, n*m)
		for i := 0; i < n; i++ {
			for j := 0; j < m; j++ {
				sv.tr[j*n+i] = cost[i*m+j]
			}
		}
		colRow := sv.solve(m, n, sv.tr[:n*m])
		rowCol = fill(n)
		for j, i := range colRow {
			rowCol[i] = j
		}
	}
	for i, j := range rowCol {
		if j >= 0 {
			total += cost[i*m+j]
		}
	}
	return rowCol, total, nil
}

// MaxWeight is MinCost on negated weights: the assignment of the smaller
// side with the largest total weight. For a maximum-weight matching of a
// bipartite graph, give missing edges weight 0 and drop the zero pairs
// from the result (with non-negative weights, padding with zero edges
// does not change the optimum).
func (sv *Solver) MaxWeight(n, m int, weight []int64) (rowCol []int, total int64, err error) {
	if err := checkInt(n, m, weight); err != nil {
		return nil, 0, err
	}
	neg := make([]int64, len(weight))
	for i, w := range weight {
		neg[i] = -w
	}
	rowCol, t, err := sv.MinCost(n, m, neg)
	return rowCol, -t, err
}

// MinCostInt is MinCost with a fresh Solver.
func MinCostInt(n, m int, cost []int64) ([]int, int64, error) {
	var sv Solver
	return sv.MinCost(n, m, cost)
}

// MaxWeightInt is MaxWeight with a fresh Solver.
func MaxWeightInt(n, m int, weight []int64) ([]int, int64, error) {
	var sv Solver
	return sv.MaxWeight(n, m, weight)
}

func checkInt(n, m int, cost []int64) error {
	if n < 0 || m < 0 {
		return fmt.Errorf("match: negative size %d×%d", n, m)
	}
	if len(cost) != n*m {
		return fmt.Errorf("match: %d×%d matrix needs %d costs, got %d", n, m, n*m, len(cost))
	}
	for k, c := range cost {
		if c > MaxAbsCost || c < -MaxAbsCost {
			return fmt.Errorf("match: cost[%d][%d] = %d is beyond ±2^40", k/m, k%m, c)
		}
	}
	return nil
}

func fill(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = -1
	}
	return out
}

func grow[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n)
	}
	return b[:n]
}

// solve is the Hungarian method on integer costs, n ≤ m.
func (sv *Solver) solve(n, m int, cost []int64) []int {
	return sv.ws.solve(n, m, cost, int64(1)<<62)
}
