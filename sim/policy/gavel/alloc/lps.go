package alloc

import (
	"fmt"

	"github.com/schedlab/schedlab/sim/solver/lp"
)

// LPs solves the linear programs of one policy instance: it hands each to
// the dump sink first and warm-starts from the previous solve of the same
// family of problems (matched by column and row names).
type LPs struct {
	sink   func(*lp.Problem)
	prev   map[string]*lp.Problem
	basis  map[string]*lp.Basis
	Solved int // how many LPs were solved
	// ws keeps the solver's storage between solves, and the scaled
	// matrix between an LP and its tie-break (same Problem, new bounds
	// and objective).
	ws lp.Workspace
	// names are the LP names of the classes seen so far, by class;
	// stamp is the last stamp nextStamp handed out.
	names map[string]*classNames
	stamp uint64
	// jobs are the per-job LPs' names, by job (jobNamesFor).
	jobs map[string]*jobNames
	// spare holds, by family, a problem of the family's that is free for
	// reuse; handedOut are the problems reusable has handed out, by family.
	spare     map[string]*lp.Problem
	handedOut map[*lp.Problem]string
	// tpl is water filling's step template (stepLP), never solved.
	tpl *lp.Problem
	// stop, when set (StopWhen), is asked between the solver's pivots: a
	// run that was cancelled or ran out of time gives up mid-solve.
	stop func() bool
}

// StopWhen makes every later solve give up, with lp.ErrStopped, once
// stop returns true.
func (r *LPs) StopWhen(stop func() bool) { r.stop = stop }

// reusable returns an empty problem named name for family. It reuses the
// storage of one of the family's earlier problems from reusable, once a
// later problem of the family has been solved (its warm start has read
// the earlier one's names): the caller must not use a problem it got
// from reusable after solving the family's next problem but one. A nil
// LPs, or one whose problems go to a dump sink (which may keep them),
// returns a new problem.
func (r *LPs) reusable(family, name string) *lp.Problem {
	if r == nil || r.sink != nil {
		return lp.New(name)
	}
	if r.handedOut == nil {
		r.spare, r.handedOut = map[string]*lp.Problem{}, map[*lp.Problem]string{}
	}
	p := r.spare[family]
	if p == nil {
		p = lp.New(name)
		r.handedOut[p] = family
		return p
	}
	delete(r.spare, family)
	p.Reset(name)
	return p
}

// template returns an empty problem named name for a template that is
// copied, never solved (stepLP), its storage kept from one call to the
// next: the caller must be done with the last one. A nil LPs, or one
// whose problems go to a dump sink, returns nil: the dumped LPs are
// built one by one.
func (r *LPs) template(name string) *lp.Problem {
	if r == nil || r.sink != nil {
		return nil
	}
	if r.tpl == nil {
		r.tpl = lp.New(name)
	}
	r.tpl.Reset(name)
	return r.tpl
}

// lastBasis is the basis family's last solve ended at; nil if none.
func (r *LPs) lastBasis(family string) *lp.Basis {
	if r == nil {
		return nil
	}
	return r.basis[family]
}

// retire notes that family's problem old has been followed by another: if
// reusable handed it out, its storage is free for the family's next one.
func (r *LPs) retire(family string, old *lp.Problem) {
	if r.handedOut[old] == family && r.sink == nil {
		r.spare[family] = old
	}
}

// maxNames bounds the classes whose names a run keeps.
const maxNames = 4096

// classNames is the run's store of class names; nil for a nil LPs.
func (r *LPs) classNames() map[string]*classNames {
	if r == nil {
		return nil
	}
	if r.names == nil || len(r.names) > maxNames {
		// Water filling's levels make new classes at every step: start
		// afresh rather than grow without bound.
		r.names = map[string]*classNames{}
	}
	return r.names
}

// nextStamp returns a stamp for a water-filling step's class names
// (stepClasses.step), one no step has had since names was made; a nil
// LPs keeps no names, and any stamp will do.
func (r *LPs) nextStamp() uint64 {
	if r == nil {
		return 1
	}
	r.stamp++
	return r.stamp
}

// DumpLPs implements lp.Dumper: every later LP goes to sink.
func (r *LPs) DumpLPs(sink func(*lp.Problem)) { r.sink = sink }

func (r *LPs) solve(family string, p *lp.Problem, warm *lp.Basis) (*lp.Solution, error) {
	return r.solveWith(family, p, lp.Options{Warm: warm})
}

// solveWith is solve with options; a nil Warm starts from the family's last
// basis, as in solve.
func (r *LPs) solveWith(family string, p *lp.Problem, o lp.Options) (*lp.Solution, error) {
	warm := o.Warm
	if r.sink != nil {
		r.sink(p)
	}
	r.Solved++
	if warm == nil && r.prev[family] != nil {
		warm = r.basis[family].RemapUnique(r.prev[family], p)
	}
	o.Warm = warm
	o.Stop = r.stop
	sol, err := r.ws.Solve(p, o)
	if err != nil {
		return nil, err
	}
	if sol.Status == lp.IterationLimit {
		return nil, fmt.Errorf("%s: the LP solver hit its iteration limit", p.Name)
	}
	if r.prev == nil {
		r.prev, r.basis = map[string]*lp.Problem{}, map[string]*lp.Basis{}
	}
	if old := r.prev[family]; old != nil && old != p {
		r.retire(family, old)
	}
	r.prev[family], r.basis[family] = p, sol.Basis
	return sol, nil
}
