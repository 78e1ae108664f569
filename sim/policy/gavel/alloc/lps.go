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
	// names are the LP names of the classes seen so far, by class.
	names map[string]*classNames
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
		warm = r.basis[family].Remap(r.prev[family], p)
	}
	o.Warm = warm
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
	r.prev[family], r.basis[family] = p, sol.Basis
	return sol, nil
}
