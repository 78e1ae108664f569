package alloc

import (
	"math"

	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/solver/lp"
)

// The heterogeneity-agnostic plan (spec 001 §2.1 and its 2026-11-23
// ruling): every T_mj is replaced by 1 on every GPU type, including types
// where the job cannot run, as the reference does. All types then look
// alike, so a job's normalised throughput is just its total time share
// s_m = Σ_j X_mj, and the LP says only how much time each job gets, not
// where: it is degenerate, and a simplex vertex piles jobs onto whichever
// type its pivots happen to favour. Both modes therefore choose among the
// optimal allocations on purpose:
//
//   - ref-compat (and ideal) take a central optimum, as the reference's
//     interior-point solver returns. Each job's total is the analytic
//     centre of the optimal face in total shares (centralTotals), and the
//     total is split over every type in proportion to its GPUs, the
//     type-symmetric centre (exact for the paper's 36/36/36 cluster). Time
//     planned on a type where the job cannot run is lost, as in the
//     reference, whose mechanism skips such entries.
//   - clean keeps the same totals and spreads each job's total as evenly
//     as possible over the types it can use: in proportion to their GPUs
//     when that fits, else by an LP that maximises the least fraction of
//     its even share any job gets on any usable type (evenSplit).

// agnosticPlan is 1 on every type for every job: one row that every job
// shares, as what reads a plan (classes, the LPs, water filling) only
// reads it (TestAgnosticPlanOnlyRead); a row per job was most of an
// agnostic recompute's allocations.
func agnosticPlan(in *plan.Input) [][]float64 {
	one := fill(len(in.Types), 1)
	out := make([][]float64, len(in.Jobs))
	for i := range out {
		out[i] = one
	}
	return out
}

// centralTotals is each class's total time share per job at the analytic
// centre of the optimal face of the agnostic max-min LP, reduced to
// totals: lo_c ≤ s_c ≤ 1 with lo_c = t*·w_c/sf_c, and Σ_c k_c·sf_c·s_c ≤ N.
// When the cluster is full at t* the face is the single point s = lo. Else
// the centre maximises Σ_c k_c[log(s_c−lo_c) + log(1−s_c)] +
// log(N − Σ_c k_c sf_c s_c); its optimality condition,
// 1/(s_c−lo_c) − 1/(1−s_c) = sf_c·λ with λ = 1/(N − Σ k sf s), gives s_c(λ)
// in closed form (centreShare) and λ by bisection.
func centralTotals(in *plan.Input, cls []*fclass, tstar float64) []float64 {
	n := in.TotalGPUs()
	lo := make([]float64, len(cls))
	base := 0.0
	for c, cl := range cls {
		lo[c] = math.Min(1, tstar*cl.w/float64(cl.sf))
		base += float64(len(cl.members)*cl.sf) * lo[c]
	}
	if n-base <= 1e-9*n {
		return lo
	}
	at := func(lambda float64) ([]float64, float64) {
		s := make([]float64, len(cls))
		used := 0.0
		for c, cl := range cls {
			s[c] = lo[c] + centreShare(1-lo[c], float64(cl.sf)*lambda)
			used += float64(len(cl.members)*cl.sf) * s[c]
		}
		return s, lambda*(n-used) - 1 // increasing in λ; its root is the centre
	}
	hi := 1.0
	for _, h := at(hi); h < 0 && hi < 1e300; _, h = at(hi) {
		hi *= 2
	}
	lo0 := 0.0
	for it := 0; it < 200 && hi-lo0 > 1e-15*hi; it++ {
		mid := (lo0 + hi) / 2
		if _, h := at(mid); h < 0 {
			lo0 = mid
		} else {
			hi = mid
		}
	}
	s, _ := at(hi)
	return s
}

// centreShare is a = s − lo solving 1/a − 1/(L−a) = y on (0, L), the
// smaller root of y·a² − (yL+2)·a + L = 0 in a form stable at y = 0 (L/2).
func centreShare(L, y float64) float64 {
	if L <= 0 {
		return 0
	}
	return 2 * L / (y*L + 2 + math.Sqrt(y*y*L*L+4))
}

// agnosticAllocation builds the allocation of agnostic fairness from each
// class's total share per job (see the comment at the top of the file).
func (a *Fair) agnosticAllocation(in *plan.Input, cls []*fclass, totals []float64) (*plan.Allocation, error) {
	var split [][]float64
	if a.Clean {
		var err error
		if split, err = a.evenSplit(in, cls, totals); err != nil {
			return nil, err
		}
	} else {
		split = make([][]float64, len(cls))
		n := in.TotalGPUs()
		for c := range cls {
			split[c] = make([]float64, len(in.Types))
			for j := range in.Types {
				split[c][j] = totals[c] * in.Count[j] / n
			}
		}
	}
	rows := make([][]float64, len(in.Jobs))
	for c, cl := range cls {
		for _, m := range cl.members {
			rows[m] = split[c]
		}
	}
	return &plan.Allocation{Combos: plan.Singles(rows)}, nil
}

// usable is the GPUs of the types a job can run on.
func usable(p *plan.Job, count []float64) float64 {
	f := 0.0
	for j, t := range p.Thr {
		if t > 0 {
			f += count[j]
		}
	}
	return f
}

// evenSplit spreads each class's total over the types its jobs can run on
// in proportion to their GPUs; if that overfills a type, it solves an LP
// over the class totals Y_cj (time of all k_c jobs on type j): maximise u
// such that Y_cj ≥ u·k_c·s_c·n_j/F_c on every usable type (F_c: the usable
// GPUs), Σ_j Y_cj = k_c·s_c over all types (time on unusable types is the
// remainder that does not fit elsewhere), and no type over capacity; then,
// with u fixed, it maximises the time on usable types.
func (a *Fair) evenSplit(in *plan.Input, cls []*fclass, totals []float64) ([][]float64, error) {
	out := make([][]float64, len(cls))
	used := make([]float64, len(in.Types))
	for c, cl := range cls {
		out[c] = make([]float64, len(in.Types))
		p := &in.Jobs[cl.members[0]]
		f := usable(p, in.Count)
		for j, t := range p.Thr {
			if t > 0 {
				out[c][j] = totals[c] * in.Count[j] / f
			} else if f == 0 {
				out[c][j] = totals[c] * in.Count[j] / in.TotalGPUs()
			}
			used[j] += float64(len(cl.members)*cl.sf) * out[c][j]
		}
	}
	fits := true
	for j, u := range used {
		fits = fits && u <= in.Count[j]*(1+1e-9)
	}
	if fits {
		return out, nil
	}
	p := lp.New("agnostic-even")
	p.Maximize = true
	u := p.AddCol("u", 0, 1, 1)
	y := make([][]int, len(cls))
	caps := make([]int, len(in.Types))
	for j, typ := range in.Types {
		caps[j] = p.AddRow("cap|"+typ, math.Inf(-1), in.Count[j])
	}
	var usableCols []int
	for c, cl := range cls {
		k := float64(len(cl.members))
		pj := &in.Jobs[cl.members[0]]
		f := usable(pj, in.Count)
		total := p.AddRow("total|"+cl.key, k*totals[c], k*totals[c])
		y[c] = make([]int, len(in.Types))
		for j, typ := range in.Types {
			y[c][j] = p.AddCol("Y|"+cl.key+"|"+typ, 0, k, 0)
			p.Set(total, y[c][j], 1)
			p.Set(caps[j], y[c][j], float64(cl.sf))
			if pj.Thr[j] > 0 && totals[c] > 0 {
				even := p.AddRow("even|"+cl.key+"|"+typ, 0, lp.Inf)
				p.Set(even, y[c][j], 1)
				p.Set(even, u, -k*totals[c]*in.Count[j]/f)
				usableCols = append(usableCols, y[c][j])
			}
		}
	}
	sol, err := a.LPs.solve("agnostic-even", p, nil)
	if err != nil {
		return nil, err
	}
	if sol.Status != lp.Optimal {
		// Cannot happen for totals that fit the cluster (all time on any
		// type counts); keep the run going with ref-compat's spread.
		for c := range cls {
			for j := range in.Types {
				out[c][j] = totals[c] * in.Count[j] / in.TotalGPUs()
			}
		}
		return out, nil
	}
	// Second: with the evenness reached, as much time as possible where
	// the jobs can run.
	p.SetColBounds(u, sol.X[u]*(1-1e-9), 1)
	p.SetObj(u, 0)
	for _, col := range usableCols {
		p.SetObj(col, 1)
	}
	if s2, err := a.LPs.solve("agnostic-even-usable", p, sol.Basis); err == nil && s2.Status == lp.Optimal {
		sol = s2
	}
	for c, cl := range cls {
		k := float64(len(cl.members))
		for j := range in.Types {
			out[c][j] = math.Max(0, sol.X[y[c][j]]) / k
		}
	}
	return out, nil
}

// classTotals is each class's total share per job in an LP solution.
func (f *fairLP) classTotals(x []float64) []float64 {
	out := make([]float64, len(f.cls))
	for c, cl := range f.cls {
		for _, col := range f.s[c] {
			if col >= 0 {
				out[c] += x[col]
			}
		}
		out[c] = math.Min(1, out[c]/float64(len(cl.members)))
	}
	return out
}

func fill(n int, v float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = v
	}
	return x
}
