package migrate

import (
	"slices"
	"testing"

	"github.com/schedlab/schedlab/sim/workload"
)

// Hand-computed checks of the migration costs and tie-breaks (spec 003
// §2.2–§2.7). The expected numbers are worked out in the comments, never
// taken from the functions under test.

// c(g,h) = 0.5 · Σ over the kept jobs on exactly one of the two GPUs of
// 1/gpus(J). Old GPU (A, B) with B a 2-GPU job, new GPU (A, C): A stays
// (0), B leaves (½ of its 2 GPUs' worth: 1/2), C enters (1/1), so
// c = 0.5 · (1/2 + 1) = 0.75; a job in only one of the plans (D) costs
// nothing.
func TestGPUCostByHand(t *testing.T) {
	prev := plan([][]workload.JobID{g(A, B), g(B), g(C)}, [][]workload.JobID{g(D)})
	next := plan([][]workload.JobID{g(A, C), g(B), g(E)}, [][]workload.JobID{g(B)})
	c := newCosts(prev, next)
	cost := func(old, new []workload.JobID) float64 { return float64(c.gpu(old, new)) / float64(2*c.unit) }
	for _, x := range []struct {
		old, new []workload.JobID
		want     float64
		why      string
	}{
		{g(A, B), g(A, C), 0.75, "B leaves (1/2), C enters (1)"},
		{g(A, C), g(A, B), 0.75, "the same the other way"},
		{g(A, B), g(A, B), 0, "nothing changes"},
		{g(B), g(B), 0, "a GPU of B stays B's"},
		{g(D), nil, 0, "D is not in the next plan: it costs nothing"},
		{nil, g(E), 0, "E is new: it costs nothing"},
		{g(C), g(B), 0.75, "C leaves (1), B enters (1/2)"},
		{g(A, B), nil, 0.75, "A leaves (1), B leaves (1/2)"},
	} {
		if got := cost(x.old, x.new); got != x.want {
			t.Errorf("c(%v, %v) = %v, want %v: %s", x.old, x.new, got, x.want, x.why)
		}
	}
}

// A node pair sharing no kept job costs 0.5·(what leaves the old node +
// what enters the new one), whatever the GPU mapping (spec 003 §2.6).
// Three 1-GPU nodes: A moves from node 0 to node 2 and B from node 1 to
// node 0 in the fresh plan, node 1 ends empty. Renaming fresh node 2 to
// physical node 0, fresh node 0 to node 1 and fresh node 1 to node 2
// moves nobody: cost 0. (Every node pair but (0,2) and (1,0) shares no
// job; old node 2 holds nothing, so pairing it with fresh node 1, which
// receives nothing, costs 0.5·(0 + 0) = 0.)
func TestClosedFormNodeCost(t *testing.T) {
	prev := plan([][]workload.JobID{g(A)}, [][]workload.JobID{g(B)}, [][]workload.JobID{nil})
	next := plan([][]workload.JobID{g(B)}, [][]workload.JobID{nil}, [][]workload.JobID{g(A)})
	r := mustTwo(t, prev, next)
	if r.Cost != 0 || len(Migrated(prev, r.Plan)) != 0 || !slices.Equal(r.NodeMap, []int{2, 0, 1}) {
		t.Errorf("cost %v, migrated %v, node map %v; want 0, none, [2 0 1]", r.Cost, Migrated(prev, r.Plan), r.NodeMap)
	}
	// With A's and B's destinations free of kept jobs, the closed form
	// alone decides: old node 0 (A leaves: 1) against fresh node 1
	// (nothing enters) is 0.5, against fresh node 0 (B enters) 1.
	c := newCosts(prev, next)
	if got := float64(c.side(prev.Nodes[0])+c.side(next.Nodes[1])) / float64(2*c.unit); got != 0.5 {
		t.Errorf("0.5·(Out(old 0) + In(fresh 1)) = %v, want 0.5", got)
	}
}

// Equal-cost renamings resolve to staying put (spec 003 §2.4 [ours]):
// new jobs on an empty cluster keep the fresh plan's nodes and GPUs, and
// beside a kept job the new ones keep their fresh GPUs.
func TestTiesKeepTheFreshPlan(t *testing.T) {
	for _, c := range []struct {
		name       string
		prev, next Plan
	}{
		{"empty cluster", plan([][]workload.JobID{nil, nil}, [][]workload.JobID{nil, nil}),
			plan([][]workload.JobID{g(D), nil}, [][]workload.JobID{g(E), g(F)})},
		{"beside a kept job", plan([][]workload.JobID{g(A), nil, nil}, [][]workload.JobID{nil, nil, nil}),
			plan([][]workload.JobID{g(A), g(D), g(E)}, [][]workload.JobID{g(F), nil, nil})},
	} {
		for _, fn := range []func(Plan, Plan) (Result, error){TwoLevel, Flat} {
			r, err := fn(c.prev, c.next)
			if err != nil {
				t.Fatal(err)
			}
			if r.Cost != 0 || !slices.EqualFunc(r.Plan.Nodes, c.next.Nodes, func(a, b [][]workload.JobID) bool {
				return slices.EqualFunc(a, b, slices.Equal[[]workload.JobID])
			}) {
				t.Errorf("%s: cost %v, plan %v; want 0 and the fresh plan %v unchanged", c.name, r.Cost, r.Plan.Nodes, c.next.Nodes)
			}
		}
	}
}

// The matching's cost counts half a migration out and half in, spread
// over a job's GPUs. Old: node 0 = [J, J, L] (J a 2-GPU job), node 1 =
// [K, ∅, ∅]; fresh: node 0 = [L, ∅, ∅], node 1 = [J, J, K]. Keeping the
// nodes: L and K stay, J's two GPUs leave (2 · 0.5·½) and enter node 1
// (2 · 0.5·½): cost 1, one migration. Swapping the nodes keeps J but
// moves L and K: cost 2. Were each of J's GPUs a whole job's worth, J
// alone would cost 2.
func TestTwoGPUJobMovesForOne(t *testing.T) {
	prev := plan([][]workload.JobID{g(J), g(J), g(L)}, [][]workload.JobID{g(K), nil, nil})
	next := plan([][]workload.JobID{g(L), nil, nil}, [][]workload.JobID{g(J), g(J), g(K)})
	r := mustTwo(t, prev, next)
	if m := Migrated(prev, r.Plan); r.Cost != 1 || !slices.Equal(m, []workload.JobID{J}) || !slices.Equal(r.NodeMap, []int{0, 1}) {
		t.Errorf("cost %v, migrated %v, node map %v; want 1, J, [0 1]", r.Cost, m, r.NodeMap)
	}
	if nc := nodeCosts(prev, next); !slices.Equal(nc[0], []float64{0.5, 1}) || !slices.Equal(nc[1], []float64{1, 0.5}) {
		t.Errorf("node costs %v, want [[0.5 1] [1 0.5]]", nc)
	}
}

// Gavel's rule (spec 003 §2.7) places the largest units first: a new
// 2-GPU job C takes node 0's GPUs by first fit before the 1-GPU jobs A
// and B, which ran there, get to stay: both move. Among units of one
// size, the better-ranked goes first, and a packed unit ranks by its
// best member.
func TestStickyOrderByHand(t *testing.T) {
	prev := plan([][]workload.JobID{g(A), g(B)}, [][]workload.JobID{nil, nil})
	next := plan([][]workload.JobID{g(C), g(C)}, [][]workload.JobID{g(A), g(B)})
	r, err := Sticky(prev, next, rankByID)
	if err != nil {
		t.Fatal(err)
	}
	if m := Migrated(prev, r.Plan); !slices.Equal(m, []workload.JobID{A, B}) {
		t.Errorf("largest first: migrated %v, want A and B (C took their GPUs)", m)
	}
	// X (rank 3) ran on node 0's first GPU; the fresh plan packs H (rank
	// 5) with G (rank 0) and puts X elsewhere. The pair ranks 0 and goes
	// first: first fit gives it node 0's first GPU, so X moves.
	rank := map[workload.JobID]int{X: 3, F: 5, E: 0}
	prev = plan([][]workload.JobID{g(X), nil}, [][]workload.JobID{nil, nil})
	next = plan([][]workload.JobID{g(F, E), nil}, [][]workload.JobID{g(X), nil})
	r, err = Sticky(prev, next, func(j workload.JobID) int { return rank[j] })
	if err != nil {
		t.Fatal(err)
	}
	if m := Migrated(prev, r.Plan); !slices.Equal(m, []workload.JobID{X}) || !slices.Equal(r.Plan.Nodes[0][0], []workload.JobID{F, E}) {
		t.Errorf("packed unit ranked by its best member: migrated %v, node 0 %v; want X moved and F+E on GPU 0", m, r.Plan.Nodes[0])
	}
}
