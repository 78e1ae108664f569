package lp

import "math"

// dual runs the dual simplex method from a basis that is dual feasible
// (every reduced cost has the sign its bound asks for): the slack basis of
// a cold start (coldDual), or a warm basis. A warm basis is dual feasible after
// a re-solve in which only row or column bounds changed, such as each step
// of a bisection: the old optimal basis stays dual feasible, and the dual
// method restores primal feasibility in a few pivots where the primal
// method would start phase 1 over.
//
// It returns done = false to hand over to the primal method: when the
// basis is not dual feasible, on numerical trouble, after a long run of
// degenerate pivots, and when the basis is primal feasible (the primal
// method then confirms optimality on a fresh factorisation). It returns
// done = true with Infeasible when a row proves the problem infeasible, or
// with IterationLimit.
func (s *solver) dual(flip bool) (st Status, done bool) {
	for k, j := range s.head {
		s.cb[k] = s.c[j]
	}
	s.reducedCosts(false)
	if !s.dualFeasible(flip) {
		return 0, false
	}
	s.dw = resizeF(s.dw, s.m)
	for k := range s.dw {
		s.dw[k] = 1
	}
	s.lscore, s.lscoreOK = resizeF(s.lscore, s.m), false
	trouble, stalled, verified := 0, 0, false
	for {
		if s.iters >= s.maxIter {
			return IterationLimit, true
		}
		if s.stopNow() {
			return stopped, true
		}
		if !s.fresh || s.f.numUpdates() >= refactorN || s.f.etaNonzeros() > 20*s.m+1000 {
			if s.fresh {
				s.refactor()
			}
			for k, j := range s.head {
				s.cb[k] = s.c[j]
			}
			s.reducedCosts(false)
		}
		r := s.dualLeaving()
		if r < 0 {
			return 0, false
		}
		s.pivotRow(r)
		out := int(s.head[r])
		below := s.x[out] < s.lo[out]
		infeas := s.x[out] - s.hi[out]
		if below {
			infeas = s.lo[out] - s.x[out]
		}
		q := s.dualRatio(below, infeas, s.longStep)
		if q < 0 {
			// No entering variable: row r has no feasible value. Confirm
			// on a fresh factorisation first.
			if !verified && s.f.numUpdates() > 0 {
				verified = true
				s.refactor()
				continue
			}
			return Infeasible, true
		}
		verified = false
		for i := range s.rhs {
			s.rhs[i] = 0
		}
		rows, vals := s.column(q)
		for k, i := range rows {
			s.rhs[i] = vals[k]
		}
		s.alphaNZ = s.f.ftranSparse(s.rhs, s.alpha, rows, s.alphaNZ)
		arq := s.alpha[r]
		if math.Abs(arq-s.alphaR[q]) > 1e-7*(1+math.Abs(arq)) || math.Abs(arq) < 1e-9 {
			// The row and the column disagree on the pivot.
			if trouble++; trouble > 3 {
				return 0, false
			}
			s.refactor()
			continue
		}
		s.applyFlips()
		target := s.hi[out]
		if below {
			target = s.lo[out]
		}
		step := (s.x[out] - target) / arq
		if s.d[q] == 0 {
			if s.longStep && !s.perturbed {
				s.perturbNonbasic()
			}
			if stalled++; stalled > 200 {
				return 0, false
			}
		} else {
			stalled = 0
		}
		s.updateDuals(q, out, r, arq, false)
		s.dualDevexMove(r, arq, step) // and s.f.update(r, s.alpha)
		s.x[q] += step
		s.x[out], s.stat[out] = target, AtLower
		if below {
			s.stat[out] = AtLower
		} else {
			s.stat[out] = AtUpper
		}
		s.posOf[out] = -1
		s.head[r] = int32(q)
		s.posOf[q] = int32(r)
		s.stat[q] = Basic
		s.mark[out], s.mark[q] = markNone, markBasic
		if s.lscoreOK {
			s.leaveScore(r)
		}
		s.iters++
	}
}

// dualFeasible reports whether every nonbasic reduced cost has the sign
// its bound asks for; with flip, boxed variables with the wrong sign go to
// their other bound instead. Flipping is what lets a cold start (coldDual)
// begin from the slack basis; warm re-solves never flip.
func (s *solver) dualFeasible(flip bool) bool {
	flipped := false
	for j, d := range s.d {
		st := s.stat[j]
		if st == Basic || s.lo[j] == s.hi[j] {
			continue
		}
		switch {
		case st != AtUpper && d < -dualTol:
			if !flip || math.IsInf(s.hi[j], 1) {
				return false
			}
			s.stat[j], s.x[j], flipped = AtUpper, s.hi[j], true
		case st != AtLower && d > dualTol:
			if !flip || math.IsInf(s.lo[j], -1) {
				return false
			}
			s.stat[j], s.x[j], flipped = AtLower, s.lo[j], true
		}
	}
	if flipped {
		s.computeXB()
	}
	return true
}

// dualDevexMove updates, for a pivot on position r with pivot arq and
// the entering column s.alpha, the dual Devex weights of the rows, the
// basic values (x_B −= step·α, moveBasics(1, step)) and the leaving
// scores of the positions whose weight or value changed, in one pass over
// the column, which also records the column as the factorisation's
// product-form update (factor.update). Each position's weight and value
// come from its own old ones only, so one pass computes what a pass for
// each would.
func (s *solver) dualDevexMove(r int, arq, step float64) {
	f := &s.f
	f.etaPos = append(f.etaPos, int32(r))
	f.etaPiv = append(f.etaPiv, s.alpha[r])
	f.etaStart = append(f.etaStart, int32(len(f.etaIdx)))
	wr := s.dw[r]
	for _, k32 := range s.alphaNZ {
		k := int(k32)
		a := s.alpha[k]
		if a == 0 {
			continue
		}
		j := s.head[k]
		if k != r {
			ratio := a / arq
			if v := ratio * ratio * wr; v > s.dw[k] {
				s.dw[k] = v
			}
			if a > dropTol || a < -dropTol { // as factor.update drops
				f.etaIdx = append(f.etaIdx, int32(k))
				f.etaVal = append(f.etaVal, a)
			}
		}
		if step != 0 {
			s.x[j] -= step * a
		}
		if s.lscoreOK {
			s.leaveScore(k) // position r's is set again after the pivot
		}
	}
	s.dw[r] = math.Max(wr/(arq*arq), 1)
	if s.dw[r] > 1e6 {
		for k := range s.dw {
			s.dw[k] = 1
		}
		s.lscoreOK = false
	}
}

// dualLeaving picks the basic variable farthest outside its bounds
// relative to its Devex weight (−1: the basis is primal feasible).
//
// The scores are kept in s.lscore (computed in full when s.lscoreOK is
// false): a pivot changes the values of the positions where the entering
// column or the flips' column is nonzero, and the weights of the former,
// so the dual method scores those again (leaveScore) rather than all m
// positions each pivot. A position not outside its bounds scores 0,
// which never beats worst, so the choice is the full scan's. The
// positions that score above 0 are listed (s.lset; s.lat[k] is k's place
// there, or −1), and the choice scans them only: the largest score, the
// lowest position among equals, as the full scan in order would take.
func (s *solver) dualLeaving() int {
	if !s.lscoreOK || rescoreAll {
		s.lset, s.lat = s.lset[:0], resizeI32(s.lat, s.m)
		for k := range s.lat {
			s.lat[k] = -1
		}
		for k := range s.head {
			s.leaveScore(k)
		}
		s.lscoreOK = true
	}
	r, worst := -1, 0.0
	if rescoreAll { // every score, in order, as a test's reference
		for k, score := range s.lscore[:len(s.head)] {
			if score > worst {
				r, worst = k, score
			}
		}
		return r
	}
	for _, k32 := range s.lset {
		k := int(k32)
		if score := s.lscore[k]; score > worst || (score == worst && k < r) {
			r, worst = k, score
		}
	}
	return r
}

// rescoreAll makes dualLeaving score every position each pivot and scan
// every score, as it did before the scores were kept and listed: a test
// compares the two.
var rescoreAll = false

// leaveScore sets position k's score as the leaving row: its distance
// outside its bounds squared over its Devex weight, or 0 within them.
func (s *solver) leaveScore(k int) {
	j := s.head[k]
	v := 0.0
	switch x := s.x[j]; {
	case x < s.lo[j]:
		v = s.lo[j] - x
	case x > s.hi[j]:
		v = x - s.hi[j]
	}
	score := 0.0
	if v > primalTol {
		score = v * v / s.dw[k]
	}
	s.lscore[k] = score
	switch at := s.lat[k]; {
	case score > 0 && at < 0:
		s.lat[k] = int32(len(s.lset))
		s.lset = append(s.lset, int32(k))
	case !(score > 0) && at >= 0:
		last := s.lset[len(s.lset)-1]
		s.lset[at], s.lat[last] = last, at
		s.lset = s.lset[:len(s.lset)-1]
		s.lat[k] = -1
	}
}

// dualRatio is the dual ratio test on the pivot row s.alphaR for a
// leaving variable below its lower bound (below) or above its upper one:
// the entering variable, −1 when none can enter. With long steps it is
// the bound-flipping test: the breakpoints |d_j/α_j| are passed in
// increasing order while the leaving row stays infeasible after flipping
// the boxed variable there to its other bound (s.flips lists them), so a
// step passes many boxed columns at once; the entering variable is then
// chosen by Harris's two-pass test among the breakpoints left.
func (s *solver) dualRatio(below bool, infeas float64, longStep bool) int {
	sgn := 1.0
	if !below {
		sgn = -1
	}
	s.flips = s.flips[:0]
	bps := s.bps[:0]
	for _, j := range s.touch {
		a := s.alphaR[j] * sgn
		if math.Abs(a) < 1e-9 || s.lo[j] == s.hi[j] {
			continue
		}
		ok := false
		switch s.stat[j] {
		case AtLower:
			ok = a < 0
		case AtUpper:
			ok = a > 0
		case AtZero:
			ok = true
		}
		if ok {
			bps = append(bps, breakpoint{j, math.Abs(s.d[j]) / math.Abs(a), math.Abs(a)})
		}
	}
	s.bps = bps
	if longStep && len(bps) > 1 {
		bps = s.passBreakpoints(bps, infeas)
	}
	tmax := math.Inf(1)
	for _, b := range bps {
		// math.Min's result without its call: the ratios are > 0 or NaN,
		// so neither zero's sign nor −∞ can arise.
		if v := (math.Abs(s.d[b.j]) + dualTol) / b.a; v < tmax || v != v {
			tmax = v
		}
	}
	q, big := -1, 0.0
	for _, b := range bps {
		if b.t > tmax {
			continue
		}
		if b.a > big || (b.a == big && int(b.j) < q) {
			q, big = int(b.j), b.a
		}
	}
	return q
}

// passBreakpoints takes the breakpoints in increasing order (a heap: most
// steps pass few of them, so sorting them all would cost more than the
// rest of the iteration) and flips each boxed variable whose breakpoint
// the step can pass with the leaving row still infeasible (slope > 0).
// It returns the breakpoints left, the first that could not be passed
// among them.
func (s *solver) passBreakpoints(bps []breakpoint, slope float64) []breakpoint {
	// Most often the first breakpoint cannot be passed: find it without
	// ordering the rest.
	first := 0
	for k, b := range bps {
		if b.Less(bps[first]) {
			first = k
		}
	}
	if b := bps[first]; s.stat[b.j] == AtZero || !(slope-b.a*(s.hi[b.j]-s.lo[b.j]) > 0) {
		return bps
	}
	h := bpHeap(bps)
	h.init()
	for len(h) > 1 {
		b := h[0]
		drop := b.a * (s.hi[b.j] - s.lo[b.j])
		if s.stat[b.j] == AtZero || !(slope-drop > 0) {
			break
		}
		slope -= drop
		s.flips = append(s.flips, b.j)
		h = h.pop()
	}
	return h
}

// bpHeap is minheap.Heap's algorithm for breakpoints, written out so
// that Less inlines (the generic heap calls it through its dictionary:
// a seventh of a solve of gavel-makespan's LP went to building the heap).
// It pops the same breakpoints in the same order.
type bpHeap []breakpoint

func (h bpHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

// pop removes the least breakpoint and returns the heap left.
func (h bpHeap) pop() bpHeap {
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	h.down(0)
	return h
}

func (h bpHeap) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			break
		}
		m := l
		if r := l + 1; r < len(h) && h[r].Less(h[l]) {
			m = r
		}
		if !h[m].Less(h[i]) {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// breakpoint is a candidate of the dual ratio test: variable j, its ratio
// t = |d_j/α_j| and |α_j|.
type breakpoint struct {
	j    int32
	t, a float64
}

// Less orders breakpoints by ratio, then index.
func (a breakpoint) Less(b breakpoint) bool { return a.t < b.t || (a.t == b.t && a.j < b.j) }

// applyFlips moves the variables in s.flips to their other bound and the
// basics with them: x_B −= B⁻¹ Σ a_j Δx_j (into s.rho, free at this point).
func (s *solver) applyFlips() {
	if len(s.flips) == 0 {
		return
	}
	clear(s.rhs)
	frows := s.flipRows[:0]
	for _, j := range s.flips {
		var dx float64
		if s.stat[j] == AtLower {
			dx = s.hi[j] - s.lo[j]
			s.stat[j], s.x[j] = AtUpper, s.hi[j]
		} else {
			dx = s.lo[j] - s.hi[j]
			s.stat[j], s.x[j] = AtLower, s.lo[j]
		}
		rows, vals := s.column(int(j))
		for k, i := range rows {
			s.rhs[i] += vals[k] * dx
		}
		frows = append(frows, rows...)
	}
	s.flipRows = frows
	s.flipNZ = s.f.ftranSparse(s.rhs, s.rho, frows, s.flipNZ)
	for _, k := range s.flipNZ {
		j := s.head[k]
		if v := s.rho[k]; v != 0 {
			s.x[j] -= v
			if s.lscoreOK {
				s.leaveScore(int(k))
			}
		}
	}
}

// perturbNonbasic adds to the cost of each nonbasic structural column a
// small amount in the direction its bound asks for (up at a lower bound,
// down at an upper one), different for every column, and the same to its
// reduced cost, so the basis stays dual feasible. A cold dual start does
// this at its first pivot that makes a dual step of 0: on LPs where most
// costs are 0 many reduced costs tie at 0 and the method would stall
// (1,045 pivots on Figure 12's hierarchical LP at 2,048 jobs, 418 with the
// perturbation). It is a fixed function of the column's index, so solves
// stay deterministic; the primal method finishes with the true costs.
func (s *solver) perturbNonbasic() {
	s.perturbed = true
	s.dOutOK = false // d changes below
	for j := 0; j < s.n; j++ {
		if s.lo[j] == s.hi[j] {
			continue
		}
		c := s.c[j]
		// A hash of j to [1, 2): Knuth's multiplicative constant.
		u := 1 + float64(uint32(j+1)*2654435761)/(1<<32)
		delta := perturbBase * (1 + math.Abs(c)) * u
		switch s.stat[j] {
		case AtLower:
			s.c[j] += delta
			s.d[j] += delta
		case AtUpper:
			s.c[j] -= delta
			s.d[j] -= delta
		}
	}
}

// perturbBase is the relative size of the cost perturbation (the scaled
// costs are at most 1 in magnitude).
const perturbBase = 5e-7

// artBound is an artificial bound of a cold dual start: variable j's true
// bounds.
type artBound struct {
	j      int32
	lo, hi float64
}

// artificialBound is the bound, in scaled units, that a cold dual start
// gives a variable whose reduced cost asks for a bound it lacks.
const artificialBound = 1e6

// coldDual starts the dual simplex method from the slack basis: boxed
// columns go to the bound their cost asks for, and a column whose cost
// asks for an infinite bound gets an artificial one (artificialBound), so
// the basis is dual feasible. After the dual method the true bounds come
// back; a variable left at an artificial bound moves to a true one and the
// primal method finishes. done is true only when the dual method's answer
// holds for the true bounds.
func (s *solver) coldDual() (st Status, done bool) {
	for k, j := range s.head {
		s.cb[k] = s.c[j]
	}
	s.reducedCosts(false)
	s.artif = s.artif[:0]
	for j, d := range s.d {
		if s.stat[j] == Basic {
			continue
		}
		switch {
		case d < -dualTol && math.IsInf(s.hi[j], 1):
			s.artif = append(s.artif, artBound{int32(j), s.lo[j], s.hi[j]})
			s.hi[j] = math.Max(s.lo[j], 0) + artificialBound
			if math.IsInf(s.lo[j], -1) {
				s.lo[j] = -artificialBound
			}
		case d > dualTol && math.IsInf(s.lo[j], -1):
			s.artif = append(s.artif, artBound{int32(j), s.lo[j], s.hi[j]})
			s.lo[j] = math.Min(s.hi[j], 0) - artificialBound
			if math.IsInf(s.hi[j], 1) {
				s.hi[j] = artificialBound
			}
		}
	}
	s.longStep = true
	s.cSave = append(s.cSave[:0], s.c...)
	s.perturbed = false
	st, done = s.dual(true)
	copy(s.c, s.cSave)
	s.fresh = false
	s.longStep = false
	if len(s.artif) == 0 {
		return st, done
	}
	moved := false
	for _, a := range s.artif {
		j := int(a.j)
		s.lo[j], s.hi[j] = a.lo, a.hi
		if st := s.stat[j]; st == AtUpper && math.IsInf(a.hi, 1) || st == AtLower && math.IsInf(a.lo, -1) {
			s.nonbasicAt(j, nearest(s.x[j], a.lo, a.hi))
			moved = true
		}
	}
	if st == stopped {
		return st, true // the bounds are the problem's again, for the workspace's next solve
	}
	if moved {
		s.computeXB()
		done = false
	}
	if st == Infeasible {
		done = false // proved under the artificial bounds only
	}
	return st, done
}
