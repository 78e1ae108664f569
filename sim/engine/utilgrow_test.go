package engine

import "testing"

// TestGrowUtilDoublesUpToLimit checks growUtil's room (twice the old,
// at least 1,024, at most the cap but always one more than held) and that
// every step moves across unchanged.
func TestGrowUtilDoublesUpToLimit(t *testing.T) {
	for _, c := range []struct {
		held, limit, want int
	}{
		{3, 100, 100},            // the floor of 1,024 cut to the cap
		{3, 1 << 18, 1024},       // the floor
		{2000, 1 << 18, 4000},    // doubled
		{200000, 262144, 262144}, // doubling would pass the cap
		{9, 3, 10},               // a cap below what is held (thinning comes first): one more
	} {
		u := make([]UtilPoint, c.held)
		for i := range u {
			u[i] = UtilPoint{TimeS: float64(3*i) + 0.5, BusyGPUs: i % 7, Slots: i % 5, BusyGPUSeconds: float64(i * i)}
		}
		g := growUtil(u, c.limit)
		if len(g) != c.held || cap(g) != c.want {
			t.Errorf("growUtil(%d steps, cap %d): len %d cap %d, want len %d cap %d", c.held, c.limit, len(g), cap(g), c.held, c.want)
			continue
		}
		for i := range g {
			if g[i] != u[i] {
				t.Fatalf("growUtil(%d steps): step %d is %+v, was %+v", c.held, i, g[i], u[i])
			}
		}
		if &g[0] == &u[0] {
			t.Errorf("growUtil(%d steps) returned the full array itself", c.held)
		}
	}
}
