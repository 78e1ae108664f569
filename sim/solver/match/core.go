package match

// workspace holds the buffers of the Hungarian method for costs of type
// T, so that a Solver reuses them between calls.
type workspace[T int64 | float64] struct {
	u, v, minv  []T
	p, way      []int
	free, taken []int
}

// solve is the Hungarian method with potentials (shortest augmenting
// paths, O(n²·m)) on the row-major n×m matrix cost, n ≤ m: it returns
// each row's column. inf must exceed every reduced cost.
//
// Each search step visits only the columns not yet in the search tree,
// kept in increasing order in free, and the columns in the tree, kept in
// taken; the classic form scans all m columns twice per step. The
// arithmetic, its order and the first-minimum tie-break are the classic
// form's, so both give the same assignment, bit for bit, on float costs
// too.
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
		p[0] = i
		j0 := 0
		free := w.free[:m]
		for k := range free {
			free[k] = k + 1
			minv[k+1] = inf
		}
		taken := append(w.taken[:0], 0)
		for {
			i0, delta, j1 := p[j0], inf, 0
			row := cost[(i0-1)*m : i0*m]
			ui := u[i0]
			for _, j := range free {
				if cur := row[j-1] - ui - v[j]; cur < minv[j] {
					minv[j], way[j] = cur, j0
				}
				if minv[j] < delta {
					delta, j1 = minv[j], j
				}
			}
			for _, j := range taken {
				u[p[j]] += delta
				v[j] -= delta
			}
			// Lower the rest by delta and move j1 into the tree (its own
			// minv is never read again in this row).
			k := 0
			for _, j := range free {
				if j != j1 {
					minv[j] -= delta
					free[k] = j
					k++
				}
			}
			free = free[:k]
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
