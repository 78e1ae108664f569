package lp

import "math"

// dual runs the dual simplex method from a warm basis when that basis is
// dual feasible (every reduced cost has the sign its bound asks for). That is the case after
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
	trouble, stalled, verified := 0, 0, false
	for {
		if s.iters >= s.maxIter {
			return IterationLimit, true
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
		q := s.dualRatio(below)
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
		s.f.ftran(s.rhs, s.alpha)
		arq := s.alpha[r]
		if math.Abs(arq-s.alphaR[q]) > 1e-7*(1+math.Abs(arq)) || math.Abs(arq) < 1e-9 {
			// The row and the column disagree on the pivot.
			if trouble++; trouble > 3 {
				return 0, false
			}
			s.refactor()
			continue
		}
		target := s.hi[out]
		if below {
			target = s.lo[out]
		}
		step := (s.x[out] - target) / arq
		if s.d[q] == 0 {
			if stalled++; stalled > 200 {
				return 0, false
			}
		} else {
			stalled = 0
		}
		s.updateDuals(q, out, r, arq, false)
		s.dualDevex(r, arq)
		s.moveBasics(1, step)
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
		s.f.update(r, s.alpha)
		s.iters++
	}
}

// dualFeasible reports whether every nonbasic reduced cost has the sign
// its bound asks for; with flip, boxed variables with the wrong sign go to
// their other bound instead. Flipping is what lets a dual method start
// cold from the slack basis, but on the LPs of Gavel's rounds (most
// columns in [0, 1]) it throws the point far off: cold dual solves of the
// dumped LPs took 4× the primal method's time on gavel-makespan's and
// 3.5× on Figure 12's cost LP (though 1.6× less on the hierarchical ones
// and one pivot to prove Figure 12's FTF LP infeasible), so Solve starts
// cold with the primal method and warm re-solves never flip.
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

// dualDevex updates the dual Devex weights of the rows for a pivot on
// position r with pivot arq, from the entering column s.alpha.
func (s *solver) dualDevex(r int, arq float64) {
	wr := s.dw[r]
	for k, a := range s.alpha {
		if a == 0 || k == r {
			continue
		}
		ratio := a / arq
		if v := ratio * ratio * wr; v > s.dw[k] {
			s.dw[k] = v
		}
	}
	s.dw[r] = math.Max(wr/(arq*arq), 1)
	if s.dw[r] > 1e6 {
		for k := range s.dw {
			s.dw[k] = 1
		}
	}
}

// dualLeaving picks the basic variable farthest outside its bounds
// relative to its Devex weight (−1: the basis is primal feasible).
func (s *solver) dualLeaving() int {
	r, worst := -1, 0.0
	for k, j := range s.head {
		v := 0.0
		switch x := s.x[j]; {
		case x < s.lo[j]:
			v = s.lo[j] - x
		case x > s.hi[j]:
			v = x - s.hi[j]
		}
		if v > primalTol {
			if score := v * v / s.dw[k]; score > worst {
				r, worst = k, score
			}
		}
	}
	return r
}

// dualRatio is Harris's two-pass ratio test on the pivot row s.alphaR:
// the entering variable that keeps every reduced cost's sign, for a
// leaving variable below its lower bound (below) or above its upper one.
// It returns −1 when none can enter.
func (s *solver) dualRatio(below bool) int {
	sgn := 1.0
	if !below {
		sgn = -1
	}
	eligible := func(j int32) (float64, bool) {
		a := s.alphaR[j] * sgn
		if math.Abs(a) < 1e-9 || s.lo[j] == s.hi[j] {
			return 0, false
		}
		switch s.stat[j] {
		case AtLower:
			return a, a < 0
		case AtUpper:
			return a, a > 0
		case AtZero:
			return a, true
		}
		return 0, false
	}
	tmax := math.Inf(1)
	for _, j := range s.touch {
		if a, ok := eligible(j); ok {
			tmax = math.Min(tmax, (math.Abs(s.d[j])+dualTol)/math.Abs(a))
		}
	}
	q, big := -1, 0.0
	for _, j := range s.touch {
		a, ok := eligible(j)
		if !ok || math.Abs(s.d[j])/math.Abs(a) > tmax {
			continue
		}
		if math.Abs(a) > big || (math.Abs(a) == big && int(j) < q) {
			q, big = int(j), math.Abs(a)
		}
	}
	return q
}
