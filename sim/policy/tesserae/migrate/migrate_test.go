package migrate

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/sim/workload"
)

const (
	A workload.JobID = iota
	B
	C
	D
	E
	F
	J
	K
	L
	M
	N
	X
	Y
)

func g(js ...workload.JobID) []workload.JobID { return js }

func plan(nodes ...[][]workload.JobID) Plan { return Plan{Nodes: nodes} }

// nodeCosts is NC of Algorithm 2 in migrations, for the vectors.
func nodeCosts(prev, next Plan) [][]float64 {
	c := newCosts(prev, next)
	var sv matchSolver
	out := make([][]float64, len(prev.Nodes))
	for u := range prev.Nodes {
		out[u] = make([]float64, len(next.Nodes))
		for v := range next.Nodes {
			t, _ := c.nodePair(&sv.s, prev.Nodes[u], next.Nodes[v])
			out[u][v] = float64(t) / float64(2*c.unit)
		}
	}
	return out
}

// rename applies a GPU permutation: physical GPU i gets fresh GPU perm[i].
func rename(next Plan, perm []int) Plan {
	var locs []Loc
	for n := range next.Nodes {
		for gi := range next.Nodes[n] {
			locs = append(locs, Loc{n, gi})
		}
	}
	out := next.Empty()
	for i, k := range perm {
		out.Nodes[locs[i].Node][locs[i].GPU] = next.Nodes[locs[k].Node][locs[k].GPU]
	}
	return out
}

// bruteNodes returns the fewest migrations over the two-level space:
// every node permutation (same-size nodes) times every GPU permutation
// inside each node.
func bruteNodes(prev, next Plan) int {
	nodes := len(next.Nodes)
	G := len(next.Nodes[0])
	best := math.MaxInt
	nodePerms := perms(nodes)
	gpuPerms := perms(G)
	choice := make([]int, nodes)
	var rec func(u int, np []int)
	rec = func(u int, np []int) {
		if u == nodes {
			flat := make([]int, 0, nodes*G)
			for x := 0; x < nodes; x++ {
				for _, h := range gpuPerms[choice[x]] {
					flat = append(flat, np[x]*G+h)
				}
			}
			best = min(best, len(Migrated(prev, rename(next, flat))))
			return
		}
		for c := range gpuPerms {
			choice[u] = c
			rec(u+1, np)
		}
	}
	for _, np := range nodePerms {
		rec(0, np)
	}
	return best
}

func perms(n int) [][]int {
	if n == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range perms(n - 1) {
		for i := 0; i <= len(p); i++ {
			q := append(append(append([]int{}, p[:i]...), n-1), p[i:]...)
			out = append(out, q)
		}
	}
	return out
}

// brute returns the fewest migrations over all GPU renamings, over those
// keeping every job on as many nodes, and whether every unconstrained
// optimum splits a job.
func brute(prev, next Plan) (flat, consolidated int, splitAtFlatOpt bool) {
	total := 0
	for n := range next.Nodes {
		total += len(next.Nodes[n])
	}
	perm := make([]int, total)
	for i := range perm {
		perm[i] = i
	}
	flat, consolidated, splitAtFlatOpt = math.MaxInt, math.MaxInt, true
	var rec func(i int)
	rec = func(i int) {
		if i == total {
			got := rename(next, perm)
			m := len(Migrated(prev, got))
			split := len(Split(next, got)) > 0
			if m < flat {
				flat, splitAtFlatOpt = m, split
			} else if m == flat {
				splitAtFlatOpt = splitAtFlatOpt && split
			}
			if !split {
				consolidated = min(consolidated, m)
			}
			return
		}
		for k := i; k < total; k++ {
			perm[i], perm[k] = perm[k], perm[i]
			rec(i + 1)
			perm[i], perm[k] = perm[k], perm[i]
		}
	}
	rec(0)
	return
}

func mustTwo(t *testing.T, prev, next Plan) Result {
	t.Helper()
	r, err := TwoLevel(prev, next)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func rankByID(j workload.JobID) int { return int(j) }

// Spec 003 §2.8 vector 1 (Figure 1): relabelling moves nobody, Gavel's
// rule moves A, B and C.
func TestVectorPureRelabel(t *testing.T) {
	prev := plan([][]workload.JobID{g(A), g(B), g(C), nil}, [][]workload.JobID{g(E), g(E), g(E), g(E)})
	next := plan([][]workload.JobID{g(D), g(D), g(D), g(D)}, [][]workload.JobID{g(A), g(B), g(C), g(F)})
	if nc := nodeCosts(prev, next); !slices.Equal(nc[0], []float64{1.5, 0}) || !slices.Equal(nc[1], []float64{0, 1.5}) {
		t.Errorf("node costs %v, want [[1.5 0] [0 1.5]]", nc)
	}
	r := mustTwo(t, prev, next)
	if m := Migrated(prev, r.Plan); len(m) != 0 || r.Cost != 0 || !slices.Equal(r.NodeMap, []int{1, 0}) {
		t.Errorf("two-level: migrated %v, cost %v, node map %v; want none, 0, [1 0]", m, r.Cost, r.NodeMap)
	}
	s, err := Sticky(prev, next, rankByID)
	if err != nil {
		t.Fatal(err)
	}
	if m := Migrated(prev, s.Plan); !slices.Equal(m, []workload.JobID{A, B, C}) {
		t.Errorf("sticky migrated %v, want A B C", m)
	}
	if f, c, _ := brute(prev, next); f != 0 || c != 0 {
		t.Errorf("brute force %d/%d, want 0", f, c)
	}
}

// Vector 2: a 2-GPU job's move costs 1 in total; the optimum moves K and
// L (2.0), not J, M and N (3.0, the identity).
func TestVectorAmortisation(t *testing.T) {
	prev := plan([][]workload.JobID{g(J), g(J), g(K), g(L)}, [][]workload.JobID{g(M), g(N), nil, nil})
	next := plan([][]workload.JobID{g(K), g(L), g(M), g(N)}, [][]workload.JobID{g(J), g(J), nil, nil})
	if nc := nodeCosts(prev, next); !slices.Equal(nc[0], []float64{1.5, 1}) || !slices.Equal(nc[1], []float64{1, 1.5}) {
		t.Errorf("node costs %v, want [[1.5 1] [1 1.5]]", nc)
	}
	r := mustTwo(t, prev, next)
	if m := Migrated(prev, r.Plan); r.Cost != 2 || !slices.Equal(m, []workload.JobID{K, L}) {
		t.Errorf("cost %v, migrated %v; want 2, K L", r.Cost, m)
	}
	if nc := nodeCosts(prev, next); nc[0][0]+nc[1][1] != 3 {
		t.Errorf("identity node map costs %v, want 3", nc[0][0]+nc[1][1])
	}
	if b := bruteNodes(prev, next); b != 2 {
		t.Errorf("brute force over node and GPU permutations %d, want 2", b)
	}
}

// Vector 3: packed GPUs; B changes partner, one migration.
func TestVectorPacked(t *testing.T) {
	prev := plan([][]workload.JobID{g(A, B), g(C)})
	next := plan([][]workload.JobID{g(A), g(C, B)})
	c := newCosts(prev, next)
	got := []float64{}
	for _, o := range prev.Nodes[0] {
		for _, n := range next.Nodes[0] {
			got = append(got, float64(c.gpu(o, n))/float64(2*c.unit))
		}
	}
	if !slices.Equal(got, []float64{0.5, 1, 1, 0.5}) {
		t.Errorf("GPU costs %v, want [0.5 1 1 0.5]", got)
	}
	r := mustTwo(t, prev, next)
	if m := Migrated(prev, r.Plan); r.Cost != 1 || !slices.Equal(m, []workload.JobID{B}) {
		t.Errorf("cost %v, migrated %v; want 1, B", r.Cost, m)
	}
}

// Vector 4: flat matching reaches 0 only by splitting E over two nodes
// (every optimum does); two-level pays 1 and keeps E on one node.
func TestVectorFlatSplits(t *testing.T) {
	prev := plan([][]workload.JobID{g(A), g(X)}, [][]workload.JobID{g(B), g(Y)})
	next := plan([][]workload.JobID{g(A), g(B)}, [][]workload.JobID{g(E), g(E)})
	f, err := Flat(prev, next)
	if err != nil {
		t.Fatal(err)
	}
	if m := Migrated(prev, f.Plan); f.Cost != 0 || len(m) != 0 || !slices.Equal(Split(next, f.Plan), []workload.JobID{E}) {
		t.Errorf("flat: cost %v, migrated %v, split %v; want 0, none, E", f.Cost, m, Split(next, f.Plan))
	}
	r := mustTwo(t, prev, next)
	if m := Migrated(prev, r.Plan); r.Cost != 1 || len(m) != 1 || len(Split(next, r.Plan)) != 0 {
		t.Errorf("two-level: cost %v, migrated %v, split %v; want 1, one job, none", r.Cost, m, Split(next, r.Plan))
	}
	if fl, c, allSplit := brute(prev, next); fl != 0 || c != 1 || !allSplit {
		t.Errorf("brute force flat %d consolidated %d every-flat-optimum-splits %v; want 0 1 true", fl, c, allSplit)
	}
	if b := bruteNodes(prev, next); b != 1 {
		t.Errorf("brute force over node and GPU permutations %d, want 1", b)
	}
}

// randomPlan fills a nodes×gpus cluster with consolidated jobs from ids
// (1-GPU jobs, some packed in pairs, and node-sized ones), as a fresh
// plan does.
func randomPlan(r *rand.Rand, nodes, gpus int, pool []workload.JobID) Plan {
	p := Plan{Nodes: make([][][]workload.JobID, nodes)}
	for n := range p.Nodes {
		p.Nodes[n] = make([][]workload.JobID, gpus)
	}
	ids := slices.Clone(pool)
	r.Shuffle(len(ids), func(i, k int) { ids[i], ids[k] = ids[k], ids[i] })
	for n := 0; n < nodes; n++ {
		for gi := 0; gi < gpus; gi++ {
			if len(ids) == 0 || r.IntN(5) == 0 {
				continue
			}
			p.Nodes[n][gi] = g(ids[0])
			ids = ids[1:]
			if len(ids) > 0 && r.IntN(4) == 0 {
				p.Nodes[n][gi] = append(p.Nodes[n][gi], ids[0])
				ids = ids[1:]
			}
		}
	}
	return p
}

// On random small plans two-level reaches the brute-force optimum of its
// search space (node renamings times GPU renamings), flat the optimum over
// all GPU renamings, and Guarded never moves more jobs than Sticky or
// TwoLevel and never splits a job.
func TestRandomAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	pool := []workload.JobID{0, 1, 2, 3, 4, 5, 6, 7}
	worse := 0
	defer func() { t.Logf("two-level alone moved more jobs than sticky in %d of 300 random plan pairs", worse) }()
	for trial := 0; trial < 300; trial++ {
		nodes, gpus := 2+r.IntN(2), 2
		prev := randomPlan(r, nodes, gpus, pool)
		next := randomPlan(r, nodes, gpus, pool)
		tl := mustTwo(t, prev, next)
		fl, err := Flat(prev, next)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := Sticky(prev, next, rankByID)
		bf, _, _ := brute(prev, next)
		bn := bruteNodes(prev, next)
		m2, mf, ms := len(Migrated(prev, tl.Plan)), len(Migrated(prev, fl.Plan)), len(Migrated(prev, st.Plan))
		// 1-GPU jobs only, so cost equals the count. Two-level searches
		// node-to-node renamings only, flat every GPU renaming.
		if m2 != bn || mf != bf || tl.Cost != float64(bn) {
			t.Fatalf("trial %d: two-level %d (cost %v) vs brute %d, flat %d vs brute %d\nprev %v\nnext %v", trial, m2, tl.Cost, bn, mf, bf, prev.Nodes, next.Nodes)
		}
		if m2 > ms {
			worse++
		}
		gd, _, err := Guarded(prev, next, rankByID)
		if err != nil {
			t.Fatal(err)
		}
		if mg := len(Migrated(prev, gd.Plan)); mg > ms || mg > m2 || len(Split(next, gd.Plan)) > 0 {
			t.Fatalf("trial %d: guarded %d, sticky %d, two-level %d, split %v", trial, mg, ms, m2, Split(next, gd.Plan))
		}
		if !sameContents(next, tl.Plan) || !sameContents(next, st.Plan) {
			t.Fatalf("trial %d: a renaming changed the plan's contents", trial)
		}
	}
}

// sameContents: the same multiset of GPU job-sets per node class.
func sameContents(a, b Plan) bool {
	key := func(p Plan) []string {
		var out []string
		for _, gs := range p.Nodes {
			for _, js := range gs {
				s := slices.Clone(js)
				slices.Sort(s)
				out = append(out, string(rune('a'+len(s)))+string(rune(len(s))))
				for _, j := range s {
					out[len(out)-1] += string(rune('0' + j))
				}
			}
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(key(a), key(b))
}

func TestShapeError(t *testing.T) {
	if _, err := TwoLevel(plan([][]workload.JobID{nil}), plan([][]workload.JobID{nil, nil})); err == nil {
		t.Error("accepted plans of different shapes")
	}
}

// Gavel's rule keeps a job whole when the fresh plan spread it over nodes
// of one GPU type but of two sizes: a 6-GPU job on two 2-GPU T4 nodes and
// half of a 4-GPU one. Its first node's class (T4 nodes of 2 GPUs) has
// only 4 GPUs, and the rule once gave the job those 4 (the engine then
// refused to start a gang-scheduled job on fewer GPUs than it asks for);
// it now takes free GPUs of its kind, never of another (the V100 node).
func TestStickyKeepsAJobWholeAcrossNodeSizes(t *testing.T) {
	kinds := []string{"T4", "T4", "T4", "V100"}
	prev := Plan{Nodes: [][][]workload.JobID{{nil, nil}, {nil, nil}, {g(B), nil, nil, nil}, {nil, nil, nil, nil}}, Kind: kinds}
	next := Plan{Nodes: [][][]workload.JobID{{g(A), g(A)}, {g(A), g(A)}, {g(A), g(A), g(B), nil}, {nil, nil, nil, nil}}, Kind: kinds}
	for _, name := range []string{"sticky", "guarded"} {
		var r Result
		var err error
		if name == "sticky" {
			r, err = Sticky(prev, next, rankByID)
		} else {
			r, _, err = Guarded(prev, next, rankByID)
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, want := r.Plan.Where(), next.Where()
		for _, j := range []workload.JobID{A, B} {
			if len(got[j]) != len(want[j]) {
				t.Errorf("%s: job %d on %d GPUs %v, want %d", name, j, len(got[j]), got[j], len(want[j]))
			}
			for _, l := range got[j] {
				if kinds[l.Node] != "T4" {
					t.Errorf("%s: job %d on node %d, a %s", name, j, l.Node, kinds[l.Node])
				}
			}
		}
	}
}
