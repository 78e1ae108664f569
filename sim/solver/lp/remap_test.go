package lp_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/sim/solver/lp"
)

// named builds a problem with these column and row names (no
// coefficients: Remap reads only names).
func named(cols, rows []string) *lp.Problem {
	p := lp.New("remap")
	for _, c := range cols {
		p.AddCol(c, 0, 1, 0)
	}
	for _, r := range rows {
		p.AddRow(r, 0, 1)
	}
	return p
}

// TestRemap: statuses follow the names (the last of two namesakes
// wins), new columns start at their lower bound and new rows basic, and
// nothing is carried from one Remap to the next (its maps are reused).
func TestRemap(t *testing.T) {
	old := named([]string{"a", "b", "a", "c"}, []string{"r", "s"})
	b := &lp.Basis{
		Cols: []lp.VarStatus{lp.Basic, lp.AtUpper, lp.AtUpper, lp.Basic},
		Rows: []lp.VarStatus{lp.AtLower, lp.AtUpper},
	}
	to := named([]string{"c", "x", "a", "b"}, []string{"s", "t", "r"})
	got := b.Remap(old, to)
	wantCols := []lp.VarStatus{lp.Basic, lp.AtLower, lp.AtUpper, lp.AtUpper}
	wantRows := []lp.VarStatus{lp.AtUpper, lp.Basic, lp.AtLower}
	if !slices.Equal(got.Cols, wantCols) || !slices.Equal(got.Rows, wantRows) {
		t.Fatalf("got cols %v rows %v, want %v %v", got.Cols, got.Rows, wantCols, wantRows)
	}
	// A second Remap from a problem with other names finds none of the
	// first one's.
	other := named([]string{"z"}, []string{"q"})
	ob := &lp.Basis{Cols: []lp.VarStatus{lp.AtUpper}, Rows: []lp.VarStatus{lp.AtUpper}}
	for range 3 {
		got = ob.Remap(other, to)
		if !slices.Equal(got.Cols, []lp.VarStatus{lp.AtLower, lp.AtLower, lp.AtLower, lp.AtLower}) ||
			!slices.Equal(got.Rows, []lp.VarStatus{lp.Basic, lp.Basic, lp.Basic}) {
			t.Fatalf("a later Remap kept earlier names: cols %v rows %v", got.Cols, got.Rows)
		}
	}
}

// rebuild copies src into dst, which Reset has emptied (a minimisation
// again, as New makes).
func rebuild(dst, src *lp.Problem) {
	if src.Maximize {
		dst.Maximize = true
	}
	for j := 0; j < src.NumCols(); j++ {
		lo, hi := src.ColBounds(j)
		dst.AddCol(src.ColName(j), lo, hi, src.Obj(j))
	}
	for i := 0; i < src.NumRows(); i++ {
		lo, hi := src.RowBounds(i)
		dst.AddRow(src.RowName(i), lo, hi)
	}
	for j := 0; j < src.NumCols(); j++ {
		rows, vals := src.Col(j)
		for k, i := range rows {
			dst.Set(int(i), j, vals[k])
		}
	}
}

// TestResetSameAsNew: a problem emptied by Reset and built again, solved
// by the workspace that solved it before, gives a new problem's solution
// bit for bit, over problems of changing shapes (the reused columns'
// storage too small or too large).
func TestResetSameAsNew(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	var ws lp.Workspace
	reused := lp.New("reused")
	for trial := range 300 {
		src := randomLP(r, 2+r.IntN(30), 1+r.IntN(20), r.IntN(2) == 0)
		reused.Reset(fmt.Sprintf("trial%d", trial))
		rebuild(reused, src)
		if reused.NumCols() != src.NumCols() || reused.NumRows() != src.NumRows() || reused.NumNonzeros() != src.NumNonzeros() || reused.Maximize != src.Maximize {
			t.Fatalf("trial %d: rebuilt %d×%d with %d nonzeros, want %d×%d with %d", trial,
				reused.NumRows(), reused.NumCols(), reused.NumNonzeros(), src.NumRows(), src.NumCols(), src.NumNonzeros())
		}
		want, err1 := lp.Solve(src, lp.Options{})
		got, err2 := ws.Solve(reused, lp.Options{})
		if err1 != nil || err2 != nil {
			t.Fatalf("trial %d: %v, %v", trial, err1, err2)
		}
		if !sameSolution(want, got) {
			t.Fatalf("trial %d: new problem %v, reset one %v", trial, want, got)
		}
	}
}

// TestRemapUniqueSameAsRemap: on problems whose names are all different,
// RemapUnique carries the statuses Remap carries, over name lists that
// keep, drop, add, reorder and rename what they share (so that matching
// in order fails and resumes at every kind of place).
func TestRemapUniqueSameAsRemap(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	statuses := []lp.VarStatus{lp.Basic, lp.AtLower, lp.AtUpper, lp.AtZero}
	list := func(prefix string, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("%s%d", prefix, i)
		}
		return out
	}
	// next derives a new list from old: each name kept (mostly), dropped
	// or replaced, new names inserted, and now and then two swapped.
	next := func(old []string, prefix string) []string {
		var out []string
		for _, n := range old {
			switch k := r.IntN(10); {
			case k < 7:
				out = append(out, n)
			case k == 7: // dropped
			case k == 8:
				out = append(out, fmt.Sprintf("%s-new%d", prefix, r.IntN(1e6)))
			default:
				out = append(out, fmt.Sprintf("%s-new%d", prefix, r.IntN(1e6)), n)
			}
		}
		if len(out) > 1 && r.IntN(3) == 0 {
			i, j := r.IntN(len(out)), r.IntN(len(out))
			out[i], out[j] = out[j], out[i]
		}
		return slices.Compact(out) // a new name drawn twice in a row
	}
	differ := 0
	for trial := range 500 {
		oc, or := list("c", r.IntN(60)), list("r", r.IntN(15))
		nc, nr := next(oc, "c"), next(or, "r")
		if trial%5 == 0 {
			nc, nr = oc, or // the same names
		}
		if len(unique(nc)) != len(nc) || len(unique(nr)) != len(nr) {
			continue
		}
		old, to := named(oc, or), named(nc, nr)
		b := &lp.Basis{Cols: make([]lp.VarStatus, len(oc)), Rows: make([]lp.VarStatus, len(or))}
		for j := range b.Cols {
			b.Cols[j] = statuses[r.IntN(len(statuses))]
		}
		for i := range b.Rows {
			b.Rows[i] = statuses[r.IntN(len(statuses))]
		}
		want, got := b.Remap(old, to), b.RemapUnique(old, to)
		if !slices.Equal(got.Cols, want.Cols) || !slices.Equal(got.Rows, want.Rows) {
			t.Fatalf("trial %d: %v %v -> %v %v: RemapUnique gives %v %v, Remap %v %v",
				trial, oc, or, nc, nr, got.Cols, got.Rows, want.Cols, want.Rows)
		}
		if !slices.Equal(oc, nc) || !slices.Equal(or, nr) {
			differ++
		}
	}
	if differ < 300 {
		t.Errorf("only %d trials changed the names", differ)
	}
}

func unique(names []string) map[string]bool {
	out := map[string]bool{}
	for _, n := range names {
		out[n] = true
	}
	return out
}
