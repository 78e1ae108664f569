package alloc

import (
	"fmt"
	"sort"

	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/solver/match"
	"github.com/schedlab/schedlab/sim/workload"
)

// AlloX is AlloX (spec 001 §2.10), for single-GPU jobs: jobs that
// hold a GPU keep it; waiting jobs (the oldest fraction alpha, at least as
// many as there are free GPUs) are matched to positions in the free GPUs'
// queues by a min-cost assignment: a job counted p times (it delays p jobs
// on its GPU, itself included) costs p·(N/T) + its age, so the shortest
// jobs take the highest multipliers and run first; the first job of each
// GPU's queue runs. A job that did not win a GPU enters the matching
// again at the next recomputation (spec §2.10; an early version of the
// reference simulator matched each job only the first time it saw it).
type AlloX struct {
	MaxJobs int     // match at most this many waiting jobs, the shortest on their best type
	Alpha   float64 // match only this oldest fraction of the waiting jobs (at least one per free GPU)
	held    holding
	stop    func() bool
}

// StopWhen makes a later matching give up once stop returns true: one
// matching of a few hundred waiting jobs takes seconds.
func (a *AlloX) StopWhen(stop func() bool) { a.stop = stop }

func (a *AlloX) Allocate(in *plan.Input) (*plan.Allocation, error) {
	for _, p := range in.Jobs {
		if p.SF != 1 {
			return nil, fmt.Errorf("AlloX schedules single-GPU jobs only; job %s asks for %d GPUs", p.Job.Name, p.SF)
		}
	}
	h := &a.held
	h.mark(in)
	defer h.unmark(in)
	h.drop(func(id workload.JobID) bool { _, ok := h.index(id); return !ok })
	free := append([]float64(nil), in.Count...)
	var queue []int
	for i, p := range in.Jobs {
		if j, ok := h.get(p.ID); ok {
			free[j]--
		} else {
			queue = append(queue, i)
		}
	}
	nFree := 0
	for _, n := range free {
		nFree += int(n)
	}
	// The oldest fraction alpha of the waiting jobs, at least one per free
	// GPU (arrival order is index order).
	if keep := max(nFree, int(a.Alpha*float64(len(queue)))); keep < len(queue) {
		queue = queue[:keep]
	}
	// The matching costs jobs² × GPUs, so schedlab matches the max_jobs
	// waiting jobs that are shortest on their best type: only they can
	// run first on a GPU.
	if len(queue) > a.MaxJobs {
		d := func(i int) float64 { return in.Jobs[i].Rem / plan.Best(in.Jobs[i].Thr) }
		sort.SliceStable(queue, func(x, y int) bool { return d(queue[x]) < d(queue[y]) })
		queue = queue[:a.MaxJobs]
		sort.Ints(queue)
	}
	var workers []int // type of each free GPU
	for j, n := range free {
		for k := 0; k < int(n); k++ {
			workers = append(workers, j)
		}
	}
	if len(queue) > 0 && len(workers) > 0 {
		m := len(queue)
		cost := make([][]float64, m)
		for r, i := range queue {
			if a.stop != nil && a.stop() {
				return nil, match.ErrStopped
			}
			p := &in.Jobs[i]
			cost[r] = make([]float64, len(workers)*m)
			for w, j := range workers {
				for pos := 0; pos < m; pos++ {
					c := 1e15
					if p.Thr[j] > 0 {
						c = float64(pos+1)*(p.Rem/p.Thr[j]) + p.Elapsed
					}
					cost[r][w*m+pos] = c
				}
			}
		}
		cols, _, err := match.AssignUntil(cost, a.stop)
		if err != nil {
			return nil, err
		}
		// On each GPU the job with the largest multiplier runs first.
		first := make([]int, len(workers))
		top := make([]int, len(workers))
		for w := range first {
			first[w] = -1
		}
		for r, col := range cols {
			w, pos := col/m, col%m
			if first[w] < 0 || pos > top[w] {
				first[w], top[w] = r, pos
			}
		}
		for w, r := range first {
			if r >= 0 && in.Jobs[queue[r]].Thr[workers[w]] > 0 {
				h.set(in.Jobs[queue[r]].ID, workers[w])
			}
		}
	}
	al, err := wholeGPUs(in, h)
	if err != nil {
		return nil, err
	}
	al.Why = fmt.Sprintf("AlloX: %d of %d jobs hold a GPU (min-cost matching of %d waiting jobs)", len(al.Combos), len(in.Jobs), len(queue))
	return al, nil
}
