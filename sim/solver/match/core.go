package match

// workspace holds the buffers of the Hungarian method for costs of type
// T, so that a Solver reuses them between calls.
type workspace[T int64 | float64] struct {
	u, v, minv  []T
	p, way      []int
	free, taken []int
	stop        func() bool // asked before each row: give up (nil result) when true
}

// solve is the Hungarian method with potentials (shortest augmenting
// paths, O(n²·m)) on the row-major n×m matrix cost, n ≤ m: it returns
// each row's column. inf must exceed every reduced cost.
//
// Each search step makes one pass over the columns not yet in the
// search tree, kept in increasing order in free, and one over the columns
// in the tree, kept in taken; the classic form scans all m columns twice
// per step. Every value gets the classic form's operations in the same
// order, and the first minimum still wins ties, so both give the same
// assignment, bit for bit, on float costs too.
func (w *workspace[T]) solve(n, m int, cost []T, inf T) []int {
	w.u = grow(w.u, n+1)
	w.v = grow(w.v, m+1)
	w.minv = grow(w.minv, m+1)
	w.p = grow(w.p, m+1)
	w.way = grow(w.way, m+1)
	w.free = grow(w.free, m)
	w.taken = grow(w.taken, m+1)
	u, v, minv, p, way := w.u, w.v, w.minv, w.p, w.way
	clear(u)
	clear(v)
	clear(p)
	clear(way)
	for i := 1; i <= n; i++ {
		if w.stop != nil && w.stop() {
			return nil
		}
		p[0] = i
		j0 := 0
		free := w.free[:m]
		for k := range free {
			free[k] = k + 1
			minv[k+1] = inf
		}
		taken := append(w.taken[:0], 0)
		// Each step lowers the minv of the columns outside the tree by the
		// previous step's delta (lower) and drops the column the previous
		// step took (drop) in the same pass as its scan.
		lower, drop := T(0), -1
		for {
			i0, delta, j1 := p[j0], inf, 0
			row := cost[(i0-1)*m : i0*m]
			ui := u[i0]
			k := 0
			for _, j := range free {
				if j == drop {
					continue
				}
				mv := minv[j] - lower
				if cur := row[j-1] - ui - v[j]; cur < mv {
					mv, way[j] = cur, j0
				}
				minv[j] = mv
				if mv < delta {
					delta, j1 = mv, j
				}
				free[k] = j
				k++
			}
			free = free[:k]
			for _, j := range taken {
				u[p[j]] += delta
				v[j] -= delta
			}
			lower, drop = delta, j1
			taken = append(taken, j1)
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
