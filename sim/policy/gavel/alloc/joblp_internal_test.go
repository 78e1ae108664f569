package alloc

import (
	"fmt"
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

// TestJobNamesAsFormatted: the names from the store are the formatted
// ones, across recomputes, when a job's types change, and after the store
// is emptied for holding maxNames jobs.
func TestJobNamesAsFormatted(t *testing.T) {
	r := &LPs{}
	check := func(job string, types []string) {
		t.Helper()
		n := r.jobNamesFor(job, types)
		for j, typ := range types {
			if got, want := n.col(j), fmt.Sprintf("x|%s|%s", job, typ); got != want {
				t.Fatalf("column %q, want %q", got, want)
			}
		}
		for kind, k := range map[int]string{timeRow: "time", ftfRow: "ftf", sloRow: "slo"} {
			if got, want := n.row(kind), k+"|"+job; got != want {
				t.Fatalf("row %q, want %q", got, want)
			}
		}
	}
	types := []string{"V100", "P100"}
	check("a", types)
	check("a", types)
	check("a", []string{"K80", "P100", "V100"})
	check("b", types[:1])
	for i := range maxNames + 10 {
		check(fmt.Sprint("j", i), types)
	}
	check("a", types)
	if len(r.jobs) > maxNames {
		t.Errorf("the store holds %d jobs, more than %d", len(r.jobs), maxNames)
	}
	var none *LPs
	if n := none.jobNamesFor("a", types); n.col(1) != "x|a|P100" || n.row(ftfRow) != "ftf|a" {
		t.Errorf("without a store: %q, %q", n.col(1), n.row(ftfRow))
	}
}
