package alloc

import (
	"fmt"
	"slices"
	"sort"

	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/workload"
)

// FIFO is FIFO and shortest-job-first without an LP, the way the
// reference runs them (spec 001 §2.4, §2.5).
//
// Aware: the allocation is rebuilt at every recompute; jobs in queue order
// take the fastest type that still has room (X = 1 there) until one fits
// nowhere (head-of-line blocking). With space sharing, the jobs still
// queued are then packed, in order, beside the placed single job of the
// same scale factor that gives the largest α+β above PackThreshold.
//
// Agnostic: sticky and non-preemptive; a job keeps its type until it
// finishes. "clean" gives the next queued job a random type with room.
// "ref-compat" reproduces the reference's shadowed variable: the job goes
// to the alphabetically last type still listed as available (V100 while
// it is listed) and, when that type's free count reaches exactly zero, a
// random type is struck from the list, so V100 can be over-committed.
type FIFO struct {
	Aware, SpaceSharing bool
	SJF                 bool // order the queue by remaining time on the job's fastest type
	RefCompat           bool // agnostic: the reference's choice of type (see above)
	PackThreshold       float64
	sticky              holding // agnostic: the type each job keeps

	// scratch of agnostic, kept from one recompute to the next
	avail, cands []int
	free         []float64
}

// SJFKey is shortest job first's key: the time a job needs to finish on
// its fastest GPU type, from its iterations left and its throughput on
// each type.
func SJFKey(remaining float64, thr []float64) float64 { return remaining / plan.Best(thr) }

func (a *FIFO) order(in *plan.Input) []int {
	idx := make([]int, len(in.Jobs))
	for i := range idx {
		idx[i] = i
	}
	if a.SJF {
		key := func(i int) float64 { return SJFKey(in.Jobs[i].Rem, in.Jobs[i].Thr) }
		sort.SliceStable(idx, func(x, y int) bool { return key(idx[x]) < key(idx[y]) })
	}
	return idx
}

func (a *FIFO) Allocate(in *plan.Input) (*plan.Allocation, error) {
	if !a.Aware {
		return a.agnostic(in)
	}
	free := append([]float64(nil), in.Count...)
	placed := make([]int, len(in.Jobs)) // type, or -1
	for i := range placed {
		placed[i] = -1
	}
	var queue []int
	blocked := false
	for _, i := range a.order(in) {
		if blocked && !a.SpaceSharing {
			break // the rest of a long queue waits; only packing reads it
		}
		p := &in.Jobs[i]
		bestJ := -1
		for j, t := range p.Thr {
			if t > 0 && free[j] >= float64(p.SF) && (bestJ < 0 || t > p.Thr[bestJ]) {
				bestJ = j
			}
		}
		if blocked || bestJ < 0 {
			blocked = true
			queue = append(queue, i)
			continue
		}
		placed[i] = bestJ
		free[bestJ] -= float64(p.SF)
	}
	al := &plan.Allocation{}
	partner := make([]int, len(in.Jobs))
	for i := range partner {
		partner[i] = -1
	}
	if a.SpaceSharing {
		for _, q := range queue {
			bestI, bestGain := -1, a.PackThreshold
			for i, j := range placed {
				if j < 0 || partner[i] >= 0 || in.Jobs[i].SF != in.Jobs[q].SF {
					continue
				}
				ta, tb := in.Pair(in.Jobs[i].Job, in.Jobs[q].Job, in.Types[j])
				if ta <= 0 || tb <= 0 || in.Jobs[q].Thr[j] <= 0 {
					continue
				}
				if g := ta/in.Jobs[i].Thr[j] + tb/in.Jobs[q].Thr[j]; g > bestGain {
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
		x := make([]float64, len(in.Types))
		x[j] = 1
		if q := partner[i]; q >= 0 {
			al.Combos = append(al.Combos, plan.Combo{A: i, B: q, X: x})
		} else {
			al.Combos = append(al.Combos, plan.Combo{A: i, B: -1, X: x})
		}
		n++
	}
	name := "FIFO"
	if a.SJF {
		name = "shortest job first"
	}
	al.Objective = float64(n)
	al.Why = fmt.Sprintf("%s: %d of %d jobs placed on their fastest type with room", name, n, len(in.Jobs))
	return al, nil
}

func (a *FIFO) agnostic(in *plan.Input) (*plan.Allocation, error) {
	h := &a.sticky
	// Only the holders' indices in the input are read (and those of the
	// jobs given a type here, marked as they are), and of the waiting
	// jobs in queue order only the head of a long queue: one light pass
	// over the input, instead of marking, listing and unmarking every
	// job of a queue of thousands.
	h.markHolders(in)
	defer h.unmarkHolders()
	q := waiting{in: in, h: h}
	free := append(a.free[:0], in.Count...)
	a.free = free
	// The holders by id; those that hand on their type are dropped after.
	slices.Sort(h.ids)
	holders := len(h.ids)
	done := false
	for _, id := range h.ids[:holders] {
		j, _ := h.get(id)
		if i, ok := h.index(id); ok {
			free[j] -= float64(in.Jobs[i].SF)
			continue
		}
		done = true
		if a.RefCompat {
			// The reference hands a finished job's type to the next job
			// in the queue if it fits there now; otherwise that job waits.
			if next, ok := q.pop(); ok {
				if p := &in.Jobs[next]; float64(p.SF) <= free[j] && p.Thr[j] > 0 {
					h.setAt(p.ID, j, next)
					free[j] -= float64(p.SF)
				}
			}
		}
	}
	if done {
		h.drop(func(id workload.JobID) bool { _, ok := h.index(id); return !ok })
	}
	avail := a.avail[:0]
	for _, j := range alphabetical(in.Types) {
		if free[j] > 0 {
			avail = append(avail, j)
		}
	}
	a.avail = avail
	for len(avail) > 0 {
		i, ok := q.pop()
		if !ok {
			break
		}
		p := &in.Jobs[i]
		cands := a.cands[:0] // positions in avail
		for k, j := range avail {
			if free[j] >= float64(p.SF) && p.Thr[j] > 0 {
				cands = append(cands, k)
			}
		}
		a.cands = cands
		if len(cands) == 0 {
			break
		}
		pick := cands[in.Rand.IntN(len(cands))]
		j := avail[pick]
		if a.RefCompat {
			j = avail[len(avail)-1]
			if p.Thr[j] <= 0 {
				j = avail[pick] // a type it cannot run on would hold it forever
			}
		}
		h.setAt(p.ID, j, i)
		free[j] -= float64(p.SF)
		if free[j] == 0 {
			avail = append(avail[:pick], avail[pick+1:]...)
		}
	}
	al, err := wholeGPUs(in, h)
	if err != nil {
		return nil, err
	}
	al.Why = fmt.Sprintf("FIFO (agnostic): %d of %d jobs hold a GPU type", len(al.Combos), len(in.Jobs))
	return al, nil
}

// waiting yields the input's jobs that held no type when the recompute
// began, in queue order (the input's), as agnostic takes them. A job
// passed by is either one of those or held a type then; the only jobs
// given a type since are those already yielded, so asking whether a job
// holds one when it comes up gives the list made at the start.
type waiting struct {
	in   *plan.Input
	h    *holding
	next int // the input index to look at next
}

// pop is the next waiting job's index in the input, if one is left.
func (q *waiting) pop() (int, bool) {
	for q.next < len(q.in.Jobs) {
		i := q.next
		q.next++
		if _, held := q.h.get(q.in.Jobs[i].ID); !held {
			return i, true
		}
	}
	return 0, false
}

func alphabetical(types []string) []int {
	idx := make([]int, len(types))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return types[idx[a]] < types[idx[b]] })
	return idx
}
