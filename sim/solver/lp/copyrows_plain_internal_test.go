package lp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// copyRowsPlain is CopyRows as it was before a listed source's
// coefficients were copied from its list (ListForCopies, keepRows): column by column from src's own
// slices. TestCopyRowsSameAsPlain compares the two.
func (p *Problem) copyRowsPlain(src *Problem, rows []int) {
	if p == src {
		panic("lp: CopyRows into its own source")
	}
	p.Reset(src.Name)
	p.Maximize = src.Maximize
	n, m := len(src.obj), len(rows)
	p.obj = append(p.obj, src.obj...)
	p.colLo = append(p.colLo, src.colLo...)
	p.colHi = append(p.colHi, src.colHi...)
	p.colNames = append(p.colNames, src.colNames...)
	at := resizeI32(p.rowAt, len(src.rowLo))
	p.rowAt = at
	for i := range at {
		at[i] = -1
	}
	p.rowNames = slices.Grow(p.rowNames, m)[:m]
	p.rowLo, p.rowHi = slices.Grow(p.rowLo, m)[:m], slices.Grow(p.rowHi, m)[:m]
	names, lo, hi := p.rowNames[:m], p.rowLo[:m], p.rowHi[:m]
	p.srcRows = resizeI32(p.srcRows, m)
	srcRows := p.srcRows[:m]
	for k, r := range rows {
		at[r] = int32(k)
		names[k], lo[k], hi[k] = src.rowNames[r], src.rowLo[r], src.rowHi[r]
		srcRows[k] = int32(r)
	}
	p.src = src
	sr, sv := p.slabRows[:0], p.slabVals[:0]
	if cap(sr) < src.nnz || cap(sv) < src.nnz {
		sr, sv = make([]int32, 0, src.nnz), make([]float64, 0, src.nnz)
	}
	sr, sv = sr[:src.nnz], sv[:src.nnz]
	p.colRows, p.colVals = slices.Grow(p.colRows, n)[:n], slices.Grow(p.colVals, n)[:n]
	p.colTop = slices.Grow(p.colTop, n)[:n]
	colRows, colVals, colTop := p.colRows[:n], p.colVals[:n], p.colTop[:n]
	o, last := 0, int32(m-1)
	for j, from := range src.colRows[:n] {
		vals := src.colVals[j][:len(from)]
		start, top := o, last
		for k, r := range from {
			if uint(r) < uint(len(at)) {
				if i := at[r]; i >= 0 {
					sr[o], sv[o] = i, vals[k]
					o++
				}
				continue
			}
			sr[o], sv[o] = r, vals[k] // not one of src's rows: kept, for Solve to refuse
			o++
			top = max(top, r)
		}
		colRows[j], colVals[j], colTop[j] = sr[start:o:o], sv[start:o:o], top
	}
	p.slabRows, p.slabVals = sr[:o], sv[:o]
	p.nnz = o
	p.matrix++
	p.cols++
	p.srcMatrix, p.copied = src.matrix, p.matrix
}

// sameCopy reports the first difference between two copies of one source,
// in everything a copy sets: name, sense, columns (names, bounds,
// objective, rows, values bit for bit, their slices' capacities, tops),
// rows (names, bounds), the count of coefficients, the source and its
// rows, the matrix counts and whether the copy is derived.
func sameCopy(a, b *Problem) error {
	bits := func(x []float64) []uint64 {
		u := make([]uint64, len(x))
		for i, v := range x {
			u[i] = math.Float64bits(v)
		}
		return u
	}
	switch {
	case a.Name != b.Name || a.Maximize != b.Maximize:
		return fmt.Errorf("name or sense: %s %v against %s %v", a.Name, a.Maximize, b.Name, b.Maximize)
	case !slices.Equal(bits(a.obj), bits(b.obj)) || !slices.Equal(bits(a.colLo), bits(b.colLo)) || !slices.Equal(bits(a.colHi), bits(b.colHi)):
		return fmt.Errorf("column bounds or objective")
	case !slices.Equal(a.colNames, b.colNames) || !slices.Equal(a.rowNames, b.rowNames):
		return fmt.Errorf("names")
	case !slices.Equal(bits(a.rowLo), bits(b.rowLo)) || !slices.Equal(bits(a.rowHi), bits(b.rowHi)):
		return fmt.Errorf("row bounds")
	case a.nnz != b.nnz || len(a.colRows) != len(b.colRows) || len(a.colVals) != len(b.colVals):
		return fmt.Errorf("%d coefficients in %d columns against %d in %d", a.nnz, len(a.colRows), b.nnz, len(b.colRows))
	case !slices.Equal(a.colTop, b.colTop):
		return fmt.Errorf("tops %v against %v", a.colTop, b.colTop)
	case a.src != b.src || !slices.Equal(a.srcRows, b.srcRows) || a.derived() != b.derived():
		return fmt.Errorf("source rows %v against %v", a.srcRows, b.srcRows)
	case a.matrix != b.matrix || a.cols != b.cols || a.srcMatrix != b.srcMatrix || a.copied != b.copied:
		return fmt.Errorf("counts %d %d %d %d against %d %d %d %d", a.matrix, a.cols, a.srcMatrix, a.copied, b.matrix, b.cols, b.srcMatrix, b.copied)
	}
	for j := range a.colRows {
		if !slices.Equal(a.colRows[j], b.colRows[j]) || !slices.Equal(bits(a.colVals[j]), bits(b.colVals[j])) {
			return fmt.Errorf("column %d: %v %v against %v %v", j, a.colRows[j], a.colVals[j], b.colRows[j], b.colVals[j])
		}
		if cap(a.colRows[j]) != cap(b.colRows[j]) || cap(a.colVals[j]) != cap(b.colVals[j]) {
			return fmt.Errorf("column %d: capacities %d %d against %d %d", j, cap(a.colRows[j]), cap(a.colVals[j]), cap(b.colRows[j]), cap(b.colVals[j]))
		}
	}
	return nil
}

// randomCopySource builds a random problem of up to 30 rows and 25 columns
// into p (Reset first), with coefficients set in any order (some twice,
// some to zero), and now and then a coefficient in a row p does not have.
func randomCopySource(r *rand.Rand, p *Problem, name string) {
	p.Reset(name)
	p.Maximize = r.IntN(2) == 0
	nr, nc := r.IntN(31), 1+r.IntN(25)
	for j := range nc {
		p.AddCol(fmt.Sprintf("x%d", j), -float64(r.IntN(3)), float64(r.IntN(5)), float64(r.IntN(7)-3))
	}
	for i := range nr {
		p.AddRow(fmt.Sprintf("r%d", i), -float64(r.IntN(4)), float64(r.IntN(4)))
	}
	if nr == 0 {
		return
	}
	for range r.IntN(4*nr*nc/3 + 1) {
		p.Set(r.IntN(nr), r.IntN(nc), float64(r.IntN(9)-4)/float64(1+r.IntN(3)))
	}
	if r.IntN(15) == 0 {
		bad := nr + r.IntN(3)
		if r.IntN(2) == 0 {
			bad = -1 - r.IntN(2)
		}
		p.Set(bad, r.IntN(nc), 1.5)
	}
}

// randomRows is a random increasing list of rows of an m-row problem: all,
// none, or each with a probability of its own.
func randomRows(r *rand.Rand, m int) []int {
	var rows []int
	keep := r.Float64()
	switch r.IntN(8) {
	case 0:
		keep = 1
	case 1:
		keep = 0
	}
	for i := range m {
		if r.Float64() < keep {
			rows = append(rows, i)
		}
	}
	return rows
}

// TestCopyRowsSameAsPlain: CopyRows, from the source's list of its
// coefficients (ListForCopies) or column by column, makes the copy
// copyRowsPlain makes, in everything, over sequences of copies into the
// same two problems: of templates listed and not, copied many times, that
// change between copies (Set, AddRow, a Reset and a rebuild in the same
// storage: the list dropped) and are listed again, of two templates in
// turn, of malformed templates, with Set on the copies and clones of the
// template changed and listed in between; and of
// each LP of waterfill-steps.mps.gz with random rows.
func TestCopyRowsSameAsPlain(t *testing.T) {
	r := rand.New(rand.NewPCG(37, 23))
	newP, oldP := New("new"), New("old")
	tpls := []*Problem{New("a"), New("b")}
	randomCopySource(r, tpls[0], "a")
	randomCopySource(r, tpls[1], "b")
	tpls[0].ListForCopies()
	copies, kept, malformed := 0, 0, 0
	check := func(what string, src *Problem, rows []int) {
		t.Helper()
		listed := src.listed(src.nnz)
		newP.CopyRows(src, rows)
		oldP.copyRowsPlain(src, rows)
		copies++
		if listed {
			kept++
		}
		if src.flat.matrix == src.matrix && !src.flat.ok {
			malformed++
		}
		if err := sameCopy(newP, oldP); err != nil {
			t.Fatalf("%s, rows %v: %v", what, rows, err)
		}
	}
	for trial := range 20000 {
		src := tpls[r.IntN(2)]
		switch r.IntN(12) {
		case 0:
			randomCopySource(r, src, src.Name) // the same storage, a new matrix
			if r.IntN(4) > 0 {
				src.ListForCopies()
			}
		case 1:
			if m, n := src.NumRows(), src.NumCols(); m > 0 {
				src.Set(r.IntN(m), r.IntN(n), 0.75) // onto a coefficient, or a new one
			}
		case 2:
			row := src.AddRow("added", 0, 1)
			src.Set(row, r.IntN(src.NumCols()), -2)
		case 3:
			src.SetObj(r.IntN(src.NumCols()), 9) // not the matrix: the list is kept
		}
		what := fmt.Sprintf("trial %d, template %s", trial, src.Name)
		check(what, src, randomRows(r, src.NumRows()))
		if r.IntN(10) == 0 {
			// A clone of a listed template, changed and listed, must not
			// write into the template's list.
			c := src.Clone()
			if m := c.NumRows(); m > 0 {
				c.Set(r.IntN(m), r.IntN(c.NumCols()), 3.5)
			}
			c.ListForCopies()
		}
		if r.IntN(3) == 0 {
			src.ListForCopies() // after a change: listed again
		}
		if r.IntN(4) == 0 && newP.NumRows() > 0 {
			// Set on the copies: appended past a column's end, or added.
			for _, p := range []*Problem{newP, oldP} {
				j := trial % p.NumCols()
				p.Set(p.NumRows()-1, j, 0.5)
				p.Set(0, (j+1)%p.NumCols(), 0.25)
			}
			if err := sameCopy(newP, oldP); err != nil {
				t.Fatalf("%s: after Set: %v", what, err)
			}
		}
	}
	for k, src := range waterfillProblems(t) {
		if k%2 == 0 {
			src.ListForCopies()
		}
		for trial := range 40 {
			check(fmt.Sprintf("water filling LP %d, copy %d", k, trial), src, randomRows(r, src.NumRows()))
		}
	}
	if kept < copies/3 || malformed < 100 {
		t.Fatalf("only %d of %d copies from a list, %d of malformed templates", kept, copies, malformed)
	}
	t.Logf("%d copies, %d from a list, %d of malformed templates", copies, kept, malformed)
}
