package alloc

import (
	"cmp"
	"math"
	"slices"

	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/solver/lp"
)

// PerJob is a policy solved with one row per job: minimum makespan,
// finish-time fairness, maximum total throughput, minimum cost.
type PerJob struct {
	Objective           string // makespan, ftf, throughput, cost
	Aware, SpaceSharing bool
	TieBreak            bool
	PairCandidates      int
	PairThreshold       float64
	Normalized          bool      // throughput: normalise each job by its best type
	SLO                 bool      // cost: honour deadlines
	SLOMargin           float64   // cost: plan to finish this fraction of the time left early
	RoundS              float64   // cost: and one round early
	Ratio               bool      // cost: the paper's throughput/cost ratio
	Prices              []float64 // $ per GPU-hour, per type
	LPs                 *LPs
}

// plan: measured throughputs (aware) or, agnostic, the job's V100-like
// throughput on every type it can run on (spec 001 §2.3, §2.6): its
// throughput on the type where it is fastest... in the reference, V100.
func (a *PerJob) plan(in *plan.Input) [][]float64 {
	ref := -1
	for j, t := range in.Types {
		if t == "V100" || t == "v100" {
			ref = j
		}
	}
	out := flatRows(len(in.Jobs), len(in.Types))
	for m, p := range in.Jobs {
		r := plan.Best(p.Thr)
		if ref >= 0 && p.Thr[ref] > 0 {
			r = p.Thr[ref]
		}
		for j, t := range p.Thr {
			switch {
			case t <= 0:
			case a.Aware:
				out[m][j] = t
			default:
				out[m][j] = r
			}
		}
	}
	return out
}

func (a *PerJob) Allocate(in *plan.Input) (*plan.Allocation, error) {
	if len(in.Jobs) == 0 {
		return &plan.Allocation{}, nil
	}
	planned := a.plan(in)
	var al *plan.Allocation
	var err error
	switch {
	case a.Objective == "makespan":
		al, err = a.makespan(in, planned)
	case a.Objective == "ftf":
		al, err = a.ftf(in, planned)
	case a.Objective == "cost" && a.Ratio:
		al, err = a.costRatio(in, planned)
	default:
		al, err = a.linear(in, planned)
	}
	if err == nil {
		symmetrize(in, planned, al)
	}
	return al, err
}

// symmetrize gives identical jobs (same planned throughputs, size,
// weight, remaining work, age, isolated clock and deadline) the average of
// their rows. The LP's feasible set and objective are symmetric in them,
// so the average of an optimum is an optimum (convexity); a simplex vertex
// would otherwise favour one of them arbitrarily. Jobs in pairs keep
// their rows.
func symmetrize(in *plan.Input, planned [][]float64, al *plan.Allocation) {
	var paired []bool
	var pairs []plan.Combo
	for _, c := range al.Combos {
		if c.B >= 0 {
			if paired == nil {
				paired = make([]bool, len(in.Jobs))
			}
			paired[c.A], paired[c.B] = true, true
			pairs = append(pairs, c)
		}
	}
	// Each job's row summed over its combos, as al.PerJob does, in one
	// block of storage.
	rows := flatRows(len(in.Jobs), len(in.Types))
	for _, c := range al.Combos {
		for j, v := range c.X {
			rows[c.A][j] += v
			if c.B >= 0 {
				rows[c.B][j] += v
			}
		}
	}
	for _, c := range pairs {
		for j, v := range c.X {
			rows[c.A][j] -= v
			rows[c.B][j] -= v
		}
	}
	// Every unpaired job's key and a hash of it, then the jobs sorted by
	// hash, key and index: a group is a run of equal keys, its jobs in
	// their order. Nearly every group has one job (their ages differ), so
	// the hashes settle almost every comparison; a map from keys to
	// groups cost a string per job.
	k := 6 + len(in.Types)
	keys := make([]uint64, len(in.Jobs)*k)
	hash := make([]uint64, len(in.Jobs))
	order := make([]int32, 0, len(in.Jobs))
	for i, p := range in.Jobs {
		if paired != nil && paired[i] {
			continue
		}
		key := keys[i*k : (i+1)*k]
		for w, v := range [...]float64{float64(p.SF), p.Weight, p.Rem, p.Elapsed, p.IsoTime, p.Job.DeadlineS} {
			key[w] = keyFloat(v)
		}
		for j, t := range planned[i] {
			key[6+j] = keyFloat(t)
		}
		h := uint64(14695981039346656037)
		for _, w := range key {
			h = (h ^ w) * 1099511628211
		}
		hash[i] = h
		order = append(order, int32(i))
	}
	key := func(i int32) []uint64 { return keys[int(i)*k : int(i+1)*k] }
	slices.SortFunc(order, func(a, b int32) int {
		if c := cmp.Compare(hash[a], hash[b]); c != 0 {
			return c
		}
		if c := slices.Compare(key(a), key(b)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	var avg []float64
	for lo := 0; lo < len(order); {
		hi := lo + 1
		for hi < len(order) && hash[order[lo]] == hash[order[hi]] && slices.Equal(key(order[lo]), key(order[hi])) {
			hi++
		}
		if g := order[lo:hi]; len(g) > 1 {
			if avg == nil {
				avg = make([]float64, len(in.Types))
			}
			clear(avg)
			for _, i := range g {
				for j, v := range rows[i] {
					avg[j] += v / float64(len(g))
				}
			}
			for _, i := range g {
				copy(rows[i], avg)
			}
		}
		lo = hi
	}
	al.Combos = append(plan.Singles(rows), pairs...)
}

// flatRows returns n zero rows of the given width in one block of storage
// (one allocation rather than n); each row's capacity ends where it does.
func flatRows(n, width int) [][]float64 {
	all := make([]float64, n*width)
	rows := make([][]float64, n)
	for i := range rows {
		rows[i] = all[i*width : (i+1)*width : (i+1)*width]
	}
	return rows
}

// keyFloat is v's part of a grouping key: two values get the same key
// exactly when their shortest decimal forms ('g', -1) are equal, which is
// when they are the same float or both NaN. Formatting them was 2% of a
// finish-time-fairness point of Figure 10.
func keyFloat(v float64) uint64 {
	if v != v {
		return math.Float64bits(math.NaN()) // every NaN formats as "NaN"
	}
	return math.Float64bits(v)
}

// tieBreakSum maximises the total normalised throughput after the main
// objective is fixed (the primary optimum is degenerate for all but the
// bottleneck jobs).
func (a *PerJob) tieBreakSum(f *jobLP, in *plan.Input, planned [][]float64, sol *lp.Solution, fix int) []float64 {
	if !a.TieBreak {
		return sol.X
	}
	v := sol.X[fix]
	f.p.SetColBounds(fix, v-1e-9*math.Max(1, math.Abs(v)), lp.Inf)
	f.p.SetObj(fix, 0)
	for m := range in.Jobs {
		if b := plan.Best(planned[m]); b > 0 {
			f.addThr(-1, m, planned, 1/b)
		}
	}
	s2, err := a.LPs.solve(a.Objective+"-tiebreak", f.p, sol.Basis)
	if err != nil || s2.Status != lp.Optimal {
		return sol.X
	}
	return s2.X
}
