package lp_test

import (
	"runtime"
	"testing"

	"github.com/schedlab/schedlab/sim/solver/lp"
)

// TestColumnsKeepTheirCoefficients builds columns coefficient by
// coefficient in an interleaved order, some longer than the room each
// column starts with and more of them than one slab holds, and reads every
// column back: a column's growth must never write over another's.
func TestColumnsKeepTheirCoefficients(t *testing.T) {
	const cols, rows = 700, 20
	p := lp.New("interleaved")
	p.Reserve(cols/2, rows)
	for range rows {
		p.AddRow("r", 0, 1)
	}
	for range cols {
		p.AddCol("c", 0, 1, 0)
	}
	length := func(j int) int { return 1 + j%rows } // 1 to 20 coefficients
	val := func(i, j int) float64 { return float64(1000*j + i + 1) }
	for i := range rows {
		for j := range cols {
			if i < length(j) {
				p.Set(i, j, val(i, j))
			}
		}
	}
	p.Set(0, 5, 0.5) // adds to an existing coefficient
	nnz := 0
	for j := range cols {
		rs, vs := p.Col(j)
		if len(rs) != length(j) {
			t.Fatalf("column %d has %d coefficients, want %d", j, len(rs), length(j))
		}
		for k, r := range rs {
			want := val(int(r), j)
			if j == 5 && r == 0 {
				want += 0.5
			}
			if int(r) != k || vs[k] != want {
				t.Fatalf("column %d entry %d: row %d value %v, want row %d value %v", j, k, r, vs[k], k, want)
			}
		}
		nnz += len(rs)
	}
	if p.NumNonzeros() != nnz {
		t.Errorf("NumNonzeros = %d, want %d", p.NumNonzeros(), nnz)
	}
}

// TestCoefficientsAddUp sets coefficients out of row order and twice in
// the same place, and checks a clone grows apart from its original.
func TestCoefficientsAddUp(t *testing.T) {
	p := lp.New("order")
	for range 4 {
		p.AddRow("r", 0, 1)
	}
	p.AddCol("a", 0, 1, 0)
	p.Set(3, 0, 1)
	p.Set(1, 0, 2)
	p.Set(1, 0, 4) // below the column's highest row: adds to row 1
	p.Set(3, 0, 8)
	rs, vs := p.Col(0)
	if len(rs) != 2 || rs[0] != 3 || vs[0] != 9 || rs[1] != 1 || vs[1] != 6 || p.NumNonzeros() != 2 {
		t.Fatalf("column a: rows %v values %v (%d nonzeros), want rows [3 1] values [9 6]", rs, vs, p.NumNonzeros())
	}
	q := p.Clone()
	p.AddCol("b", 0, 1, 0)
	q.AddCol("c", 0, 1, 0)
	p.Set(2, 1, 5)
	q.Set(0, 1, 7)
	q.Set(2, 0, 1)
	if rs, vs := p.Col(1); len(rs) != 1 || rs[0] != 2 || vs[0] != 5 {
		t.Errorf("original's new column: rows %v values %v, want [2] [5]", rs, vs)
	}
	if rs, vs := q.Col(1); len(rs) != 1 || rs[0] != 0 || vs[0] != 7 {
		t.Errorf("clone's new column: rows %v values %v, want [0] [7]", rs, vs)
	}
	if rs, _ := p.Col(0); len(rs) != 2 {
		t.Errorf("a coefficient set in the clone reached the original: rows %v", rs)
	}
}

// TestSmallProblemAllocatesLittle: water filling builds LPs of a few
// dozen columns thousands of times a run, so a small problem's room for
// coefficients must fit its size, not a slab made for large ones.
func TestSmallProblemAllocatesLittle(t *testing.T) {
	const cols, rows, builds = 20, 10, 200
	build := func() {
		p := lp.New("small")
		p.Reserve(cols, rows)
		for range rows {
			p.AddRow("r", 0, 1)
		}
		for j := range cols {
			p.AddCol("c", 0, 1, 0)
			for i := range 5 {
				p.Set((j+i)%rows, j, 1)
			}
		}
	}
	build()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range builds {
		build()
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / builds; per > 16<<10 {
		t.Errorf("a problem of %d columns and %d rows allocates %d bytes to build, want under 16 KiB", cols, rows, per)
	}
}
