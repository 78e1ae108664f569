package lp

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sync"
)

// Status is the outcome of a solve.
type Status int

const (
	Optimal Status = iota
	Infeasible
	Unbounded
	IterationLimit
	stopped // Options.Stop said so; Solve returns ErrStopped
)

var statusNames = [...]string{"optimal", "infeasible", "unbounded", "iteration limit", "stopped"}

// ErrStopped is Solve's error when Options.Stop asked it to give up.
var ErrStopped = errors.New("the linear program's solve was stopped")

func (s Status) String() string { return statusNames[s] }

// VarStatus is where a variable (a column, or a row's activity) sits in a
// basis.
type VarStatus int8

const (
	Basic   VarStatus = iota
	AtLower           // nonbasic at its lower bound
	AtUpper           // nonbasic at its upper bound
	AtZero            // nonbasic free variable at 0
)

// Basis records a basis: the status of every column and of every row's
// activity. It warm-starts a later solve of the same or a similar problem.
type Basis struct {
	Cols []VarStatus
	Rows []VarStatus
}

// Options tune a solve.
type Options struct {
	// Warm starts from this basis when it has the problem's shape (see
	// Basis.Remap for problems whose columns and rows changed).
	Warm *Basis
	// MaxIterations bounds the simplex pivots; 0 means 50·(rows+cols)+10,000.
	MaxIterations int
	// Dual starts from Warm with the dual simplex method when that basis
	// is dual feasible, as after a change of bounds or right-hand sides
	// only. Off by default: on the LPs of Gavel's rounds and of its
	// finish-time-fairness bisection (under 1 pivot per re-solve on
	// average) it saved no pivots and cost time; on random LPs whose row
	// bounds move it takes a third fewer pivots than a primal warm start.
	Dual bool
	// Primal starts a cold solve (no Warm basis) with the primal method
	// instead of the dual one; for comparisons.
	Primal bool
	// Duals asks an optimal solve for its row duals (Solution.RowDuals),
	// at the cost of one more solve with the basis.
	Duals bool
	// Stop, if set, is asked before every pivot whether to give up (a
	// run's deadline passed: one solve of thousands of rows can take
	// minutes); then Solve returns ErrStopped.
	Stop func() bool
}

// Solution is the result of a solve, in the problem's own units.
type Solution struct {
	Status     Status
	Objective  float64
	X          []float64 // column values
	Row        []float64 // row activities A x
	Basis      *Basis
	Iterations int
	// RowDuals, with Options.Duals and an optimal solve, is each row's
	// dual value: how fast the objective would change per unit of the
	// row's binding bound (0 for a row off its bounds). In a maximisation
	// a binding upper bound has a dual ≥ 0, a binding lower bound ≤ 0; in
	// a minimisation the other way round.
	RowDuals []float64
}

const (
	primalTol = 1e-9
	dualTol   = 1e-9
	harrisTol = 1e-12
	refactorN = 100
	// dualTolBits is math.Float64bits(dualTol), for withinDualTol
	// (TestWithinDualTolAsAbs).
	dualTolBits = 0x3e112e0be826d695
)

// solver holds the scaled problem: columns 0..n-1 are the structural
// variables, n..n+m-1 the row activities r, with A x − r = 0.
type solver struct {
	n, m     int
	cs       []int32
	ri       []int32
	rv       []float64
	lo, hi   []float64
	c        []float64
	colScale []float64
	rowScale []float64
	objScale float64
	sign     float64

	x      []float64
	stat   []VarStatus
	head   []int32
	posOf  []int32
	f      factor
	bRows  [][]int32
	bVals  [][]float64
	logRow [][]int32
	logVal []float64

	y, cb, alpha, rhs []float64
	iters, maxIter    int
	stop              func() bool
	cand              []ratioCand
	bland             bool
	degenerate        int

	// Row-wise copy of the scaled A, for the pivot row αᵣ = ρᵀA.
	rs  []int32
	rc  []int32
	rvr []float64
	// d holds the reduced costs of the current phase, kept up to date
	// from the pivot row; fresh is false when they must be recomputed
	// (after a refactorisation, or when phase 1's costs change).
	d      []float64
	fresh  bool
	prevCb []float64
	// dOut has bit j set for every variable price could pick now (d_j
	// outside the dual tolerance, of the sign its status and bounds let it
	// improve), and for others whose d_j or status changed since the last
	// price: price scores only those, in increasing j, as a scan of every
	// d_j would, and drops the others. Every write to d and every change
	// of a nonbasic status in run sets the bits it may make pickable, or
	// clears dOutOK, and price then builds the set again.
	dOut   []uint64
	dOutOK bool
	// bcKept is true when the last basicCosts found every basic variable
	// within its bounds and copied every basic cost, and since then only
	// a step has changed x_B (at the positions alphaNZ lists) and the
	// basis (at position bcLeave, or none when −1): basicCosts then tests
	// those positions alone.
	bcKept  bool
	bcLeave int
	// Devex reference weights (Forrest and Goldfarb 1992): pricing picks
	// the largest d_j²/w_j, an estimate of steepest edge at the cost of
	// one pivot row per iteration.
	w      []float64
	rho    []float64
	alphaR []float64
	mark   []uint8 // per variable: markBasic, markListed (in touch) or markNone
	touch  []int32
	// unit lists the one position pivotRow's btran starts from.
	unit  [1]int32
	rowNZ []int32 // the rows where ρ may be nonzero
	// alphaNZ lists, in increasing order, the positions where the
	// entering column s.alpha may be nonzero (ftranSparse).
	alphaNZ  []int32
	flipRows []int32 // the rows of the flipped columns (applyFlips)
	flipNZ   []int32 // the positions their ftran may make nonzero
	// dw are the dual method's Devex weights, by basis position.
	dw []float64
	// lscore is each basis position's score as the dual method's leaving
	// row (dualLeaving), kept up to date from pivot to pivot for the
	// positions a pivot changes; lscoreOK is false when it must be
	// computed again in full (after x_B or every weight changed).
	lscore   []float64
	lscoreOK bool
	lset     []int32 // the positions whose score is above 0
	lat      []int32 // each position's index in lset, or −1
	// The dual ratio test's breakpoints and the bound flips it chose;
	// longStep turns bound flipping on.
	bps      []breakpoint
	flips    []int32
	longStep bool
	// artif lists the artificial bounds a cold dual start set.
	artif     []artBound
	cSave     []float64
	perturbed bool

	// Scratch kept from solve to solve: rowWise's fill pointers, scale's
	// per-row extremes, start's wanted statuses and basics.
	fill       []int32
	scLo, scHi []float64
	want       []VarStatus
	basics     []int32
	inBasis    []bool

	// A factorisation a later start can take over: the one start made
	// while nothing has changed it since, or the fresh one a solve ended
	// with when its basics are in start's order (noteEnd). factors
	// counts factorisations; kept is false once the matrix is reloaded.
	// A later start on the same matrix that asks for the same basics in
	// the same order would factorise the same columns in the same order,
	// so it reuses this one (the tie-break LP after a max-min LP, a
	// bottleneck test after the bottleneck LP).
	factors      int
	startFactors int
	startBasics  []int32
	kept         bool

	// keep holds the scales of the last copy of a template loaded, for
	// the next copy of it (scaleKeep).
	keep scaleKeep

	// spareX and spareRow are the arrays Workspace.Recycle handed back,
	// for later solutions' X and Row.
	spareX, spareRow [][]float64
}

// Solve solves p. The error is for malformed problems only; infeasible
// and unbounded problems are reported in the Solution's Status.
func Solve(p *Problem, o Options) (*Solution, error) {
	var w Workspace
	return w.Solve(p, o)
}

// Workspace solves a sequence of problems with one solver's storage, so a
// re-solve allocates little; when it solves the same Problem again and
// only bounds or objective changed since (as for a tie-break LP solved
// after its max-min LP), the scaled matrix and its row-wise copy are kept
// too, and so is the factorisation of the basis the solve before ended at
// when the new solve starts warm from it. Every solve is the same
// arithmetic as Solve's: the results are identical. The zero value is ready; a Workspace is not safe for
// concurrent use.
type Workspace struct {
	s      solver
	p      *Problem // whose matrix s holds, scaled
	matrix uint64   // p.matrix when it was loaded
	// checked is the last problem whose columns' bounds and objective
	// were checked, and cols its p.cols then.
	checked *Problem
	cols    uint64
	// costCols and costMax are p.cols and p.Maximize when s's scaled
	// column bounds and costs were loaded from w.p (costsOK): a solve
	// leaves them as loaded (a cold dual start puts back its artificial
	// bounds and perturbed costs), so while the matrix, columns and sense
	// are unchanged only the rows' bounds are scaled again (FTF's
	// bisection changes row bounds alone).
	costCols uint64
	costMax  bool
	costsOK  bool
}

// Solve solves p like the package's Solve.
func (w *Workspace) Solve(p *Problem, o Options) (*Solution, error) {
	s := &w.s
	if o.Stop != nil && o.Stop() {
		return nil, ErrStopped // before the set-up, which factorises the first basis
	}
	reload := w.p != p || w.matrix != p.matrix
	// A new matrix's coefficients are checked as loadMatrix reads them,
	// and columns whose bounds and objective passed before and have not
	// changed since (p.cols) are not checked again; when anything is
	// malformed, check itself finds the first problem in its own order
	// and words it (with the columns unchanged, the first row's).
	// With the scaled costs and column bounds kept (below), the rows'
	// bounds are checked and scaled in one pass.
	keep := !reload && w.costsOK && w.costCols == p.cols && w.costMax == p.Maximize
	rowsLoaded := false
	var err error
	if w.checked == p && w.cols == p.cols {
		if keep {
			err, rowsLoaded = s.loadCheckedRowBounds(p), true
		} else {
			err = p.checkRows()
		}
	} else {
		err = p.check(false)
	}
	if err != nil {
		if reload {
			return nil, p.check(true)
		}
		return nil, err
	}
	w.checked, w.cols = p, p.cols
	if reload {
		if !s.loadMatrix(p) {
			w.p = nil // s holds part of p's matrix
			if err := p.check(true); err != nil {
				return nil, err
			}
			return nil, errors.New("lp: malformed coefficients") // check finds what loadMatrix found
		}
		w.p, w.matrix = p, p.matrix
		w.costsOK = false
	}
	if keep {
		if !rowsLoaded {
			s.loadRowBounds(p)
		}
	} else {
		s.loadCosts(p)
		w.costCols, w.costMax, w.costsOK = p.cols, p.Maximize, true
	}
	s.reset()
	s.maxIter = o.MaxIterations
	if s.maxIter == 0 {
		s.maxIter = 50*(s.n+s.m) + 10000
	}
	s.stop = o.Stop
	s.start(o.Warm)
	if o.Warm == nil && !o.Primal {
		if st, done := s.coldDual(); done {
			return s.finishOrStop(p, st, o)
		}
	}
	if o.Warm != nil && o.Dual {
		if st, done := s.dual(false); done {
			return s.finishOrStop(p, st, o)
		}
	}
	st := s.run()
	s.noteEnd()
	return s.finishOrStop(p, st, o)
}

// finishOrStop is finish, or ErrStopped.
func (s *solver) finishOrStop(p *Problem, st Status, o Options) (*Solution, error) {
	if st == stopped {
		return nil, ErrStopped
	}
	return s.finish(p, st, o), nil
}

// stopNow asks Options.Stop.
func (s *solver) stopNow() bool { return s.stop != nil && s.stop() }

// finish builds the solution and, when asked for, its row duals.
func (s *solver) finish(p *Problem, st Status, o Options) *Solution {
	sol := s.solution(p, st)
	if o.Duals && st == Optimal {
		sol.RowDuals = s.rowDuals()
	}
	return sol
}

// rowDuals solves yᵀB = c_B with the true costs and undoes the scaling
// and the sign of a maximisation: the reduced cost of row i's activity
// is y_i, and the activity is r_i·rowScale_i in the scaled problem, whose
// objective is sign·objScale times the problem's.
func (s *solver) rowDuals() []float64 {
	for k, j := range s.head {
		s.rhs[k] = s.c[j]
	}
	y := make([]float64, s.m)
	s.f.btran(s.rhs, y)
	for i := range y {
		y[i] *= s.sign * s.rowScale[i] / s.objScale
		if s.stat[s.n+i] == Basic {
			y[i] = 0 // exactly: a basic activity's reduced cost is 0
		}
	}
	return y
}

// sortHead puts the basic variables in increasing order, the order start
// gives a warm basis's basics; the caller refactors.
func (s *solver) sortHead() {
	slices.Sort(s.head)
	for k, j := range s.head {
		s.posOf[j] = int32(k)
	}
}

// noteEnd lets the next start keep the factorisation this solve ended
// with when it is one start itself would make: fresh (no updates) and of
// the basics in increasing order. A re-solve of the same matrix warm
// from this solve's basis (Gavel's bottleneck tests, which change only
// bounds and objective) then factorises nothing.
func (s *solver) noteEnd() {
	if s.f.numUpdates() != 0 || !slices.IsSorted(s.head) {
		return
	}
	s.startBasics = append(s.startBasics[:0], s.head...)
	s.startFactors = s.factors
	s.kept = true
}

// loadMatrix copies p's matrix by columns, scales it and builds its
// row-wise copy (scale does all three). It reports false, having stopped
// part way, if a coefficient is not finite or names a row p does not have.
func (s *solver) loadMatrix(p *Problem) bool {
	s.kept = false
	n, m := p.NumCols(), p.NumRows()
	s.n, s.m = n, m
	s.cs = resizeI32(s.cs, n+1)
	cs := s.cs[:n+1]
	nnz := int32(0)
	for j, rows := range p.colRows[:n] {
		cs[j] = nnz
		nnz += int32(len(rows))
	}
	cs[n] = nnz
	s.ri, s.rv = resizeI32(s.ri, int(nnz)), resizeF(s.rv, int(nnz))
	if s.keep.fits(p) {
		s.scaleKept(p)
		return true
	}
	return s.scale(p)
}

// loadCosts sets the scaled bounds and costs from p, whose matrix s holds.
func (s *solver) loadCosts(p *Problem) {
	n, m := s.n, s.m
	s.sign = 1
	if p.Maximize {
		s.sign = -1
	}
	N := n + m
	s.lo, s.hi, s.c = resizeF(s.lo, N), resizeF(s.hi, N), zeroF(s.c, N)
	lo, hi, c, colScale, sign := s.lo[:N], s.hi[:N], s.c[:N], s.colScale[:n], s.sign
	colLo, colHi, obj := p.colLo[:n], p.colHi[:n], p.obj[:n]
	big := 0.0
	for j, cs := range colScale {
		lo[j], hi[j] = colLo[j]/cs, colHi[j]/cs
		c[j] = sign * obj[j] * cs
		big = maxAbs(big, math.Abs(c[j])) // math.Max's result: both are absolute values or NaN
	}
	s.objScale = 1
	if big > 0 {
		s.objScale = pow2(1 / big)
	}
	for j := range colScale {
		c[j] *= s.objScale
	}
	s.loadRowBounds(p)
}

// loadCheckedRowBounds is p.checkRows and loadRowBounds in one pass:
// on a malformed row it returns checkRows's error, having scaled the
// rows before it (the next solve scales them again).
func (s *solver) loadCheckedRowBounds(p *Problem) error {
	n, m := s.n, s.m
	lo, hi := s.lo[n:n+m], s.hi[n:n+m]
	rowLo, rowHi, rowScale := p.rowLo[:m], p.rowHi[:m], s.rowScale[:m]
	for i, rs := range rowScale {
		l, h := rowLo[i], rowHi[i]
		// checkRows's test: !(l <= h) is l > h or a NaN.
		if !(l <= h) || l > math.MaxFloat64 || h < -math.MaxFloat64 {
			return p.checkRows()
		}
		lo[i], hi[i] = l*rs, h*rs
	}
	return nil
}

// loadRowBounds sets the rows' scaled bounds from p, whose matrix s
// holds, after loadCosts sized s.lo and s.hi.
func (s *solver) loadRowBounds(p *Problem) {
	n, m := s.n, s.m
	lo, hi := s.lo[n:n+m], s.hi[n:n+m]
	rowLo, rowHi, rowScale := p.rowLo[:m], p.rowHi[:m], s.rowScale[:m]
	for i, rs := range rowScale {
		lo[i], hi[i] = rowLo[i]*rs, rowHi[i]*rs
	}
}

// reset gives the solve's state the values a new solver starts with,
// reusing the storage of the solve before.
func (s *solver) reset() {
	n, m := s.n, s.m
	N := n + m
	s.x = zeroF(s.x, N)
	s.stat = resizeVS(s.stat, N)
	clear(s.stat)
	s.head = zeroI32(s.head, m)
	s.posOf = zeroI32(s.posOf, N)
	if cap(s.bRows) < m {
		s.bRows, s.bVals = make([][]int32, m), make([][]float64, m)
	}
	s.bRows, s.bVals = s.bRows[:m], s.bVals[:m]
	for i := len(s.logRow); i < m; i++ {
		s.logRow = append(s.logRow, []int32{int32(i)})
	}
	if s.logVal == nil {
		// Every logical's column, read only (as the structurals' kept
		// scaled columns are): one array for the workspace's solves.
		s.logVal = []float64{-1}
	}
	s.y, s.cb, s.alpha, s.rhs = zeroF(s.y, m), zeroF(s.cb, m), zeroF(s.alpha, m), zeroF(s.rhs, m)
	s.d, s.w, s.alphaR = zeroF(s.d, N), resizeF(s.w, N), zeroF(s.alphaR, N)
	s.mark = resizeU8(s.mark, N)
	clear(s.mark)
	s.prevCb, s.rho = zeroF(s.prevCb, m), zeroF(s.rho, m)
	for j := range s.w {
		s.w[j] = 1
	}
	s.touch, s.cand, s.dw = s.touch[:0], s.cand[:0], s.dw[:0]
	s.iters, s.bland, s.degenerate, s.fresh = 0, false, 0, false
	s.dOut, s.dOutOK = zeroU64(s.dOut, (N+63)/64), false
}

// scale equilibrates rows and columns by powers of two (exact), two
// geometric-mean passes, and writes the scaled matrix into s.ri and s.rv
// (by columns; cs is set) and its row-wise copy.
//
// Each pass finds every row's extreme entries under the columns' scales,
// sets the rows' scales, then every column's under them. The passes read
// p's own columns (the values the copy would hold until the end, and one
// load of each column's slices rather than two slicings of the copy); the
// rows' counts for the row-wise copy ride along the first pass's row
// extremes (where every column's scale is 1, by which multiplying is
// exact, so it is left out); the copy, its scaling and the row-wise copy
// ride along the second pass's columns: column j's entries are scaled
// once its own scale is set, since nothing after reads them unscaled.
// The same operations on the same values as separate passes. The first
// pass also checks each coefficient as Problem.check would: it reports
// false at the first that is not finite or names a row out of range.
//
// When p is a copy of a template (Problem.CopyRows), its scales are kept
// for the next copy (scaleKeep); otherwise what was kept is forgotten.
func (s *solver) scale(p *Problem) bool {
	s.keep.tpl = nil
	derived := p.derived()
	n, m := s.n, s.m
	s.colScale = resizeF(s.colScale, n)
	s.rowScale = resizeF(s.rowScale, m)
	colScale, rowScale := s.colScale[:n], s.rowScale[:m]
	for j := range colScale {
		colScale[j] = 1
	}
	for i := range rowScale {
		rowScale[i] = 1
	}
	s.scLo, s.scHi = resizeF(s.scLo, m), resizeF(s.scHi, m)
	lo, hi := s.scLo[:m], s.scHi[:m]
	colRows, colVals := p.colRows[:n], p.colVals[:n]
	// rs counts each row's entries, for the row-wise copy.
	s.rs = zeroI32(s.rs, m+1)
	rs := s.rs[:m+1]
	for pass := 0; pass < 2; pass++ {
		for i := range lo {
			lo[i], hi[i] = math.Inf(1), 0
		}
		if pass == 0 {
			for j, rows := range colRows {
				vals := colVals[j][:len(rows)]
				for k, i := range rows {
					// v is finite and not −0 (an absolute value times a
					// power of two), so comparisons are math.Min and
					// math.Max without their calls' cost.
					v := math.Abs(vals[k])
					if uint(i) >= uint(m) || !(v <= math.MaxFloat64) {
						return false // out of range, or ±Inf or NaN
					}
					if v < lo[i] {
						lo[i] = v
					}
					if v > hi[i] {
						hi[i] = v
					}
					rs[i+1]++
				}
			}
		} else {
			for j, rows := range colRows {
				vals, cj := colVals[j][:len(rows)], colScale[j]
				for k, i := range rows {
					v := math.Abs(vals[k]) * cj
					if v < lo[i] {
						lo[i] = v
					}
					if v > hi[i] {
						hi[i] = v
					}
				}
			}
		}
		for i := range lo {
			if hi[i] > 0 {
				rowScale[i] = pow2Normal(1 / math.Sqrt(lo[i]*hi[i]))
				if rowScale[i] == 0 {
					rowScale[i] = pow2Frexp(1 / math.Sqrt(lo[i]*hi[i]))
				}
			}
		}
		if pass > 0 {
			break // the second pass's columns are below, with the copies
		}
		for j, rows := range colRows {
			vals := colVals[j][:len(rows)]
			a, b := math.Inf(1), 0.0
			for k, i := range rows {
				v := math.Abs(vals[k]) * rowScale[i]
				if v < a {
					a = v
				}
				if v > b {
					b = v
				}
			}
			if b > 0 {
				if colScale[j] = pow2Normal(1 / math.Sqrt(a*b)); colScale[j] == 0 {
					colScale[j] = pow2Frexp(1 / math.Sqrt(a*b))
				}
			}
		}
		if derived { // the first pass's scales, for record
			s.keep.c0 = append(s.keep.c0[:0], colScale...)
			s.keep.rs0p = append(s.keep.rs0p[:0], rowScale...)
		}
	}
	for i := 0; i < m; i++ {
		rs[i+1] += rs[i]
	}
	nnz := len(s.ri)
	s.rc, s.rvr = resizeI32(s.rc, nnz), resizeF(s.rvr, nnz)
	ri, rv, rc, rvr := s.ri[:nnz], s.rv[:nnz], s.rc[:nnz], s.rvr[:nnz]
	fill := append(s.fill[:0], rs[:m]...)
	s.fill = fill
	o := 0 // column j's first entry in ri and rv
	for j, rows := range colRows {
		vals := colVals[j][:len(rows)]
		a, b := math.Inf(1), 0.0
		for k, i := range rows {
			v := math.Abs(vals[k]) * rowScale[i]
			if v < a {
				a = v
			}
			if v > b {
				b = v
			}
		}
		if b > 0 {
			if colScale[j] = pow2Normal(1 / math.Sqrt(a*b)); colScale[j] == 0 {
				colScale[j] = pow2Frexp(1 / math.Sqrt(a*b))
			}
		}
		cj := colScale[j]
		for k, i := range rows {
			v := vals[k] * (rowScale[i] * cj)
			ri[o], rv[o] = i, v
			o++
			f := fill[i]
			rc[f], rvr[f] = int32(j), v
			fill[i] = f + 1
		}
	}
	if derived {
		s.record(p)
	}
	return true
}

// pow2 rounds v > 0 to the nearest power of two (in the geometric sense:
// up from √2 times a power of two).
func pow2(v float64) float64 {
	if r := pow2Normal(v); r != 0 {
		return r
	}
	return pow2Frexp(v)
}

// pow2Normal is pow2 for a normal v below 2^1023, and 0 for any other v > 0.
// A normal v is 1.m × 2^e, so the answer is 2^e or 2^(e+1) by its mantissa
// alone, read from its bits: scaling needs it once a row and column every
// pass of every new matrix, so it is small enough to inline, without
// pow2Frexp's call.
func pow2Normal(v float64) float64 {
	const mantissa = 1<<52 - 1
	b := math.Float64bits(v)
	e := b >> 52 // v > 0: no sign bit
	if e-1 >= 0x7fd {
		return 0 // e is 0 (subnormal), or 2^(e+1) might not be finite
	}
	// The mantissa's carry into bit 52 is 1 when it is at least √2's.
	e += (b&mantissa + (1<<52 - math.Float64bits(math.Sqrt2)&mantissa)) >> 52
	return math.Float64frombits(e << 52)
}

// pow2Frexp is pow2 for any v > 0.
func pow2Frexp(v float64) float64 {
	frac, exp := math.Frexp(v)
	if frac < math.Sqrt2/2 {
		exp--
	}
	return math.Ldexp(1, exp)
}

func (s *solver) column(j int) ([]int32, []float64) {
	if j < s.n {
		return s.ri[s.cs[j]:s.cs[j+1]], s.rv[s.cs[j]:s.cs[j+1]]
	}
	return s.logRow[j-s.n], s.logVal
}

// nonbasicAt puts variable j at the bound status asks for, or the nearest
// finite one.
func (s *solver) nonbasicAt(j int, want VarStatus) {
	s.stat[j], s.x[j] = atBound(want, s.lo[j], s.hi[j])
	s.posOf[j] = -1
}

// atBound is the status and value of a nonbasic variable with bounds lo
// and hi that wants status want: want's bound, or the nearest finite one.
// It is small enough to inline into start's loops (math.IsInf, written
// out: !(hi > MaxFloat64) is !math.IsInf(hi, 1), NaN included).
func atBound(want VarStatus, lo, hi float64) (VarStatus, float64) {
	finiteHi := !(hi > math.MaxFloat64)
	switch {
	case want == AtUpper && finiteHi:
		return AtUpper, hi
	case !(lo < -math.MaxFloat64):
		return AtLower, lo
	case finiteHi:
		return AtUpper, hi
	}
	return AtZero, 0
}

// start sets up the slack basis or a warm one.
func (s *solver) start(warm *Basis) {
	n, m := s.n, s.m // locals: nonbasicAt's stores would make s.n and s.m reloads
	N := n + m
	s.want = resizeVS(s.want, N)
	want := s.want[:N]
	if warm != nil && len(warm.Cols) == n && len(warm.Rows) == m {
		copy(want, warm.Cols)
		copy(want[n:], warm.Rows)
	} else {
		for j := range want[:n] {
			want[j] = AtLower
		}
		for j := range want[n:] {
			want[n+j] = Basic
		}
	}
	// Exactly m basics: structurals first, then logicals. The others as
	// nonbasicAt would put them, inline on local slices.
	stat, x, lo, hi, posOf := s.stat[:N], s.x[:N], s.lo[:N], s.hi[:N], s.posOf[:N]
	basics := s.basics[:0]
	for j := 0; j < n; j++ {
		if want[j] == Basic && len(basics) < m {
			basics = append(basics, int32(j))
		} else {
			stat[j], x[j] = atBound(want[j], lo[j], hi[j])
			posOf[j] = -1
		}
	}
	s.inBasis = resizeBool(s.inBasis, m)
	inBasis := s.inBasis
	clear(inBasis)
	for i := 0; i < m; i++ {
		j := n + i
		if want[j] == Basic && len(basics) < m {
			basics = append(basics, int32(j))
			inBasis[i] = true
		} else {
			stat[j], x[j] = atBound(want[j], lo[j], hi[j])
			posOf[j] = -1
		}
	}
	for i := 0; i < m && len(basics) < m; i++ {
		if !inBasis[i] {
			basics = append(basics, int32(n+i))
		}
	}
	head := s.head[:len(basics)]
	for k, j := range basics {
		head[k] = j
		posOf[j] = int32(k)
		stat[j] = Basic
	}
	setMarks(s.mark, head, markBasic) // reset cleared every mark
	s.basics = basics
	if s.kept && s.factors == s.startFactors && s.f.numUpdates() == 0 && slices.Equal(basics, s.startBasics) {
		// The factorisation of these columns is still the one start
		// made, and it needed no repair: only the basic values change.
		s.computeXB()
		s.fresh = false
		return
	}
	s.refactor()
	s.startBasics = append(s.startBasics[:0], basics...)
	s.startFactors = s.factors
	s.kept = slices.Equal(s.head, basics) // no singular column swapped out
}

// refactor factors the basis afresh, swapping in logicals for dependent
// columns, and recomputes the basic values.
func (s *solver) refactor() {
	s.basisColumns()
	for tries := 0; ; tries++ {
		s.factors++
		singular, free := s.f.factorize(s.m, s.bRows, s.bVals)
		if len(singular) == 0 {
			break
		}
		for k, p := range singular {
			if k >= len(free) {
				break
			}
			old := int(s.head[p])
			s.nonbasicAt(old, nearest(s.x[old], s.lo[old], s.hi[old]))
			j := int32(s.n + free[k])
			s.head[p] = j
			s.posOf[j] = int32(p)
			s.stat[j] = Basic
			s.mark[old], s.mark[j] = markNone, markBasic
			// Only the swapped positions' columns change.
			s.bRows[p], s.bVals[p] = s.column(int(j))
		}
		if tries > 5 {
			// Cannot happen with logicals available; keep the loop finite.
			panic("lp: could not repair a singular basis")
		}
	}
	s.computeXB()
	s.fresh, s.bcKept = false, false
}

// basisColumns points bRows and bVals at the basic columns, by position:
// what s.column(head[k]) returns, on locals (water filling's bases are
// small and factorised twice a solve, so reloading s's fields and slicing
// through column for each position was a sizeable part of refactor).
func (s *solver) basisColumns() {
	n, head := s.n, s.head
	bRows, bVals := s.bRows[:len(head)], s.bVals[:len(head)]
	cs, ri, rv := s.cs[:n+1], s.ri, s.rv
	logRow, logVal := s.logRow, s.logVal
	for k, j := range head {
		if int(j) < n {
			a, b := cs[j], cs[j+1]
			bRows[k], bVals[k] = ri[a:b], rv[a:b]
		} else {
			bRows[k], bVals[k] = logRow[int(j)-n], logVal
		}
	}
}

func nearest(v, lo, hi float64) VarStatus {
	if math.Abs(v-hi) < math.Abs(v-lo) {
		return AtUpper
	}
	return AtLower
}

// computeXB solves B x_B = −N x_N.
func (s *solver) computeXB() {
	rhs, N := s.rhs, s.n+s.m
	clear(rhs)
	stat, x := s.stat[:N], s.x[:N]
	for j := range N {
		if stat[j] == Basic || x[j] == 0 {
			continue
		}
		rows, vals := s.column(j)
		vals = vals[:len(rows)]
		xj := x[j]
		for k, i := range rows {
			rhs[i] -= vals[k] * xj
		}
	}
	s.f.ftran(rhs, s.alpha)
	for k, j := range s.head {
		x[j] = s.alpha[k]
	}
	s.lscoreOK = false
}

// infeasibility returns the sum of bound violations of basic variables
// and fills the phase-1 costs.
func (s *solver) infeasibility() float64 {
	sum := 0.0
	x, lo, hi := s.x, s.lo[:len(s.x)], s.hi[:len(s.x)]
	cb := s.cb[:len(s.head)]
	for k, j := range s.head {
		v := x[j]
		switch {
		case v < lo[j]-primalTol:
			cb[k] = -1
			sum += lo[j] - v
		case v > hi[j]+primalTol:
			cb[k] = 1
			sum += v - hi[j]
		default:
			cb[k] = 0
		}
	}
	return sum
}

// basicCosts fills cb with the basic variables' costs for the phase
// they put the solve in: phase 1's (infeasibility's) when some basic
// variable is outside its bounds, else the objective's. phase1 is
// infeasibility() > 0 as run first wrote it: each violation adds more
// than primalTol to the sum, so the sum is positive exactly when some
// basic variable violates a bound.
//
// After a phase-2 iteration or before the first (was1 false; a warm
// start is usually feasible), the usual case, one pass tests
// the bounds, copies the costs and compares them with prevCb (changed:
// they differ; compared is true); the first violation hands over to
// infeasibility, which writes every position again. After a phase-1
// iteration, infeasibility goes first, as before, so that phase 1 does
// not pay for a pass that stops at its first violation. Where compared
// is false, the caller compares cb with prevCb itself if it needs to.
func (s *solver) basicCosts(was1 bool) (phase1, changed, compared bool) {
	if verifyKept && !was1 && s.bcKept {
		return s.verifyBasicCosts()
	}
	phase1, changed, compared = s.basicCostsOnce(was1)
	s.bcKept = !phase1
	return phase1, changed, compared
}

func (s *solver) basicCostsOnce(was1 bool) (phase1, changed, compared bool) {
	if was1 {
		if s.infeasibility() > 0 {
			return true, false, false
		}
		cb, c := s.cb[:len(s.head)], s.c
		for k, j := range s.head {
			cb[k] = c[j]
		}
		return false, false, false
	}
	if s.bcKept {
		return s.basicCostsKept()
	}
	x, lo, hi, c := s.x, s.lo[:len(s.x)], s.hi[:len(s.x)], s.c[:len(s.x)]
	cb := s.cb[:len(s.head)]
	prev := s.prevCb[:len(cb)]
	for k, j := range s.head {
		v := x[j]
		if v < lo[j]-primalTol || v > hi[j]+primalTol {
			s.infeasibility()
			return true, false, false
		}
		cj := c[j]
		cb[k] = cj
		if cj != prev[k] {
			changed = true
		}
	}
	return false, changed, true
}

// basicCostsKept is basicCosts after a phase-2 step (bcKept): the full
// pass's answer from the positions the step changed. The others' values,
// bounds and costs are as the last pass found them (within bounds, cb the
// costs), and there cb equals prevCb (the iteration after that pass
// recomputed the reduced costs from cb, updated them for its changed
// costs, or found none changed, and the step's updateDuals writes prevCb
// only at the leaving position): they would neither start phase 1 nor
// count as changed. The leaving position is among those alphaNZ lists
// (its α, the pivot, is not 0).
func (s *solver) basicCostsKept() (phase1, changed, compared bool) {
	x, lo, hi := s.x, s.lo[:len(s.x)], s.hi[:len(s.x)]
	head := s.head
	for _, k := range s.alphaNZ {
		j := head[k]
		if v := x[j]; v < lo[j]-primalTol || v > hi[j]+primalTol {
			s.infeasibility()
			return true, false, false
		}
	}
	if r := s.bcLeave; r >= 0 {
		cj := s.c[head[r]]
		s.cb[r] = cj
		changed = cj != s.prevCb[r]
	}
	return false, changed, true
}

// verifyKept makes basicCosts check its kept path (basicCostsKept)
// against the full pass, counting in keptChecked and keptMismatches the
// calls checked and those whose phase, "changed" or basic costs differ
// in any bit: a test sets it.
var (
	verifyKept                  bool
	keptChecked, keptMismatches int
)

func (s *solver) verifyBasicCosts() (phase1, changed, compared bool) {
	before := slices.Clone(s.cb)
	p1, c1, _ := s.basicCostsKept()
	kept := slices.Clone(s.cb)
	copy(s.cb, before)
	s.bcKept = false
	phase1, changed, compared = s.basicCostsOnce(false)
	s.bcKept = !phase1
	keptChecked++
	if p1 != phase1 || c1 != changed || !sameBits(kept, s.cb) {
		keptMismatches++
	}
	return phase1, changed, compared
}

// run iterates until optimal, infeasible, unbounded or out of iterations.
func (s *solver) run() Status {
	verified := 0
	wasPhase1 := true
	was1 := false // the last iteration's phase for basicCosts: phase 2 at first
	// Statuses may have changed since d was last written (the dual
	// method's flips): price builds its list afresh.
	s.dOutOK = false
	s.bcKept = false
	for {
		if s.iters >= s.maxIter {
			return IterationLimit
		}
		if s.stopNow() {
			return stopped
		}
		if s.f.numUpdates() >= refactorN || s.f.etaNonzeros() > 20*s.m+1000 {
			s.refactor()
		}
		phase1, changed, compared := s.basicCosts(was1)
		was1 = phase1
		if phase1 != wasPhase1 {
			s.resetWeights()
			wasPhase1 = phase1
			s.fresh = false
		}
		if !s.fresh {
			s.reducedCosts(phase1)
		} else if compared && changed || !compared && !equal(s.cb, s.prevCb) {
			s.costsChanged()
		}
		q, dir := s.price()
		if q < 0 {
			// Confirm on a fresh factorisation before concluding.
			if verified < 2 && s.f.numUpdates() > 0 {
				verified++
				// In start's order, so that a re-solve from the basis
				// this solve ends at can keep the factorisation.
				s.sortHead()
				s.refactor()
				continue
			}
			if phase1 {
				return Infeasible
			}
			return Optimal
		}
		verified = 0
		st, ok := s.step(q, dir, phase1)
		if !ok {
			return st
		}
		s.iters++
	}
}

func equal(a, b []float64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func (s *solver) resetWeights() {
	for j := range s.w {
		s.w[j] = 1
	}
}

// reducedCosts computes d_j = c_j − a_jᵀy afresh for the nonbasic
// variables, with y = B⁻ᵀc_B for the phase's costs c_B (in s.cb).
func (s *solver) reducedCosts(phase1 bool) {
	copy(s.prevCb, s.cb)
	copy(s.rhs, s.cb)
	s.f.btran(s.rhs, s.y)
	s.costsFromY(phase1)
	if checkCosts != nil {
		checkCosts(s, phase1)
	}
}

// costsFromY is reducedCosts after its btran: d and dOut from y.
func (s *solver) costsFromY(phase1 bool) {
	n, N := s.n, s.n+s.m
	stat, dd := s.stat[:N], s.d[:N]
	// Each d_j starts from c_j, or +0 in phase 1, put in d first: the
	// loops then keep one slice fewer than with c and a test of phase1.
	if phase1 {
		clear(dd)
	} else {
		copy(dd, s.c[:N])
	}
	out := s.dOut[:(N+63)/64]
	clear(out)
	structuralCosts(stat[:n], dd[:n], s.y, s.cs[:n+1], s.ri, s.rv, out)
	slackCosts(stat[n:], dd[n:], s.y, out, n)
	s.fresh, s.dOutOK = true, true
}

// checkCosts, when a test sets it, is called after every reducedCosts
// with its phase, to compare d and dOut with the loop as first written.
var checkCosts func(s *solver, phase1 bool)

// structuralCosts is reducedCosts' loop over the structural columns j <
// len(stat): d_j, holding c_j (or +0), less each entry of column j (its
// entries from cs[j] to cs[j+1] in ri and rv) times y at its row, in the
// column's order, 0 for a basic j; it sets out's bit j when d_j may be
// picked. A function of its own that calls nothing: inside reducedCosts,
// after the btran's call, the compiler kept the loop's counter and slices
// on the stack and reloaded them per column and entry.
//
//go:noinline
func structuralCosts(stat []VarStatus, dd, y []float64, cs, ri []int32, rv []float64, out []uint64) {
	ends := cs[1 : len(stat)+1]
	stat, dd = stat[:len(ends)], dd[:len(ends)]
	rv = rv[:len(ri)]
	// Each column's entries start where the one before's end (cs does
	// not decrease): t runs on from column to column, one load of cs a
	// column.
	t := int(cs[0])
	for j, e := range ends {
		end, st := int(e), stat[j]
		if st == Basic {
			dd[j] = 0
			t = end
			continue
		}
		d := dd[j]
		// The column's entries indexed in the matrix's arrays, cut at
		// the column's end so that the loop's test is their bounds
		// check: slicing from the start as well cost more than the
		// loop on columns of a few entries.
		cri, crv := ri[:end], rv[:end]
		for ; t < len(cri); t++ {
			d -= crv[t] * y[cri[t]]
		}
		dd[j] = d
		if mayPick(d, st) {
			out[j>>6] |= 1 << (uint(j) & 63)
		}
	}
}

// slackCosts is reducedCosts' loop over the slack columns, n + i for the
// i-th of stat: d, holding c (or +0), plus y_i, 0 for a basic one.
func slackCosts(stat []VarStatus, dd, y []float64, out []uint64, n int) {
	dd, y = dd[:len(stat)], y[:len(stat)]
	for i, st := range stat {
		if st == Basic {
			dd[i] = 0
			continue
		}
		d := dd[i]
		d += y[i]
		dd[i] = d
		if mayPick(d, st) {
			j := n + i
			out[j>>6] |= 1 << (uint(j) & 63)
		}
	}
}

// costsChanged updates the reduced costs when phase 1's basic costs
// change (a basic variable became feasible or infeasible): with
// δ = c_B − c_B(before) by position, d_N −= Nᵀ B⁻ᵀ δ.
func (s *solver) costsChanged() {
	for k := range s.rhs {
		s.rhs[k] = s.cb[k] - s.prevCb[k]
	}
	copy(s.prevCb, s.cb)
	s.f.btran(s.rhs, s.rho)
	for i, v := range s.rho {
		if v == 0 {
			continue
		}
		if j := s.n + i; s.stat[j] != Basic {
			s.d[j] += v
			setBit(s.dOut, int32(j))
		}
		for k := s.rs[i]; k < s.rs[i+1]; k++ {
			if j := s.rc[k]; s.stat[j] != Basic {
				s.d[j] -= v * s.rvr[k]
				setBit(s.dOut, j)
			}
		}
	}
}

// price picks the entering variable: the largest d_j²/w_j (Devex), or
// Bland's lowest index while the method stalls. dir is +1 to increase it.
//
// It visits the variables dOut lists, in increasing j: every one that
// could be picked is among them, so the same variables are scored in the
// same order as a scan of every d_j (TestPriceSameAsStraight). Most of
// the nonbasic variables of an LP near its optimum have a reduced cost of
// the sign that keeps them at their bound (FTF's tie-break: every column
// at 0 with d_j > 0), and are not visited. A listed variable that cannot
// be picked is dropped.
func (s *solver) price() (int, float64) {
	if !s.dOutOK {
		s.listOut()
	}
	if verifyDOut {
		s.verifyOut()
	}
	if s.bland {
		return s.priceBland()
	}
	return priceDevex(s.dOut, s.d, s.stat, s.lo, s.hi, s.w)
}

// priceDevex is price's scan of the listed variables for the largest
// d_j²/w_j, the first of equal scores in increasing j, dropping from out
// those that cannot be picked. A function of its own, given only what it
// reads, and with improves' tests written out: price's loop kept its
// slices and best choice on the stack and reloaded four of them at
// every variable it visited (about 90 a pricing in FTF's tie-break).
// It picks as improves and the score would (TestPriceSameAsStraight).
func priceDevex(out []uint64, d []float64, stat []VarStatus, lo, hi, w []float64) (int, float64) {
	best, q := 0.0, -1
	stat, lo, hi, w = stat[:len(d)], lo[:len(d)], hi[:len(d)], w[:len(d)]
	for wi, word := range out {
		for v := word; v != 0; v &= v - 1 {
			b := bits.TrailingZeros64(v)
			j := wi<<6 + b
			dj := d[j]
			// improves(dj, stat[j], lo[j], hi[j]), its status tests as
			// one: AtLower and AtZero (1, 3) may move up, AtUpper and
			// AtZero (2, 3) down; a NaN, neither < 0 nor > 0, neither.
			var want VarStatus
			switch {
			case withinDualTol(dj):
			case dj < 0:
				want = AtLower
			case dj > 0:
				want = AtUpper
			}
			if stat[j]&want == 0 || lo[j] == hi[j] {
				out[wi] &^= 1 << uint(b)
				continue
			}
			if score := dj * dj / w[j]; score > best {
				best, q = score, j
			}
		}
	}
	// The direction improves gave q: d_q is outside the tolerance.
	if q < 0 {
		return -1, 0
	}
	if d[q] < 0 {
		return q, 1
	}
	return q, -1
}

// priceBland is price under Bland's rule: the first variable that
// improves, in increasing j.
func (s *solver) priceBland() (int, float64) {
	d, out := s.d, s.dOut
	for wi, word := range out {
		for v := word; v != 0; v &= v - 1 {
			b := bits.TrailingZeros64(v)
			j := wi<<6 + b
			if dj := improves(d[j], s.stat[j], s.lo[j], s.hi[j]); dj != 0 {
				return j, dj
			}
			out[wi] &^= 1 << uint(b)
		}
	}
	return -1, 0
}

// improves is the direction in which moving a nonbasic variable with
// reduced cost v, status st and bounds lo, hi improves the objective
// beyond the dual tolerance: +1 up, −1 down, 0 for none (a basic
// variable, whose d is 0; a NaN).
func improves(v float64, st VarStatus, lo, hi float64) float64 {
	if withinDualTol(v) {
		return 0
	}
	// Past that test, v < 0 means v < −dualTol and v > 0 means v >
	// dualTol (a NaN is neither); a basic variable has neither status
	// below.
	if v < 0 && (st == AtLower || st == AtZero) && lo != hi {
		return 1
	}
	if v > 0 && (st == AtUpper || st == AtZero) && lo != hi {
		return -1
	}
	return 0
}

// mayPick is false for reduced costs improves would answer 0 for with
// any bounds: inside the tolerance, or positive at a lower bound. The
// writers of d set dOut's bit where it is true.
func mayPick(v float64, st VarStatus) bool {
	return !withinDualTol(v) && (v < 0 || st != AtLower)
}

// verifyDOut makes every price check that dOut lists each variable it
// could pick, counting in dOutChecked and dOutMisses the prices checked
// and the variables missed: a test sets it.
var (
	verifyDOut              bool
	dOutChecked, dOutMisses int
)

func (s *solver) verifyOut() {
	dOutChecked++
	for j, v := range s.d {
		if improves(v, s.stat[j], s.lo[j], s.hi[j]) != 0 && s.dOut[j>>6]&(1<<(uint(j)&63)) == 0 {
			dOutMisses++
		}
	}
}

// listOut sets dOut from d: bit j for every variable mayPick allows.
func (s *solver) listOut() {
	d := s.d
	n := (len(d) + 63) / 64
	if cap(s.dOut) < n {
		s.dOut = make([]uint64, n)
	}
	out := s.dOut[:n]
	clear(out)
	stat := s.stat[:len(d)]
	for j, v := range d {
		if mayPick(v, stat[j]) {
			out[j>>6] |= 1 << (uint(j) & 63)
		}
	}
	s.dOut, s.dOutOK = out, true
}

// withinDualTol reports whether |d| ≤ dualTol, as math.Abs would (false
// for a NaN), but compared as bits: a float's bits without the sign order
// as unsigned integers as its magnitude does, and a NaN's lie above every
// number's. One integer compare instead of moving d through the
// floating-point unit to clear its sign (price asks it of every variable
// at every pivot).
func withinDualTol(d float64) bool {
	return math.Float64bits(d)&^(1<<63) <= dualTolBits
}

// pivotRow computes αᵣ = ρᵀ[A −I] with ρ = B⁻ᵀeᵣ for the nonbasic
// variables, scattering into s.alphaR and listing the nonzeros in s.touch.
//
// s.mark tells, per variable, whether it is basic (markBasic, kept at
// every change of basis), listed in s.touch already (markListed) or
// neither: the inner loop tells the three apart with one load.
func (s *solver) pivotRow(r int) {
	alphaR := s.alphaR
	mark := s.mark[:len(alphaR)]
	if checkMarks != nil {
		checkMarks(s)
	}
	unlist(s.touch, alphaR, mark)
	// The list is written by index into room for every variable, never
	// appended to: a call in the inner loops (append's growth) would make
	// the compiler keep their counters and slices on the stack.
	if cap(s.touch) < len(alphaR) {
		s.touch = make([]int32, 0, len(alphaR))
	}
	touch := s.touch[:len(alphaR)]
	clear(s.rhs)
	s.rhs[r] = 1
	s.unit[0] = int32(r)
	s.rowNZ = s.f.btranSparse(s.rhs, s.rho, s.unit[:], s.rowNZ)
	row := rowScatter{rho: s.rho, rs: s.rs, rc: s.rc, rvr: s.rvr, n: s.n, alphaR: alphaR, mark: mark, touch: touch}
	s.touch = touch[:row.byMark(s.rowNZ)]
}

// unlist clears the pivot row from before (listed in touch, unless
// updateDuals cleared it): its entries, and its marks but markBasic,
// which its entering variable, basic since, keeps.
func unlist(touch []int32, alphaR []float64, mark []uint8) {
	for _, j := range touch {
		alphaR[j] = 0
		mark[j] &^= markListed
	}
}

// checkMarks, when a test sets it, is called at every pivotRow before
// the list from before is cleared, to check the marks against s.stat.
var checkMarks func(s *solver)

// rowScatter is what pivotRow's product ρᵀ[A −I] reads and writes: ρ,
// the row-wise matrix, the number of structural columns, and the row
// being summed with its marks and list. Its two ways are functions of
// their own that call nothing: inside pivotRow, with the solver and the
// btran's results live across the loops, the compiler kept the inner
// loops' counters and slices on the stack and reloaded them per entry.
type rowScatter struct {
	rho    []float64
	rs, rc []int32
	rvr    []float64
	n      int
	alphaR []float64
	mark   []uint8
	touch  []int32
}

// byMark sums the rows rowNZ lists where ρ is nonzero into the pivot
// row, skipping the variables marked markBasic and listing the others
// as it first meets them; it returns the length of the list.
func (row *rowScatter) byMark(rowNZ []int32) (nt int) {
	rho, rs, rc, n := row.rho, row.rs, row.rc, row.n
	rvr := row.rvr[:len(rc)]
	alphaR, touch := row.alphaR, row.touch
	mark := row.mark[:len(alphaR)]
	for _, i32 := range rowNZ {
		i := int(i32)
		v := rho[i]
		if v == 0 {
			continue
		}
		if j := n + i; mark[j] != markBasic {
			alphaR[j] = -v
			mark[j] = markListed
			touch[nt] = int32(j)
			nt++
		}
		lo, hi := rs[i], rs[i+1]
		if hi-lo > shortRow {
			nt = addRowMarked(rc[lo:hi], rvr[lo:hi], v, alphaR, mark, touch, nt)
			continue
		}
		// A short row inline: the call (whose return makes every
		// value live across it come back from the stack) would cost
		// more than its few entries (water filling's rows).
		for t := int(lo); t < int(hi); t++ {
			j := rc[t]
			switch mark[j] {
			case markListed:
			case markBasic:
				continue
			default:
				mark[j] = markListed
				touch[nt] = j
				nt++
			}
			alphaR[j] += v * rvr[t]
		}
	}
	return nt
}

// shortRow is the most entries of a row that byMark sums inline rather
// than in addRowMarked.
const shortRow = 8

// addRowMarked adds v times a row's entries (cols, vals) to the pivot
// row alphaR, skipping the columns marked markBasic and listing in touch
// (from nt on) the ones not yet listed; it returns the list's new length.
// A function of its own, so that its loop keeps its few values in
// registers (inlined into byMark, they went back to the stack).
//
//go:noinline
func addRowMarked(cols []int32, vals []float64, v float64, alphaR []float64, mark []uint8, touch []int32, nt int) int {
	vals = vals[:len(cols)]
	mark = mark[:len(alphaR)]
	for k, j := range cols {
		switch mark[j] {
		case markListed:
		case markBasic:
			continue
		default:
			mark[j] = markListed
			touch[nt] = j
			nt++
		}
		alphaR[j] += v * vals[k]
	}
	return nt
}

// setMarks sets mark[j] to v for the variables in js.
func setMarks(mark []uint8, js []int32, v uint8) {
	for _, j := range js {
		mark[j] = v
	}
}

// The states of s.mark: a variable not (yet) in the pivot row's list, one
// listed, and a basic one (set by start, refactor's swaps and every
// pivot). Two bits: clearing markListed leaves markBasic as it is.
const (
	markNone uint8 = iota
	markListed
	markBasic
)

// updateDuals updates the reduced costs and Devex weights for a pivot in
// which q enters at position r and out leaves; alphaRQ is the pivot. In
// phase 1 a nonbasic variable costs nothing, so out's reduced cost drops
// its basic cost and q enters at cost 0 (costsChanged charges its real
// one in the next iteration).
func (s *solver) updateDuals(q, out, r int, alphaRQ float64, phase1 bool) {
	if phase1 {
		defer func(cOut float64) { s.d[out] -= cOut; s.prevCb[r] = 0 }(s.prevCb[r])
	} else {
		s.prevCb[r] = s.c[q]
	}
	thetaD := s.d[q] / alphaRQ
	wq := s.w[q]
	// q's entry is cleared first, so the loop skips it as a zero: its d
	// is set below.
	s.alphaR[q] = 0
	dualsAlong(s.touch, s.alphaR, s.mark, s.d, s.w, s.stat, s.dOut, thetaD, alphaRQ, wq)
	s.touch = s.touch[:0]
	s.d[q] = 0
	s.d[out] = -thetaD
	setBit(s.dOut, int32(out))              // its status changes, and phase 1 subtracts its cost after this
	s.w[out] = max(wq/(alphaRQ*alphaRQ), 1) // math.Max's result: 1 is finite
	if s.w[out] > 1e6 {
		s.resetWeights()
	}
}

// dualsAlong updates d and the Devex weights w of the variables in touch,
// whose pivot row entries alphaR holds (0 for the entering variable),
// for a dual step thetaD on pivot alphaRQ whose entering variable's
// weight is wq, and sets dOut's bit of each d it makes pickable. It
// clears the pivot row's entries and marks as it reads them: nothing
// reads them after this, so the next pivotRow need not walk them again.
// A function of its own: inside updateDuals the compiler kept the loop's
// counter and slices on the stack.
func dualsAlong(touch []int32, alphaR []float64, mark []uint8, d, w []float64, stat []VarStatus, dOut []uint64, thetaD, alphaRQ, wq float64) {
	alphaR, mark = alphaR[:len(d)], mark[:len(d)]
	w, stat = w[:len(d)], stat[:len(d)]
	for _, j := range touch {
		a := alphaR[j]
		alphaR[j], mark[j] = 0, markNone
		if a == 0 {
			continue
		}
		r := a / alphaRQ
		if v := r * r * wq; v > w[j] {
			w[j] = v
		}
		dj := d[j] - thetaD*a
		d[j] = dj
		if mayPick(dj, stat[j]) {
			dOut[j>>6] |= 1 << (uint(j) & 63)
		}
	}
}

// step moves entering variable q in direction dir as far as the basics'
// bounds allow (Harris's two-pass ratio test), then pivots or flips q to
// its other bound. It returns false with a status when the LP is unbounded.
func (s *solver) step(q int, dir float64, phase1 bool) (Status, bool) {
	for i := range s.rhs {
		s.rhs[i] = 0
	}
	rows, vals := s.column(q)
	for k, i := range rows {
		s.rhs[i] = vals[k]
	}
	s.alphaNZ = s.f.ftranSparse(s.rhs, s.alpha, rows, s.alphaNZ)
	leave, theta, bigPivot := s.ratioTest(dir, phase1)
	rangeQ := s.hi[q] - s.lo[q]
	if leave < 0 || rangeQ <= theta {
		if math.IsInf(rangeQ, 1) {
			if phase1 {
				// Numerical trouble: refactor and let the loop retry.
				s.refactor()
				return 0, true
			}
			return Unbounded, false
		}
		// Bound flip: q goes to its other bound, no basis change.
		s.moveBasics(dir, rangeQ)
		s.bcLeave = -1
		if dir > 0 {
			s.stat[q], s.x[q] = AtUpper, s.hi[q]
		} else {
			s.stat[q], s.x[q] = AtLower, s.lo[q]
		}
		setBit(s.dOut, int32(q)) // its status changed
		s.degenerate = 0
		s.bland = false
		return 0, true
	}
	out := int(s.head[leave])
	s.pivotRow(leave)
	if s.fresh {
		s.updateDuals(q, out, leave, s.alpha[leave], phase1)
	}
	lo, hi := s.bounds(out, phase1) // before the move changes its feasibility
	target := lo
	if -dir*s.alpha[leave] > 0 {
		target = hi
	}
	s.moveBasics(dir, theta)
	s.bcLeave = leave
	s.x[q] += dir * theta
	s.x[out], s.stat[out] = target, AtLower
	if target == s.hi[out] && target != s.lo[out] {
		s.stat[out] = AtUpper
	}
	s.posOf[out] = -1
	s.head[leave] = int32(q)
	s.posOf[q] = int32(leave)
	s.stat[q] = Basic
	s.mark[out], s.mark[q] = markNone, markBasic
	s.f.update(leave, s.alpha, s.alphaNZ)
	if theta*bigPivot < 1e-12 {
		s.degenerate++
		if s.degenerate > blandAfter {
			s.bland = true
		}
	} else {
		s.degenerate = 0
		s.bland = false
	}
	return 0, true
}

// blandAfter is how many degenerate pivots in a row switch pricing to
// Bland's rule. Bland's rule cannot cycle but picks poor pivots: on the
// dumped hierarchical LP with a dense row, a limit of 50 spent half of
// the 597 pivots under it; 300 still bounds a stall and saves 16% there.
const blandAfter = 300

// bounds are basic variable j's bounds for the ratio test: in phase 1 an
// infeasible variable may move up to its violated bound and no further.
func (s *solver) bounds(j int, phase1 bool) (float64, float64) {
	lo, hi := s.lo[j], s.hi[j]
	if phase1 {
		switch v := s.x[j]; {
		case v < lo-primalTol:
			return math.Inf(-1), lo
		case v > hi+primalTol:
			return hi, math.Inf(1)
		}
	}
	return lo, hi
}

// ratioTest is Harris's two-pass test for the entering column s.alpha
// moving in direction dir: pass 1 finds the largest step tmax with the
// bounds relaxed by the tolerance (none in Bland's mode, which needs exact
// ties); pass 2 takes, among the basics blocking within tmax, the one with
// the largest pivot. It returns the leaving position (−1 if none), the
// step and the pivot's magnitude.
func (s *solver) ratioTest(dir float64, phase1 bool) (leave int, theta, bigPivot float64) {
	relax := primalTol
	if s.bland {
		relax = 0
	}
	s.cand = s.cand[:0]
	alpha, head, x := s.alpha, s.head[:len(s.alpha)], s.x
	tmax := math.Inf(1)
	for _, k32 := range s.alphaNZ { // the positions in order, but those where α is 0
		k := int(k32)
		delta := -dir * alpha[k]
		if delta <= harrisTol && delta >= -harrisTol {
			continue
		}
		j := int(head[k])
		lo, hi := s.bounds(j, phase1)
		var bound float64
		if delta > 0 {
			if math.IsInf(hi, 1) {
				continue
			}
			bound = hi
			if t := (hi + relax - x[j]) / delta; t < tmax {
				tmax = max(t, 0) // math.Max's result: 0 is finite
			}
		} else {
			if math.IsInf(lo, -1) {
				continue
			}
			bound = lo
			if t := (lo - relax - x[j]) / delta; t < tmax {
				tmax = max(t, 0) // math.Max's result: 0 is finite
			}
		}
		s.cand = append(s.cand, ratioCand{int32(k), max((bound-x[j])/delta, 0), delta})
	}
	leave = -1
	for _, c := range s.cand {
		if c.t > tmax {
			continue
		}
		better := math.Abs(c.delta) > bigPivot
		if s.bland {
			better = leave < 0 || c.t < theta || (c.t == theta && s.head[c.k] < s.head[leave])
		}
		if better {
			leave, theta, bigPivot = int(c.k), c.t, math.Abs(c.delta)
		}
	}
	return leave, theta, bigPivot
}

type ratioCand struct {
	k        int32
	t, delta float64
}

func (s *solver) moveBasics(dir, t float64) {
	if t == 0 {
		return
	}
	alpha, head, x := s.alpha, s.head[:len(s.alpha)], s.x
	for _, k := range s.alphaNZ {
		if a := alpha[k]; a != 0 {
			x[head[k]] -= dir * t * a
		}
	}
}

// solution unscales the result.
func (s *solver) solution(p *Problem, st Status) *Solution {
	n := s.n
	sol := &Solution{Status: st, Iterations: s.iters, X: takeSpare(&s.spareX, n)}
	if sol.X == nil {
		sol.X = make([]float64, n)
	}
	// On local slices: the stores to sol.X would make every field a reload.
	out, x, colScale := sol.X[:n], s.x[:n], s.colScale[:n]
	if st == Optimal {
		colLo, colHi := p.colLo[:n], p.colHi[:n]
		for j, cs := range colScale {
			out[j] = clamp(x[j]*cs, colLo[j], colHi[j])
		}
	} else {
		for j, cs := range colScale {
			out[j] = x[j] * cs
		}
	}
	sol.Row = p.checkedActivity(sol.X, takeSpare(&s.spareRow, s.m)) // the solve checked the coefficients
	sol.Objective = p.Objective(sol.X)
	b := newBasis(s.n, s.m)
	copy(b.Cols, s.stat[:s.n])
	copy(b.Rows, s.stat[s.n:])
	sol.Basis = b
	return sol
}

// maxSpares bounds the arrays of each kind Workspace.Recycle keeps.
const maxSpares = 4

// takeSpare returns, resized to n and not cleared, the last array
// Workspace.Recycle handed back, or nil when there is none that large.
func takeSpare(spares *[][]float64, n int) []float64 {
	k := len(*spares)
	if k == 0 {
		return nil
	}
	v := (*spares)[k-1]
	(*spares)[k-1] = nil
	*spares = (*spares)[:k-1]
	if cap(v) < n {
		return nil
	}
	return v[:n]
}

// Recycle hands sol's X and Row back to w, for a caller that will read
// neither again (nor any slice of them it kept): a later solve may
// return them, overwritten, in its own Solution, instead of allocating
// two arrays (the bisection on ρ of Gavel's finish-time fairness drops
// most of its 10 to 40 solutions a recompute). It sets sol.X and sol.Row
// to nil, so a read after it fails loudly rather than seeing another
// solve's values; sol's Basis and RowDuals stay the caller's. A few
// arrays are kept; Recycle(nil) does nothing.
func (w *Workspace) Recycle(sol *Solution) {
	if sol == nil {
		return
	}
	s := &w.s
	if sol.X != nil && len(s.spareX) < maxSpares {
		s.spareX = append(s.spareX, sol.X)
	}
	if sol.Row != nil && len(s.spareRow) < maxSpares {
		s.spareRow = append(s.spareRow, sol.Row)
	}
	sol.X, sol.Row = nil, nil
}

// newBasis returns a basis of n columns and m rows, all Basic (0): its
// two arrays are one allocation (water filling makes two bases a solve),
// capped so that an append to Cols cannot write into Rows.
func newBasis(n, m int) *Basis {
	st := make([]VarStatus, n+m)
	return &Basis{Cols: st[:n:n], Rows: st[n:]}
}

// clamp is math.Min(math.Max(v, lo), hi) for the bounds check allows (no
// NaN, lo < +Inf, hi > −Inf), without their calls: the builtins differ
// from them only on a NaN against an infinity of the side they answer
// (math.Max(NaN, +Inf) is +Inf, the builtin's NaN), which those bounds
// exclude (TestClampAsMath).
func clamp(v, lo, hi float64) float64 { return min(max(v, lo), hi) }

// Remap carries a basis of problem old over to problem p by column and row
// names: what both have keeps its status; new columns start at a bound and
// new rows with their activity basic. Of two columns or rows of old with
// one name, the last one's status is carried.
func (b *Basis) Remap(old, p *Problem) *Basis {
	m := remapMaps.Get().(*nameStatus)
	defer m.put()
	nb := newBasis(p.NumCols(), p.NumRows())
	m.remap(nb.Cols, b.Cols, old.colNames, p.colNames, AtLower, m.cols, false)
	m.remap(nb.Rows, b.Rows, old.rowNames, p.rowNames, Basic, m.rows, false)
	return nb
}

// RemapUnique is Remap for an old problem whose column names are all
// different and whose row names are all different, as an LP written to
// MPS must have (with namesakes it may carry any one's status). It is
// Remap's answer at less cost when the two problems list what they share
// in the same order, as a policy's successive LPs of one kind do: names
// are matched in order first, and looked up only where that fails.
func (b *Basis) RemapUnique(old, p *Problem) *Basis {
	m := remapMaps.Get().(*nameStatus)
	defer m.put()
	nb := newBasis(p.NumCols(), p.NumRows())
	m.remap(nb.Cols, b.Cols, old.colNames, p.colNames, AtLower, m.cols, true)
	m.remap(nb.Rows, b.Rows, old.rowNames, p.rowNames, Basic, m.rows, true)
	return nb
}

// remap sets out[j], for each name of to, to the status in from of that
// name in names (absent: missing). In order (RemapUnique), a name is
// looked for first where the last one found was followed, then through
// the rest of names (cheap: most names differ from the first bytes), and
// only after a few names not in order does remap fill the map, once, for
// all of names.
func (m *nameStatus) remap(out, from []VarStatus, names, to []string, missing VarStatus, byName map[string]int32, inOrder bool) {
	const scans = 8 // names looked for through names before the map is filled
	filled := false
	fill := func() {
		for k := range from {
			byName[names[k]] = int32(k) // the last of namesakes wins
		}
		filled = true
	}
	if !inOrder {
		fill()
	}
	next, scanned := 0, 0 // in order: where the next name is looked for first
	for j, name := range to {
		k := -1
		switch {
		case inOrder && next < len(names) && names[next] == name:
			k = next
		case !filled && scanned < scans:
			scanned++
			k = find(names, next, name)
		default:
			if !filled {
				fill()
			}
			if at, ok := byName[name]; ok {
				k = int(at)
			}
		}
		if k < 0 {
			out[j] = missing
			continue
		}
		out[j] = from[k]
		next = k + 1
	}
}

// find is the index of name in names, looked for from names[from] on and
// then before it; -1 if it is not there.
func find(names []string, from int, name string) int {
	for k := from; k < len(names); k++ {
		if names[k] == name {
			return k
		}
	}
	for k := 0; k < min(from, len(names)); k++ {
		if names[k] == name {
			return k
		}
	}
	return -1
}

// nameStatus is Remap's scratch: the old basis's positions by column and
// row name. Water filling remaps a basis for each of its many small LPs,
// so the maps are kept for the next Remap rather than built afresh.
type nameStatus struct{ cols, rows map[string]int32 }

var remapMaps = sync.Pool{New: func() any {
	return &nameStatus{cols: map[string]int32{}, rows: map[string]int32{}}
}}

// maxKeptNames is the most names a kept map may hold: clearing a map
// costs its size, so one grown by a large LP is left to the collector.
const maxKeptNames = 4096

func (m *nameStatus) put() {
	if len(m.cols) > maxKeptNames || len(m.rows) > maxKeptNames {
		return
	}
	clear(m.cols)
	clear(m.rows)
	remapMaps.Put(m)
}

// String describes a solution briefly.
func (s *Solution) String() string {
	return fmt.Sprintf("%s, objective %.10g, %d iterations", s.Status, s.Objective, s.Iterations)
}
