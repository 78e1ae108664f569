package alloc

import (
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// TestKeepBestIsStableSortPrefix: the partners kept are the first k of a
// stable sort by gain, highest first, with many ties (gains on a coarse
// grid) and k from 1 to beyond the number of partners.
func TestKeepBestIsStableSortPrefix(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for trial := range 3000 {
		all := make([]partner, r.IntN(30))
		for i := range all {
			all[i] = partner{b: i, gain: float64(r.IntN(6)) / 2}
		}
		k := 1 + r.IntN(8)
		var best []partner
		for _, c := range all {
			best = keepBest(best, c, k)
		}
		want := slices.Clone(all)
		sort.SliceStable(want, func(x, y int) bool { return want[x].gain > want[y].gain })
		want = want[:min(k, len(want))]
		if !slices.Equal(best, want) {
			t.Fatalf("trial %d, k %d, %v: kept %v, want %v", trial, k, all, best, want)
		}
	}
}
