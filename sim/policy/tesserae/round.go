package tesserae

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/policy/tesserae/migrate"
	"github.com/schedlab/schedlab/sim/policy/tesserae/pack"
	"github.com/schedlab/schedlab/sim/workload"
)

// round is Listing 1: order, exclusive pass, packing, migration step,
// then the difference applied to the engine.
func (t *placer) round(s *engine.State) error {
	t.rounds++
	clock := t.stopwatch(s)
	fresh, placed, waiting, rank := t.schedule(s)
	clock("scheduling")
	pairs, err := t.pack(s, fresh, placed, waiting)
	if err != nil {
		return err
	}
	clock("packing")
	prev := current(s)
	final, err := t.land(prev, fresh, rank)
	if err != nil {
		return err
	}
	moved := migrate.Migrated(prev, final)
	clock("migration")
	t.log(s, pairs, moved)
	if err := t.snapshot(s, s.NumRunning()+s.NumPending(), prev, final, pairs, moved); err != nil {
		return err
	}
	return t.apply(s, prev, final)
}

// stopwatch returns a function that records the wall-clock milliseconds
// since its previous call (or since stopwatch) as series
// tesserae/decision_ms/<part>, when time_decisions is on and the run
// records series; otherwise it does nothing and reads no clock.
func (t *placer) stopwatch(s *engine.State) func(part string) {
	if !t.p.TimeDecisions || !s.Recording() {
		return func(string) {}
	}
	last := time.Now()
	return func(part string) {
		now := time.Now()
		s.Record("tesserae/decision_ms/"+part, -1, float64(now.Sub(last).Nanoseconds())/1e6)
		last = now
	}
}

// schedule orders the active jobs and runs the exclusive pass: the fresh
// plan, the jobs it placed and those left waiting, and each job's rank
// (its index in the order; set for the jobs the pass reached).
//
// A job needing more GPUs than are still free cannot be placed (both of
// exclusive's ways need that many free), so it waits without trying.
// Without packing the waiting jobs are not used, so the pass stops once
// every GPU is taken: the jobs after would all wait.
func (t *placer) schedule(s *engine.State) (fresh migrate.Plan, placed, waiting []workload.JobID, rank func(workload.JobID) int) {
	if len(t.rank) != s.NumJobs() {
		t.rank = make([]int32, s.NumJobs())
	}
	fresh = shape(s.Cluster())
	free := make([]int, len(fresh.Nodes))
	left := 0
	for n := range fresh.Nodes {
		free[n] = len(fresh.Nodes[n])
		left += free[n]
	}
	stop := t.p.Packing == "none"
	i := 0
	// With max_waiting, only the first k waiting jobs in the order take
	// part (and every running job); once all of those are seen, the pass
	// ends.
	k, running := t.p.MaxWaiting, s.NumRunning()
	seenWaiting, seenRunning := 0, 0
	more := func() bool {
		return (!stop || left > 0) && (k == 0 || seenWaiting < k || seenRunning < running)
	}
	t.eachActive(s, func(id workload.JobID) bool {
		if k > 0 {
			if s.Status(id) != engine.Pending {
				seenRunning++
			} else if seenWaiting++; seenWaiting > k {
				return more() // beyond the first k waiting jobs: left out of this round
			}
		}
		t.rank[id] = int32(i)
		i++
		gpus := s.Job(id).GPUs
		if gpus <= left {
			if locs := exclusive(fresh, free, gpus, t.usable(s, id)); locs != nil {
				for _, l := range locs {
					fresh.Nodes[l.Node][l.GPU] = []workload.JobID{id}
				}
				placed = append(placed, id)
				left -= gpus
				return more()
			}
		}
		waiting = append(waiting, id)
		return more()
	})
	return fresh, placed, waiting, func(id workload.JobID) int { return int(t.rank[id]) }
}

// exclusive is the consolidated pass (spec 003 §1.3 [ours, Blox's
// placer]): a job of gpus GPUs that fits on a node takes the node with the
// fewest free GPUs that still holds it (lowest id on ties); a larger job
// takes whole free nodes of one kind, the first kind in node order that
// has enough. It considers only the nodes ok accepts (see usable).
func exclusive(p migrate.Plan, free []int, gpus int, ok func(n int) bool) []migrate.Loc {
	best := -1
	for n := range p.Nodes {
		if ok(n) && free[n] >= gpus && (best < 0 || free[n] < free[best]) {
			best = n
		}
	}
	if best >= 0 {
		return take(p, free, best, gpus)
	}
	// Whole free nodes of one kind, in id order.
	for n := range p.Nodes {
		if !ok(n) || free[n] != len(p.Nodes[n]) {
			continue
		}
		var nodes []int
		got := 0
		for m := n; m < len(p.Nodes) && got < gpus; m++ {
			if p.Kind[m] == p.Kind[n] && ok(m) && free[m] == len(p.Nodes[m]) {
				nodes = append(nodes, m)
				got += free[m]
			}
		}
		if got < gpus {
			continue // too few on this kind; another may have enough
		}
		var out []migrate.Loc
		need := gpus
		for _, m := range nodes {
			k := min(need, free[m])
			out = append(out, take(p, free, m, k)...)
			need -= k
		}
		return out
	}
	return nil
}

// usable says which nodes job id may run on: of its GPU type when it names
// one, of a type on which the believed perf model gives it throughput at
// its size (policy.RunsOn: Gavel's table, for one, gives a 2-GPU ResNet-50
// none on K80s), and with GPUs whose memory holds it alone.
func (t *placer) usable(s *engine.State, id workload.JobID) func(n int) bool {
	j := s.Job(id)
	types := policy.RunsOn(s, j)
	mem := s.MemoryGB(id, 0)
	c := s.Cluster()
	return func(n int) bool {
		srv := &c.Servers[n]
		switch {
		case j.GPUType != "" && srv.Type != j.GPUType:
			return false
		case types != nil && !slices.Contains(types, srv.Type):
			return false
		}
		return mem == 0 || srv.MemoryGB == 0 || mem <= srv.MemoryGB
	}
}

func take(p migrate.Plan, free []int, n, k int) []migrate.Loc {
	var out []migrate.Loc
	for g := range p.Nodes[n] {
		if len(out) < k && len(p.Nodes[n][g]) == 0 {
			out = append(out, migrate.Loc{Node: n, GPU: g})
		}
	}
	free[n] -= k
	return out
}

// pack runs Algorithm 4 and puts each matched guest on its host's GPUs.
func (t *placer) pack(s *engine.State, fresh migrate.Plan, placed, waiting []workload.JobID) ([]pack.Pair, error) {
	if t.p.Packing == "none" || len(waiting) == 0 {
		return nil, nil
	}
	if !t.packEvery && !slices.ContainsFunc(waiting, func(id workload.JobID) bool { return t.mayPack(s, id) }) {
		t.skipped++
		return nil, nil // no waiting job has an edge: the matching would pair none
	}
	mk := func(ids []workload.JobID) []pack.Job {
		out := make([]pack.Job, len(ids))
		for i, id := range ids {
			j := s.Job(id)
			out[i] = pack.Job{ID: id, Model: j.Model, GPUs: j.GPUs, NoPack: t.p.Packing == "single" && j.GPUs > 1}
			if t.perf != nil {
				out[i].Model = t.perf.see(s, j)
			}
		}
		return out
	}
	var rates pack.Rates = t.table
	if t.perf != nil {
		rates = t.perf
	}
	o := pack.Options{Objective: pack.Objective(t.p.Objective), MinCombined: t.p.MinCombined, Solver: pack.Solver(t.p.PackSolver), Keep: sharing(s)}
	var pairs []pack.Pair
	if t.p.KeepPairs {
		pairs, placed, waiting = keepPairs(s, mk(placed), mk(waiting), rates, o)
	}
	matched, err := pack.Match(mk(placed), mk(waiting), rates, o)
	if err != nil {
		return nil, err
	}
	pairs = append(pairs, matched...)
	where := fresh.Where()
	var kept []pack.Pair
	for _, pr := range pairs {
		locs := where[pr.Host]
		if !t.fitsMemory(s, pr, locs, fresh) || !onNodes(locs, t.usable(s, pr.Guest)) {
			continue
		}
		for _, l := range locs {
			fresh.Nodes[l.Node][l.GPU] = append(fresh.Nodes[l.Node][l.GPU], pr.Guest)
		}
		kept = append(kept, pr)
	}
	return kept, nil
}

// mayPack says whether job id can have an edge in the packing matching at
// all: it is not kept out of packing, and the pair table knows its model
// (Table.Pair has no pair for a model it does not list; pair_rates perf
// may pair any job). Cached per job, as neither changes during a run. A
// round whose waiting jobs all fail it packs nothing, so it skips the
// matching (on the Philly log, whose models the table lacks, the matching
// read every waiting job at every round for nothing).
func (t *placer) mayPack(s *engine.State, id workload.JobID) bool {
	if len(t.packable) != s.NumJobs() {
		t.packable = make([]int8, s.NumJobs())
	}
	if t.packable[id] == 0 {
		j := s.Job(id)
		ok := !(t.p.Packing == "single" && j.GPUs > 1) && (t.perf != nil || slices.Contains(t.table.Models, j.Model))
		t.packable[id] = 2
		if ok {
			t.packable[id] = 1
		}
	}
	return t.packable[id] == 1
}

// sharing says whether two jobs share GPUs now, so that packing can keep
// such pairs among equally good ones (fewer guests move).
func sharing(s *engine.State) func(a, b workload.JobID) bool {
	return func(a, b workload.JobID) bool {
		for _, g := range s.GPUsOf(a) {
			if slices.Contains(s.JobsOn(g), b) {
				return true
			}
		}
		return false
	}
}

// keepPairs keeps the pairs running now whose host is placed again and
// whose guest waits again, when they still have an edge, and returns them
// with the hosts and guests left for the matching.
func keepPairs(s *engine.State, hosts, guests []pack.Job, tab pack.Rates, o pack.Options) (kept []pack.Pair, restHosts, restGuests []workload.JobID) {
	waiting := make(map[workload.JobID]int, len(guests))
	for i, g := range guests {
		waiting[g.ID] = i
	}
	taken := map[workload.JobID]bool{}
	for _, h := range hosts {
		gpus := s.GPUsOf(h.ID)
		if len(gpus) == 0 {
			continue
		}
		for _, y := range s.JobsOn(gpus[0]) {
			i, ok := waiting[y]
			if y == h.ID || !ok || taken[y] || !same(s.GPUsOf(y), gpus) {
				continue
			}
			if c, sc, ok := pack.Score(h, guests[i], tab, o); ok {
				kept = append(kept, pack.Pair{Host: h.ID, Guest: y, Combined: c, Score: sc})
				taken[h.ID], taken[y] = true, true
				break
			}
		}
	}
	for _, h := range hosts {
		if !taken[h.ID] {
			restHosts = append(restHosts, h.ID)
		}
	}
	for _, g := range guests {
		if !taken[g.ID] {
			restGuests = append(restGuests, g.ID)
		}
	}
	return kept, restHosts, restGuests
}

// onNodes says whether ok accepts the node of every location.
func onNodes(locs []migrate.Loc, ok func(n int) bool) bool {
	for _, l := range locs {
		if !ok(l.Node) {
			return false
		}
	}
	return true
}

// fitsMemory checks both jobs' memory on the host's GPUs, when modelled.
func (t *placer) fitsMemory(s *engine.State, pr pack.Pair, locs []migrate.Loc, fresh migrate.Plan) bool {
	need := s.MemoryGB(pr.Host, 0) + s.MemoryGB(pr.Guest, 0)
	if need == 0 {
		return true
	}
	c := s.Cluster()
	for _, l := range locs {
		g := &c.GPUs[c.Servers[l.Node].FirstGPU+cluster.GPUID(l.GPU)]
		if g.MemoryGB > 0 && need > g.MemoryGB {
			return false
		}
	}
	return true
}

// land is the migration step.
func (t *placer) land(prev, fresh migrate.Plan, byRank func(workload.JobID) int) (migrate.Plan, error) {
	switch t.p.Migration {
	case "none":
		return fresh, nil
	case "sticky":
		r, err := migrate.Sticky(prev, fresh, byRank)
		return r.Plan, err
	case "flat":
		r, err := migrate.Flat(prev, fresh)
		return r.Plan, err
	case "guarded":
		r, fell, err := migrate.Guarded(prev, fresh, byRank)
		if fell {
			t.fellBack++
		}
		return r.Plan, err
	}
	r, err := migrate.TwoLevel(prev, fresh)
	return r.Plan, err
}

// log writes the round's matched pairs and migrated jobs.
func (t *placer) log(s *engine.State, pairs []pack.Pair, moved []workload.JobID) {
	t.pairs += len(pairs)
	if !s.Logging() {
		return
	}
	if len(pairs) > 0 {
		var b strings.Builder
		for i, pr := range pairs {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s+%s (%.2f)", s.Job(pr.Host).Name, s.Job(pr.Guest).Name, pr.Combined)
		}
		s.Log(pairs[0].Host, "round %d: packing matched %d pairs (combined normalised throughput): %s", t.rounds, len(pairs), b.String())
	}
	if len(moved) > 0 {
		names := make([]string, len(moved))
		for i, id := range moved {
			names[i] = s.Job(id).Name
		}
		s.Log(moved[0], "round %d: %s migration moves %d jobs: %s", t.rounds, t.p.Migration, len(moved), strings.Join(names, ", "))
	}
}
