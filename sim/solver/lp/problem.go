// Package lp is schedlab's linear-programming solver: a sparse,
// bounded-variable simplex method (dual and primal) in pure Go (so it runs in
// WebAssembly), with warm starts from a previous solve's basis, and free-
// format MPS reading and writing so that any LP a policy solves can be
// checked with another solver.
//
// A Problem is
//
//	minimise (or maximise)  cᵀx
//	subject to              rowLo ≤ A x ≤ rowHi
//	                        colLo ≤ x ≤ colHi
//
// with ±Inf for absent bounds. Solve scales it (powers of two, so scaling
// is exact) and returns the solution in the original units. A cold solve
// starts with the dual simplex method from the slack basis (bound-flipping
// ratio test, dual Devex, a cost perturbation against stalling); the
// primal method (phase 1 on the sum of infeasibilities, then phase 2)
// finishes, and starts warm solves. Primal pricing is Devex (approximate
// steepest edge), with the reduced costs updated from the pivot row rather
// than recomputed; a warm basis that stays dual feasible may start the
// dual method instead (Options.Dual). The basis is kept as a block-triangular LU factorisation
// (column and row singletons, then the remaining nucleus, ordered for
// sparsity and stored sparse) with product-form updates between
// refactorisations.
package lp

import (
	"fmt"
	"math"
	"slices"
)

// Inf is an absent bound.
var Inf = math.Inf(1)

// Problem is a linear program under construction. Columns and rows are
// numbered from 0 in the order they are added.
type Problem struct {
	Name     string
	Maximize bool

	obj          []float64
	colLo, colHi []float64
	colNames     []string
	colRows      [][]int32
	colVals      [][]float64
	// colTop is the highest row with a coefficient in each column (-1:
	// none), or above it (CopyRows): a builder that fills rows in order
	// sets coefficients without looking for one to add to.
	colTop []int32

	rowLo, rowHi []float64
	rowNames     []string
	nnz          int
	// slabRows and slabVals hold the first coefficients of each column
	// (colChunk of them), so a problem built one coefficient at a time
	// allocates a few large arrays rather than two small ones per column;
	// a column with more spills into its own arrays, as append does.
	slabRows []int32
	slabVals []float64
	// matrix counts changes to the columns, rows and coefficients (not
	// to bounds or objective), so a Workspace can tell that the scaled
	// matrix it holds is still this problem's; cols counts changes to the
	// columns and their bounds and objective, so a Workspace can tell that
	// the columns it checked are unchanged (FTF's bisection changes row
	// bounds alone).
	matrix, cols uint64
	// rowAt is CopyRows's scratch: each of the source's rows' index in p.
	rowAt []int32
	// src is the problem CopyRows copied p from, srcMatrix its matrix
	// count then, srcRows the rows it kept, in p's order, and copied p's own
	// matrix count after: while neither has changed since (derived), p's
	// matrix is src's with only those rows, and a Workspace that loaded
	// another such copy of src scales p from that one's scales (scaleKeep).
	src       *Problem
	srcMatrix uint64
	copied    uint64
	srcRows   []int32
	// flat is p's coefficients listed for CopyRows (ListForCopies).
	flat flatCols
}

// flatCols is a problem's coefficients in one list, column after column,
// each column's in its order and then an end mark: CopyRows reads a
// source's from it, when the source has one, rather than from the
// columns' own slices, so a copy loads no slice headers a column and its
// loop keeps its counters in registers.
type flatCols struct {
	// ok: listed, every coefficient's row one of the problem's, when its
	// matrix count was matrix: the list holds while the count does.
	ok     bool
	matrix uint64
	// rows and vals are the coefficients, each column's followed by the
	// row len(the problem's rows) (value 0), the end mark; nnz counts
	// the others.
	rows []int32
	vals []float64
	nnz  int
}

// endMark is CopyRows's index for the end mark's row (see flatCols): not
// a row of the copy (≥ 0), nor a row left out (−1).
const endMark = -2

// ListForCopies lists p's coefficients for CopyRows, which then copies
// them in one loop (keepRows) rather than column by column: for a
// template copied many times, as water filling's steps copy theirs
// (about eleven times a template at 1 job/h). It is the builder's to
// call, once p is built and before it is copied: CopyRows only reads its
// source, so copies of one source may run at once. Any later change to
// p's matrix drops the list (CopyRows copies column by column again), as
// does a coefficient in a row p does not have.
func (p *Problem) ListForCopies() {
	f := &p.flat
	n, nr := len(p.obj), len(p.rowLo)
	f.ok, f.matrix = true, p.matrix
	f.rows, f.vals, f.nnz = f.rows[:0], f.vals[:0], 0
	for j, rows := range p.colRows[:n] {
		for _, r := range rows {
			if uint(r) >= uint(nr) {
				f.ok = false
			}
		}
		f.rows = append(f.rows, rows...)
		f.vals = append(f.vals, p.colVals[j][:len(rows)]...)
		f.rows, f.vals = append(f.rows, int32(nr)), append(f.vals, 0)
		f.nnz += len(rows)
	}
}

// listed reports whether p's list of coefficients (ListForCopies) is its
// matrix, and fits a slab of n coefficients.
func (p *Problem) listed(n int) bool {
	return p.flat.ok && p.flat.matrix == p.matrix && p.flat.nnz <= n
}

// New returns an empty problem.
func New(name string) *Problem { return &Problem{Name: name} }

// Reset empties p for a new problem named name, keeping its storage: a
// builder that makes many problems of about the same size in turn (water
// filling's steps) allocates almost nothing after the first. Nothing of
// the old problem may be used after: its columns' storage is reused.
func (p *Problem) Reset(name string) {
	clear(p.colNames) // let the collector have the names
	clear(p.rowNames)
	p.Name, p.Maximize = name, false
	p.obj, p.colLo, p.colHi, p.colNames = p.obj[:0], p.colLo[:0], p.colHi[:0], p.colNames[:0]
	p.colRows, p.colVals, p.colTop = p.colRows[:0], p.colVals[:0], p.colTop[:0]
	p.rowLo, p.rowHi, p.rowNames = p.rowLo[:0], p.rowHi[:0], p.rowNames[:0]
	p.nnz = 0
	p.slabRows, p.slabVals = p.slabRows[:0], p.slabVals[:0]
	p.src = nil
	// A Workspace that holds the old matrix must see a change: matrix
	// only ever grows.
	p.matrix++
	p.cols++
}

// Reserve makes room for cols more columns and rows more rows, so a
// builder that knows its size does not grow the arrays as it adds them.
func (p *Problem) Reserve(cols, rows int) {
	p.colNames = slices.Grow(p.colNames, cols)
	p.colLo = slices.Grow(p.colLo, cols)
	p.colHi = slices.Grow(p.colHi, cols)
	p.obj = slices.Grow(p.obj, cols)
	p.colRows = slices.Grow(p.colRows, cols)
	p.colVals = slices.Grow(p.colVals, cols)
	p.colTop = slices.Grow(p.colTop, cols)
	p.rowNames = slices.Grow(p.rowNames, rows)
	p.rowLo = slices.Grow(p.rowLo, rows)
	p.rowHi = slices.Grow(p.rowHi, rows)
}

// AddCol adds a variable with bounds [lo, hi] and objective coefficient
// obj, and returns its index.
func (p *Problem) AddCol(name string, lo, hi, obj float64) int {
	p.colNames = append(p.colNames, name)
	p.colLo = append(p.colLo, lo)
	p.colHi = append(p.colHi, hi)
	p.obj = append(p.obj, obj)
	p.colRows = append(p.colRows, nil)
	p.colVals = append(p.colVals, nil)
	p.colTop = append(p.colTop, -1)
	p.matrix++
	p.cols++
	return len(p.obj) - 1
}

// AddRow adds a constraint lo ≤ (row activity) ≤ hi and returns its index.
func (p *Problem) AddRow(name string, lo, hi float64) int {
	p.rowNames = append(p.rowNames, name)
	p.rowLo = append(p.rowLo, lo)
	p.rowHi = append(p.rowHi, hi)
	p.matrix++
	return len(p.rowLo) - 1
}

// Set adds v to the coefficient of column col in row row.
func (p *Problem) Set(row, col int, v float64) {
	if v == 0 {
		return
	}
	p.matrix++
	rs := p.colRows[col]
	if row <= int(p.colTop[col]) {
		for k, r := range rs {
			if int(r) == row {
				p.colVals[col][k] += v
				return
			}
		}
	} else {
		p.colTop[col] = int32(row)
	}
	if cap(rs) == 0 {
		p.carve(col)
	}
	p.colRows[col] = append(p.colRows[col], int32(row))
	p.colVals[col] = append(p.colVals[col], v)
	p.nnz++
}

// colChunk is how many coefficients of a column the slab holds; slabSize
// the most a slab holds in all before a new one is started.
const colChunk, slabSize = 8, 4096

// carve gives an empty column its first colChunk coefficients' room in the
// slab. The three-index slices cap that room, so one column's append
// never writes into the next one's.
func (p *Problem) carve(col int) {
	off := len(p.slabRows)
	if off+colChunk > cap(p.slabRows) {
		n := p.slabFor(col)
		p.slabRows, p.slabVals = make([]int32, 0, n), make([]float64, 0, n)
		off = 0
	}
	p.slabRows, p.slabVals = p.slabRows[:off+colChunk], p.slabVals[:off+colChunk]
	p.colRows[col] = p.slabRows[off : off : off+colChunk]
	p.colVals[col] = p.slabVals[off : off : off+colChunk]
}

// slabFor sizes a new slab when column col needs room: enough for the
// columns from col on that the problem has room for (Reserve), at least
// twice the last slab, at most slabSize. A slab of slabSize for every
// problem would make a small LP, built many times a second, allocate far
// more than it uses.
func (p *Problem) slabFor(col int) int {
	n := max((cap(p.colRows)-col)*colChunk, 2*cap(p.slabRows), 4*colChunk)
	return min(n, slabSize)
}

// CopyRows makes p the problem src with only the rows listed in rows
// (each once, in increasing order), renumbered in that order: the problem
// src's builder would have made had it added only those rows. Every
// column of src is kept, with its name, bounds and objective, and with
// its coefficients in src's order, less those of the rows left out. It
// is Reset and a rebuild at the cost of a copy: water filling's steps
// solve one LP's rows less a few, many times a recompute. p's own
// storage is reused, as by Reset; src must not be p. A coefficient in a
// row src does not have (a malformed src) is kept in a row p does not
// have either, and Solve refuses it. A source listed by ListForCopies
// (and unchanged since) is copied from its list, in one loop; the copy is
// the same.
func (p *Problem) CopyRows(src *Problem, rows []int) {
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
	// at has one more entry, the end mark's (see flatCols).
	nr := len(src.rowLo)
	p.rowAt = resizeI32(p.rowAt, nr+1)
	at := p.rowAt[:nr]
	for i := range at {
		at[i] = -1
	}
	p.rowAt[nr] = endMark
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
	// Every kept coefficient in one slab; each column's slices are capped
	// at their length, so a later Set that appends to one moves it out
	// rather than writing into the next.
	sr, sv := p.slabRows[:0], p.slabVals[:0]
	if cap(sr) < src.nnz || cap(sv) < src.nnz {
		sr, sv = make([]int32, 0, src.nnz), make([]float64, 0, src.nnz)
	}
	sr, sv = sr[:src.nnz], sv[:src.nnz]
	p.colRows, p.colVals = slices.Grow(p.colRows, n)[:n], slices.Grow(p.colVals, n)[:n]
	p.colTop = slices.Grow(p.colTop, n)[:n]
	colRows, colVals, colTop := p.colRows[:n], p.colVals[:n], p.colTop[:n]
	// Each column's top is its highest kept row or above: p's last row
	// (Set looks for a row at or below the top among the column's own),
	// or a higher row of a malformed coefficient.
	o, last := 0, int32(m-1)
	if src.listed(len(sr)) {
		// colTop holds each column's end in the slab until setCols sets
		// the tops.
		f := &src.flat
		o = keepRows(f.rows, f.vals, p.rowAt[:nr+1], sr, sv, colTop)
		setCols(colRows, colVals, colTop, sr, sv, last)
		p.finishCopy(src, sr, sv, o)
		return
	}
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
	p.finishCopy(src, sr, sv, o)
}

// finishCopy ends CopyRows: the slab holds the o coefficients kept.
func (p *Problem) finishCopy(src *Problem, sr []int32, sv []float64, o int) {
	p.slabRows, p.slabVals = sr[:o], sv[:o]
	p.nnz = o
	p.matrix++
	p.cols++
	p.srcMatrix, p.copied = src.matrix, p.matrix
}

// setCols points each column j at its coefficients in the slab sr and
// sv, from the end of column j−1 (0 for the first) to ends[j], capped
// at their length, and sets its top to last. A leaf of its own: in
// CopyRows its slices' headers were reloaded from the stack each column.
//
//go:noinline
func setCols(colRows [][]int32, colVals [][]float64, ends []int32, sr []int32, sv []float64, last int32) {
	colVals = colVals[:len(colRows)]
	ends = ends[:len(colRows)]
	s := int32(0)
	for j, e := range ends {
		colRows[j], colVals[j], ends[j] = sr[s:e:e], sv[s:e:e], last
		s = e
	}
}

// keepRows writes into sr and sv the coefficients rows and vals (a
// flatCols list) whose rows are kept (at[r] ≥ 0), renumbered (at[r]), and
// at each column's end mark (at[r] = endMark) the column's end in sr into
// ends; it returns how many it wrote. Every row must be an index of at,
// and sr as long as sv. A leaf of its own, one loop over the coefficients
// and marks: in CopyRows, column by column, the counters spilled to the
// stack, some 29 instructions a coefficient; inlined there, they spill
// again.
//
//go:noinline
func keepRows(rows []int32, vals []float64, at, sr []int32, sv []float64, ends []int32) int {
	o, j := 0, 0
	vals = vals[:len(rows)]
	sv = sv[:len(sr)]
	for k, r := range rows {
		if i := at[r]; i >= 0 {
			sr[o], sv[o] = i, vals[k]
			o++
		} else if i == endMark {
			ends[j] = int32(o)
			j++
		}
	}
	return o
}

// derived reports whether p's matrix is still src's with only the rows
// srcRows, as CopyRows made it: neither has changed since.
func (p *Problem) derived() bool {
	return p.src != nil && p.src.matrix == p.srcMatrix && p.matrix == p.copied
}

// SetObj changes a column's objective coefficient.
func (p *Problem) SetObj(col int, v float64) { p.obj[col] = v; p.cols++ }

// SetColBounds changes a column's bounds.
func (p *Problem) SetColBounds(col int, lo, hi float64) {
	p.colLo[col], p.colHi[col] = lo, hi
	p.cols++
}

// SetRowBounds changes a row's bounds.
func (p *Problem) SetRowBounds(row int, lo, hi float64) { p.rowLo[row], p.rowHi[row] = lo, hi }

// NumCols is the number of variables.
func (p *Problem) NumCols() int { return len(p.obj) }

// NumRows is the number of constraints.
func (p *Problem) NumRows() int { return len(p.rowLo) }

// NumNonzeros is the number of stored coefficients.
func (p *Problem) NumNonzeros() int { return p.nnz }

// ColName and RowName return names.
func (p *Problem) ColName(j int) string { return p.colNames[j] }
func (p *Problem) RowName(i int) string { return p.rowNames[i] }

// Obj returns a column's objective coefficient; ColBounds and RowBounds
// its bounds.
func (p *Problem) Obj(j int) float64                  { return p.obj[j] }
func (p *Problem) ColBounds(j int) (float64, float64) { return p.colLo[j], p.colHi[j] }
func (p *Problem) RowBounds(i int) (float64, float64) { return p.rowLo[i], p.rowHi[i] }

// Col returns the row indices and values of a column (read-only).
func (p *Problem) Col(j int) ([]int32, []float64) { return p.colRows[j], p.colVals[j] }

// Activity returns A x for a point x.
func (p *Problem) Activity(x []float64) []float64 {
	act := make([]float64, p.NumRows())
	for j, rs := range p.colRows {
		vals, xj := p.colVals[j][:len(rs)], x[j]
		for k, r := range rs {
			act[r] += vals[k] * xj
		}
	}
	return act
}

// checkedActivity is Activity for a problem whose coefficients are all
// finite (checked): it skips the columns with x_j = 0, whose products
// are ±0. Adding ±0 leaves a sum that is not −0 as it is, and these sums
// never are −0: they start at +0, and in rounding to nearest a sum is −0
// only when both terms are. (An infinite coefficient times 0 would add a
// NaN, hence finite coefficients only.) It writes into act's storage when
// that is large enough.
func (p *Problem) checkedActivity(x, act []float64) []float64 {
	act = zeroF(act, p.NumRows())
	for j, rs := range p.colRows {
		xj := x[j]
		if xj == 0 {
			continue
		}
		vals := p.colVals[j][:len(rs)]
		for k, r := range rs {
			act[r] += vals[k] * xj
		}
	}
	return act
}

// Objective returns cᵀx.
func (p *Problem) Objective(x []float64) float64 {
	s := 0.0
	for j, c := range p.obj {
		s += c * x[j]
	}
	return s
}

// Violation is the largest violation of a bound or a row by x.
func (p *Problem) Violation(x []float64) float64 {
	worst := 0.0
	for j, v := range x {
		worst = math.Max(worst, math.Max(p.colLo[j]-v, v-p.colHi[j]))
	}
	for i, a := range p.Activity(x) {
		worst = math.Max(worst, math.Max(p.rowLo[i]-a, a-p.rowHi[i]))
	}
	return worst
}

// check reports the first malformed bound or coefficient; with
// coefficients false it checks bounds and objective only (for a matrix
// checked before and not changed since).
func (p *Problem) check(coefficients bool) error {
	bad := func(v float64) bool { return math.IsNaN(v) }
	obj, colLo, colHi, m := p.obj, p.colLo[:len(p.obj)], p.colHi[:len(p.obj)], len(p.rowLo)
	for j := range obj {
		// A solve checks every column of a new problem: one compare for
		// NaN or ±Inf, and !(lo <= hi) for a NaN bound or lo > hi
		// (badBounds), not the tests one by one (TestCheckAsTestByTest).
		if !(math.Abs(obj[j]) <= math.MaxFloat64) {
			return fmt.Errorf("lp: column %s has objective %v", p.colNames[j], obj[j])
		}
		if badBounds(colLo[j], colHi[j]) {
			return fmt.Errorf("lp: column %s has bounds [%v, %v]", p.colNames[j], colLo[j], colHi[j])
		}
		if !coefficients {
			continue
		}
		rows := p.colRows[j]
		for k, v := range p.colVals[j][:len(rows)] {
			if bad(v) || math.IsInf(v, 0) {
				return fmt.Errorf("lp: column %s has coefficient %v in row %d", p.colNames[j], v, rows[k])
			}
			if int(rows[k]) >= m || rows[k] < 0 {
				return fmt.Errorf("lp: column %s refers to row %d of %d", p.colNames[j], rows[k], m)
			}
		}
	}
	return p.checkRows()
}

// checkRows reports the first malformed row bounds.
func (p *Problem) checkRows() error {
	rowLo, rowHi := p.rowLo, p.rowHi[:len(p.rowLo)]
	for i := range rowLo {
		if badBounds(rowLo[i], rowHi[i]) {
			return fmt.Errorf("lp: row %s has bounds [%v, %v]", p.rowNames[i], rowLo[i], rowHi[i])
		}
	}
	return nil
}

// badBounds reports whether lo or hi is NaN, lo > hi, lo is +Inf or hi
// is −Inf: !(lo <= hi) is the first three.
func badBounds(lo, hi float64) bool {
	return !(lo <= hi) || lo > math.MaxFloat64 || hi < -math.MaxFloat64
}

// Dumper is implemented by policies that solve linear programs: they hand
// every LP they solve to the sink, e.g. to write it as an MPS file.
type Dumper interface {
	DumpLPs(sink func(p *Problem))
}

// Clone returns a deep copy of p.
func (p *Problem) Clone() *Problem {
	q := *p
	q.slabRows, q.slabVals = nil, nil // the slab's free room stays p's
	q.rowAt = nil                     // CopyRows's scratch stays p's
	q.src, q.srcRows = nil, nil
	q.flat = flatCols{} // p's list (ListForCopies) is not listed again into q's storage
	q.colTop = append([]int32(nil), p.colTop...)
	q.obj = append([]float64(nil), p.obj...)
	q.colLo = append([]float64(nil), p.colLo...)
	q.colHi = append([]float64(nil), p.colHi...)
	q.colNames = append([]string(nil), p.colNames...)
	q.colRows = make([][]int32, len(p.colRows))
	q.colVals = make([][]float64, len(p.colVals))
	for j := range p.colRows {
		q.colRows[j] = append([]int32(nil), p.colRows[j]...)
		q.colVals[j] = append([]float64(nil), p.colVals[j]...)
	}
	q.rowLo = append([]float64(nil), p.rowLo...)
	q.rowHi = append([]float64(nil), p.rowHi...)
	q.rowNames = append([]string(nil), p.rowNames...)
	return &q
}
