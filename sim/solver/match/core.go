package match

// workspace holds the buffers of the Hungarian method for costs of type
// T, so that a Solver reuses them between calls.
type workspace[T int64 | float64] struct {
	u, v, minv []T
	p, way     []int
	used       []bool
}

// solve is the Hungarian method with potentials (shortest augmenting
// paths, O(n²·m)) on the row-major n×m matrix cost, n ≤ m: it returns
// each row's column. inf must exceed every reduced cost.
func (w *workspace[T]) solve(n, m int, cost []T, inf T) []int {
	w.u = grow(w.u, n+1)
	w.v = grow(w.v, m+1)
	w.minv = grow(w.minv, m+1)
	w.p = grow(w.p, m+1)
	w.way = grow(w.way, m+1)
	w.used = grow(w.used, m+1)
	u, v, minv, p, way, used := w.u, w.v, w.minv, w.p, w.way, w.used
	clear(u)
	clear(v)
	clear(p)
	clear(way)
	for i := 1; i <= n; i++ {
		p[0] = i
		j0 := 0
		for j := range minv {
			minv[j] = inf
			used[j] = false
		}
		for {
			used[j0] = true
			i0, delta, j1 := p[j0], inf, 0
			row := cost[(i0-1)*m : i0*m]
			for j := 1; j <= m; j++ {
				if used[j] {
					continue
				}
				if cur := row[j-1] - u[i0] - v[j]; cur < minv[j] {
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
