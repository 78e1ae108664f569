package alloc

import (
	"fmt"
	"slices"

	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/workload"
)

// holding is which GPU type each job holds, for the policies where a job
// keeps its type until it finishes (agnostic FIFO, AlloX). Job ids are
// small and dense, so it is a slice by job id and a list of the holders,
// not a map: a recompute looks up every job of a queue of thousands, and
// maps cost most of such an allocator's time.
type holding struct {
	typ []int32          // by job id: the type it holds + 1; 0 if none
	ids []workload.JobID // the jobs holding a type, in no set order
	at  []int32          // scratch of mark: by job id, its index in the input + 1; 0 if not in it
	idx []int            // scratch of wholeGPUs
}

// get is the type job id holds, if it holds one.
func (h *holding) get(id workload.JobID) (int, bool) {
	if int(id) >= len(h.typ) || h.typ[id] == 0 {
		return 0, false
	}
	return int(h.typ[id]) - 1, true
}

// set gives job id type j; it holds none yet.
func (h *holding) set(id workload.JobID, j int) {
	if int(id) >= len(h.typ) {
		h.typ = append(h.typ, make([]int32, max(int(id)+1, 2*len(h.typ))-len(h.typ))...)
	}
	h.typ[id] = int32(j) + 1
	h.ids = append(h.ids, id)
}

// drop forgets the jobs for which gone is true, keeping the others in
// their order.
func (h *holding) drop(gone func(id workload.JobID) bool) {
	kept := h.ids[:0]
	for _, id := range h.ids {
		if gone(id) {
			h.typ[id] = 0
		} else {
			kept = append(kept, id)
		}
	}
	h.ids = kept
}

// mark records each input job's index (index), until unmark. (Loops over
// a queue of thousands go by index: a range over the jobs' values copies
// each record.)
func (h *holding) mark(in *plan.Input) {
	for i := range in.Jobs {
		id := in.Jobs[i].ID
		if int(id) >= len(h.at) {
			h.at = append(h.at, make([]int32, max(int(id)+1, 2*len(h.at))-len(h.at))...)
		}
		h.at[id] = int32(i) + 1
	}
}

// index is job id's index in the marked input, if it is in it.
func (h *holding) index(id workload.JobID) (int, bool) {
	if int(id) >= len(h.at) || h.at[id] == 0 {
		return 0, false
	}
	return int(h.at[id]) - 1, true
}

// markHolders is mark of the input jobs that hold a type, until
// unmarkHolders; a job of the input given a type meanwhile is marked by
// setAt.
func (h *holding) markHolders(in *plan.Input) {
	typ, at := h.typ, h.grow(len(h.typ)-1)
	for i := range in.Jobs {
		if id := in.Jobs[i].ID; int(id) < len(typ) && typ[id] != 0 {
			at[id] = int32(i) + 1
		}
	}
}

// setAt is set of the job at index i of the input that markHolders marked.
func (h *holding) setAt(id workload.JobID, j, i int) {
	h.set(id, j)
	h.grow(int(id))[id] = int32(i) + 1
}

// unmarkHolders undoes markHolders and setAt: every job they marked
// holds a type, since only jobs missing from the input are dropped.
func (h *holding) unmarkHolders() {
	for _, id := range h.ids {
		if int(id) < len(h.at) {
			h.at[id] = 0
		}
	}
}

// grow makes room in at for job id and returns it.
func (h *holding) grow(id int) []int32 {
	if id >= len(h.at) {
		h.at = append(h.at, make([]int32, max(id+1, 2*len(h.at))-len(h.at))...)
	}
	return h.at
}

func (h *holding) unmark(in *plan.Input) {
	for i := range in.Jobs {
		h.at[in.Jobs[i].ID] = 0
	}
}

// wholeGPUs is the allocation of policies that give a job all of its time
// on one type: X = 1 on the type it holds for every holder, in the
// input's order; its objective is the number of holders. Every holder
// must be in the input, marked (mark). The rows' vectors share one
// allocation.
func wholeGPUs(in *plan.Input, held *holding) (*plan.Allocation, error) {
	al := &plan.Allocation{}
	if len(held.ids) == 0 {
		return al, nil
	}
	// The holders' indices in the input, in its order: a few against a
	// queue of thousands.
	idx := held.idx[:0]
	for _, id := range held.ids {
		i, ok := held.index(id)
		if !ok {
			return nil, fmt.Errorf("alloc: job %d holds a GPU type but is not among the jobs to allocate (a bug in the allocator's bookkeeping)", id)
		}
		idx = append(idx, i)
	}
	slices.Sort(idx)
	held.idx = idx
	t := len(in.Types)
	xs := make([]float64, len(idx)*t)
	al.Combos = make([]plan.Combo, len(idx))
	for k, i := range idx {
		j, _ := held.get(in.Jobs[i].ID)
		x := xs[k*t : (k+1)*t : (k+1)*t]
		x[j] = 1
		al.Combos[k] = plan.Combo{A: i, B: -1, X: x}
	}
	al.Objective = float64(len(al.Combos))
	return al, nil
}
