package mechanism

import (
	"errors"
	"fmt"
	"iter"
	"math"
	"slices"
	"strings"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/workload"
)

// placement is one combination running on GPUs of one type for a round.
type placement struct {
	k    ckey
	c    *combo
	j    int
	gpus []cluster.GPUID
	prio float64
	x    float64
	kept bool
}

// place gives the chosen entries GPUs, per type and largest first: last
// round's GPUs when they are all free (lease renewal), else a consolidated
// set, on one server if any fits (the fullest that fits).
func (m *Mechanism) place(s *engine.State, chosen []entry) []placement {
	c := s.Cluster()
	taken := reset(&m.taken, c.NumGPUs())
	order := m.byTypeAndSize(chosen)
	// Last round's placement of each combination, by its first job (a
	// job is in one placement per round): index + 1 into rounds.last.
	last := m.rounds.last
	if len(m.lastAt) < s.NumJobs() {
		m.lastAt = make([]int32, s.NumJobs())
	}
	for i, pl := range last {
		m.lastAt[pl.k.a] = int32(i + 1)
	}
	defer func() {
		for _, pl := range last {
			m.lastAt[pl.k.a] = 0
		}
	}()
	// The round before last's list is free again (see round).
	out := slices.Grow(m.rounds.spare[:0], len(chosen))[:len(chosen)]
	m.rounds.spare = nil
	done := reset(&m.done, len(chosen))
	for i, ci := range order {
		e := &chosen[ci]
		out[i] = placement{k: e.k, c: e.c, j: e.j, prio: e.prio, x: e.x}
		at := m.lastAt[e.k.a] - 1
		if at < 0 || last[at].k != e.k {
			continue
		}
		if pl := last[at]; pl.j == e.j && allFree(taken, pl.gpus) {
			out[i].gpus, out[i].kept, done[i] = pl.gpus, true, true
			for _, g := range pl.gpus {
				taken[g] = true
			}
		}
	}
	free := m.freeByServer(c, taken)
	m.fullBefore = append(m.fullBefore[:0], make([]int, len(m.gpu.types))...)
	for i, ci := range order {
		if e := &chosen[ci]; !done[i] {
			out[i].gpus = m.consolidated(c, taken, free, e.j, e.sf)
		}
	}
	return out
}

// byTypeAndSize is the order of the chosen entries by type, then largest
// first, stably, as indices into chosen: two counting sorts (a round
// chooses many entries of few types and few sizes), by size, largest
// first, into a buffer, then by type, each keeping the order of equals.
// The entries themselves stay where they are: moving them (72 bytes
// each) twice a round cost more than the counting.
func (m *Mechanism) byTypeAndSize(chosen []entry) []int32 {
	bySize := slices.Grow(m.sortBuf[:0], len(chosen))[:len(chosen)]
	m.sortBuf = bySize
	order := slices.Grow(m.sortOrder[:0], len(chosen))[:len(chosen)]
	m.sortOrder = order
	if len(chosen) == 0 {
		return order
	}
	least, most := chosen[0].sf, chosen[0].sf
	for i := range chosen {
		least, most = min(least, chosen[i].sf), max(most, chosen[i].sf)
	}
	if least == most {
		for i := range bySize {
			bySize[i] = int32(i) // one size: sorted by size already
		}
	} else {
		// at[most-sf] is where the entries of size sf start.
		at := reset(&m.sizeAt, most-least+2)
		for i := range chosen {
			at[most-chosen[i].sf+1]++
		}
		for k := 1; k < len(at); k++ {
			at[k] += at[k-1]
		}
		for i := range chosen {
			k := most - chosen[i].sf
			bySize[at[k]] = int32(i)
			at[k]++
		}
	}
	count := reset(&m.sizeAt, len(m.gpu.types)+1)
	for i := range chosen {
		count[chosen[i].j+1]++
	}
	for j := 1; j < len(count); j++ {
		count[j] += count[j-1]
	}
	for _, i := range bySize {
		j := chosen[i].j
		order[count[j]] = i
		count[j]++
	}
	return order
}

func allFree(taken []bool, gpus []cluster.GPUID) bool {
	for _, g := range gpus {
		if taken[g] {
			return false
		}
	}
	return len(gpus) > 0
}

// consolidated takes n free GPUs of type j: on the fullest server that
// has them all, else from the servers with most free GPUs first. free is
// each server's number of untaken GPUs, kept up to date with taken.
func (m *Mechanism) consolidated(c *cluster.Cluster, taken []bool, free []int, j, n int) []cluster.GPUID {
	bestSrv, bestFree := cluster.ServerID(-1), math.MaxInt
	// The servers of type j before fullBefore[j] have no free GPU left
	// this round (free GPUs only get taken during a placement), so no
	// search needs to look at them again.
	srvs, k := m.gpu.servers[j], m.fullBefore[j]
	for k < len(srvs) && free[srvs[k]] == 0 {
		k++
	}
	m.fullBefore[j] = k
	// When no server of the type has n GPUs (a job of several GPUs on
	// Figure 9's servers of one), the scan could find none.
	if n <= m.gpu.most[j] {
		for _, id := range srvs[k:] {
			if f := free[id]; f >= n && f < bestFree {
				bestSrv, bestFree = id, f
				if f == n {
					break // an exact fit: no later server is fuller and fits
				}
			}
		}
	}
	if bestSrv >= 0 && n == 1 {
		// one GPU: the shared {g} of the first untaken GPU, as take
		// would pick it, instead of a new slice per placement
		srv := &c.Servers[bestSrv]
		for g := srv.FirstGPU; g < srv.FirstGPU+cluster.GPUID(srv.NumGPUs); g++ {
			if !taken[g] {
				taken[g] = true
				free[bestSrv]--
				return m.gpu.single[g]
			}
		}
	}
	out := make([]cluster.GPUID, 0, n)
	take := func(id cluster.ServerID) {
		srv := &c.Servers[id]
		for g := srv.FirstGPU; g < srv.FirstGPU+cluster.GPUID(srv.NumGPUs); g++ {
			if len(out) < n && !taken[g] {
				out = append(out, g)
				taken[g] = true
				free[id]--
			}
		}
	}
	if bestSrv >= 0 {
		take(bestSrv)
		return out
	}
	if n == 1 {
		return out // no server has a free GPU: cannot happen, pick counts GPUs
	}
	for id := range mostFreeFirst(srvs[k:], free, m.gpu.most[j]) {
		if take(id); len(out) == n {
			break
		}
	}
	return out
}

// mostFreeFirst yields the servers with free GPUs by their number of free
// GPUs, most first, and by their order in srvs among equals (a stable
// sort). Servers with none are left out (taking from them takes nothing).
// It finds them lazily, a scan of srvs for each number of free GPUs from
// the most down, since a placement usually stops after the first few:
// the loop may change free only for servers already yielded, and to 0
// unless it then stops. No server has more than limit free GPUs: with
// limit 1 (servers of one GPU) the pass that finds the most is skipped,
// as a pass for a number above the most yields nothing.
func mostFreeFirst(srvs []cluster.ServerID, free []int, limit int) iter.Seq[cluster.ServerID] {
	return func(yield func(cluster.ServerID) bool) {
		most := limit
		if limit > 1 {
			most = 0
			for _, id := range srvs {
				most = max(most, free[id])
			}
		}
		for f := most; f > 0; f-- {
			for _, id := range srvs {
				if free[id] == f && !yield(id) {
					return
				}
			}
		}
	}
}

// reset returns *buf resized to n and cleared, reusing its storage.
func reset[T any](buf *[]T, n int) []T {
	if cap(*buf) < n {
		*buf = make([]T, n)
	}
	*buf = (*buf)[:n]
	clear(*buf)
	return *buf
}

// freeByServer is the number of untaken GPUs of each server.
func (m *Mechanism) freeByServer(c *cluster.Cluster, taken []bool) []int {
	free := reset(&m.free, len(c.Servers))
	for id := range c.Servers {
		srv := &c.Servers[id]
		for g := srv.FirstGPU; g < srv.FirstGPU+cluster.GPUID(srv.NumGPUs); g++ {
			if !taken[g] {
				free[id]++
			}
		}
	}
	return free
}

// apply preempts the jobs that lost or changed their GPUs and starts the
// others, and logs why.
func (m *Mechanism) apply(s *engine.State, placed []placement) error {
	want := m.want(s.NumJobs(), placed)
	defer want.clear(placed)
	var movers []workload.JobID
	for _, id := range s.Running() {
		g, ok := want.get(id)
		if ok && sameGPUs(g, s.GPUsOf(id)) && !m.jobs[id].failing {
			continue
		}
		if ok && m.cfg.MigrateMoves && !m.jobs[id].failing {
			movers = append(movers, id)
			continue
		}
		if err := s.Preempt(id); err != nil {
			return err
		}
		if !ok && m.tracing {
			s.Log(id, "round %d: %s preempted: not picked this round", m.rounds.n, s.Job(id).Name)
		}
		if s.Telling() {
			if ok {
				s.TellWhy(id, "round %d: %s gives it a lease on other GPUs, so it stops and starts again there", m.rounds.n, m.cfg.Title)
			} else {
				s.TellWhy(id, "round %d: %s did not pick it this round: its allocation's shares go to other jobs now", m.rounds.n, m.cfg.Title)
			}
		}
	}
	if err := migrateAll(s, movers, want); err != nil {
		return err
	}
	for i := range placed {
		pl := &placed[i]
		for _, id := range pl.k.members() {
			tr := m.jobs[id]
			if tr.failing {
				if m.tracing {
					s.Log(id, "round %d: %s fails its micro-task on %s: fewer steps left than GPUs (failure %d)", m.rounds.n, s.Job(id).Name, m.where(s, pl), tr.failures)
				}
				continue
			}
			if s.Status(id) == engine.Running {
				if m.tracing {
					how := "lease renewed"
					if !pl.kept {
						how = "same GPUs, new combination"
					}
					s.Log(id, "round %d: %s keeps %s (%s): %s", m.rounds.n, s.Job(id).Name, m.where(s, pl), how, m.reason(pl))
				}
				continue
			}
			// A job stopped at the end of its micro-task that goes on on
			// the same GPUs keeps its lease: no restart is charged.
			opts := engine.ActionOptions{NoOverhead: tr.stopped && sameGPUs(pl.gpus, tr.gpus)}
			tr.seen = false // what a recompute saw of it waiting changes as it runs
			if err := s.Start(id, pl.gpus, opts); err != nil {
				return err
			}
			if m.tracing {
				s.Log(id, "round %d: %s runs on %s: %s", m.rounds.n, s.Job(id).Name, m.where(s, pl), m.reason(pl))
			}
			if s.Telling() {
				s.TellWhy(id, "round %d: %s gives it a lease on %s: %s", m.rounds.n, m.cfg.Title, m.where(s, pl), m.reason(pl))
			}
		}
		for _, id := range pl.k.members() {
			m.jobs[id].gpus = pl.gpus
			m.jobs[id].lastType = pl.j
			m.jobs[id].stopped = false
		}
	}
	m.rounds.last = placed
	return nil
}

func (m *Mechanism) where(s *engine.State, pl *placement) string {
	what := fmt.Sprintf("%d %s", len(pl.gpus), m.gpu.types[pl.j])
	if pl.k.b >= 0 {
		what += fmt.Sprintf(" shared by %s and %s", s.Job(pl.k.a).Name, s.Job(pl.k.b).Name)
	}
	ids := make([]string, len(pl.gpus))
	for i, g := range pl.gpus {
		ids[i] = fmt.Sprint(g)
	}
	return what + " (GPU " + strings.Join(ids, ",") + ")"
}

func (m *Mechanism) reason(pl *placement) string {
	switch {
	case pl.x == 0:
		return "its target share here is 0, but the GPUs were free (work-conserving backfill)"
	case pl.prio >= 1e9*pl.x*0.999:
		return fmt.Sprintf("target share %.3g of %s time, none received yet", pl.x, m.gpu.types[pl.j])
	case m.cfg.Mode == "clean":
		return fmt.Sprintf("priority %.3g = target share %.3g ÷ share of its time on %s since the last recompute %.3g", pl.prio, pl.x, m.gpu.types[pl.j], pl.x/pl.prio)
	}
	return fmt.Sprintf("priority %.3g = target share %.3g ÷ its share of all %s time received %.3g", pl.prio, pl.x, m.gpu.types[pl.j], pl.x/pl.prio)
}

// wanted is each placed job's GPUs this round, by job id: a scratch of
// the mechanism that clear empties again.
type wanted struct {
	gpus []([]cluster.GPUID)
	ok   []bool
}

// want fills the mechanism's wanted scratch with the placements' GPUs.
func (m *Mechanism) want(jobs int, placed []placement) wanted {
	w := &m.wanted
	if len(w.ok) < jobs {
		w.gpus, w.ok = make([][]cluster.GPUID, jobs), make([]bool, jobs)
	}
	for i := range placed {
		for _, id := range placed[i].k.members() {
			w.gpus[id], w.ok[id] = placed[i].gpus, true
		}
	}
	return *w
}

func (w wanted) get(id workload.JobID) ([]cluster.GPUID, bool) { return w.gpus[id], w.ok[id] }

func (w wanted) clear(placed []placement) {
	for i := range placed {
		for _, id := range placed[i].k.members() {
			w.gpus[id], w.ok[id] = nil, false
		}
	}
}

func sameGPUs(a, b []cluster.GPUID) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// migrateAll moves each running job to its new GPUs, in an order where
// each target has room. A cycle of moves between full GPUs is broken by
// preempting one job of it; apply then restarts it on its new GPUs.
func migrateAll(s *engine.State, moves []workload.JobID, want wanted) error {
	for len(moves) > 0 {
		var left []workload.JobID
		for _, id := range moves {
			g, _ := want.get(id)
			err := s.Migrate(id, g, engine.ActionOptions{})
			var ae *engine.ActionError
			if errors.As(err, &ae) {
				left = append(left, id)
				continue
			}
			if err != nil {
				return err
			}
			s.TellWhy(id, "this round's leases put it on other GPUs, and it moves there")
		}
		if len(left) == len(moves) {
			if err := s.Preempt(left[0]); err != nil {
				return err
			}
			left = left[1:]
		}
		moves = left
	}
	return nil
}
