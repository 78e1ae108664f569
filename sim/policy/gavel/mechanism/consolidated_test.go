package mechanism

import (
	"iter"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/sim/cluster"
)

// TestConsolidatedSameAsScan: consolidated, which skips the search for
// a server that fits when no server of the type has that many GPUs, and
// the pass for the most free GPUs on servers of one, takes the GPUs that
// the plain scans take (consolidatedPlain, the code before it), and
// leaves the same free counts, over random rounds of placements on
// clusters of servers of 1 to 8 GPUs of three types, interleaved (one
// type all of one-GPU servers), with random GPUs taken first (the kept
// leases).
func TestConsolidatedSameAsScan(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 13))
	types := []string{"V100", "P100", "K80"}
	calls := 0
	for trial := range 300 {
		var groups []cluster.ServerGroup
		for range 1 + r.IntN(12) {
			ty := r.IntN(len(types))
			gpus := []int{1, 1, 2, 4, 8}[r.IntN(5)]
			if ty == 0 {
				gpus = 1 // a type of one-GPU servers only
			}
			groups = append(groups, cluster.ServerGroup{Count: 1 + r.IntN(30), GPUs: gpus, GPUType: types[ty]})
		}
		c, err := cluster.New(cluster.Spec{Servers: groups})
		if err != nil {
			t.Fatal(err)
		}
		m := &Mechanism{}
		m.gpu.types = c.Types()
		idx := map[string]int{}
		for j, ty := range m.gpu.types {
			idx[ty] = j
		}
		m.gpu.servers = make([][]cluster.ServerID, len(m.gpu.types))
		for _, srv := range c.Servers {
			m.gpu.servers[idx[srv.Type]] = append(m.gpu.servers[idx[srv.Type]], srv.ID)
		}
		m.gpu.single = make([][]cluster.GPUID, len(c.GPUs))
		for g := range c.GPUs {
			m.gpu.single[g] = []cluster.GPUID{cluster.GPUID(g)}
		}
		m.gpu.most = make([]int, len(m.gpu.types))
		for _, srv := range c.Servers {
			m.gpu.most[idx[srv.Type]] = max(m.gpu.most[idx[srv.Type]], srv.NumGPUs)
		}
		for range 5 { // rounds
			taken := make([]bool, len(c.GPUs))
			p := r.Float64()
			for g := range taken {
				taken[g] = r.Float64() < p
			}
			free := slices.Clone(m.freeByServer(c, taken))
			m.fullBefore = make([]int, len(m.gpu.types))
			plainTaken, plainFree := slices.Clone(taken), slices.Clone(free)
			fullBefore := make([]int, len(m.gpu.types))
			for range r.IntN(40) {
				j, n := r.IntN(len(m.gpu.types)), []int{1, 1, 1, 2, 3, 4, 8, 16}[r.IntN(8)]
				got := m.consolidated(c, taken, free, j, n)
				want := consolidatedPlain(m, c, plainTaken, plainFree, fullBefore, j, n)
				calls++
				if !slices.Equal(got, want) || !slices.Equal(free, plainFree) || !slices.Equal(taken, plainTaken) {
					t.Fatalf("trial %d: type %d, %d GPUs: took %v, the scan %v (free %v, the scan's %v)", trial, j, n, got, want, free, plainFree)
				}
			}
		}
	}
	if calls < 10000 {
		t.Fatalf("only %d placements compared", calls)
	}
}

// consolidatedPlain is consolidated with both scans always made.
func consolidatedPlain(m *Mechanism, c *cluster.Cluster, taken []bool, free, fullBefore []int, j, n int) []cluster.GPUID {
	bestSrv, bestFree := cluster.ServerID(-1), math.MaxInt
	srvs, k := m.gpu.servers[j], fullBefore[j]
	for k < len(srvs) && free[srvs[k]] == 0 {
		k++
	}
	fullBefore[j] = k
	for _, id := range srvs[k:] {
		if f := free[id]; f >= n && f < bestFree {
			bestSrv, bestFree = id, f
			if f == n {
				break
			}
		}
	}
	if bestSrv >= 0 && n == 1 {
		srv := &c.Servers[bestSrv]
		for g := srv.FirstGPU; g < srv.FirstGPU+cluster.GPUID(srv.NumGPUs); g++ {
			if !taken[g] {
				taken[g] = true
				free[bestSrv]--
				return m.gpu.single[g]
			}
		}
	}
	out := make([]cluster.GPUID, 0, n)
	take := func(id cluster.ServerID) {
		srv := &c.Servers[id]
		for g := srv.FirstGPU; g < srv.FirstGPU+cluster.GPUID(srv.NumGPUs); g++ {
			if len(out) < n && !taken[g] {
				out = append(out, g)
				taken[g] = true
				free[id]--
			}
		}
	}
	if bestSrv >= 0 {
		take(bestSrv)
		return out
	}
	if n == 1 {
		return out
	}
	for id := range mostFreeFirstPlain(srvs[k:], free) {
		if take(id); len(out) == n {
			break
		}
	}
	return out
}

// mostFreeFirstPlain is mostFreeFirst with the most free GPUs always
// found by a pass.
func mostFreeFirstPlain(srvs []cluster.ServerID, free []int) iter.Seq[cluster.ServerID] {
	return func(yield func(cluster.ServerID) bool) {
		most := 0
		for _, id := range srvs {
			most = max(most, free[id])
		}
		for f := most; f > 0; f-- {
			for _, id := range srvs {
				if free[id] == f && !yield(id) {
					return
				}
			}
		}
	}
}
