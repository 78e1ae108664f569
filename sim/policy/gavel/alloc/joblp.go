package alloc

import (
	"math"
	"slices"
	"sort"

	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/solver/lp"
)

// jobLP is an LP with one row of X per job (policies with per-job state,
// which classes cannot aggregate): columns x[m][j] and, with space
// sharing, pair columns; each job's time and each type's capacity.
type jobLP struct {
	p     *lp.Problem
	x     [][]int
	pairs []jobPair
	names []*jobNames // by job
}

type jobPair struct {
	a, b, j, col int
	ta, tb       float64
}

// buildJobLP builds validity constraints into p, an empty problem. plan
// holds the planned throughputs. The jobs' column and row names come from
// r's store (jobNamesFor): the policies rebuild their LP every recompute
// over mostly the same jobs, and formatting the names anew was a string
// per column and row, every time. With pairs, each single-GPU job
// considers its best `candidates` partners (by α+β on any type) among
// those above threshold.
func buildJobLP(r *LPs, p *lp.Problem, in *plan.Input, planned [][]float64, pairs bool, candidates int, threshold float64) *jobLP {
	f := &jobLP{p: p, x: make([][]int, len(in.Jobs)), names: make([]*jobNames, len(in.Jobs))}
	p.Reserve(len(in.Jobs)*len(in.Types), 2*len(in.Jobs)+len(in.Types))
	xs := make([]int, len(in.Jobs)*len(in.Types))
	for m, pj := range in.Jobs {
		names := r.jobNamesFor(pj.Job.Name, in.Types)
		f.names[m] = names
		f.x[m] = xs[m*len(in.Types) : (m+1)*len(in.Types) : (m+1)*len(in.Types)]
		for j, t := range planned[m] {
			f.x[m][j] = -1
			if t > 0 {
				f.x[m][j] = p.AddCol(names.col(j), 0, 1, 0)
			}
		}
	}
	if pairs {
		f.addPairs(in, planned, candidates, threshold)
	}
	for m := range in.Jobs {
		row := p.AddRow(f.names[m].row(timeRow), math.Inf(-1), 1)
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
	for j, typ := range in.Types {
		row := p.AddRow("cap|"+typ, math.Inf(-1), in.Count[j])
		for m, pj := range in.Jobs {
			if col := f.x[m][j]; col >= 0 {
				p.Set(row, col, float64(pj.SF))
			}
		}
		for _, pr := range f.pairs {
			if pr.j == j {
				p.Set(row, pr.col, float64(in.Jobs[pr.a].SF))
			}
		}
	}
	return f
}

func (f *jobLP) addPairs(in *plan.Input, planned [][]float64, candidates int, threshold float64) {
	chosen := map[[2]int]bool{}
	var keys [][2]int
	best := make([]partner, 0, candidates)
	for a := range in.Jobs {
		best = best[:0]
		for b := range in.Jobs {
			if a == b || in.Jobs[a].SF != in.Jobs[b].SF {
				continue
			}
			g := 0.0
			for j, typ := range in.Types {
				if planned[a][j] <= 0 || planned[b][j] <= 0 {
					continue
				}
				ta, tb := in.Pair(in.Jobs[a].Job, in.Jobs[b].Job, typ)
				if ta > 0 && tb > 0 {
					g = math.Max(g, ta/in.Jobs[a].Thr[j]+tb/in.Jobs[b].Thr[j])
				}
			}
			if g > threshold {
				best = keepBest(best, partner{b, g}, candidates)
			}
		}
		for _, c := range best {
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
		for j, typ := range in.Types {
			if planned[a][j] <= 0 || planned[b][j] <= 0 {
				continue
			}
			ta, tb := in.Pair(in.Jobs[a].Job, in.Jobs[b].Job, typ)
			if ta <= 0 || tb <= 0 || ta/in.Jobs[a].Thr[j]+tb/in.Jobs[b].Thr[j] <= threshold {
				continue
			}
			// Plan with the measured pair throughputs scaled like the plan.
			sa, sb := planned[a][j]/in.Jobs[a].Thr[j], planned[b][j]/in.Jobs[b].Thr[j]
			col := f.p.AddCol("p|"+in.Jobs[a].Job.Name+"|"+in.Jobs[b].Job.Name+"|"+typ, 0, 1, 0)
			f.pairs = append(f.pairs, jobPair{a: a, b: b, j: j, col: col, ta: ta * sa, tb: tb * sb})
		}
	}
}

// partner is a job b that job a could share a GPU with, and the pair's
// summed normalised throughput.
type partner struct {
	b    int
	gain float64
}

// keepBest adds c to best, the k best partners so far by gain, highest
// first and earliest first among equals: the first k of a stable sort of
// all of them, without sorting all of them.
func keepBest(best []partner, c partner, k int) []partner {
	at := len(best)
	for at > 0 && best[at-1].gain < c.gain {
		at--
	}
	if at >= k {
		return best
	}
	if len(best) < k {
		best = append(best, partner{})
	}
	copy(best[at+1:], best[at:len(best)-1])
	best[at] = c
	return best
}

// addThr adds scale·thr(m, X) to a row (row ≥ 0) or, with row = -1, to
// the objective.
func (f *jobLP) addThr(row, m int, planned [][]float64, scale float64) {
	set := func(col int, v float64) {
		if row < 0 {
			f.p.SetObj(col, f.p.Obj(col)+v)
		} else {
			f.p.Set(row, col, v)
		}
	}
	for j, col := range f.x[m] {
		if col >= 0 {
			set(col, scale*planned[m][j])
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

func (f *jobLP) allocation(in *plan.Input, x []float64) *plan.Allocation {
	rows := flatRows(len(in.Jobs), len(in.Types))
	for m := range rows {
		for j, col := range f.x[m] {
			if col >= 0 && x[col] > 1e-12 {
				rows[m][j] = x[col]
			}
		}
	}
	al := &plan.Allocation{Combos: plan.Singles(rows)}
	index := map[[2]int]int{}
	for _, pr := range f.pairs {
		if v := x[pr.col]; v > 1e-12 {
			k := [2]int{pr.a, pr.b}
			i, ok := index[k]
			if !ok {
				i = len(al.Combos)
				index[k] = i
				al.Combos = append(al.Combos, plan.Combo{A: pr.a, B: pr.b, X: make([]float64, len(in.Types))})
			}
			al.Combos[i].X[pr.j] += v
		}
	}
	return al
}

// jobNames are one job's names in the per-job LPs: "x|job|type" for its
// columns, "time|job" and the like for its rows; each made when first
// asked for.
type jobNames struct {
	job   string
	types []string // the types cols are named for
	cols  []string // by type
	rows  [numRowKinds]string
}

// A job's kinds of rows, for jobNames.row.
const (
	timeRow = iota // its time fractions sum to at most 1
	ftfRow         // finish-time fairness
	sloRow         // its deadline
	numRowKinds
)

var rowKinds = [numRowKinds]string{"time|", "ftf|", "slo|"}

// jobNamesFor returns job's names for the given types: from r's store,
// or new ones for a nil r. The store is emptied once it holds maxNames
// jobs, as finished jobs' names are of no more use.
func (r *LPs) jobNamesFor(job string, types []string) *jobNames {
	if r == nil {
		return &jobNames{job: job, types: types, cols: make([]string, len(types))}
	}
	if n := r.jobs[job]; n != nil && slices.Equal(n.types, types) {
		return n
	}
	if r.jobs == nil || len(r.jobs) >= maxNames {
		r.jobs = map[string]*jobNames{}
	}
	n := &jobNames{job: job, types: slices.Clone(types), cols: make([]string, len(types))}
	r.jobs[job] = n
	return n
}

// col is the name of the job's column on type j.
func (n *jobNames) col(j int) string {
	if n.cols[j] == "" {
		n.cols[j] = "x|" + n.job + "|" + n.types[j]
	}
	return n.cols[j]
}

// row is the name of the job's row of a kind (timeRow, ...).
func (n *jobNames) row(kind int) string {
	if n.rows[kind] == "" {
		n.rows[kind] = rowKinds[kind] + n.job
	}
	return n.rows[kind]
}
