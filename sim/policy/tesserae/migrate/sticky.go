package migrate

import (
	"fmt"
	"slices"

	"github.com/schedlab/schedlab/sim/workload"
)

// Sticky is Gavel's placement rule as the migration baseline (spec
// §2.7): the fresh plan's units (a job with its packed guest) are placed
// in order of GPU count, largest first, then of priority (rank: lower
// first); a unit keeps its member's previous GPUs if all of them are
// still free, otherwise it takes free GPUs by first fit, on one node when
// one has room (whole nodes for a job larger than a node), and any free
// GPUs of its node class as a last resort; when its class has too few (a
// job the fresh plan spread over nodes of one GPU type but of different
// sizes), the same among all nodes of its kind, which always have room:
// a unit lies on one kind and the fresh plan fits. Pairings are the fresh
// plan's.
func Sticky(prev, next Plan, rank func(workload.JobID) int) (Result, error) {
	if err := sameShape(prev, next); err != nil {
		return Result{}, err
	}
	old := prev.Where()
	res := Result{Plan: prev.Empty()}
	free := func(l Loc) bool { return len(res.Plan.Nodes[l.Node][l.GPU]) == 0 }
	for _, un := range units(next, rank) {
		gpus := stayPut(un, old, prev, next, free)
		if gpus == nil {
			cls := func(n int) bool { return sameClass(res.Plan, n, next, un.at[0].Node) }
			gpus = firstFit(res.Plan, len(un.at), cls, free)
			if len(gpus) < len(un.at) {
				knd := func(n int) bool { return kind(res.Plan, n) == kind(next, un.at[0].Node) }
				gpus = firstFit(res.Plan, len(un.at), knd, free)
			}
			if len(gpus) < len(un.at) {
				return Result{}, fmt.Errorf("migrate: sticky found %d free GPUs of kind %q for jobs %v, which hold %d in the fresh plan", len(gpus), kind(next, un.at[0].Node), un.jobs, len(un.at))
			}
		}
		for _, l := range gpus {
			res.Plan.Nodes[l.Node][l.GPU] = slices.Clone(un.jobs)
		}
	}
	res.Cost = float64(len(Migrated(prev, res.Plan)))
	return res, nil
}

// unit is a set of GPUs of the fresh plan holding the same jobs.
type unit struct {
	jobs []workload.JobID // host first
	at   []Loc            // where the fresh plan put it
}

// units groups the fresh plan by job set and sorts the groups by size,
// largest first, then by the rank of their best member.
func units(next Plan, rank func(workload.JobID) int) []unit {
	where := next.Where()
	var out []unit
	seen := map[workload.JobID]bool{}
	for _, gpus := range next.Nodes {
		for _, js := range gpus {
			if len(js) == 0 || seen[js[0]] {
				continue
			}
			for _, j := range js {
				seen[j] = true
			}
			out = append(out, unit{jobs: slices.Clone(js), at: where[js[0]]})
		}
	}
	best := func(u unit) int {
		r := rank(u.jobs[0])
		for _, j := range u.jobs[1:] {
			r = min(r, rank(j))
		}
		return r
	}
	slices.SortStableFunc(out, func(a, b unit) int {
		if len(a.at) != len(b.at) {
			return len(b.at) - len(a.at)
		}
		return best(a) - best(b)
	})
	return out
}

// stayPut returns the previous GPUs of the unit's first member that ran
// on as many GPUs, if they are all free and of the unit's node class.
func stayPut(un unit, old map[workload.JobID][]Loc, prev, next Plan, free func(Loc) bool) []Loc {
	for _, j := range un.jobs {
		ls, ok := old[j]
		if !ok || len(ls) != len(un.at) {
			continue
		}
		for _, l := range ls {
			if !free(l) || !sameClass(prev, l.Node, next, un.at[0].Node) {
				return nil
			}
		}
		return ls
	}
	return nil
}

func sameClass(a Plan, n int, b Plan, m int) bool {
	return kind(a, n) == kind(b, m) && len(a.Nodes[n]) == len(b.Nodes[m])
}

// firstFit takes k free GPUs of the nodes ok accepts: on the first node
// with room, else on the first wholly free nodes, else anywhere; fewer
// when they have fewer.
func firstFit(p Plan, k int, ok func(n int) bool, free func(Loc) bool) []Loc {
	var whole, any []Loc
	for n := range p.Nodes {
		if !ok(n) {
			continue
		}
		var here []Loc
		for g := range p.Nodes[n] {
			if l := (Loc{n, g}); free(l) {
				here = append(here, l)
			}
		}
		if len(here) >= k && k <= len(p.Nodes[n]) {
			return here[:k]
		}
		if len(here) == len(p.Nodes[n]) && len(whole) < k {
			whole = append(whole, here...)
		}
		any = append(any, here...)
	}
	if len(whole) >= k {
		return whole[:k]
	}
	return any[:min(k, len(any))]
}

// Guarded is TwoLevel that falls back to Sticky's placement when that
// moves fewer jobs and splits none [ours]. TwoLevel only renames whole
// fresh nodes, so it can lose to Sticky when the fresh plan happened to
// group 1-GPU jobs on a node that Sticky is free to pull apart; the guard
// makes "never more migrations than Gavel's rule" hold by construction.
// FellBack says which plan was taken.
func Guarded(prev, next Plan, rank func(workload.JobID) int) (r Result, fellBack bool, err error) {
	r, err = TwoLevel(prev, next)
	if err != nil {
		return Result{}, false, err
	}
	s, err := Sticky(prev, next, rank)
	if err != nil {
		return Result{}, false, err
	}
	if len(Migrated(prev, s.Plan)) < len(Migrated(prev, r.Plan)) && len(Split(next, s.Plan)) == 0 {
		s.Matchings = r.Matchings
		return s, true, nil
	}
	return r, false, nil
}
