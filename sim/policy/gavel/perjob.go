package gavel

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/schedlab/schedlab/sim/solver/lp"
)

// jobLP is an LP with one row of X per job (policies with per-job state,
// which classes cannot aggregate): columns x[m][j] and, with space
// sharing, pair columns; each job's time and each type's capacity.
type jobLP struct {
	p     *lp.Problem
	x     [][]int
	pairs []jobPair
}

type jobPair struct {
	a, b, j, col int
	ta, tb       float64
}

// buildJobLP builds validity constraints. plan holds the planned
// throughputs. With pairs, each single-GPU job considers its best
// `candidates` partners (by α+β on any type) among those above threshold.
func buildJobLP(name string, in *planInput, plan [][]float64, pairs bool, candidates int, threshold float64) *jobLP {
	f := &jobLP{p: lp.New(name), x: make([][]int, len(in.jobs))}
	p := f.p
	for m, pj := range in.jobs {
		f.x[m] = make([]int, len(in.types))
		for j, t := range plan[m] {
			f.x[m][j] = -1
			if t > 0 {
				f.x[m][j] = p.AddCol(fmt.Sprintf("x|%s|%s", pj.job.Name, in.types[j]), 0, 1, 0)
			}
		}
	}
	if pairs {
		f.addPairs(in, plan, candidates, threshold)
	}
	for m, pj := range in.jobs {
		row := p.AddRow("time|"+pj.job.Name, math.Inf(-1), 1)
		for _, col := range f.x[m] {
			if col >= 0 {
				p.Set(row, col, 1)
			}
		}
		for _, pr := range f.pairs {
			if pr.a == m || pr.b == m {
				p.Set(row, pr.col, 1)
			}
		}
	}
	for j, typ := range in.types {
		row := p.AddRow("cap|"+typ, math.Inf(-1), in.count[j])
		for m, pj := range in.jobs {
			if col := f.x[m][j]; col >= 0 {
				p.Set(row, col, float64(pj.sf))
			}
		}
		for _, pr := range f.pairs {
			if pr.j == j {
				p.Set(row, pr.col, float64(in.jobs[pr.a].sf))
			}
		}
	}
	return f
}

func (f *jobLP) addPairs(in *planInput, plan [][]float64, candidates int, threshold float64) {
	type cand struct {
		b    int
		gain float64
	}
	chosen := map[[2]int]bool{}
	var keys [][2]int
	for a := range in.jobs {
		var cs []cand
		for b := range in.jobs {
			if a == b || in.jobs[a].sf != in.jobs[b].sf {
				continue
			}
			g := 0.0
			for j, typ := range in.types {
				if plan[a][j] <= 0 || plan[b][j] <= 0 {
					continue
				}
				ta, tb := in.pair(in.jobs[a].job, in.jobs[b].job, typ)
				if ta > 0 && tb > 0 {
					g = math.Max(g, ta/in.jobs[a].thr[j]+tb/in.jobs[b].thr[j])
				}
			}
			if g > threshold {
				cs = append(cs, cand{b, g})
			}
		}
		sort.SliceStable(cs, func(x, y int) bool { return cs[x].gain > cs[y].gain })
		for _, c := range cs[:min(len(cs), candidates)] {
			k := [2]int{min(a, c.b), max(a, c.b)}
			if !chosen[k] {
				chosen[k] = true
				keys = append(keys, k)
			}
		}
	}
	sort.Slice(keys, func(x, y int) bool {
		if keys[x][0] != keys[y][0] {
			return keys[x][0] < keys[y][0]
		}
		return keys[x][1] < keys[y][1]
	})
	for _, k := range keys {
		a, b := k[0], k[1]
		for j, typ := range in.types {
			if plan[a][j] <= 0 || plan[b][j] <= 0 {
				continue
			}
			ta, tb := in.pair(in.jobs[a].job, in.jobs[b].job, typ)
			if ta <= 0 || tb <= 0 || ta/in.jobs[a].thr[j]+tb/in.jobs[b].thr[j] <= threshold {
				continue
			}
			// Plan with the measured pair throughputs scaled like the plan.
			sa, sb := plan[a][j]/in.jobs[a].thr[j], plan[b][j]/in.jobs[b].thr[j]
			col := f.p.AddCol(fmt.Sprintf("p|%s|%s|%s", in.jobs[a].job.Name, in.jobs[b].job.Name, typ), 0, 1, 0)
			f.pairs = append(f.pairs, jobPair{a: a, b: b, j: j, col: col, ta: ta * sa, tb: tb * sb})
		}
	}
}

// addThr adds scale·thr(m, X) to a row (row ≥ 0) or, with row = -1, to
// the objective.
func (f *jobLP) addThr(row, m int, plan [][]float64, scale float64) {
	set := func(col int, v float64) {
		if row < 0 {
			f.p.SetObj(col, f.p.Obj(col)+v)
		} else {
			f.p.Set(row, col, v)
		}
	}
	for j, col := range f.x[m] {
		if col >= 0 {
			set(col, scale*plan[m][j])
		}
	}
	for _, pr := range f.pairs {
		if pr.a == m {
			set(pr.col, scale*pr.ta)
		} else if pr.b == m {
			set(pr.col, scale*pr.tb)
		}
	}
}

func (f *jobLP) allocation(in *planInput, x []float64) *allocation {
	rows := make([][]float64, len(in.jobs))
	for m := range rows {
		rows[m] = make([]float64, len(in.types))
		for j, col := range f.x[m] {
			if col >= 0 && x[col] > 1e-12 {
				rows[m][j] = x[col]
			}
		}
	}
	al := &allocation{combos: singles(rows)}
	index := map[[2]int]int{}
	for _, pr := range f.pairs {
		if v := x[pr.col]; v > 1e-12 {
			k := [2]int{pr.a, pr.b}
			i, ok := index[k]
			if !ok {
				i = len(al.combos)
				index[k] = i
				al.combos = append(al.combos, combo{a: pr.a, b: pr.b, x: make([]float64, len(in.types))})
			}
			al.combos[i].x[pr.j] += v
		}
	}
	return al
}

// perJobAlloc is a policy solved with one row per job: minimum makespan,
// finish-time fairness, maximum total throughput, minimum cost.
type perJobAlloc struct {
	objective  string // makespan, ftf, throughput, cost
	aware, ss  bool
	tieBreak   bool
	candidates int
	threshold  float64
	normalized bool      // throughput: normalise each job by its best type
	slo        bool      // cost: honour deadlines
	sloMargin  float64   // cost: plan to finish this fraction of the time left early
	roundS     float64   // cost: and one round early
	ratio      bool      // cost: the paper's throughput/cost ratio
	prices     []float64 // $ per GPU-hour, per type
	run        *lpRunner
}

// plan: measured throughputs (aware) or, agnostic, the job's V100-like
// throughput on every type it can run on (spec 001 §2.3, §2.6): its
// throughput on the type where it is fastest... in the reference, V100.
func (a *perJobAlloc) plan(in *planInput) [][]float64 {
	ref := -1
	for j, t := range in.types {
		if t == "V100" || t == "v100" {
			ref = j
		}
	}
	out := make([][]float64, len(in.jobs))
	for m, p := range in.jobs {
		out[m] = make([]float64, len(in.types))
		r := best(p.thr)
		if ref >= 0 && p.thr[ref] > 0 {
			r = p.thr[ref]
		}
		for j, t := range p.thr {
			switch {
			case t <= 0:
			case a.aware:
				out[m][j] = t
			default:
				out[m][j] = r
			}
		}
	}
	return out
}

func (a *perJobAlloc) allocate(in *planInput) (*allocation, error) {
	if len(in.jobs) == 0 {
		return &allocation{}, nil
	}
	plan := a.plan(in)
	var al *allocation
	var err error
	switch {
	case a.objective == "makespan":
		al, err = a.makespan(in, plan)
	case a.objective == "ftf":
		al, err = a.ftf(in, plan)
	case a.objective == "cost" && a.ratio:
		al, err = a.costRatio(in, plan)
	default:
		al, err = a.linear(in, plan)
	}
	if err == nil {
		symmetrize(in, plan, al)
	}
	return al, err
}

// symmetrize gives identical jobs (same planned throughputs, size,
// weight, remaining work, age, isolated clock and deadline) the average of
// their rows. The LP's feasible set and objective are symmetric in them,
// so the average of an optimum is an optimum (convexity); a simplex vertex
// would otherwise favour one of them arbitrarily. Jobs in pairs keep
// their rows.
func symmetrize(in *planInput, plan [][]float64, al *allocation) {
	paired := map[int]bool{}
	var pairs []combo
	for _, c := range al.combos {
		if c.b >= 0 {
			paired[c.a], paired[c.b] = true, true
			pairs = append(pairs, c)
		}
	}
	rows := al.perJob(len(in.jobs), len(in.types))
	for _, c := range pairs {
		for j, v := range c.x {
			rows[c.a][j] -= v
			rows[c.b][j] -= v
		}
	}
	groups := map[string][]int{}
	var order []string
	var b []byte
	for i, p := range in.jobs {
		if paired[i] {
			continue
		}
		b = b[:0]
		for _, v := range []float64{float64(p.sf), p.weight, p.rem, p.elapsed, p.isoTime, p.job.DeadlineS} {
			b = strconv.AppendFloat(append(b, '/'), v, 'g', -1, 64)
		}
		for _, t := range plan[i] {
			b = strconv.AppendFloat(append(b, '/'), t, 'g', -1, 64)
		}
		k := string(b)
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], i)
	}
	for _, k := range order {
		g := groups[k]
		if len(g) < 2 {
			continue
		}
		avg := make([]float64, len(in.types))
		for _, i := range g {
			for j, v := range rows[i] {
				avg[j] += v / float64(len(g))
			}
		}
		for _, i := range g {
			copy(rows[i], avg)
		}
	}
	al.combos = append(singles(rows), pairs...)
}

// tieBreakSum maximises the total normalised throughput after the main
// objective is fixed (the primary optimum is degenerate for all but the
// bottleneck jobs).
func (a *perJobAlloc) tieBreakSum(f *jobLP, in *planInput, plan [][]float64, sol *lp.Solution, fix int) []float64 {
	if !a.tieBreak {
		return sol.X
	}
	v := sol.X[fix]
	f.p.SetColBounds(fix, v-1e-9*math.Max(1, math.Abs(v)), lp.Inf)
	f.p.SetObj(fix, 0)
	for m := range in.jobs {
		if b := best(plan[m]); b > 0 {
			f.addThr(-1, m, plan, 1/b)
		}
	}
	s2, err := a.run.solve(a.objective+"-tiebreak", f.p, sol.Basis)
	if err != nil || s2.Status != lp.Optimal {
		return sol.X
	}
	return s2.X
}

// makespan: maximise z subject to thr(m, X) ≥ N_m·z, the exact single-LP
// form of minimising the largest remaining duration (spec 001 §2.6), with
// z scaled by the longest best-case remaining time S.
func (a *perJobAlloc) makespan(in *planInput, plan [][]float64) (*allocation, error) {
	f := buildJobLP("makespan", in, plan, a.ss && a.aware, a.candidates, a.threshold)
	S := 0.0
	for m, p := range in.jobs {
		if b := best(plan[m]); b > 0 {
			S = math.Max(S, p.rem/b)
		}
	}
	z := f.p.AddCol("z", 0, lp.Inf, 1)
	f.p.Maximize = true
	for m, p := range in.jobs {
		row := f.p.AddRow("finish|"+p.job.Name, 0, lp.Inf)
		f.addThr(row, m, plan, 1)
		f.p.Set(row, z, -p.rem/S)
	}
	sol, err := a.run.solve("makespan", f.p, nil)
	if err != nil {
		return nil, err
	}
	if sol.Status != lp.Optimal || sol.X[z] <= 0 {
		return nil, fmt.Errorf("makespan LP is %v", sol.Status)
	}
	ms := S / sol.X[z]
	al := f.allocation(in, a.tieBreakSum(f, in, plan, sol, z))
	al.objective = ms
	al.why = fmt.Sprintf("minimum makespan: every one of %d jobs can finish within %.4g h", len(in.jobs), ms/3600)
	return al, nil
}

// ftf minimises the largest finish-time fairness ρ (spec 001 §2.3) by
// bisection on ρ: at a fixed ρ, feasibility is an LP with
// thr(m, X) ≥ N_m/(ρ·D_m − t_m) for every job, D_m = t^iso_m + N_m/thr(m,X^iso).
func (a *perJobAlloc) ftf(in *planInput, plan [][]float64) (*allocation, error) {
	f := buildJobLP("ftf", in, plan, a.ss && a.aware, a.candidates, a.threshold)
	M := len(in.jobs)
	D := make([]float64, M)
	lo, hi := 0.0, 0.0
	rows := make([]int, M)
	for m, p := range in.jobs {
		iso := dot(plan[m], in.isoRow(&in.jobs[m], M))
		if iso <= 0 {
			return nil, fmt.Errorf("job %s cannot run anywhere", p.job.Name)
		}
		D[m] = p.isoTime + p.rem/iso
		lo = math.Max(lo, p.elapsed/D[m])
		hi = math.Max(hi, (p.elapsed+p.rem/iso)/D[m])
		rows[m] = f.p.AddRow("ftf|"+p.job.Name, 0, lp.Inf)
		f.addThr(rows[m], m, plan, 1/p.rem)
	}
	f.p.Maximize = true
	feasible := func(rho float64, warm *lp.Basis) (*lp.Solution, bool, error) {
		for m, p := range in.jobs {
			slack := rho*D[m] - p.elapsed
			if slack <= 0 {
				return nil, false, nil
			}
			f.p.SetRowBounds(rows[m], 1/slack, lp.Inf)
		}
		sol, err := a.run.solve("ftf", f.p, warm)
		if err != nil {
			return nil, false, err
		}
		return sol, sol.Status == lp.Optimal, nil
	}
	var last *lp.Solution
	var warm *lp.Basis
	// ρ to 1e-4 relative: far below what the rounds can realise.
	for it := 0; it < 40 && hi-lo > 1e-4*hi; it++ {
		mid := (lo + hi) / 2
		sol, ok, err := feasible(mid, warm)
		if err != nil {
			return nil, err
		}
		if sol != nil {
			warm = sol.Basis
		}
		if ok {
			hi, last = mid, sol
		} else {
			lo = mid
		}
	}
	if last == nil {
		sol, ok, err := feasible(hi, warm)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("finish-time fairness: the isolated allocation's ρ = %.4g is infeasible", hi)
		}
		last = sol
	}
	x := last.X
	if a.tieBreak {
		for m := range in.jobs {
			if b := best(plan[m]); b > 0 {
				f.addThr(-1, m, plan, 1/b)
			}
		}
		if s2, err := a.run.solve("ftf-tiebreak", f.p, last.Basis); err == nil && s2.Status == lp.Optimal {
			x = s2.X
		}
	}
	al := f.allocation(in, x)
	al.objective = hi
	al.why = fmt.Sprintf("finish-time fairness over %d jobs: the worst job finishes %.4g× as late as with an isolated share", M, hi)
	return al, nil
}

// linear: maximum total throughput (raw or normalised) or minimum cost in
// the reference's linear form Σ T_mj/c_j·X_mj, with SLO rows
// thr(m, X) ≥ N_m/(deadline − now) when asked. Jobs that cannot meet their
// deadline even alone on their fastest type get no row; if the other rows
// are infeasible together, all are dropped (as the reference does).
func (a *perJobAlloc) linear(in *planInput, plan [][]float64) (*allocation, error) {
	f := buildJobLP(a.objective, in, plan, a.ss && a.aware, a.candidates, a.threshold)
	f.p.Maximize = true
	for m := range in.jobs {
		switch {
		case a.objective == "cost":
			for j, col := range f.x[m] {
				if col >= 0 {
					f.p.SetObj(col, plan[m][j]/a.prices[j])
				}
			}
		case a.normalized:
			if b := best(plan[m]); b > 0 {
				f.addThr(-1, m, plan, 1/b)
			}
		default:
			f.addThr(-1, m, plan, 1)
		}
	}
	if a.objective == "cost" {
		for _, pr := range f.pairs {
			f.p.SetObj(pr.col, (pr.ta+pr.tb)/a.prices[pr.j])
		}
	}
	slo := a.objective == "cost" && a.slo
	var sloRows []int
	hopeless := 0
	if slo {
		for m, p := range in.jobs {
			// A job that cannot meet its deadline even alone on its fastest
			// type gets no SLO row: it would make every other row void.
			d := p.job.DeadlineS
			if d <= 0 {
				continue
			}
			fastest := best(plan[m])
			if d <= in.now || p.rem/fastest > d-in.now {
				hopeless++
				continue
			}
			// Plan to finish a margin early (a fraction of the time left
			// and one round), since rounds deliver X only on average; near
			// the deadline that means the job's fastest rate.
			left := math.Max((d-in.now)*(1-a.sloMargin)-a.roundS, p.rem/fastest)
			// thr(m, X)/N_m ≥ 1/left
			row := f.p.AddRow("slo|"+p.job.Name, 1/left, lp.Inf)
			f.addThr(row, m, plan, 1/p.rem)
			sloRows = append(sloRows, row)
		}
	}
	sol, err := a.run.solve(a.objective, f.p, nil)
	if err != nil {
		return nil, err
	}
	dropped := false
	if sol.Status == lp.Infeasible && len(sloRows) > 0 {
		for _, r := range sloRows {
			f.p.SetRowBounds(r, math.Inf(-1), lp.Inf)
		}
		dropped = true
		if sol, err = a.run.solve(a.objective, f.p, nil); err != nil {
			return nil, err
		}
	}
	if sol.Status != lp.Optimal {
		return nil, fmt.Errorf("%s LP is %v", a.objective, sol.Status)
	}
	al := f.allocation(in, sol.X)
	al.objective = sol.Objective
	switch {
	case a.objective == "cost" && dropped:
		al.why = fmt.Sprintf("minimum cost over %d jobs; the SLOs could not all be met and were dropped", len(in.jobs))
	case a.objective == "cost":
		al.why = fmt.Sprintf("minimum cost over %d jobs (%d SLO rows; %d jobs can no longer meet theirs): throughput per dollar %.4g", len(in.jobs), len(sloRows), hopeless, sol.Objective)
	default:
		al.why = fmt.Sprintf("maximum total throughput over %d jobs: %.4g", len(in.jobs), sol.Objective)
	}
	return al, nil
}

// costRatio is the paper's fractional form, Σ thr / Σ cost, made linear by
// the Charnes–Cooper transform Y = u·X (spec 001 §2.8).
func (a *perJobAlloc) costRatio(in *planInput, plan [][]float64) (*allocation, error) {
	f := buildJobLP("cost-ratio", in, plan, false, 0, 0)
	p := f.p
	p.Maximize = true
	u := p.AddCol("u", 0, lp.Inf, 0)
	// X ≤ 1 becomes Y ≤ u: move the bounds into the time and cap rows.
	for m := range in.jobs {
		for _, col := range f.x[m] {
			if col >= 0 {
				p.SetColBounds(col, 0, lp.Inf)
			}
		}
		f.addThr(-1, m, plan, 1)
	}
	for i := 0; i < p.NumRows(); i++ {
		lo, hi := p.RowBounds(i)
		p.SetRowBounds(i, lo, 0)
		p.Set(i, u, -hi)
	}
	norm := p.AddRow("cost", 1, 1)
	for m, pj := range in.jobs {
		for j, col := range f.x[m] {
			if col >= 0 {
				p.Set(norm, col, a.prices[j]*float64(pj.sf))
			}
		}
		if d := pj.job.DeadlineS; a.slo && d > in.now {
			row := p.AddRow("slo|"+pj.job.Name, 0, lp.Inf)
			f.addThr(row, m, plan, 1/pj.rem)
			p.Set(row, u, -1/(d-in.now))
		}
	}
	sol, err := a.run.solve("cost-ratio", p, nil)
	if err != nil {
		return nil, err
	}
	if sol.Status != lp.Optimal || sol.X[u] <= 0 {
		return nil, fmt.Errorf("cost ratio LP is %v", sol.Status)
	}
	x := make([]float64, len(sol.X))
	for i, v := range sol.X {
		x[i] = v / sol.X[u]
	}
	al := f.allocation(in, x)
	al.objective = sol.Objective
	al.why = fmt.Sprintf("throughput per dollar (ratio form) over %d jobs: %.4g", len(in.jobs), sol.Objective)
	return al, nil
}
