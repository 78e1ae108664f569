package tesserae

import (
	"slices"
	"testing"

	"github.com/schedlab/schedlab/sim/policy/tesserae/migrate"
	"github.com/schedlab/schedlab/sim/workload"
)

// The exclusive pass puts a job on the fullest node that holds it (lowest
// id on ties), a job larger than a node on whole free nodes, and refuses
// one that fits nowhere.
func TestExclusive(t *testing.T) {
	p := migrate.Plan{Nodes: [][][]workload.JobID{make([][]workload.JobID, 4), make([][]workload.JobID, 4), make([][]workload.JobID, 4)}, Kind: []string{"A", "A", "A"}}
	free := []int{4, 4, 4}
	place := func(k int) []migrate.Loc {
		locs := exclusive(p, free, k, func(int) bool { return true })
		for _, l := range locs {
			p.Nodes[l.Node][l.GPU] = []workload.JobID{1}
		}
		return locs
	}
	locs := func(xs ...int) []migrate.Loc {
		var out []migrate.Loc
		for i := 0; i < len(xs); i += 2 {
			out = append(out, migrate.Loc{Node: xs[i], GPU: xs[i+1]})
		}
		return out
	}
	if got := place(3); !slices.Equal(got, locs(0, 0, 0, 1, 0, 2)) {
		t.Errorf("3 GPUs on an empty cluster: %v", got)
	}
	if got := place(1); !slices.Equal(got, locs(0, 3)) {
		t.Errorf("1 GPU: %v, want the last GPU of the fullest node 0", got)
	}
	if got := place(8); !slices.Equal(got, locs(1, 0, 1, 1, 1, 2, 1, 3, 2, 0, 2, 1, 2, 2, 2, 3)) {
		t.Errorf("8 GPUs: %v, want nodes 1 and 2 whole", got)
	}
	if got := place(1); got != nil {
		t.Errorf("full cluster placed %v", got)
	}
}

// A job larger than a node that the first kind in node order cannot hold
// takes whole nodes of a later kind that can: two 2-GPU nodes of kind A
// come first, an 8-GPU job goes to the three 4-GPU nodes of kind B (it
// was left waiting on an empty cluster, a livelock, when the pass gave up
// at the first kind).
func TestExclusiveTriesEveryKind(t *testing.T) {
	sizes, kinds := []int{2, 2, 4, 4, 4}, []string{"A", "A", "B", "B", "B"}
	p := migrate.Plan{Kind: kinds}
	var free []int
	for _, k := range sizes {
		p.Nodes = append(p.Nodes, make([][]workload.JobID, k))
		free = append(free, k)
	}
	got := exclusive(p, free, 8, func(int) bool { return true })
	want := []migrate.Loc{{Node: 2, GPU: 0}, {Node: 2, GPU: 1}, {Node: 2, GPU: 2}, {Node: 2, GPU: 3}, {Node: 3, GPU: 0}, {Node: 3, GPU: 1}, {Node: 3, GPU: 2}, {Node: 3, GPU: 3}}
	if !slices.Equal(got, want) {
		t.Errorf("8 GPUs: %v, want nodes 2 and 3 whole", got)
	}
	// Nodes the job may not use (another GPU type, no throughput, too
	// little memory) are never taken, whole or not.
	free = []int{2, 2, 4, 4, 4}
	notB3 := func(n int) bool { return n != 3 }
	got = exclusive(p, free, 8, notB3)
	want = []migrate.Loc{{Node: 2, GPU: 0}, {Node: 2, GPU: 1}, {Node: 2, GPU: 2}, {Node: 2, GPU: 3}, {Node: 4, GPU: 0}, {Node: 4, GPU: 1}, {Node: 4, GPU: 2}, {Node: 4, GPU: 3}}
	if !slices.Equal(got, want) {
		t.Errorf("8 GPUs, node 3 unusable: %v, want nodes 2 and 4 whole", got)
	}
	free = []int{2, 2, 4, 4, 4}
	if got := exclusive(p, free, 2, func(n int) bool { return kinds[n] == "B" }); !slices.Equal(got, []migrate.Loc{{Node: 2, GPU: 0}, {Node: 2, GPU: 1}}) {
		t.Errorf("2 GPUs of kind B only: %v, want node 2", got)
	}
}
