package gavel

import (
	"fmt"
	"sort"

	"github.com/schedlab/schedlab/sim/solver/match"
	"github.com/schedlab/schedlab/sim/workload"
)

// fifoAlloc is FIFO and shortest-job-first without an LP, the way the
// reference runs them (spec 001 §2.4, §2.5).
//
// Aware: the allocation is rebuilt at every recompute; jobs in queue order
// take the fastest type that still has room (X = 1 there) until one fits
// nowhere (head-of-line blocking). With space sharing, the jobs still
// queued are then packed, in order, beside the placed single job of the
// same scale factor that gives the largest α+β above packThreshold.
//
// Agnostic: sticky and non-preemptive; a job keeps its type until it
// finishes. "clean" gives the next queued job a random type with room.
// "ref-compat" reproduces the reference's shadowed variable: the job goes
// to the alphabetically last type still listed as available (V100 while
// it is listed) and, when that type's free count reaches exactly zero, a
// random type is struck from the list, so V100 can be over-committed.
type fifoAlloc struct {
	aware, ss, sjf, refCompat bool
	packThreshold             float64
	sticky                    map[workload.JobID]int
}

func (a *fifoAlloc) order(in *planInput) []int {
	idx := make([]int, len(in.jobs))
	for i := range idx {
		idx[i] = i
	}
	if a.sjf {
		key := func(i int) float64 { return in.jobs[i].rem / best(in.jobs[i].thr) }
		sort.SliceStable(idx, func(x, y int) bool { return key(idx[x]) < key(idx[y]) })
	}
	return idx
}

func (a *fifoAlloc) allocate(in *planInput) (*allocation, error) {
	if !a.aware {
		return a.agnostic(in), nil
	}
	free := append([]float64(nil), in.count...)
	placed := make([]int, len(in.jobs)) // type, or -1
	for i := range placed {
		placed[i] = -1
	}
	var queue []int
	blocked := false
	for _, i := range a.order(in) {
		p := &in.jobs[i]
		bestJ := -1
		for j, t := range p.thr {
			if t > 0 && free[j] >= float64(p.sf) && (bestJ < 0 || t > p.thr[bestJ]) {
				bestJ = j
			}
		}
		if blocked || bestJ < 0 {
			blocked = true
			queue = append(queue, i)
			continue
		}
		placed[i] = bestJ
		free[bestJ] -= float64(p.sf)
	}
	al := &allocation{}
	partner := make([]int, len(in.jobs))
	for i := range partner {
		partner[i] = -1
	}
	if a.ss {
		for _, q := range queue {
			bestI, bestGain := -1, a.packThreshold
			for i, j := range placed {
				if j < 0 || partner[i] >= 0 || in.jobs[i].sf != in.jobs[q].sf {
					continue
				}
				ta, tb := in.pair(in.jobs[i].job, in.jobs[q].job, in.types[j])
				if ta <= 0 || tb <= 0 || in.jobs[q].thr[j] <= 0 {
					continue
				}
				if g := ta/in.jobs[i].thr[j] + tb/in.jobs[q].thr[j]; g > bestGain {
					bestI, bestGain = i, g
				}
			}
			if bestI < 0 {
				break // nobody may jump ahead in the queue
			}
			partner[bestI], partner[q] = q, bestI
		}
	}
	n := 0
	for i, j := range placed {
		if j < 0 {
			continue
		}
		x := make([]float64, len(in.types))
		x[j] = 1
		if q := partner[i]; q >= 0 {
			al.combos = append(al.combos, combo{a: i, b: q, x: x})
		} else {
			al.combos = append(al.combos, combo{a: i, b: -1, x: x})
		}
		n++
	}
	name := "FIFO"
	if a.sjf {
		name = "shortest job first"
	}
	al.objective = float64(n)
	al.why = fmt.Sprintf("%s: %d of %d jobs placed on their fastest type with room", name, n, len(in.jobs))
	return al, nil
}

func (a *fifoAlloc) agnostic(in *planInput) *allocation {
	if a.sticky == nil {
		a.sticky = map[workload.JobID]int{}
	}
	active := map[workload.JobID]int{}
	var queue []int
	for i, p := range in.jobs {
		active[p.id] = i
		if _, ok := a.sticky[p.id]; !ok {
			queue = append(queue, i)
		}
	}
	free := append([]float64(nil), in.count...)
	ids := make([]workload.JobID, 0, len(a.sticky))
	for id := range a.sticky {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(x, y int) bool { return ids[x] < ids[y] })
	var done []workload.JobID
	for _, id := range ids {
		j := a.sticky[id]
		if i, ok := active[id]; ok {
			free[j] -= float64(in.jobs[i].sf)
			continue
		}
		done = append(done, id)
		if a.refCompat && len(queue) > 0 {
			// The reference hands a finished job's type to the next job
			// in the queue if it fits there now; otherwise that job waits.
			next := queue[0]
			queue = queue[1:]
			if p := &in.jobs[next]; float64(p.sf) <= free[j] && p.thr[j] > 0 {
				a.sticky[p.id] = j
				free[j] -= float64(p.sf)
			}
		}
	}
	for _, id := range done {
		delete(a.sticky, id)
	}
	var avail []int
	for _, j := range alphabetical(in.types) {
		if free[j] > 0 {
			avail = append(avail, j)
		}
	}
	for len(queue) > 0 && len(avail) > 0 {
		i := queue[0]
		queue = queue[1:]
		p := &in.jobs[i]
		var cands []int // positions in avail
		for k, j := range avail {
			if free[j] >= float64(p.sf) && p.thr[j] > 0 {
				cands = append(cands, k)
			}
		}
		if len(cands) == 0 {
			break
		}
		pick := cands[in.rng.IntN(len(cands))]
		j := avail[pick]
		if a.refCompat {
			j = avail[len(avail)-1]
			if p.thr[j] <= 0 {
				j = avail[pick] // a type it cannot run on would hold it forever
			}
		}
		a.sticky[p.id] = j
		free[j] -= float64(p.sf)
		if free[j] == 0 {
			avail = append(avail[:pick], avail[pick+1:]...)
		}
	}
	al := wholeGPUs(in, a.sticky)
	al.why = fmt.Sprintf("FIFO (agnostic): %d of %d jobs hold a GPU type", len(al.combos), len(in.jobs))
	return al
}

func alphabetical(types []string) []int {
	idx := make([]int, len(types))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return types[idx[a]] < types[idx[b]] })
	return idx
}

// isolatedAlloc gives every job X^isolated, 1/M of the cluster.
type isolatedAlloc struct{}

func (isolatedAlloc) allocate(in *planInput) (*allocation, error) {
	rows := make([][]float64, len(in.jobs))
	for i := range in.jobs {
		rows[i] = in.isoRow(&in.jobs[i], len(in.jobs))
	}
	return &allocation{combos: singles(rows), objective: float64(len(in.jobs)),
		why: fmt.Sprintf("isolated: each of %d jobs gets 1/%d of the cluster", len(in.jobs), len(in.jobs))}, nil
}

// gandivaAlloc is "LAS with Gandiva-style space sharing" (spec 001
// §2.10): when the jobs ask for more GPUs than there are, random jobs of
// equal scale factor are paired, pairs are kept across recomputes unless
// they perform badly, and time is split equally over the combinations.
type gandivaAlloc struct {
	pairs map[workload.JobID]workload.JobID
}

func (a *gandivaAlloc) allocate(in *planInput) (*allocation, error) {
	if a.pairs == nil {
		a.pairs = map[workload.JobID]workload.JobID{}
	}
	index := map[workload.JobID]int{}
	asked := 0.0
	for i, p := range in.jobs {
		index[p.id] = i
		asked += float64(p.sf)
	}
	if asked <= in.totalGPUs() {
		a.pairs = map[workload.JobID]workload.JobID{}
		al, err := isolatedAlloc{}.allocate(in)
		al.why = "Gandiva: the jobs fit, so no packing; " + al.why
		return al, err
	}
	// Keep pairs whose members are both active and that colocate well.
	for i, p := range in.jobs {
		q, ok := a.pairs[p.id]
		if !ok {
			continue
		}
		k, alive := index[q]
		if !alive || !a.keep(in, i, k) {
			delete(a.pairs, p.id)
			delete(a.pairs, q)
		}
	}
	var unpaired []int
	for i, p := range in.jobs {
		if _, ok := a.pairs[p.id]; !ok {
			unpaired = append(unpaired, i)
		}
	}
	attempts := len(unpaired)
	for t := 0; t < attempts && len(unpaired) >= 2; t++ {
		x := in.rng.IntN(len(unpaired))
		y := in.rng.IntN(len(unpaired) - 1)
		if y >= x {
			y++
		}
		i, k := unpaired[x], unpaired[y]
		if in.jobs[i].sf != in.jobs[k].sf {
			continue
		}
		a.pairs[in.jobs[i].id], a.pairs[in.jobs[k].id] = in.jobs[k].id, in.jobs[i].id
		if x < y {
			x, y = y, x
		}
		unpaired = append(unpaired[:x], unpaired[x+1:]...)
		unpaired = append(unpaired[:y], unpaired[y+1:]...)
	}
	var cs []combo
	for i, p := range in.jobs {
		q, ok := a.pairs[p.id]
		switch {
		case !ok:
			cs = append(cs, combo{a: i, b: -1})
		case index[q] > i:
			cs = append(cs, combo{a: i, b: index[q]})
		}
	}
	K := float64(len(cs))
	for c := range cs {
		x := make([]float64, len(in.types))
		s := 0.0
		p := &in.jobs[cs[c].a]
		for j, typ := range in.types {
			ok := p.thr[j] > 0
			if cs[c].b >= 0 {
				ta, tb := in.pair(p.job, in.jobs[cs[c].b].job, typ)
				ok = ta > 0 && tb > 0
			}
			if ok {
				x[j] = in.count[j] / K / float64(p.sf)
				s += x[j]
			}
		}
		if s > 1 {
			for j := range x {
				x[j] /= s
			}
		}
		cs[c].x = x
	}
	return &allocation{combos: cs, objective: K,
		why: fmt.Sprintf("Gandiva: %d jobs in %d combinations share time equally", len(in.jobs), len(cs))}, nil
}

// keep: a pair is dissolved when its normalised pair throughput summed
// over all types is below 1 or it cannot run on some type.
func (a *gandivaAlloc) keep(in *planInput, i, k int) bool {
	total := 0.0
	for j, typ := range in.types {
		ta, tb := in.pair(in.jobs[i].job, in.jobs[k].job, typ)
		if ta <= 0 || tb <= 0 {
			return false
		}
		total += ta/in.jobs[i].thr[j] + tb/in.jobs[k].thr[j]
	}
	return total >= 1
}

// wholeGPUs is the allocation of policies that give a job all of its time
// on one type: X = 1 on held[job] for every job in held; its objective is
// the number of such jobs.
func wholeGPUs(in *planInput, held map[workload.JobID]int) *allocation {
	al := &allocation{}
	for i, p := range in.jobs {
		if j, ok := held[p.id]; ok {
			x := make([]float64, len(in.types))
			x[j] = 1
			al.combos = append(al.combos, combo{a: i, b: -1, x: x})
		}
	}
	al.objective = float64(len(al.combos))
	return al
}

// alloxAlloc is AlloX (spec 001 §2.10), for single-GPU jobs: jobs that
// hold a GPU keep it; waiting jobs (the oldest fraction alpha, at least as
// many as there are free GPUs) are matched to positions in the free GPUs'
// queues by a min-cost assignment: a job counted p times (it delays p jobs
// on its GPU, itself included) costs p·(N/T) + its age, so the shortest
// jobs take the highest multipliers and run first; the first job of each
// GPU's queue runs. A job that did not win a GPU enters the matching
// again at the next recomputation (spec §2.10; an early version of the
// reference simulator matched each job only the first time it saw it).
type alloxAlloc struct {
	maxJobs int
	alpha   float64
	held    map[workload.JobID]int
}

func newAlloX(p *AlloXParams) *alloxAlloc {
	return &alloxAlloc{maxJobs: p.MaxJobs, alpha: p.Alpha}
}

func (a *alloxAlloc) allocate(in *planInput) (*allocation, error) {
	if a.held == nil {
		a.held = map[workload.JobID]int{}
	}
	active := map[workload.JobID]bool{}
	for _, p := range in.jobs {
		active[p.id] = true
		if p.sf != 1 {
			return nil, fmt.Errorf("AlloX schedules single-GPU jobs only; job %s asks for %d GPUs", p.job.Name, p.sf)
		}
	}
	for id := range a.held {
		if !active[id] {
			delete(a.held, id)
		}
	}
	free := append([]float64(nil), in.count...)
	var queue []int
	for i, p := range in.jobs {
		if j, ok := a.held[p.id]; ok {
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
	if keep := max(nFree, int(a.alpha*float64(len(queue)))); keep < len(queue) {
		queue = queue[:keep]
	}
	// The matching costs jobs² × GPUs, so schedlab matches the max_jobs
	// waiting jobs that are shortest on their best type: only they can
	// run first on a GPU.
	if len(queue) > a.maxJobs {
		d := func(i int) float64 { return in.jobs[i].rem / best(in.jobs[i].thr) }
		sort.SliceStable(queue, func(x, y int) bool { return d(queue[x]) < d(queue[y]) })
		queue = queue[:a.maxJobs]
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
			p := &in.jobs[i]
			cost[r] = make([]float64, len(workers)*m)
			for w, j := range workers {
				for pos := 0; pos < m; pos++ {
					c := 1e15
					if p.thr[j] > 0 {
						c = float64(pos+1)*(p.rem/p.thr[j]) + p.elapsed
					}
					cost[r][w*m+pos] = c
				}
			}
		}
		cols, _, err := match.Assign(cost)
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
			if r >= 0 && in.jobs[queue[r]].thr[workers[w]] > 0 {
				a.held[in.jobs[queue[r]].id] = workers[w]
			}
		}
	}
	al := wholeGPUs(in, a.held)
	al.why = fmt.Sprintf("AlloX: %d of %d jobs hold a GPU (min-cost matching of %d waiting jobs)", len(al.combos), len(in.jobs), len(queue))
	return al, nil
}
