package alloc

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/workload"
)

// agnosticPlain is FIFO's agnostic allocation the plain way: every input
// job marked, the whole queue listed, every job unmarked.
func agnosticPlain(a *FIFO, in *plan.Input) (*plan.Allocation, error) {
	h := &a.sticky
	h.mark(in)
	defer h.unmark(in)
	// The waiting jobs in queue order; only the head is read, but a long
	// queue is listed into storage kept from the last recompute.
	var queue []int
	for i := range in.Jobs {
		if _, ok := h.get(in.Jobs[i].ID); !ok {
			queue = append(queue, i)
		}
	}
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
		if a.RefCompat && len(queue) > 0 {
			// The reference hands a finished job's type to the next job
			// in the queue if it fits there now; otherwise that job waits.
			next := queue[0]
			queue = queue[1:]
			if p := &in.Jobs[next]; float64(p.SF) <= free[j] && p.Thr[j] > 0 {
				h.set(p.ID, j)
				free[j] -= float64(p.SF)
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
	for len(queue) > 0 && len(avail) > 0 {
		i := queue[0]
		queue = queue[1:]
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
		h.set(p.ID, j)
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

// TestAgnosticFIFOSameAsPlain: over runs of recomputes where jobs arrive,
// finish (holders too) and go on waiting, with and without RefCompat, the
// agnostic FIFO (holders alone marked, the queue read as it is taken)
// gives the allocation the plain one gives, holds the same types, draws
// the same random numbers and leaves no mark.
func TestAgnosticFIFOSameAsPlain(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 17))
	types := []string{"k80", "p100", "v100"}
	handed := 0 // steps of RefCompat where a holder finished: its type may be handed on
	for run := range 300 {
		ref := r.IntN(2) == 0
		var fs [2]FIFO
		for i := range fs {
			fs[i].RefCompat = ref
		}
		var jobs []plan.Job
		next := workload.JobID(0)
		for step := range 30 {
			for range r.IntN(8) {
				thr := []float64{float64(r.IntN(3)), float64(r.IntN(3)), 1}
				jobs = append(jobs, plan.Job{ID: next, SF: []int{1, 1, 2, 4}[r.IntN(4)], Thr: thr})
				next++
			}
			jobs = slices.DeleteFunc(jobs, func(plan.Job) bool { return r.IntN(5) == 0 })
			count := []float64{float64(r.IntN(5)), float64(r.IntN(5)), float64(r.IntN(9))}
			if ref && slices.ContainsFunc(fs[0].sticky.ids, func(id workload.JobID) bool {
				return !slices.ContainsFunc(jobs, func(p plan.Job) bool { return p.ID == id })
			}) {
				handed++
			}
			seed := r.Uint64()
			var als [2]*plan.Allocation
			var draws [2]uint64
			for i := range fs {
				rng := rand.New(rand.NewPCG(seed, 1))
				in := &plan.Input{Types: types, Count: count, Jobs: slices.Clone(jobs), Rand: rng}
				var err error
				if i == 0 {
					als[i], err = agnosticPlain(&fs[i], in)
				} else {
					als[i], err = fs[i].agnostic(in)
				}
				if err != nil {
					t.Fatal(err)
				}
				draws[i] = rng.Uint64()
			}
			a, b := als[0], als[1]
			same := a.Objective == b.Objective && a.Why == b.Why && len(a.Combos) == len(b.Combos)
			for k := range a.Combos {
				same = same && a.Combos[k].A == b.Combos[k].A && a.Combos[k].B == b.Combos[k].B && slices.Equal(a.Combos[k].X, b.Combos[k].X)
			}
			if !same || draws[0] != draws[1] || !slices.Equal(fs[0].sticky.ids, fs[1].sticky.ids) {
				t.Fatalf("run %d, step %d (ref %v): %+v (holders %v), plain %+v (holders %v)", run, step, ref, b, fs[1].sticky.ids, a, fs[0].sticky.ids)
			}
			for id, at := range fs[1].sticky.at {
				if at != 0 {
					t.Fatalf("run %d, step %d: job %d still marked", run, step, id)
				}
			}
		}
	}
	if handed < 500 {
		t.Errorf("%d steps where a holder finished: too few to tell", handed)
	}
}
