package alloc

import (
	"fmt"

	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
	"github.com/schedlab/schedlab/sim/workload"
)

// Gandiva is "LAS with Gandiva-style space sharing" (spec 001
// §2.10): when the jobs ask for more GPUs than there are, random jobs of
// equal scale factor are paired, pairs are kept across recomputes unless
// they perform badly, and time is split equally over the combinations.
type Gandiva struct {
	// OnlyKept pairs two jobs only when the pair would be kept (keep),
	// so that a pair never holds a target of 0 on every type. The
	// reference pairs blindly and dissolves such a pair at its next
	// recompute; meanwhile its round-based mechanism still runs the
	// pair's jobs on idle GPUs, as entries whose target is 0. Where only
	// positive targets run (the clean and ideal modes), such a pair's
	// jobs would get nothing until the next recompute, which may never
	// come: for pairs of multi-GPU jobs, which the pair tables do not
	// measure, every recompute formed new pairs of them.
	OnlyKept bool
	// partner is by job id its partner's id + 1, 0 for none: a slice, not
	// a map, since a recompute looks up every job of a long queue. Entries
	// of finished jobs stay, as no job reads them again.
	partner []workload.JobID
	paired  bool    // some entry of partner may be set
	marks   holding // the input's indices (mark)
}

// pairOf is job id's partner, if it has one.
func (a *Gandiva) pairOf(id workload.JobID) (workload.JobID, bool) {
	q := a.partner[id]
	return q - 1, q != 0
}

func (a *Gandiva) Allocate(in *plan.Input) (*plan.Allocation, error) {
	h := &a.marks
	h.mark(in)
	defer h.unmark(in)
	asked := 0.0
	for i := range in.Jobs {
		p := &in.Jobs[i]
		if int(p.ID) >= len(a.partner) {
			a.partner = append(a.partner, make([]workload.JobID, max(int(p.ID)+1, 2*len(a.partner))-len(a.partner))...)
		}
		asked += float64(p.SF)
	}
	if asked <= in.TotalGPUs() {
		if a.paired {
			clear(a.partner)
			a.paired = false
		}
		al, err := Isolated{}.Allocate(in)
		al.Why = "Gandiva: the jobs fit, so no packing; " + al.Why
		return al, err
	}
	// Keep pairs whose members are both active and that colocate well.
	for i := range in.Jobs {
		id := in.Jobs[i].ID
		q, ok := a.pairOf(id)
		if !ok {
			continue
		}
		k, alive := h.index(q)
		if !alive || !a.keep(in, i, k) {
			a.partner[id], a.partner[q] = 0, 0
		}
	}
	var unpaired []int
	for i := range in.Jobs {
		if _, ok := a.pairOf(in.Jobs[i].ID); !ok {
			unpaired = append(unpaired, i)
		}
	}
	attempts := len(unpaired)
	for t := 0; t < attempts && len(unpaired) >= 2; t++ {
		x := in.Rand.IntN(len(unpaired))
		y := in.Rand.IntN(len(unpaired) - 1)
		if y >= x {
			y++
		}
		i, k := unpaired[x], unpaired[y]
		if in.Jobs[i].SF != in.Jobs[k].SF || (a.OnlyKept && !a.keep(in, i, k)) {
			continue
		}
		a.partner[in.Jobs[i].ID], a.partner[in.Jobs[k].ID] = in.Jobs[k].ID+1, in.Jobs[i].ID+1
		a.paired = true
		if x < y {
			x, y = y, x
		}
		unpaired = append(unpaired[:x], unpaired[x+1:]...)
		unpaired = append(unpaired[:y], unpaired[y+1:]...)
	}
	var cs []plan.Combo
	for i := range in.Jobs {
		q, ok := a.pairOf(in.Jobs[i].ID)
		if !ok {
			cs = append(cs, plan.Combo{A: i, B: -1})
		} else if k, _ := h.index(q); k > i {
			cs = append(cs, plan.Combo{A: i, B: k})
		}
	}
	K := float64(len(cs))
	// The rows' vectors share one allocation.
	t := len(in.Types)
	xs := make([]float64, len(cs)*t)
	for c := range cs {
		x := xs[c*t : (c+1)*t : (c+1)*t]
		s := 0.0
		p := &in.Jobs[cs[c].A]
		for j, typ := range in.Types {
			ok := p.Thr[j] > 0
			if cs[c].B >= 0 {
				ta, tb := in.Pair(p.Job, in.Jobs[cs[c].B].Job, typ)
				ok = ta > 0 && tb > 0
			}
			if ok {
				x[j] = in.Count[j] / K / float64(p.SF)
				s += x[j]
			}
		}
		if s > 1 {
			for j := range x {
				x[j] /= s
			}
		}
		cs[c].X = x
	}
	return &plan.Allocation{Combos: cs, Objective: K,
		Why: fmt.Sprintf("Gandiva: %d jobs in %d combinations share time equally", len(in.Jobs), len(cs))}, nil
}

// keep: a pair is dissolved when its normalised pair throughput summed
// over all types is below 1 or it cannot run on some type.
func (a *Gandiva) keep(in *plan.Input, i, k int) bool {
	total := 0.0
	for j, typ := range in.Types {
		ta, tb := in.Pair(in.Jobs[i].Job, in.Jobs[k].Job, typ)
		if ta <= 0 || tb <= 0 {
			return false
		}
		total += ta/in.Jobs[i].Thr[j] + tb/in.Jobs[k].Thr[j]
	}
	return total >= 1
}
