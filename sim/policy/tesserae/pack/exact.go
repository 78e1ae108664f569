package pack

import (
	"math"
	"slices"

	"github.com/schedlab/schedlab/sim/solver/match"
)

// tieBase is the factor matchClass multiplies integer scores by before it
// adds a guest's tie-break (m − position): larger than any sum of
// tie-breaks a matching of n hosts and m guests can collect, so a tie
// never overrides weight. 1 means no tie-break (the weights would come
// too close to the solver's bound).
func tieBase(n, m int) int64 {
	B := int64(min(n, m))*int64(m) + 1
	if B*2*scale > match.MaxAbsCost/4 {
		return 1
	}
	return B
}

// matchExact solves one GPU-count class with exactly the job-level
// Hungarian's objective (matchClass): the largest total weight, and among
// those the guests earliest in priority order, Σ(m − position) largest.
// Since a weight depends only on the two models, it is a min-cost flow
// source → host model bucket → guest model bucket → sink, where the
// t-th guest a bucket gives up earns that bucket's t-th earliest guest's
// tie-break. Those earnings fall as t grows (a convex cost), so
// successive shortest paths that always take a bucket's next guest are
// exact, and every optimum takes a prefix of each guest bucket (swapping
// a later guest for an earlier unmatched one of the same model keeps the
// weight and raises the tie-break). At most one augmentation per host
// over a graph of a dozen bucket nodes: microseconds where the job-level
// Hungarian takes tens of milliseconds. Among equal optima only which of
// several same-model hosts takes which guest can differ from the
// Hungarian's choice (see handOut).
func matchExact(hosts, guests []Job, t Rates, o Options) []Pair {
	n, m := len(hosts), len(guests)
	if n == 0 || m == 0 {
		return nil
	}
	B := tieBase(n, m)
	hb, gb := bucket(hosts), bucket(guests)
	f := newBucketFlow(hb, gb, B, m)
	for i, b := range hb {
		for k, c := range gb {
			if _, s, ok := Score(hosts[b[0]], guests[c[0]], t, o); ok {
				f.w[i][k] = int64(math.Round(s*scale)) * B
				f.edge[i][k] = true
			}
		}
	}
	f.solve()
	return f.handOut(hosts, guests, t, o)
}

// handOut turns the flow into pairs. Bucket pair (i, k) gets x[i][k]
// pairs from bucket i's hosts and the matched prefix of bucket k's
// guests: first the pairs o.Keep names (they share GPUs now, so keeping
// them moves no guest), then the rest in host order and guest order.
// Every choice here has the same weight and the same guests.
func (f *bucketFlow) handOut(hosts, guests []Job, t Rates, o Options) []Pair {
	hostTaken := make([]bool, len(hosts))
	guestTaken := make([]bool, len(guests))
	left := make([][]int, len(f.hb))
	for i := range f.hb {
		left[i] = slices.Clone(f.x[i])
	}
	var out []Pair
	take := func(h, g int) {
		hostTaken[h], guestTaken[g] = true, true
		c, s, _ := Score(hosts[h], guests[g], t, o)
		out = append(out, Pair{Host: hosts[h].ID, Guest: guests[g].ID, Combined: c, Score: s})
	}
	if o.Keep != nil {
		for i, hs := range f.hb {
			for _, h := range hs {
				for k, gs := range f.gb {
					if left[i][k] == 0 || hostTaken[h] {
						continue
					}
					for _, g := range gs[:f.gUsed[k]] {
						if !guestTaken[g] && o.Keep(hosts[h].ID, guests[g].ID) {
							take(h, g)
							left[i][k]--
							break
						}
					}
				}
			}
		}
	}
	for i, hs := range f.hb {
		next := 0
		for k, gs := range f.gb {
			q := 0
			for ; left[i][k] > 0; left[i][k]-- {
				for hostTaken[hs[next]] {
					next++
				}
				for guestTaken[gs[q]] {
					q++
				}
				take(hs[next], gs[q])
			}
		}
	}
	return out
}

// bucketFlow is the flow network of matchExact, small enough to keep as
// dense matrices.
type bucketFlow struct {
	hb, gb [][]int   // job indices per host and guest bucket
	w      [][]int64 // weight of a host-bucket/guest-bucket edge (score·B)
	edge   [][]bool
	x      [][]int // flow (pairs) on each edge
	hUsed  []int   // hosts of each bucket matched
	gUsed  []int   // guests of each bucket matched (a prefix)
	B      int64
	m      int
}

func newBucketFlow(hb, gb [][]int, B int64, m int) *bucketFlow {
	f := &bucketFlow{hb: hb, gb: gb, B: B, m: m, hUsed: make([]int, len(hb)), gUsed: make([]int, len(gb))}
	for range hb {
		f.w = append(f.w, make([]int64, len(gb)))
		f.edge = append(f.edge, make([]bool, len(gb)))
		f.x = append(f.x, make([]int, len(gb)))
	}
	return f
}

// tie is what guest bucket k's next matched guest adds: m − its position
// when ties are folded in (B > 1), else nothing.
func (f *bucketFlow) tie(k int) int64 {
	if f.B == 1 {
		return 0
	}
	return int64(f.m - f.gb[k][f.gUsed[k]])
}

// solve augments one pair at a time along the path of largest gain
// (Bellman-Ford on gains, which may be negative along reverse edges)
// while that gain is positive.
func (f *bucketFlow) solve() {
	nh, ng := len(f.hb), len(f.gb)
	// Nodes: host buckets 0..nh-1, guest buckets nh..nh+ng-1; the source
	// reaches a host bucket with a free host at gain 0.
	const none = math.MinInt64
	gain := make([]int64, nh+ng)
	prev := make([]int, nh+ng) // predecessor node, -1 for the source
	for {
		for v := range gain {
			gain[v], prev[v] = none, -1
		}
		for i := range nh {
			if f.hUsed[i] < len(f.hb[i]) {
				gain[i] = 0
			}
		}
		// Host → guest edges add w; guest → host (undoing a pair) subtract
		// it. At most nh+ng rounds; no positive cycles by optimality.
		for round := 0; round < nh+ng; round++ {
			changed := false
			for i := range nh {
				if gain[i] == none {
					continue
				}
				for k := range ng {
					if f.edge[i][k] && gain[i]+f.w[i][k] > gain[nh+k] {
						gain[nh+k], prev[nh+k] = gain[i]+f.w[i][k], i
						changed = true
					}
				}
			}
			for k := range ng {
				if gain[nh+k] == none {
					continue
				}
				for i := range nh {
					if f.x[i][k] > 0 && gain[nh+k]-f.w[i][k] > gain[i] {
						gain[i], prev[i] = gain[nh+k]-f.w[i][k], nh+k
						changed = true
					}
				}
			}
			if !changed {
				break
			}
		}
		best, bk := int64(0), -1
		for k := range ng {
			if gain[nh+k] != none && f.gUsed[k] < len(f.gb[k]) {
				if g := gain[nh+k] + f.tie(k); g > best {
					best, bk = g, k
				}
			}
		}
		if bk < 0 {
			return
		}
		f.gUsed[bk]++
		v := nh + bk
		for {
			u := prev[v]
			if v >= nh {
				f.x[u][v-nh]++
			} else if u >= 0 {
				f.x[v][u-nh]--
			} else {
				f.hUsed[v]++
				break
			}
			v = u
		}
	}
}
