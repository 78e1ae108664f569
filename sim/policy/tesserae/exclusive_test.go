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
		locs := exclusive(p, free, &workload.Job{GPUs: k})
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
