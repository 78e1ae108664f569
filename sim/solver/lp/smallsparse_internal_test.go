package lp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSmallFrontBasesSameBits solves small LPs whose bases factorise
// into front pivots only (a job row and a capacity row per column, as
// Gavel's allocation LPs), cold and warm, with the sparse solves on every
// such basis (sparseFrontMinRows 0) and on none: the same iterations,
// statuses, bases and solution bits either way, and every sparse solve
// the full sweep's bits with every nonzero listed.
func TestSmallFrontBasesSameBits(t *testing.T) {
	defer func(v int) { sparseFrontMinRows = v }(sparseFrontMinRows)
	verifySparse, sparseChecked, sparseMismatches, sparseSmall = true, 0, 0, 0
	defer func() { verifySparse = false }()
	r := rand.New(rand.NewPCG(3, 17))
	for round := range 60 {
		p := smallAllocLP(r)
		var sols [2][]*Solution
		for way, min := range []int{0, math.MaxInt} {
			sparseFrontMinRows = min
			before := sparseMismatches
			for _, o := range []Options{{Primal: true}, {}} {
				sol, err := Solve(p, o)
				if err != nil {
					t.Fatal(err)
				}
				sols[way] = append(sols[way], sol)
			}
			if base := sols[way][1]; base.Status == Optimal {
				q := p.Clone()
				for j := 0; j < q.NumCols(); j += 3 {
					q.SetObj(j, q.Obj(j)*1.5)
				}
				for i := 0; i < q.NumRows(); i += 2 {
					lo, hi := q.RowBounds(i)
					q.SetRowBounds(i, lo, math.Max(lo, hi*0.7))
				}
				for _, o := range []Options{{Warm: base.Basis}, {Warm: base.Basis, Dual: true}} {
					sol, err := Solve(q, o)
					if err != nil {
						t.Fatal(err)
					}
					sols[way] = append(sols[way], sol)
				}
			}
			if n := sparseMismatches - before; n > 0 {
				t.Errorf("LP %d, sparse from %d rows: %d sparse solves differ from the full sweep", round, min, n)
			}
		}
		if len(sols[0]) != len(sols[1]) {
			t.Fatalf("LP %d: %d solves one way, %d the other", round, len(sols[0]), len(sols[1]))
		}
		for k, a := range sols[0] {
			b := sols[1][k]
			if a.Status != b.Status || a.Iterations != b.Iterations || !sameBits(a.X, b.X) || !sameBits(a.Row, b.Row) ||
				!slices.Equal(a.Basis.Cols, b.Basis.Cols) || !slices.Equal(a.Basis.Rows, b.Basis.Rows) {
				t.Errorf("LP %d, solve %d: sparse solves give %v after %d pivots, full sweeps %v after %d",
					round, k, a.Status, a.Iterations, b.Status, b.Iterations)
			}
		}
	}
	t.Logf("%d sparse solves checked, %d on bases under %d rows", sparseChecked, sparseSmall, sparseMinRows)
	if sparseSmall < 2000 {
		t.Errorf("only %d sparse solves on bases under %d rows (of %d checked)", sparseSmall, sparseMinRows, sparseChecked)
	}
}

// smallAllocLP is a random allocation LP of 12 to 63 rows: jobs' shares
// of each GPU type, each in its job's row (at most 1 in all) and, with a
// weight, in its type's capacity row; the weighted shares are maximised.
func smallAllocLP(r *rand.Rand) *Problem {
	jobs, types := 10+r.IntN(50), 2+r.IntN(3)
	p := New("alloc")
	for j := range jobs {
		p.AddRow(fmt.Sprint("job", j), 0, 1)
	}
	for k := range types {
		p.AddRow(fmt.Sprint("cap", k), 0, float64(1+r.IntN(jobs/2+1)))
	}
	for j := range jobs {
		for k := range types {
			if r.IntN(4) == 0 {
				continue
			}
			c := p.AddCol(fmt.Sprintf("x%d_%d", j, k), 0, 1, -0.5-r.Float64())
			p.Set(j, c, 1)
			p.Set(jobs+k, c, float64(1+r.IntN(2)))
		}
	}
	return p
}

// TestBtranReachedSameSolves solves the dumped LPs and small allocation
// LPs, cold and warm, with btranSparse giving btran's zeros, signs and
// all (zeroSigns: every update applied, every front pivot at an update's
// position visited), and skipping what only zeros reach: the same
// iterations, statuses, bases and solution bits either way, every sparse
// solve btran's nonzeros with every one listed, and with zeroSigns every
// zero's sign too.
func TestBtranReachedSameSolves(t *testing.T) {
	defer func(v int) { sparseFrontMinRows = v }(sparseFrontMinRows)
	sparseFrontMinRows = 0
	verifySparse, sparseChecked, sparseMismatches = true, 0, 0
	defer func() { verifySparse, zeroSigns = false, false }()
	var lps []*Problem
	var names []string
	for _, name := range []string{"gavel-small-13", "gavel-cost-71", "gavel-makespan-x300-12", "fig12-makespan-512-2", "fig12-ftf-512-1", "fig12-cost-512-1", "fig12-las-2048-1"} {
		lps, names = append(lps, readDumped(t, name)), append(names, name)
	}
	r := rand.New(rand.NewPCG(7, 31))
	for k := range 30 {
		lps, names = append(lps, smallAllocLP(r)), append(names, fmt.Sprint("allocation LP ", k))
	}
	signs := [2]int{}
	for k, p := range lps {
		var sols [2][]*Solution
		for way, exact := range []bool{true, false} {
			zeroSigns = exact
			before, zs := sparseMismatches, sparseZeroSigns
			sols[way] = coldAndWarmSolves(t, p)
			if n := sparseMismatches - before; n > 0 {
				t.Errorf("%s, zero signs %v: %d sparse solves differ from the full sweep", names[k], exact, n)
			}
			signs[way] += sparseZeroSigns - zs
		}
		sameSolves(t, names[k], "btran's zeros", "the zeros reached", sols[0], sols[1])
	}
	t.Logf("%d sparse solves checked; btranSparse's zeros of another sign: %d with zeroSigns, %d without", sparseChecked, signs[0], signs[1])
	if signs[0] > 0 {
		t.Errorf("%d solves with zeroSigns give a zero of another sign than btran's", signs[0])
	}
	if sparseChecked < 5000 {
		t.Errorf("only %d sparse solves checked", sparseChecked)
	}
}
