package lp_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/sim/solver/lp"
)

// sameProblem reports the first difference between two problems as a
// solver sees them: name, sense, every column's and row's name, bounds
// and objective, and every column's coefficients in order, bit for bit.
func sameProblem(a, b *lp.Problem) error {
	if a.Name != b.Name || a.Maximize != b.Maximize || a.NumCols() != b.NumCols() || a.NumRows() != b.NumRows() || a.NumNonzeros() != b.NumNonzeros() {
		return fmt.Errorf("%s %v %d×%d (%d nonzeros) against %s %v %d×%d (%d)", a.Name, a.Maximize, a.NumRows(), a.NumCols(), a.NumNonzeros(),
			b.Name, b.Maximize, b.NumRows(), b.NumCols(), b.NumNonzeros())
	}
	bits := math.Float64bits
	for j := range a.NumCols() {
		alo, ahi := a.ColBounds(j)
		blo, bhi := b.ColBounds(j)
		if a.ColName(j) != b.ColName(j) || bits(a.Obj(j)) != bits(b.Obj(j)) || bits(alo) != bits(blo) || bits(ahi) != bits(bhi) {
			return fmt.Errorf("column %d: %s %v [%v, %v] against %s %v [%v, %v]", j, a.ColName(j), a.Obj(j), alo, ahi, b.ColName(j), b.Obj(j), blo, bhi)
		}
		ar, av := a.Col(j)
		br, bv := b.Col(j)
		if !slices.Equal(ar, br) || !slices.EqualFunc(av, bv, func(x, y float64) bool { return bits(x) == bits(y) }) {
			return fmt.Errorf("column %d: rows %v values %v against %v %v", j, ar, av, br, bv)
		}
	}
	for i := range a.NumRows() {
		alo, ahi := a.RowBounds(i)
		blo, bhi := b.RowBounds(i)
		if a.RowName(i) != b.RowName(i) || bits(alo) != bits(blo) || bits(ahi) != bits(bhi) {
			return fmt.Errorf("row %d: %s [%v, %v] against %s [%v, %v]", i, a.RowName(i), alo, ahi, b.RowName(i), blo, bhi)
		}
	}
	return nil
}

// TestCopyRowsAsBuilt: a problem copied with some of its rows
// (CopyRows) is the problem its builder makes adding only those rows,
// bit for bit, into storage that held a larger problem before; Set then
// adds to its coefficients and appends to its columns as it does on the
// built one, without writing into another column; and both solve alike.
func TestCopyRowsAsBuilt(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	into := lp.New("old")
	for trial := 0; trial < 200; trial++ {
		nr, nc := 2+r.IntN(12), 1+r.IntN(10)
		keep := make([]bool, nr)
		var rows []int
		for i := range keep {
			if keep[i] = r.IntN(3) > 0; keep[i] {
				rows = append(rows, i)
			}
		}
		// build adds every row, or only the kept ones, the same
		// coefficients in the same order (a builder that knows its rows).
		type entry struct {
			row, col int
			v        float64
		}
		var entries []entry
		for i := range nr {
			for j := range nc {
				if r.IntN(2) == 0 {
					entries = append(entries, entry{i, j, float64(r.IntN(9) - 4)}) // zeros too: Set skips them
				}
			}
		}
		lo, hi := make([]float64, nr), make([]float64, nr)
		for i := range nr {
			lo[i], hi[i] = -float64(r.IntN(5)), float64(r.IntN(5))
		}
		build := func(p *lp.Problem, only bool) *lp.Problem {
			p.Maximize = trial%2 == 0
			for j := range nc {
				p.AddCol(fmt.Sprintf("x%d", j), 0, float64(1+j), float64(j%3-1))
			}
			at := make([]int, nr)
			for i := range nr {
				at[i] = -1
				if !only || keep[i] {
					at[i] = p.AddRow(fmt.Sprintf("r%d", i), lo[i], hi[i])
				}
			}
			for _, e := range entries {
				if at[e.row] >= 0 {
					p.Set(at[e.row], e.col, e.v)
				}
			}
			return p
		}
		full := build(lp.New("p"), false)
		want := build(lp.New("p"), true)
		into.CopyRows(full, rows)
		if err := sameProblem(into, want); err != nil {
			t.Fatalf("trial %d, rows %v: copied against built: %v", trial, rows, err)
		}
		// Set after the copy: onto an existing coefficient, and appended
		// past a column's last (its neighbours must keep theirs).
		if len(rows) > 0 {
			for _, p := range []*lp.Problem{into, want} {
				j := trial % nc
				p.Set(len(rows)-1, j, 0.5)
				p.Set(0, j, 0.25)
				row := p.AddRow("extra", -1, 1)
				p.Set(row, j, 2)
				p.Set(row, (j+1)%nc, 3)
			}
			if err := sameProblem(into, want); err != nil {
				t.Fatalf("trial %d: after Set: %v", trial, err)
			}
		}
		var w1, w2 lp.Workspace
		s1, err1 := w1.Solve(into, lp.Options{})
		s2, err2 := w2.Solve(want, lp.Options{})
		if err1 != nil || err2 != nil || s1.Status != s2.Status || s1.Iterations != s2.Iterations || !slices.Equal(s1.X, s2.X) {
			t.Fatalf("trial %d: copied solves to %v %v, built to %v %v", trial, s1, err1, s2, err2)
		}
	}
}

// A coefficient in a row its problem does not have is not dropped by
// CopyRows: the copy is refused as the original is, without a panic.
func TestCopyRowsKeepsMalformed(t *testing.T) {
	src := lp.New("bad")
	x := src.AddCol("x", 0, 1, 1)
	src.AddRow("r0", 0, 1)
	src.AddRow("r1", 0, 1)
	src.Set(0, x, 1)
	src.Set(5, x, 2) // no row 5
	p := lp.New("copy")
	p.CopyRows(src, []int{1})
	_, errSrc := lp.Solve(src, lp.Options{})
	_, errCopy := lp.Solve(p, lp.Options{})
	if errSrc == nil || errCopy == nil {
		t.Fatalf("malformed problem accepted: original %v, copy %v", errSrc, errCopy)
	}
}
