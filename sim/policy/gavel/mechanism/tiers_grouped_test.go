package mechanism

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/sim/workload"
)

// buildTiersPlain is buildTiers before its tiers were grouped by size:
// each tier in live's order. Kept as the reference.
func buildTiersPlain(keys []*combo, live []int32, types int) [][]tierEntry {
	tiers := make([][]tierEntry, types)
	for _, order := range live {
		c := keys[order]
		if c.x == nil {
			continue
		}
		for j, x := range c.x[:types] {
			if !c.runs[j] || x <= 0 {
				continue
			}
			e := tierEntry{recv: &c.recv[j], x: x, a: int32(c.k.a), b: int32(c.k.b), sf: int32(c.sf), order: order}
			if c.deficit != nil {
				e.deficit = c.deficit[j]
			}
			tiers[j] = append(tiers[j], e)
		}
	}
	return tiers
}

// TestBuildTiersGroupedSameAsPlain: each tier buildTiers makes is the
// plain tier (live's order) sorted stably by size, ascending, and its
// groups say where each size begins and ends; a tier of more than
// maxSizes sizes is one group, marked mixed. Storage reused from a round
// of other sizes and types changes nothing, and live is left as it was.
func TestBuildTiersGroupedSameAsPlain(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 17))
	var tiers [][]tierEntry
	var groups []tierGroups
	var bySize []int32
	mixed, grouped := 0, 0
	for round := range 3000 {
		types := 1 + r.IntN(3)
		sizes := []int{1, 2, 4, 8}
		if r.IntN(4) == 0 {
			sizes = []int{1, 2, 3, 4, 5, 6, 7, 8, 12, 16} // more than maxSizes
		}
		var keys []*combo
		var live []int32
		for id := range 1 + r.IntN(300) {
			c := &combo{k: ckey{workload.JobID(id), -1}, sf: sizes[r.IntN(len(sizes))]}
			if r.IntN(4) == 0 && id > 0 {
				c.k = ckey{workload.JobID(id - 1), workload.JobID(id)}
			}
			c.runs, c.recv = make([]bool, types), make([]float64, types)
			if r.IntN(8) != 0 {
				c.x = make([]float64, types)
			}
			if r.IntN(2) == 0 {
				c.deficit = make([]float64, types)
			}
			for j := range types {
				c.runs[j] = r.IntN(4) != 0
				c.recv[j] = float64(r.IntN(3))
				if c.x != nil {
					c.x[j] = float64(r.IntN(3)) / 2
				}
				if c.deficit != nil {
					c.deficit[j] = float64(r.IntN(3))
				}
			}
			keys = append(keys, c)
			if r.IntN(5) != 0 {
				live = append(live, int32(id))
			}
		}
		liveWas := slices.Clone(live)
		tiers, groups = buildTiers(tiers, groups, keys, live, types, &bySize)
		if !slices.Equal(live, liveWas) {
			t.Fatalf("round %d: live changed", round)
		}
		plain := buildTiersPlain(keys, live, types)
		if len(tiers) != types || len(groups) != types {
			t.Fatalf("round %d: %d tiers and %d groups for %d types", round, len(tiers), len(groups), types)
		}
		for j := range types {
			want := slices.Clone(plain[j])
			slices.SortStableFunc(want, func(a, b tierEntry) int { return int(a.sf - b.sf) })
			var seen []int32
			for _, e := range want {
				if !slices.Contains(seen, e.sf) {
					seen = append(seen, e.sf)
				}
			}
			g := &groups[j]
			if len(seen) > maxSizes {
				mixed++
				if !g.mixed || g.n != 1 || int(g.ends[0]) != len(want) || g.sizes[0] != 0 {
					t.Fatalf("round %d, type %d: %d sizes, groups %+v, want mixed", round, j, len(seen), *g)
				}
			} else {
				grouped++
				slices.Sort(seen)
				if g.mixed || g.n != len(seen) {
					t.Fatalf("round %d, type %d: groups %+v, want sizes %v", round, j, *g, seen)
				}
				from := 0
				for k, sf := range seen {
					to := int(g.ends[k])
					if g.sizes[k] != float64(sf) || to < from || to > len(want) {
						t.Fatalf("round %d, type %d: groups %+v, want sizes %v", round, j, *g, seen)
					}
					for _, e := range want[from:to] {
						if e.sf != sf {
							t.Fatalf("round %d, type %d: group %d (size %d) holds %+v", round, j, k, sf, e)
						}
					}
					from = to
				}
				if from != len(want) {
					t.Fatalf("round %d, type %d: groups end at %d of %d", round, j, from, len(want))
				}
			}
			if !slices.Equal(tiers[j], want) {
				t.Fatalf("round %d, type %d: tier %v, want %v", round, j, tiers[j], want)
			}
		}
	}
	if mixed < 100 || grouped < 1000 {
		t.Errorf("%d mixed tiers, %d grouped: too few to tell", mixed, grouped)
	}
}
