package gavel

import (
	"fmt"
	"math"

	"github.com/schedlab/schedlab/sim/solver/lp"
)

// Entity is one owner of jobs in hierarchical fairness (spec 001 §2.9).
type Entity struct {
	Name   string  `json:"name" help:"the value of the jobs' entity field"`
	Weight float64 `json:"weight" min:"0.000001" help:"the entity's share relative to the others"`
	Policy string  `json:"policy,omitempty" enum:",fairness,fifo" help:"how the entity divides its share among its jobs: fairness (by job weight) or fifo (oldest unfinished job first)"`
}

// fairAlloc is max-min fairness (LAS, weighted LAS), water filling and
// hierarchical fairness.
type fairAlloc struct {
	aware, ss, waterFill, tieBreak bool
	clean                          bool // mode clean: the agnostic plan's even spread over usable types
	threshold                      float64
	entities                       []Entity
	run                            *lpRunner
}

// plan is what the policy believes each job's throughputs are: the
// measured ones (aware) or 1 on every type (agnostic, see agnostic.go).
func (a *fairAlloc) plan(in *planInput) [][]float64 {
	if !a.aware {
		return agnosticPlan(in)
	}
	out := make([][]float64, len(in.jobs))
	for i, p := range in.jobs {
		out[i] = append([]float64(nil), p.thr...)
	}
	return out
}

func (a *fairAlloc) allocate(in *planInput) (*allocation, error) {
	if len(in.jobs) == 0 {
		return &allocation{}, nil
	}
	plan := a.plan(in)
	if a.waterFill || len(a.entities) > 0 {
		return a.waterFilling(in, plan)
	}
	n := len(in.jobs)
	w := make([]float64, n)
	for i, p := range in.jobs {
		w[i] = p.weight
	}
	cls := classify(in, plan, w, make([]float64, n), make([]bool, n), a.ss)
	f := buildFair("las", in, cls, a.ss && a.aware, a.threshold)
	sol, err := a.run.solve("las", f.p, nil)
	if err != nil {
		return nil, err
	}
	if sol.Status != lp.Optimal {
		return nil, fmt.Errorf("max-min fairness LP is %v", sol.Status)
	}
	tstar := sol.X[f.t]
	x := sol.X
	if a.tieBreak && a.aware {
		// Among the max-min optima, the one with the most total normalised
		// throughput (spec 001 §2.11: break the simplex's arbitrary ties).
		f.p.SetColBounds(f.t, tstar-1e-9*math.Max(1, tstar), lp.Inf)
		f.p.SetObj(f.t, 0)
		for c, cl := range cls {
			if cl.w > 0 {
				f.addObjNorm(c, float64(cl.sf)/cl.w*float64(len(cl.members)))
			}
		}
		if s2, err := a.run.solve("las-tiebreak", f.p, sol.Basis); err == nil && s2.Status == lp.Optimal {
			x = s2.X
		}
	}
	var al *allocation
	if a.aware {
		al = f.disaggregate(in, x)
	} else if al, err = a.agnosticAllocation(in, cls, centralTotals(in, cls, tstar)); err != nil {
		return nil, err
	}
	al.objective = tstar
	al.why = fmt.Sprintf("max-min fairness over %d jobs in %d classes: the worst-off job gets %.4g× its equal-share throughput", n, len(cls), tstar)
	return al, nil
}

// addObjNorm adds scale·ñ_c to the objective.
func (f *fairLP) addObjNorm(c int, scale float64) {
	cl := f.cls[c]
	k := scale / (float64(len(cl.members)) * cl.eq)
	add := func(col int, v float64) { f.p.SetObj(col, f.p.Obj(col)+v) }
	for j, col := range f.s[c] {
		if col >= 0 {
			add(col, k*cl.thr[j])
		}
	}
	for _, pv := range f.pairs {
		if pv.c == c {
			add(pv.col, k*mu(pv, c)*pv.tc)
		} else if pv.d == c {
			add(pv.col, k*pv.td)
		}
	}
}

// waterFilling raises every job's normalised throughput at the rate of
// its weight, freezing jobs as they become bottlenecked, until all are
// frozen (spec 001 §2.2, §2.9). With entities the weights are recomputed
// each iteration: an entity's weight goes to its unfrozen jobs, by job
// weight (fairness) or all to the oldest (fifo). A job is bottlenecked
// when its ñ cannot rise while everyone keeps their level; that is tested
// with LPs instead of the reference's MILP (exact, since the feasible set
// is convex).
func (a *fairAlloc) waterFilling(in *planInput, plan [][]float64) (*allocation, error) {
	n := len(in.jobs)
	level := make([]float64, n)
	frozen := make([]bool, n)
	var lastLP *fairLP
	var lastX []float64
	iters := 0
	for ; iters <= n; iters++ {
		w := a.reweight(in, frozen)
		active := false
		for i := range w {
			active = active || (w[i] > 0 && !frozen[i])
		}
		if !active {
			break
		}
		cls := classify(in, plan, w, level, frozen, a.ss)
		f := buildFair("waterfill", in, cls, a.ss && a.aware, a.threshold)
		sol, err := a.run.solve("waterfill", f.p, nil)
		if err != nil {
			return nil, err
		}
		if sol.Status != lp.Optimal {
			return nil, fmt.Errorf("water-filling LP is %v", sol.Status)
		}
		cstar := sol.X[f.t]
		lastLP, lastX = f, sol.X
		for _, cl := range cls {
			if cl.w > 0 && !cl.frozen {
				cl.level += cstar * cl.w / float64(cl.sf)
				for _, m := range cl.members {
					level[m] = cl.level
				}
			}
		}
		stuck, err := a.bottlenecked(in, cls)
		if err != nil {
			return nil, err
		}
		froze := false
		for c, cl := range cls {
			if stuck[c] && cl.w > 0 && !cl.frozen {
				for _, m := range cl.members {
					frozen[m] = true
				}
				froze = true
			}
		}
		if !froze {
			break
		}
	}
	if lastLP == nil {
		return &allocation{}, nil
	}
	var last *allocation
	if a.aware {
		last = lastLP.disaggregate(in, lastX)
	} else {
		var err error
		if last, err = a.agnosticAllocation(in, lastLP.cls, lastLP.classTotals(lastX)); err != nil {
			return nil, err
		}
	}
	total := 0.0
	for _, l := range level {
		total += l
	}
	last.objective = total / float64(n)
	last.why = fmt.Sprintf("water filling over %d jobs: %d rounds of raising and freezing; mean normalised throughput %.4g", n, iters, last.objective)
	return last, nil
}

// bottlenecked reports, per class, whether its jobs' ñ cannot rise while
// every class keeps its level. One LP first raises everyone a little at
// once (a class that rises there is free); the rest get an LP each.
func (a *fairAlloc) bottlenecked(in *planInput, cls []*fclass) ([]bool, error) {
	const capGain = 1e-4
	test := make([]*fclass, len(cls))
	for c, cl := range cls {
		cp := *cl
		cp.w = 0 // no max-min rows: only levels as lower bounds
		test[c] = &cp
	}
	f := buildFair("bottleneck", in, test, a.ss && a.aware, a.threshold)
	f.p.SetObj(f.t, 0)
	f.p.SetColBounds(f.t, 0, 0)
	u := make([]int, len(cls))
	for c, cl := range test {
		u[c] = -1
		if cls[c].w <= 0 || cls[c].frozen {
			continue
		}
		u[c] = f.p.AddCol("u|"+cl.key, 0, capGain, float64(len(cl.members)))
		row := f.p.AddRow("gain|"+cl.key, math.Inf(-1), -cl.level)
		f.p.Set(row, u[c], 1)
		f.addNorm(row, c, -1)
	}
	sol, err := a.run.solve("bottleneck", f.p, nil)
	if err != nil {
		return nil, err
	}
	if sol.Status != lp.Optimal {
		return nil, fmt.Errorf("bottleneck LP is %v", sol.Status)
	}
	stuck := make([]bool, len(cls))
	basis := sol.Basis
	for c := range cls {
		if u[c] < 0 || sol.X[u[c]] > 1e-9 {
			continue
		}
		// Can class c alone rise?
		for k := range u {
			if u[k] >= 0 {
				f.p.SetObj(u[k], 0)
				f.p.SetColBounds(u[k], 0, 0)
			}
		}
		f.p.SetColBounds(u[c], 0, capGain)
		f.p.SetObj(u[c], 1)
		s, err := a.run.solve("bottleneck-one", f.p, basis)
		if err != nil {
			return nil, err
		}
		if s.Status != lp.Optimal {
			return nil, fmt.Errorf("bottleneck test LP is %v", s.Status)
		}
		basis = s.Basis
		stuck[c] = s.X[u[c]] <= 1e-9*math.Max(1, cls[c].level)
	}
	return stuck, nil
}

// reweight gives each unfrozen job its weight for this iteration.
func (a *fairAlloc) reweight(in *planInput, frozen []bool) []float64 {
	w := make([]float64, len(in.jobs))
	if len(a.entities) == 0 {
		for i, p := range in.jobs {
			if !frozen[i] {
				w[i] = p.weight
			}
		}
		return w
	}
	known := map[string]bool{}
	for _, e := range a.entities {
		known[e.Name] = true
		var members []int
		total := 0.0
		for i, p := range in.jobs {
			if p.job.Entity == e.Name && !frozen[i] {
				members = append(members, i)
				total += p.weight
			}
		}
		if len(members) == 0 {
			continue
		}
		if e.Policy == "fifo" {
			w[members[0]] = e.Weight // arrival order: the oldest unfrozen job
			continue
		}
		for _, i := range members {
			w[i] = e.Weight * in.jobs[i].weight / total
		}
	}
	// Jobs of unlisted entities share one entity of weight 1, by fairness.
	var rest []int
	total := 0.0
	for i, p := range in.jobs {
		if !known[p.job.Entity] && !frozen[i] {
			rest = append(rest, i)
			total += p.weight
		}
	}
	for _, i := range rest {
		w[i] = in.jobs[i].weight / total
	}
	return w
}
