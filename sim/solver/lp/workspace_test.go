package lp_test

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/sim/solver/lp"
)

// sameSolution reports whether two solutions agree bit for bit.
func sameSolution(a, b *lp.Solution) bool {
	if a.Status != b.Status || a.Iterations != b.Iterations || math.Float64bits(a.Objective) != math.Float64bits(b.Objective) {
		return false
	}
	for j := range a.X {
		if math.Float64bits(a.X[j]) != math.Float64bits(b.X[j]) {
			return false
		}
	}
	return reflect.DeepEqual(a.Basis, b.Basis)
}

// bitsOf is each value's bits.
func bitsOf(v []float64) []uint64 {
	b := make([]uint64, len(v))
	for i, x := range v {
		b[i] = math.Float64bits(x)
	}
	return b
}

// A solve after Recycle returns the recycled arrays, with Solve's values.
func TestRecycleReusesArrays(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	p := randomLP(r, 12, 8, false)
	var ws lp.Workspace
	first, err := ws.Solve(p, lp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	x, row := &first.X[0], &first.Row[0]
	ws.Recycle(first)
	p.SetObj(0, p.Obj(0)+1)
	want, err1 := lp.Solve(p, lp.Options{})
	got, err2 := ws.Solve(p, lp.Options{})
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if &got.X[0] != x || &got.Row[0] != row {
		t.Error("the solve after Recycle allocated its X or Row")
	}
	if !sameSolution(want, got) || !slices.Equal(bitsOf(want.Row), bitsOf(got.Row)) {
		t.Errorf("Solve gives %v, the workspace %v", want, got)
	}
}

// A Workspace gives exactly Solve's results over a sequence of problems of
// changing shapes, of re-solves of one problem after its bounds and
// objective change (the kept matrix, and the kept factorisation when the
// solve before needed no pivot) and after a coefficient changes (the
// matrix reloaded), after row bounds alone change (the kept scaled costs
// and column bounds, after a cold dual start put back its artificial
// bounds and perturbed costs) and after the sense alone flips, warm and
// cold.
func TestWorkspaceSameAsSolve(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	var ws lp.Workspace
	for trial := 0; trial < 200; trial++ {
		p := randomLP(r, 4+r.IntN(14), 3+r.IntN(10), r.IntN(2) == 0)
		var warm *lp.Basis
		for step := 0; step < 8; step++ {
			switch step {
			case 1: // the same problem from its optimal basis: no pivot
			case 2: // bounds and objective only
				i := r.IntN(p.NumRows())
				lo, hi := p.RowBounds(i)
				if !math.IsInf(hi, 1) {
					p.SetRowBounds(i, lo, hi+1)
				}
				j := r.IntN(p.NumCols())
				p.SetObj(j, p.Obj(j)+0.5)
				lo, hi = p.ColBounds(j)
				p.SetColBounds(j, lo, hi+2)
			case 3: // a coefficient: the kept matrix is stale
				p.Set(r.IntN(p.NumRows()), r.IntN(p.NumCols()), 3)
			case 4: // a new row
				row := p.AddRow("extra", math.Inf(-1), 7)
				p.Set(row, r.IntN(p.NumCols()), 1)
			case 5, 6: // row bounds alone, cold then warm
				i := r.IntN(p.NumRows())
				lo, hi := p.RowBounds(i)
				p.SetRowBounds(i, lo-1, hi)
				if step == 5 {
					warm = nil
				}
			case 7: // the sense alone
				p.Maximize = !p.Maximize
			}
			o := lp.Options{Warm: warm, Dual: (step == 2 || step == 6) && trial%2 == 0}
			want, err1 := lp.Solve(p, o)
			got, err2 := ws.Solve(p, o)
			if err1 != nil || err2 != nil {
				t.Fatalf("trial %d step %d: %v, %v", trial, step, err1, err2)
			}
			if !sameSolution(want, got) || !slices.Equal(bitsOf(want.Row), bitsOf(got.Row)) {
				t.Fatalf("trial %d step %d: Solve gives %v, the workspace %v", trial, step, want, got)
			}
			if trial%3 != 0 { // the next solves write into got's arrays
				ws.Recycle(got)
				if got.X != nil || got.Row != nil {
					t.Fatal("Recycle left the solution its arrays")
				}
			}
			warm = want.Basis
		}
	}
}

// A re-solve of the same matrix warm from the basis the workspace just
// ended at keeps its factorisation: solving an optimal problem again from
// its own basis factorises nothing, and re-solves after new column bounds
// and objective (Gavel's bottleneck tests) give Solve's results bit for
// bit while factorising less than Solve does.
func TestWorkspaceKeepsFactorization(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	var ws lp.Workspace
	optimal, kept, fresh, reused := 0, 0, 0, 0
	for trial := 0; trial < 300; trial++ {
		p := randomLP(r, 6+r.IntN(20), 4+r.IntN(14), true)
		sol, err := ws.Solve(p, lp.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if sol.Status != lp.Optimal {
			continue
		}
		optimal++
		f0 := lp.Factorizations(&ws)
		again, err := ws.Solve(p, lp.Options{Warm: sol.Basis})
		if err != nil {
			t.Fatal(err)
		}
		if again.Iterations == 0 && lp.Factorizations(&ws) == f0 {
			kept++
		}
		basis := again.Basis
		for step := 0; step < 4; step++ {
			j := r.IntN(p.NumCols())
			lo, hi := p.ColBounds(j)
			p.SetColBounds(j, lo, hi+float64(r.IntN(3))-1)
			if lo, hi = p.ColBounds(j); lo > hi {
				p.SetColBounds(j, hi, hi)
			}
			p.SetObj(r.IntN(p.NumCols()), float64(r.IntN(11)-5))
			var fresh0 lp.Workspace
			want, err1 := fresh0.Solve(p, lp.Options{Warm: basis})
			f1 := lp.Factorizations(&ws)
			got, err2 := ws.Solve(p, lp.Options{Warm: basis})
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if !sameSolution(want, got) {
				t.Fatalf("trial %d step %d: a fresh workspace gives %v, the one keeping its factorisation %v", trial, step, want, got)
			}
			fresh += lp.Factorizations(&fresh0)
			reused += lp.Factorizations(&ws) - f1
			basis = got.Basis
		}
	}
	if optimal < 100 || kept != optimal {
		t.Errorf("%d of %d optimal problems re-solved from their own basis without a factorisation", kept, optimal)
	}
	if reused >= fresh {
		t.Errorf("re-solves factorised %d times, fresh solves %d", reused, fresh)
	}
	t.Logf("%d optimal problems; re-solves factorised %d times, fresh solves %d", optimal, reused, fresh)
}

// A Workspace solving water filling's kind of sequence, copies of one
// template each with some rows of the copy before (whose scales it keeps
// from copy to copy), gives exactly Solve's results, warm and cold.
func TestWorkspaceKeptScalesSameAsSolve(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	var ws lp.Workspace
	copies := [2]*lp.Problem{lp.New("a"), lp.New("b")}
	for trial := 0; trial < 100; trial++ {
		tpl := randomLP(r, 4+r.IntN(14), 3+r.IntN(12), r.IntN(2) == 0)
		var rows []int
		for i := 0; i < tpl.NumRows(); i++ {
			rows = append(rows, i)
		}
		var prev *lp.Problem
		var basis *lp.Basis
		for step := 0; step < 6; step++ {
			q := copies[step%2]
			q.CopyRows(tpl, rows)
			o := lp.Options{}
			if basis != nil && step%3 != 0 {
				o.Warm = basis.Remap(prev, q)
			}
			want, err1 := lp.Solve(q, o)
			got, err2 := ws.Solve(q, o)
			if err1 != nil || err2 != nil {
				t.Fatalf("trial %d step %d: %v, %v", trial, step, err1, err2)
			}
			if !sameSolution(want, got) || !slices.Equal(bitsOf(want.Row), bitsOf(got.Row)) {
				t.Fatalf("trial %d step %d: Solve gives %v, the workspace %v", trial, step, want, got)
			}
			prev, basis = q, got.Basis
			var fewer []int
			for _, i := range rows {
				if r.IntN(5) > 0 {
					fewer = append(fewer, i)
				}
			}
			rows = fewer
		}
	}
}
