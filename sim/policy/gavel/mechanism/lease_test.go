package mechanism

import (
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
)

// TestMostFreeFirstIsStableSort: the counting sort gives the order of a
// stable sort by free GPUs, most first, without the servers that have
// none, on random servers of up to 9 GPUs.
func TestMostFreeFirstIsStableSort(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 2000 {
		free := make([]int, 1+r.IntN(60))
		most := r.IntN(10)
		for id := range free {
			free[id] = r.IntN(most + 1)
		}
		srvs := make([]cluster.ServerID, len(free))
		for i := range srvs {
			srvs[i] = cluster.ServerID(i)
		}
		r.Shuffle(len(srvs), func(a, b int) { srvs[a], srvs[b] = srvs[b], srvs[a] })
		srvs = srvs[:r.IntN(len(srvs)+1)]

		want := slices.Clone(srvs)
		sort.SliceStable(want, func(a, b int) bool { return free[want[a]] > free[want[b]] })
		for len(want) > 0 && free[want[len(want)-1]] == 0 {
			want = want[:len(want)-1]
		}
		if got := slices.Collect(mostFreeFirst(srvs, free, most)); !slices.Equal(got, want) {
			t.Fatalf("trial %d: free %v, servers %v: got %v, want %v", trial, free, srvs, got, want)
		}
	}
}

// TestByTypeAndSizeIsStableSort: the two counting sorts give, as indices
// into the entries, which they leave in place, the order of
// a stable sort by type, then size, largest first, on random rounds of up
// to 80 entries of up to 4 types and sizes 1–16 (order tells equals
// apart).
func TestByTypeAndSizeIsStableSort(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := range 2000 {
		m := Mechanism{gpu: gpuTypes{types: make([]string, 1+r.IntN(4))}}
		chosen := make([]entry, r.IntN(81))
		sizes := []int{1, 2, 4, 8, 3, 16}[:1+r.IntN(6)]
		for i := range chosen {
			chosen[i] = entry{j: r.IntN(len(m.gpu.types)), sf: sizes[r.IntN(len(sizes))], order: i}
		}
		want := slices.Clone(chosen)
		slices.SortStableFunc(want, func(a, b entry) int {
			if a.j != b.j {
				return a.j - b.j
			}
			return b.sf - a.sf
		})
		before := slices.Clone(chosen)
		order := m.byTypeAndSize(chosen)
		got := make([]entry, 0, len(order))
		for _, i := range order {
			got = append(got, chosen[i])
		}
		if !slices.Equal(got, want) || !slices.Equal(chosen, before) {
			t.Fatalf("trial %d: got %v, want %v", trial, got, want)
		}
	}
}
