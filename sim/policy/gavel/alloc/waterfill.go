package alloc

import (
	"fmt"
	"math"

	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/solver/lp"
)

// waterFilling raises every job's normalised throughput at the rate of
// its weight, freezing jobs as they become bottlenecked, until all are
// frozen (spec 001 §2.2, §2.9). With entities the weights are recomputed
// each iteration: an entity's weight goes to its unfrozen jobs, by job
// weight (fairness) or all to the oldest (fifo). A job is bottlenecked
// when its ñ cannot rise while everyone keeps their level; that is tested
// with LPs instead of the reference's MILP (exact, since the feasible set
// is convex).
func (a *Fair) waterFilling(in *plan.Input, planned [][]float64) (*plan.Allocation, error) {
	n := len(in.Jobs)
	level := make([]float64, n)
	frozen := make([]bool, n)
	var lastLP *fairLP
	var lastX []float64
	iters := 0
	sc := newStepClasses(in, planned, a.SpaceSharing)
	pairs := a.SpaceSharing && a.Aware
	var steps *stepLP // the recompute's template, while its classes are the step's
	var cls []*fclass
	for ; iters <= n; iters++ {
		w := a.reweight(in, frozen)
		if !rising(w, frozen) {
			break
		}
		// After the first step the classes are usually the last step's,
		// risen and some frozen (again): they need not be found anew.
		if cls == nil || !sc.again(cls, w, level, frozen) {
			cls = sc.step(w, level, frozen, a.LPs.classNames(), a.LPs.nextStamp())
		}
		p := a.LPs.reusable("waterfill", "waterfill")
		var f *fairLP
		if steps != nil {
			f = steps.fill(p, cls, sc.of)
		}
		// Without entities the classes stay as they are (stepLP) but for
		// a rare merge; with them, weights move between a step's classes.
		if f == nil && len(a.Entities) == 0 {
			if tp := a.LPs.template("waterfill"); tp != nil {
				steps = newStepLP(tp, in, cls, sc.of, pairs, a.PairThreshold)
				f = steps.fill(p, cls, sc.of)
			}
		}
		if f == nil {
			f = buildFair(p, in, cls, pairs, a.PairThreshold)
		}
		o := lp.Options{Duals: true}
		if steps != nil {
			// Nil (remap by names) at a template's first step.
			o.Warm = steps.warm(a.LPs.lastBasis("waterfill"))
		}
		sol, err := a.LPs.solveWith("waterfill", f.p, o)
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
		stuck, err := a.bottlenecked(in, cls, certified(f, sol))
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
		return &plan.Allocation{}, nil
	}
	var last *plan.Allocation
	if a.Aware {
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
	last.Objective = total / float64(n)
	last.Why = fmt.Sprintf("water filling over %d jobs: %d rounds of raising and freezing; mean normalised throughput %.4g", n, iters, last.Objective)
	return last, nil
}

// verdict is what a step's water-filling LP proves about a class.
type verdict int8

const (
	undecided verdict = iota
	provenStuck
	provenFree
)

// certified reads the water-filling LP's solution for proofs, per class,
// that it is bottlenecked or that it is free.
//
// Stuck: with y_c ≥ 0 the duals of the rows t ≤ g_c(x) (g_c =
// (sf/w)(ñ_c − level_c)), duality gives Σ y_c g_c(x) ≤ t* for every
// allocation x, and Σ y_c ≥ 1; an allocation that keeps every class at its
// new level has each g_c(x) ≥ t*, so every class with y_c > 0 stays at
// exactly t*: it cannot rise.
//
// Free: the LP's own allocation keeps every class at its new level or
// above, so a class it puts above its new level can rise.
//
// Classes with neither proof (tight rows with 0 duals, as degenerate LPs
// have) are left to the bottleneck LPs.
func certified(f *fairLP, sol *lp.Solution) []verdict {
	out := make([]verdict, len(f.cls))
	var r *room // what the allocation leaves to take, once needed
	for c, row := range f.fair {
		if row < 0 {
			continue
		}
		_, hi := f.p.RowBounds(row)
		coef := float64(f.cls[c].sf) / f.cls[c].w
		gain := (hi - sol.Row[row]) / coef // ñ_c above its new level
		tol := freeProof * math.Max(1, f.cls[c].level)
		switch {
		case sol.RowDuals[row] > dualProof:
			out[c] = provenStuck
		case gain > tol:
			out[c] = provenFree
		default:
			if r == nil {
				r = newRoom(f, sol)
			}
			if r.spareGain(c) > tol || r.swapGain(c) > tol {
				out[c] = provenFree
			}
		}
	}
	return out
}

// room is what the step's LP's allocation leaves for a class to rise
// into while every other class keeps its level: the proofs of freedom
// beyond the LP's own (certified). Each proof is an allocation of its
// own, so each may use all of it.
type room struct {
	f   *fairLP
	sol *lp.Solution
	// slack is how far each class's ñ is above its level (its new level
	// if it rose this step), less a margin of freeProof (relative to the
	// level) for the solver's rounding; 0 for a class with no row for its
	// level.
	slack []float64
	// given[d][j] is how many devices of type j class d can give up
	// within its slack, and free[j] the devices of type j left idle plus
	// what every class can give up there.
	given [][]float64
	free  []float64
}

func newRoom(f *fairLP, sol *lp.Solution) *room {
	// slack, free and every class's row of given in one allocation.
	nc, types := len(f.cls), len(f.cap)
	fs := make([]float64, nc+types+nc*types)
	r := &room{f: f, sol: sol, slack: fs[:nc:nc], free: fs[nc : nc+types : nc+types], given: make([][]float64, nc)}
	given := fs[nc+types:]
	for j, row := range f.cap {
		_, hi := f.p.RowBounds(row)
		r.free[j] = fmax(0, hi-sol.Row[row])
	}
	for d, dl := range f.cls {
		var gap float64
		switch {
		case f.fair[d] >= 0:
			_, hi := f.p.RowBounds(f.fair[d])
			gap = (hi - sol.Row[f.fair[d]]) * dl.w / float64(dl.sf)
		case f.low[d] >= 0:
			lo, _ := f.p.RowBounds(f.low[d])
			gap = sol.Row[f.low[d]] - lo
		}
		r.slack[d] = fmax(0, gap-freeProof*fmax(1, dl.level))
		r.given[d] = given[d*types : (d+1)*types : (d+1)*types]
		if r.slack[d] == 0 {
			continue
		}
		for j, col := range f.s[d] {
			if col >= 0 && sol.X[col] > 0 && dl.thr[j] > 0 {
				g := fmin(float64(dl.sf)*sol.X[col], r.slack[d]*float64(dl.sf)*float64(len(dl.members))*dl.eq/dl.thr[j])
				r.given[d][j] = g
				r.free[j] += g
			}
		}
	}
	return r
}

// freeFor is how many devices of type j class c could take from the
// idle ones and the others' slack.
func (r *room) freeFor(c, j int) float64 { return fmax(0, r.free[j]-r.given[c][j]) }

// spareGain is how far class c's ñ could rise by giving it more time
// alone on one type, within its jobs' time left and the devices it could
// take there (freeFor).
func (r *room) spareGain(c int) float64 {
	f, sol, cl := r.f, r.sol, r.f.cls[c]
	_, hi := f.p.RowBounds(f.time[c])
	timeLeft := hi - sol.Row[f.time[c]]
	if !(timeLeft > 0) {
		return 0
	}
	best := 0.0
	for j, col := range f.s[c] {
		if col < 0 {
			continue
		}
		_, colHi := f.p.ColBounds(col)
		d := fmin(timeLeft, fmin(r.freeFor(c, j)/float64(cl.sf), colHi-sol.X[col]))
		if g := d * cl.thr[j] / (float64(len(cl.members)) * cl.eq); g > best {
			best = g
		}
	}
	return best
}

// swapGain is how far class c's ñ could rise by moving devices from type
// j1 to a type j2 where it runs faster: into the devices it could take
// there (freeFor), or in a trade with another class d, which moves as
// many devices from j2 to j1: where it runs at least as fast, or slower
// by no more than its slack allows. Every time row keeps its total, no
// capacity row grows past its bound, and no other class's ñ falls below
// its level.
func (r *room) swapGain(c int) float64 {
	f, sol, cl := r.f, r.sol, r.f.cls[c]
	best := 0.0
	for j1, c1 := range f.s[c] {
		if c1 < 0 || !(sol.X[c1] > 0) {
			continue
		}
		for j2, c2 := range f.s[c] {
			if c2 < 0 || !(cl.thr[j2] > cl.thr[j1]) {
				continue
			}
			_, c2Hi := f.p.ColBounds(c2)
			moved := float64(cl.sf) * fmin(sol.X[c1], c2Hi-sol.X[c2]) // devices c can move
			if !(moved > 0) {
				continue
			}
			perDev := (cl.thr[j2] - cl.thr[j1]) / (float64(cl.sf) * float64(len(cl.members)) * cl.eq)
			best = fmax(best, fmin(moved, r.freeFor(c, j2))*perDev)
			for d, dl := range f.cls {
				d1, d2 := f.s[d][j1], f.s[d][j2]
				if d == c || d1 < 0 || d2 < 0 || !(sol.X[d2] > 0) {
					continue
				}
				_, d1Hi := f.p.ColBounds(d1)
				dev := fmin(moved, float64(dl.sf)*fmin(sol.X[d2], d1Hi-sol.X[d1]))
				if loss := dl.thr[j2] - dl.thr[j1]; loss > 0 {
					// d runs slower on j1: it gives up at most its slack.
					dev = fmin(dev, r.slack[d]*float64(dl.sf)*float64(len(dl.members))*dl.eq/loss)
				} else if !(loss <= 0) {
					continue
				}
				best = fmax(best, dev*perDev)
			}
		}
	}
	return best
}

// dualProof is the smallest dual taken as a proof of a bottleneck, and
// freeProof the smallest rise (relative to the level, or absolute below
// 1) taken as a proof of freedom: both far above the solver's rounding
// (the duals here sum to about 1), so that only what the bottleneck LPs
// would find is decided without them.
const dualProof, freeProof = 1e-6, 1e-7

// rising reports whether some job still rises: one with weight, not frozen.
func rising(w []float64, frozen []bool) bool {
	for i := range w {
		if w[i] > 0 && !frozen[i] {
			return true
		}
	}
	return false
}

// bottlenecked reports, per class, whether its jobs' ñ cannot rise while
// every class keeps its level; known holds what is already proven (nil:
// nothing). An LP raises every class still in question
// a little at once, as far as it can (up to capGain each, weighted by
// class size); a class that rises there is free, since it can also rise
// alone (the others may drop back to their levels). When none of those
// left rises, none can rise alone either (that would raise the sum), so
// all are bottlenecked: usually two LPs in all, where one LP per class
// would test the same.
func (a *Fair) bottlenecked(in *plan.Input, cls []*fclass, known []verdict) ([]bool, error) {
	const capGain = 1e-4
	stuck := make([]bool, len(cls))
	doubt := make([]bool, len(cls))
	open := 0
	for c, cl := range cls {
		if cl.w <= 0 || cl.frozen {
			continue
		}
		switch {
		case known != nil && known[c] == provenStuck:
			stuck[c] = true
		case known != nil && known[c] == provenFree:
		default:
			doubt[c] = true
			open++
		}
	}
	if open == 0 {
		return stuck, nil
	}
	test, copies := make([]*fclass, len(cls)), make([]fclass, len(cls))
	for c, cl := range cls {
		copies[c] = *cl
		copies[c].w = 0 // no max-min rows: only levels as lower bounds
		test[c] = &copies[c]
	}
	f := buildFair(a.LPs.reusable("bottleneck", "bottleneck"), in, test, a.SpaceSharing && a.Aware, a.PairThreshold)
	f.p.SetObj(f.t, 0)
	f.p.SetColBounds(f.t, 0, 0)
	f.p.Reserve(open, open)
	u := make([]int, len(cls))
	for c, cl := range test {
		u[c] = -1
		if !doubt[c] {
			continue
		}
		u[c] = f.p.AddCol("u|"+cl.key, 0, capGain, float64(len(cl.members)))
		row := f.p.AddRow("gain|"+cl.key, math.Inf(-1), -cl.level)
		f.p.Set(row, u[c], 1)
		f.addNorm(row, c, -1)
		stuck[c] = true
	}
	var basis *lp.Basis
	for pass := 0; open > 0; pass++ {
		sol, err := a.LPs.solve("bottleneck", f.p, basis)
		if err != nil {
			return nil, err
		}
		if sol.Status != lp.Optimal {
			return nil, fmt.Errorf("bottleneck LP is %v", sol.Status)
		}
		basis = sol.Basis
		rose := false
		for c := range cls {
			if u[c] < 0 || !stuck[c] || sol.X[u[c]] <= riseTol(pass, cls[c].level) {
				continue
			}
			// Free: it keeps its level from now on, and leaves the sum.
			stuck[c] = false
			f.p.SetObj(u[c], 0)
			f.p.SetColBounds(u[c], 0, 0)
			open--
			rose = true
		}
		if !rose {
			break
		}
	}
	return stuck, nil
}

// riseTol is how far a class's gain must exceed 0 to count as a rise: in
// absolute terms when every class rises at once, relative to its level
// once only the doubtful ones are left.
func riseTol(pass int, level float64) float64 {
	if pass == 0 {
		return 1e-9
	}
	return 1e-9 * math.Max(1, level)
}

// reweight gives each unfrozen job its weight for this iteration.
func (a *Fair) reweight(in *plan.Input, frozen []bool) []float64 {
	w := make([]float64, len(in.Jobs))
	if len(a.Entities) == 0 {
		for i, p := range in.Jobs {
			if !frozen[i] {
				w[i] = p.Weight
			}
		}
		return w
	}
	known := map[string]bool{}
	for _, e := range a.Entities {
		known[e.Name] = true
		var members []int
		total := 0.0
		for i, p := range in.Jobs {
			if p.Job.Entity == e.Name && !frozen[i] {
				members = append(members, i)
				total += p.Weight
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
			w[i] = e.Weight * in.Jobs[i].Weight / total
		}
	}
	// Jobs of unlisted entities share one entity of weight 1, by fairness.
	var rest []int
	total := 0.0
	for i, p := range in.Jobs {
		if !known[p.Job.Entity] && !frozen[i] {
			rest = append(rest, i)
			total += p.Weight
		}
	}
	for _, i := range rest {
		w[i] = in.Jobs[i].Weight / total
	}
	return w
}
