// Package migrate maps a round's fresh placement plan onto the cluster so
// that as few running jobs as possible change GPUs (Tesserae, spec 003
// §2). GPUs of one type are interchangeable, so a plan built on an
// abstract empty cluster can be renamed: Tesserae finds the renaming with
// fewest migrations by a node-level matching whose costs are GPU-level
// matchings (TwoLevel, spec §2.2–§2.4); Flat matches all GPUs at once
// (§2.5, which may split a job over nodes); Sticky is Gavel's rule, a job
// stays only if its old GPUs are still free (§2.7). The package is pure:
// plans in, plans out, no engine.
package migrate

import (
	"fmt"
	"slices"

	"github.com/schedlab/schedlab/sim/workload"
)

// Plan says which jobs hold each GPU: Nodes[n][g] lists the jobs on GPU g
// of node n (at most two with packing, a packed guest on exactly its
// host's GPUs). Kind[n] names the node's kind (its GPU type); only nodes
// of the same kind and size are renamed into each other. A plan lists a
// job on one GPU per worker.
type Plan struct {
	Nodes [][][]workload.JobID
	Kind  []string
}

// Clone returns a deep copy.
func (p Plan) Clone() Plan {
	out := Plan{Nodes: make([][][]workload.JobID, len(p.Nodes)), Kind: slices.Clone(p.Kind)}
	for n, gpus := range p.Nodes {
		out.Nodes[n] = make([][]workload.JobID, len(gpus))
		for g, js := range gpus {
			out.Nodes[n][g] = slices.Clone(js)
		}
	}
	return out
}

// Empty returns a plan of the same shape with no jobs.
func (p Plan) Empty() Plan {
	out := Plan{Nodes: make([][][]workload.JobID, len(p.Nodes)), Kind: slices.Clone(p.Kind)}
	for n, gpus := range p.Nodes {
		out.Nodes[n] = make([][]workload.JobID, len(gpus))
	}
	return out
}

// Loc is one GPU of a plan.
type Loc struct{ Node, GPU int }

// Where lists each job's GPUs, in node then GPU order.
func (p Plan) Where() map[workload.JobID][]Loc {
	out := map[workload.JobID][]Loc{}
	for n, gpus := range p.Nodes {
		for g, js := range gpus {
			for _, j := range js {
				out[j] = append(out[j], Loc{n, g})
			}
		}
	}
	return out
}

// sameShape checks that two plans describe the same cluster.
func sameShape(a, b Plan) error {
	if len(a.Nodes) != len(b.Nodes) {
		return fmt.Errorf("migrate: plans have %d and %d nodes", len(a.Nodes), len(b.Nodes))
	}
	for n := range a.Nodes {
		if len(a.Nodes[n]) != len(b.Nodes[n]) || kind(a, n) != kind(b, n) {
			return fmt.Errorf("migrate: node %d differs in size or kind between the plans", n)
		}
	}
	return nil
}

func kind(p Plan, n int) string {
	if n < len(p.Kind) {
		return p.Kind[n]
	}
	return ""
}

// groups splits the node indices into classes of the same kind and size,
// the only nodes that may be renamed into each other, in first-node order.
func groups(p Plan) [][]int {
	var out [][]int
	idx := map[string]int{}
	for n := range p.Nodes {
		key := fmt.Sprintf("%s/%d", kind(p, n), len(p.Nodes[n]))
		i, ok := idx[key]
		if !ok {
			i = len(out)
			idx[key] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], n)
	}
	return out
}

// Migrated lists the jobs running in both plans whose set of GPUs
// differs (the binary definition of spec §2.1), in id order.
func Migrated(prev, next Plan) []workload.JobID {
	a, b := prev.Where(), next.Where()
	var out []workload.JobID
	for j, la := range a {
		if lb, ok := b[j]; ok && !slices.Equal(la, lb) {
			out = append(out, j)
		}
	}
	slices.Sort(out)
	return out
}

// Split lists the jobs whose GPUs span more nodes in got than in want,
// the consolidation a renaming broke (Flat can, TwoLevel cannot).
func Split(want, got Plan) []workload.JobID {
	a, b := want.Where(), got.Where()
	var out []workload.JobID
	for j, lb := range b {
		if nodes(lb) > nodes(a[j]) {
			out = append(out, j)
		}
	}
	slices.Sort(out)
	return out
}

func nodes(ls []Loc) int {
	n := 0
	for i, l := range ls {
		if i == 0 || l.Node != ls[i-1].Node {
			n++
		}
	}
	return n
}
