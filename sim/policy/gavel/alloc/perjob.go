package alloc

import (
	"encoding/binary"
	"math"

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
	out := make([][]float64, len(in.Jobs))
	for m, p := range in.Jobs {
		out[m] = make([]float64, len(in.Types))
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
	paired := map[int]bool{}
	var pairs []plan.Combo
	for _, c := range al.Combos {
		if c.B >= 0 {
			paired[c.A], paired[c.B] = true, true
			pairs = append(pairs, c)
		}
	}
	rows := al.PerJob(len(in.Jobs), len(in.Types))
	for _, c := range pairs {
		for j, v := range c.X {
			rows[c.A][j] -= v
			rows[c.B][j] -= v
		}
	}
	// Groups in the order of their first job; the key's string is made
	// once per group (a lookup by string(b) allocates nothing).
	index := make(map[string]int, len(in.Jobs))
	var groups [][]int
	var b []byte
	for i, p := range in.Jobs {
		if paired[i] {
			continue
		}
		b = b[:0]
		for _, v := range []float64{float64(p.SF), p.Weight, p.Rem, p.Elapsed, p.IsoTime, p.Job.DeadlineS} {
			b = appendKeyFloat(b, v)
		}
		for _, t := range planned[i] {
			b = appendKeyFloat(b, t)
		}
		g, ok := index[string(b)]
		if !ok {
			g = len(groups)
			index[string(b)] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	for _, g := range groups {
		if len(g) < 2 {
			continue
		}
		avg := make([]float64, len(in.Types))
		for _, i := range g {
			for j, v := range rows[i] {
				avg[j] += v / float64(len(g))
			}
		}
		for _, i := range g {
			copy(rows[i], avg)
		}
	}
	al.Combos = append(plan.Singles(rows), pairs...)
}

// appendKeyFloat appends v to a grouping key: two values get the same
// bytes exactly when their shortest decimal forms ('g', -1) are equal,
// which is when they are the same float or both NaN. Formatting them
// was 2% of a finish-time-fairness point of Figure 10.
func appendKeyFloat(b []byte, v float64) []byte {
	bits := math.Float64bits(v)
	if v != v {
		bits = math.Float64bits(math.NaN()) // every NaN formats as "NaN"
	}
	return binary.LittleEndian.AppendUint64(b, bits)
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
