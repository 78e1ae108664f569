package migrate

import (
	"slices"

	"github.com/schedlab/schedlab/sim/solver/match"
	"github.com/schedlab/schedlab/sim/workload"
)

// Result is a renamed plan and what the matching paid for it.
type Result struct {
	Plan Plan
	// Cost is the matching's objective in migrations (spec §2.2: half a
	// unit per job leaving and per job entering, spread over a job's GPUs);
	// it equals len(Migrated) unless a multi-node job moves only in part.
	Cost float64
	// NodeMap[u] is the node of the fresh plan placed on physical node u
	// (TwoLevel only).
	NodeMap []int
	// Matchings counts the GPU-level matchings solved; the others were
	// settled by the closed form for node pairs sharing no job (spec §2.6).
	Matchings int
}

// costs holds the integer cost scale: a job of k GPUs contributes unit/k
// per GPU it leaves or enters, and 2·unit is one whole migration.
type costs struct {
	kept map[workload.JobID]int64 // per-GPU cost of each job in both plans
	unit int64
}

// newCosts finds the jobs running in both plans and the integer scale
// (the least common multiple of their GPU counts, capped; above the cap
// costs are rounded, which only blurs ties between fractional moves).
func newCosts(prev, next Plan) costs {
	a, b := prev.Where(), next.Where()
	var ids []workload.JobID
	for j := range b {
		if _, ok := a[j]; ok {
			ids = append(ids, j)
		}
	}
	slices.Sort(ids) // the cap makes the scale depend on the order
	unit := int64(1)
	for _, j := range ids {
		if l := lcm(unit, int64(len(b[j]))); l <= 1<<16 {
			unit = l
		}
	}
	c := costs{kept: map[workload.JobID]int64{}, unit: unit}
	for j, lb := range b {
		if _, ok := a[j]; ok {
			c.kept[j] = (unit + int64(len(lb))/2) / int64(len(lb))
		}
	}
	return c
}

func lcm(a, b int64) int64 {
	x, y := a, b
	for y != 0 {
		x, y = y, x%y
	}
	return a / x * b
}

// gpu is c(g,h) of spec §2.2 in units: the kept jobs on exactly one of
// the old GPU and the new GPU.
func (c *costs) gpu(old, new []workload.JobID) int64 {
	var sum int64
	for _, j := range old {
		if w, ok := c.kept[j]; ok && !contains(new, j) {
			sum += w
		}
	}
	for _, j := range new {
		if w, ok := c.kept[j]; ok && !contains(old, j) {
			sum += w
		}
	}
	return sum
}

// side is what a node's kept jobs cost if all of them leave (or enter).
func (c *costs) side(node [][]workload.JobID) int64 {
	var sum int64
	for _, js := range node {
		for _, j := range js {
			sum += c.kept[j]
		}
	}
	return sum
}

func contains(js []workload.JobID, j workload.JobID) bool {
	for _, x := range js {
		if x == j {
			return true
		}
	}
	return false
}

// withTies folds a preference for the identity into integer costs: cost
// times (n+1), plus 1 off the diagonal. The ties add at most n < n+1, so
// an optimum of the folded costs is an optimum of the plain ones, and
// among those it moves as few items as possible.
func withTies(n int, cost func(i, j int) int64) []int64 {
	out := make([]int64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			out[i*n+j] = cost(i, j) * int64(n+1)
			if i != j {
				out[i*n+j]++
			}
		}
	}
	return out
}

// nodePair is Algorithm 3: the cheapest GPU-to-GPU map from old node u to
// new node v; perm[g] is the new GPU placed on old GPU g.
func (c *costs) nodePair(sv *match.Solver, old, new [][]workload.JobID) (int64, []int) {
	G := len(old)
	m := withTies(G, func(g, h int) int64 { return c.gpu(old[g], new[h]) })
	perm, total, err := sv.MinCost(G, G, m)
	if err != nil {
		panic(err) // sizes and bounds are ours; an error is a bug
	}
	return total / int64(G+1), perm
}

// TwoLevel is Algorithm 2: match old nodes to new nodes on node-pair
// costs, each the best GPU matching inside the pair, and rename next
// accordingly. A job on one node stays on one node, and a job on several
// nodes moves by whole nodes. Ties prefer leaving nodes and GPUs where
// they are.
func TwoLevel(prev, next Plan) (Result, error) {
	if err := sameShape(prev, next); err != nil {
		return Result{}, err
	}
	c := newCosts(prev, next)
	shared := sharedPairs(prev, next, c)
	res := Result{Plan: prev.Empty(), NodeMap: make([]int, len(prev.Nodes))}
	var sv match.Solver
	var total int64
	for _, grp := range groups(prev) {
		n := len(grp)
		out, in := make([]int64, n), make([]int64, n)
		for i, u := range grp {
			out[i], in[i] = c.side(prev.Nodes[u]), c.side(next.Nodes[u])
		}
		nc := make([]int64, n*n)
		perms := make([][]int, n*n)
		for i, u := range grp {
			for k, v := range grp {
				if !shared[[2]int{u, v}] {
					nc[i*n+k] = out[i] + in[k] // closed form, spec §2.6
					continue
				}
				nc[i*n+k], perms[i*n+k] = c.nodePair(&sv, prev.Nodes[u], next.Nodes[v])
				res.Matchings++
			}
		}
		assign, _, err := sv.MinCost(n, n, withTies(n, func(i, k int) int64 { return nc[i*n+k] }))
		if err != nil {
			return Result{}, err
		}
		for i, k := range assign {
			u, v := grp[i], grp[k]
			res.NodeMap[u] = v
			total += nc[i*n+k]
			perm := perms[i*n+k]
			for g := range prev.Nodes[u] {
				h := g
				if perm != nil {
					h = perm[g]
				}
				res.Plan.Nodes[u][g] = append([]workload.JobID(nil), next.Nodes[v][h]...)
			}
		}
	}
	res.Cost = float64(total) / float64(2*c.unit)
	return res, nil
}

// sharedPairs marks the (old node, new node) pairs holding a common kept
// job; only those need a GPU-level matching.
func sharedPairs(prev, next Plan, c costs) map[[2]int]bool {
	a, b := prev.Where(), next.Where()
	out := map[[2]int]bool{}
	for j := range c.kept {
		for _, la := range a[j] {
			for _, lb := range b[j] {
				out[[2]int{la.Node, lb.Node}] = true
			}
		}
	}
	return out
}

// Flat is Algorithm 5: one matching over all GPUs of each node class,
// with the same GPU costs. It can place the GPUs of a consolidated job on
// different nodes (see Split); it is here as the contrast to TwoLevel.
func Flat(prev, next Plan) (Result, error) {
	if err := sameShape(prev, next); err != nil {
		return Result{}, err
	}
	c := newCosts(prev, next)
	res := Result{Plan: prev.Empty()}
	var sv match.Solver
	var total int64
	for _, grp := range groups(prev) {
		var locs []Loc
		for _, u := range grp {
			for g := range prev.Nodes[u] {
				locs = append(locs, Loc{u, g})
			}
		}
		M := len(locs)
		cost := func(i, k int) int64 {
			return c.gpu(prev.Nodes[locs[i].Node][locs[i].GPU], next.Nodes[locs[k].Node][locs[k].GPU])
		}
		assign, t, err := sv.MinCost(M, M, withTies(M, cost))
		if err != nil {
			return Result{}, err
		}
		total += t / int64(M+1)
		res.Matchings++
		for i, k := range assign {
			res.Plan.Nodes[locs[i].Node][locs[i].GPU] = append([]workload.JobID(nil), next.Nodes[locs[k].Node][locs[k].GPU]...)
		}
	}
	res.Cost = float64(total) / float64(2*c.unit)
	return res, nil
}
