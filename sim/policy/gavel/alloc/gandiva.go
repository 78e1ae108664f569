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
	pairs    map[workload.JobID]workload.JobID
}

func (a *Gandiva) Allocate(in *plan.Input) (*plan.Allocation, error) {
	if a.pairs == nil {
		a.pairs = map[workload.JobID]workload.JobID{}
	}
	index := map[workload.JobID]int{}
	asked := 0.0
	for i, p := range in.Jobs {
		index[p.ID] = i
		asked += float64(p.SF)
	}
	if asked <= in.TotalGPUs() {
		a.pairs = map[workload.JobID]workload.JobID{}
		al, err := Isolated{}.Allocate(in)
		al.Why = "Gandiva: the jobs fit, so no packing; " + al.Why
		return al, err
	}
	// Keep pairs whose members are both active and that colocate well.
	for i, p := range in.Jobs {
		q, ok := a.pairs[p.ID]
		if !ok {
			continue
		}
		k, alive := index[q]
		if !alive || !a.keep(in, i, k) {
			delete(a.pairs, p.ID)
			delete(a.pairs, q)
		}
	}
	var unpaired []int
	for i, p := range in.Jobs {
		if _, ok := a.pairs[p.ID]; !ok {
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
		a.pairs[in.Jobs[i].ID], a.pairs[in.Jobs[k].ID] = in.Jobs[k].ID, in.Jobs[i].ID
		if x < y {
			x, y = y, x
		}
		unpaired = append(unpaired[:x], unpaired[x+1:]...)
		unpaired = append(unpaired[:y], unpaired[y+1:]...)
	}
	var cs []plan.Combo
	for i, p := range in.Jobs {
		q, ok := a.pairs[p.ID]
		switch {
		case !ok:
			cs = append(cs, plan.Combo{A: i, B: -1})
		case index[q] > i:
			cs = append(cs, plan.Combo{A: i, B: index[q]})
		}
	}
	K := float64(len(cs))
	for c := range cs {
		x := make([]float64, len(in.Types))
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
