package pack

import "math"

// matchBuckets solves one GPU-count class exactly as a transportation
// problem between model buckets (spec 003 §7.3 [ours]): an edge's weight
// depends only on the two models, so it finds how many hosts of each
// model take a guest of each model (a maximum-weight flow by successive
// shortest paths, a handful of augmentations over at most a dozen
// buckets), then hands each bucket's slots to its hosts in order and its
// guests in priority order. The total weight equals the job-level
// Hungarian's (tested); among equal-weight choices it may differ.
func matchBuckets(hosts, guests []Job, t Rates, o Options) []Pair {
	hb, gb := bucket(hosts), bucket(guests)
	nh, ng := len(hb), len(gb)
	// Nodes: 0 source, 1..nh host buckets, nh+1..nh+ng guest buckets, sink.
	n := nh + ng + 2
	sink := n - 1
	g := newFlow(n)
	for i, b := range hb {
		g.add(0, 1+i, len(b), 0)
	}
	for k, b := range gb {
		g.add(1+nh+k, sink, len(b), 0)
	}
	pairEdge := map[[2]int]int{}
	for i, b := range hb {
		for k, c := range gb {
			if _, s, ok := Score(hosts[b[0]], guests[c[0]], t, o); ok {
				pairEdge[[2]int{i, k}] = g.add(1+i, 1+nh+k, min(len(b), len(c)), -int64(math.Round(s*scale)))
			}
		}
	}
	g.maxWeight(0, sink)
	var out []Pair
	used := make([]int, ng) // guests of each bucket handed out so far
	for i, b := range hb {
		next := 0 // hosts of bucket i handed out so far
		for k := range gb {
			e, ok := pairEdge[[2]int{i, k}]
			if !ok {
				continue
			}
			for x := 0; x < g.flowOn(e); x++ {
				h, q := hosts[b[next]], guests[gb[k][used[k]]]
				next++
				used[k]++
				c, s, _ := Score(h, q, t, o)
				out = append(out, Pair{Host: h.ID, Guest: q.ID, Combined: c, Score: s})
			}
		}
	}
	return out
}

// bucket groups job indices by model, in order of first appearance.
func bucket(js []Job) [][]int {
	var out [][]int
	idx := map[string]int{}
	for i, j := range js {
		k, ok := idx[j.Model+noPackTag(j)]
		if !ok {
			k = len(out)
			idx[j.Model+noPackTag(j)] = k
			out = append(out, nil)
		}
		out[k] = append(out[k], i)
	}
	return out
}

func noPackTag(j Job) string {
	if j.NoPack {
		return "\x00nopack"
	}
	return ""
}

// flow is a small residual graph for min-cost flow.
type flow struct {
	head         [][]int
	to, cap, rev []int
	cost         []int64
	orig         []int
}

func newFlow(n int) *flow { return &flow{head: make([][]int, n)} }

// add returns the index of the forward edge.
func (f *flow) add(u, v, c int, cost int64) int {
	e := len(f.to)
	f.to, f.cap, f.cost, f.rev, f.orig = append(f.to, v, u), append(f.cap, c, 0), append(f.cost, cost, -cost), append(f.rev, e+1, e), append(f.orig, c, 0)
	f.head[u] = append(f.head[u], e)
	f.head[v] = append(f.head[v], e+1)
	return e
}

func (f *flow) flowOn(e int) int { return f.orig[e] - f.cap[e] }

// maxWeight augments along cheapest paths (Bellman-Ford, costs may be
// negative) while they have negative cost, i.e. while they add weight.
func (f *flow) maxWeight(s, t int) {
	n := len(f.head)
	for {
		dist := make([]int64, n)
		prev := make([]int, n)
		for i := range dist {
			dist[i], prev[i] = math.MaxInt64, -1
		}
		dist[s] = 0
		for round := 0; round < n; round++ {
			changed := false
			for u := 0; u < n; u++ {
				if dist[u] == math.MaxInt64 {
					continue
				}
				for _, e := range f.head[u] {
					if f.cap[e] > 0 && dist[u]+f.cost[e] < dist[f.to[e]] {
						dist[f.to[e]], prev[f.to[e]] = dist[u]+f.cost[e], e
						changed = true
					}
				}
			}
			if !changed {
				break
			}
		}
		if dist[t] >= 0 {
			return
		}
		push := math.MaxInt
		for v := t; v != s; v = f.to[f.rev[prev[v]]] {
			push = min(push, f.cap[prev[v]])
		}
		for v := t; v != s; v = f.to[f.rev[prev[v]]] {
			f.cap[prev[v]] -= push
			f.cap[f.rev[prev[v]]] += push
		}
	}
}
