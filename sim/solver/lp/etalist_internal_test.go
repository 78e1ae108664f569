package lp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestEtaListWaysSameBits solves the dumped LPs, cold and warm, with
// ftranSparse always listing every position once the product-form
// updates hold an entry, and never: the same iterations, statuses, bases
// and solution bits either way, and every sparse solve the full sweep's
// bits with every nonzero listed.
func TestEtaListWaysSameBits(t *testing.T) {
	defer func(v int) { etaListAbove = v }(etaListAbove)
	verifySparse, sparseChecked, sparseMismatches = true, 0, 0
	defer func() { verifySparse = false }()
	for _, name := range []string{"gavel-small-13", "gavel-cost-71", "gavel-makespan-x300-12", "fig12-makespan-512-2", "fig12-ftf-512-1", "fig12-cost-512-1"} {
		p := readDumped(t, name)
		var sols [2][]*Solution
		for way, above := range []int{0, math.MaxInt32} {
			etaListAbove = above
			before := sparseMismatches
			sols[way] = coldAndWarmSolves(t, p)
			if n := sparseMismatches - before; n > 0 {
				t.Errorf("%s, limit %d: %d sparse solves differ from the full sweep", name, above, n)
			}
		}
		sameSolves(t, name, "listing every position", "marking", sols[0], sols[1])
	}
}

// TestEtaZerosListedSameBits solves the dumped LPs and small allocation
// LPs (front-only bases, sparse at any size), cold and warm, with
// ftranSparse listing every product-form update's position and only
// those where x may be nonzero: the same iterations, statuses, bases and
// solution bits either way, every sparse solve the full sweep's bits with
// every nonzero listed, and the kept basic costs the full pass's.
func TestEtaZerosListedSameBits(t *testing.T) {
	defer func(v bool) { listEtaZeros = v }(listEtaZeros)
	defer func(v int) { sparseFrontMinRows = v }(sparseFrontMinRows)
	sparseFrontMinRows = 0
	verifySparse, sparseChecked, sparseMismatches = true, 0, 0
	verifyKept, keptChecked, keptMismatches = true, 0, 0
	defer func() { verifySparse, verifyKept = false, false }()
	var lps []*Problem
	var names []string
	for _, name := range []string{"gavel-small-13", "gavel-cost-71", "gavel-makespan-x300-12", "fig12-makespan-512-2", "fig12-ftf-512-1", "fig12-cost-512-1"} {
		lps, names = append(lps, readDumped(t, name)), append(names, name)
	}
	r := rand.New(rand.NewPCG(5, 29))
	for k := range 30 {
		lps, names = append(lps, smallAllocLP(r)), append(names, fmt.Sprint("allocation LP ", k))
	}
	for k, p := range lps {
		var sols [2][]*Solution
		for way, zeros := range []bool{true, false} {
			listEtaZeros = zeros
			before := sparseMismatches
			sols[way] = coldAndWarmSolves(t, p)
			if n := sparseMismatches - before; n > 0 {
				t.Errorf("%s, zeros listed %v: %d sparse solves differ from the full sweep", names[k], zeros, n)
			}
		}
		sameSolves(t, names[k], "listing the updates' zeros", "not listing them", sols[0], sols[1])
	}
	if keptMismatches > 0 {
		t.Errorf("%d of %d kept basic costs differ from the full pass", keptMismatches, keptChecked)
	}
	if sparseChecked < 5000 || keptChecked < 1000 {
		t.Errorf("only %d sparse solves and %d kept basic costs checked", sparseChecked, keptChecked)
	}
}
