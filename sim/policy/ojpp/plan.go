package ojpp

import (
	"math/bits"
	"slices"
	"sort"

	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

// eps is the tolerance of every ≤ test (spec 002 §8).
const eps = 1e-9

// Config is one placement algorithm of spec 002 §3: the constraint set C
// (R, the compute and memory capacity, always holds), the job order and
// the device selection rule.
type Config struct {
	TauMax, ThetaMax, ThetaBal float64 // τ̄, θ̄, θ′
	Tau, Theta, Bal            bool    // which of Eqs. 5, 7, 8 are in C
	// StrictBal is Algorithm 2 read literally (ambiguity A8): when a job
	// cannot fit on active devices its placement restarts with
	// "min(v_i) = 0", so in that second phase each of its workers must
	// stay within θ′ of zero, the slowdown of a worker alone on a new
	// device; off, the restart keeps only the spread of the workers placed.
	StrictBal bool
	Order     string // "bfd" or "gregarious"
	Select    string // "min-theta" or "best-fit"
	Memory    string // "opportunistic", "average" or "peak"
	Separate  bool   // a job's workers on distinct GPUs (§6.7)
	Dedicated bool   // one GPU per worker, no sharing
}

// jobInfo is what the planner knows of a job: its type's parameters.
type jobInfo struct {
	typ                       int
	omega                     int
	alpha, gamma, delta, p, c float64
}

// device is one GPU and the workers on it, one entry per worker.
type device struct {
	w    []workload.JobID
	slow []float64 // ŝ of each worker under the believed matrix
	// Sums over the workers, kept by refresh: Σα, Σγ, Σ(γ + δ), max δ.
	comp, gsum, psum, dmax float64
	// p0 and p1 are the state of τ's recurrence over the workers (see
	// perf.CollisionStep), kept by refresh: try continues it.
	p0, p1 float64
}

// planner holds a placement (JPC) and answers the questions the
// algorithms ask. Devices are the cluster's GPUs in index order; a device
// is active when it holds a worker.
type planner struct {
	ms    *perf.MemShare // the believed model
	cfg   Config
	info  []jobInfo
	dev   []device
	where [][]int // by job: the device of each placed worker
	ws    []workload.JobID
	slow  []float64 // scratch of try
	sync  bool      // a job's workers on a device peak together (memshare's sync_siblings)
	// sum: the believed model composes slowdowns by their sum (or max),
	// so a worker's slowdown with one more co-runner is its slowdown
	// without it plus (or max) one cell, to the bit; try uses that.
	sum, max bool
	floor    workload.JobID // the job whose balance counts a slowdown of 0 (strict phase 2), or −1
	// touched lists the jobs given a device since the planner was made or
	// cleared (some more than once), so that clear empties only theirs.
	touched []workload.JobID
	// Every job's rank in BFD order, the jobs by rank, and a bitmap over
	// ranks (kept all zero between calls), for order.
	bfdRank []int32
	byRank  []workload.JobID
	marks   []uint64
}

// clear empties the placement: the planner is then as newPlanner made it
// over the same jobs and devices.
func (p *planner) clear() {
	for _, j := range p.touched {
		p.where[j] = nil
	}
	p.touched = p.touched[:0]
	for k := range p.dev {
		p.dev[k] = device{}
	}
	p.ws, p.slow, p.floor = nil, nil, -1
}

// placed records that one worker of job j is on device k.
func (p *planner) placed(j workload.JobID, k int) {
	if len(p.where[j]) == 0 {
		p.touched = append(p.touched, j)
	}
	p.where[j] = append(p.where[j], k)
}

func newPlanner(ms *perf.MemShare, cfg Config, jobs []workload.Job, gpus int) *planner {
	p := &planner{ms: ms, cfg: cfg, info: make([]jobInfo, len(jobs)), dev: make([]device, gpus), where: make([][]int, len(jobs)),
		floor: -1}
	mp := ms.Params()
	p.sync = mp.SyncSiblings
	p.max = mp.Compose == "max"
	p.sum = !p.max && mp.Compose != "product" // perf.Compose's default
	for i := range jobs {
		k, _ := ms.TypeIndex(jobs[i].Model)
		t := ms.Type(k)
		p.info[i] = jobInfo{typ: k, omega: jobs[i].GPUs, alpha: jobs[i].Compute, gamma: t.Gamma, delta: t.Delta, p: t.P, c: t.MigCostS}
	}
	return p
}

// slowdowns returns ŝ of every worker of ws under the believed matrix.
func (p *planner) slowdowns(ws []workload.JobID, out []float64) []float64 {
	out = out[:0]
	var buf [16]int
	for i, a := range ws {
		co := buf[:0]
		for k, b := range ws {
			if k != i {
				co = append(co, p.info[b].typ)
			}
		}
		out = append(out, p.ms.Interference(p.info[a].typ, co))
	}
	return out
}

// slowdownsWith is slowdowns(ws) for ws, device d's workers and then one
// of job j. A sum (or max) over co-runners in order gains j's cell last,
// so each worker's is its slowdown on d plus (or max) that cell, and j's
// own is the composition over d's workers: O(workers), not their square.
func (p *planner) slowdownsWith(d *device, j workload.JobID, ws []workload.JobID, out []float64) []float64 {
	if !p.sum && !p.max {
		return p.slowdowns(ws, out)
	}
	out = out[:0]
	tj := p.info[j].typ
	own := 0.0
	for i, a := range d.w {
		ta := p.info[a].typ
		if x := p.ms.Pair(ta, tj); p.sum {
			out = append(out, d.slow[i]+x)
		} else {
			out = append(out, max(d.slow[i], x))
		}
		if y := p.ms.Pair(tj, ta); p.sum {
			own += y
		} else {
			own = max(own, y)
		}
	}
	return append(out, own)
}

// memory is M_k of spec 002 §3.0 under the configured memory model. With
// synchronous siblings a job's workers on the device peak as one, so the
// one peak Eq. 3 leaves room for is the largest per-job sum of extras.
func (p *planner) memory(ws []workload.JobID) float64 {
	sum, peak := 0.0, 0.0
	for i, j := range ws {
		in := &p.info[j]
		switch p.cfg.Memory {
		case "average":
			sum += in.gamma
		case "peak":
			sum += in.gamma + in.delta
		default:
			sum += in.gamma
			if !p.sync {
				peak = max(peak, in.delta)
			} else if firstIndex(ws, j) == i {
				peak = max(peak, in.delta*float64(count(ws, j)))
			}
		}
	}
	return sum + peak
}

func count(ws []workload.JobID, j workload.JobID) int {
	n := 0
	for _, x := range ws {
		if x == j {
			n++
		}
	}
	return n
}

// memWith is M_k with one more worker of a job described by in, from the
// device's sums.
func (p *planner) memWith(d *device, in *jobInfo) float64 {
	switch p.cfg.Memory {
	case "average":
		return d.gsum + in.gamma
	case "peak":
		return d.psum + in.gamma + in.delta
	}
	return d.gsum + in.gamma + max(d.dmax, in.delta)
}

// refresh recomputes device k's slowdowns and sums after a change.
func (p *planner) refresh(k int) {
	d := &p.dev[k]
	d.slow = p.slowdowns(d.w, d.slow)
	d.comp, d.gsum, d.psum, d.dmax = 0, 0, 0, 0
	for _, j := range d.w {
		in := &p.info[j]
		d.comp, d.gsum, d.psum, d.dmax = d.comp+in.alpha, d.gsum+in.gamma, d.psum+in.gamma+in.delta, max(d.dmax, in.delta)
	}
	d.p0, d.p1 = p.collision(d.w)
}

// collision is the state of τ's recurrence over the workers ws: one step
// per worker of collision probability p > 0 (one per job with
// synchronous siblings).
func (p *planner) collision(ws []workload.JobID) (p0, p1 float64) {
	p0, p1 = 1.0, 0.0
	for i, j := range ws {
		if p.info[j].p > 0 && (!p.sync || firstIndex(ws, j) == i) {
			p0, p1 = perf.CollisionStep(p0, p1, p.info[j].p)
		}
	}
	return p0, p1
}

func (p *planner) compute(ws []workload.JobID) float64 {
	sum := 0.0
	for _, j := range ws {
		sum += p.info[j].alpha
	}
	return sum
}

func (p *planner) tau(ws []workload.JobID) float64 {
	return perf.CollisionOf(p.collision(ws)) // synchronous siblings: one Bernoulli per job
}

// Why a device was refused, for the decision log and the tests.
const (
	okFit       = ""
	failSibling = "a sibling is there (separate GPUs)"
	failCompute = "compute"
	failMemory  = "memory"
	failTau     = "collision probability"
	failTheta   = "interference"
	failBal     = "balance"
)

// probe is the outcome of tentatively adding a worker of job j to device k.
type probe struct {
	fail     string
	theta    float64 // potential θ_k
	residual float64 // L1 slack left, (1 − Σα) + (1 − M_k)
}

// try checks feasible(w, k, C) of spec 002 §3.0 for one more worker of
// job j on device k.
func (p *planner) try(j workload.JobID, k int) probe {
	d := &p.dev[k]
	if p.cfg.Separate && containsJob(d.w, j) {
		return probe{fail: failSibling}
	}
	in := &p.info[j]
	comp, mem := d.comp+in.alpha, p.memWith(d, in)
	pr := probe{residual: (1 - comp) + (1 - mem)}
	if comp > 1+eps || mem > 1+eps {
		pr.fail = failCompute
		if comp <= 1+eps {
			pr.fail = failMemory
		}
		return pr
	}
	p.ws = append(append(p.ws[:0], d.w...), j)
	ws := p.ws
	if p.sync {
		if mem = p.memory(ws); mem > 1+eps {
			pr.fail, pr.residual = failMemory, (1-comp)+(1-mem)
			return pr
		}
		pr.residual = (1 - comp) + (1 - mem)
	}
	if p.cfg.Tau {
		// τ's recurrence over d.w, one step further for j (unless a
		// synchronous sibling of j is there already)
		p0, p1 := d.p0, d.p1
		if len(d.w) == 0 { // a device never refreshed
			p0, p1 = 1, 0
		}
		if in.p > 0 && (!p.sync || !containsJob(d.w, j)) {
			p0, p1 = perf.CollisionStep(p0, p1, in.p)
		}
		if perf.CollisionOf(p0, p1) > p.cfg.TauMax+eps {
			pr.fail = failTau
			return pr
		}
	}
	p.slow = p.slowdownsWith(d, j, ws, p.slow)
	slow := p.slow
	for _, s := range slow {
		pr.theta = max(pr.theta, s)
	}
	if p.cfg.Theta && pr.theta > p.cfg.ThetaMax+eps {
		pr.fail = failTheta
		return pr
	}
	if p.cfg.Bal && !p.balanced(ws, slow, k) {
		pr.fail = failBal
	}
	return pr
}

// balanced checks Eq. 8 for every job with a worker in ws, as if device k
// held ws with slowdowns slow: the spread of ŝ over the job's placed
// workers, on every device, stays within θ′.
func (p *planner) balanced(ws []workload.JobID, slow []float64, k int) bool {
	for i, q := range ws {
		if p.info[q].omega == 1 && q != p.floor {
			continue // one worker: no spread
		}
		if firstIndex(ws, q) != i {
			continue
		}
		lo, hi := slow[i], slow[i]
		if q == p.floor {
			lo = 0
		}
		for x, r := range ws {
			if r == q {
				lo, hi = min(lo, slow[x]), max(hi, slow[x])
			}
		}
		for _, d := range p.where[q] {
			if d == k {
				continue
			}
			for x, r := range p.dev[d].w {
				if r == q {
					lo, hi = min(lo, p.dev[d].slow[x]), max(hi, p.dev[d].slow[x])
				}
			}
		}
		if hi-lo > p.cfg.ThetaBal+eps {
			return false
		}
	}
	return true
}

// spread is the max − min of ŝ over job j's placed workers.
func (p *planner) spread(j workload.JobID) float64 {
	lo, hi, any := 0.0, 0.0, false
	for _, d := range uniqueInts(p.where[j]) {
		for x, r := range p.dev[d].w {
			if r != j {
				continue
			}
			s := p.dev[d].slow[x]
			if !any {
				lo, hi, any = s, s, true
			}
			lo, hi = min(lo, s), max(hi, s)
		}
	}
	return hi - lo
}

func (p *planner) add(j workload.JobID, k int) {
	d := &p.dev[k]
	d.w = append(d.w, j)
	p.refresh(k)
	p.placed(j, k)
}

func (p *planner) remove(j workload.JobID, k int) {
	d := &p.dev[k]
	i := firstIndex(d.w, j)
	d.w = append(d.w[:i], d.w[i+1:]...)
	p.refresh(k)
	w := p.where[j]
	i = lastIndexInt(w, k)
	p.where[j] = append(w[:i], w[i+1:]...)
}

// theta is θ_k, the worst ŝ on device k.
func (p *planner) theta(k int) float64 {
	t := 0.0
	for _, s := range p.dev[k].slow {
		t = max(t, s)
	}
	return t
}

// better orders two feasible probes by the selection rule.
func (p *planner) better(a probe, ka int, b probe, kb int) bool {
	if p.cfg.Select != "best-fit" && a.theta != b.theta {
		return a.theta < b.theta
	}
	if a.residual != b.residual {
		return a.residual < b.residual
	}
	return ka < kb
}

// choose returns the active device the selection rule picks for one more
// worker of job j, or -1 when none is feasible.
func (p *planner) choose(j workload.JobID) int {
	best, bestK := probe{}, -1
	for k := range p.dev {
		if len(p.dev[k].w) == 0 {
			continue
		}
		pr := p.try(j, k)
		if pr.fail != okFit {
			continue
		}
		if bestK < 0 || p.better(pr, k, best, bestK) {
			best, bestK = pr, k
		}
	}
	return bestK
}

// idle returns the lowest-index device without workers, or -1.
func (p *planner) idle() int {
	for k := range p.dev {
		if len(p.dev[k].w) == 0 {
			return k
		}
	}
	return -1
}

// placeJob is Algorithm 2 in its single-pass form (spec 002 §3.2): each
// worker goes to the best feasible active device, else to a new one. It
// returns the devices of the job's workers and whether a new device broke
// the job's balance (allowed and flagged, ambiguity A9), or nil when the
// cluster has no idle device left (the placement is rolled back).
func (p *planner) placeJob(j workload.JobID) (devs []int, forced bool) {
	if p.cfg.StrictBal && p.cfg.Bal && !p.cfg.Dedicated {
		if p.placeActive(j) {
			return append([]int(nil), p.where[j]...), false
		}
		p.floor = j // Phase 2: min(v_i) = 0
		defer func() { p.floor = -1 }()
	}
	for range p.info[j].omega {
		k := -1
		if !p.cfg.Dedicated {
			k = p.choose(j)
		}
		if k < 0 {
			k = p.idle()
		}
		if k < 0 {
			p.unplace(j)
			return nil, false
		}
		p.add(j, k)
	}
	return append([]int(nil), p.where[j]...), p.cfg.Bal && p.spread(j) > p.cfg.ThetaBal+eps
}

// placeActive is Phase 1 of Algorithm 2: every worker of job j on an
// active device, or none (false, the job's workers removed again).
func (p *planner) placeActive(j workload.JobID) bool {
	for range p.info[j].omega {
		k := p.choose(j)
		if k < 0 {
			p.unplace(j)
			return false
		}
		p.add(j, k)
	}
	return true
}

// unplace removes every placed worker of job j.
func (p *planner) unplace(j workload.JobID) {
	for _, d := range append([]int(nil), p.where[j]...) {
		p.remove(j, d)
	}
}

// bfdLess is the BFD order of spec 002 §3.0: α, then peak memory γ + δ,
// then ω, all descending, then job id.
func (p *planner) bfdLess(a, b workload.JobID) bool {
	x, y := &p.info[a], &p.info[b]
	switch {
	case x.alpha != y.alpha:
		return x.alpha > y.alpha
	case x.gamma+x.delta != y.gamma+y.delta:
		return x.gamma+x.delta > y.gamma+y.delta
	case x.omega != y.omega:
		return x.omega > y.omega
	}
	return a < b
}

// order returns the jobs in the order the algorithm places them. For the
// Heuristic (Algorithm 3) that is repeatedly the least gregarious job of
// those left, τ(i, Q) = p_i · max_{q≠i} p_q (one worker each, ambiguity
// A7), ties in BFD order.
func (p *planner) order(jobs []workload.JobID) []workload.JobID {
	if len(p.bfdRank) != len(p.info) {
		p.rankAll()
	}
	// BFD is a total order (ties by id), so the jobs in BFD order are the
	// jobs in the order of their rank among all jobs: marked in a bitmap
	// and read back, which costs the jobs plus the run's jobs ÷ 64, not a
	// sort, at every decision.
	for _, j := range jobs {
		r := p.bfdRank[j]
		p.marks[r>>6] |= 1 << (r & 63)
	}
	q := make([]workload.JobID, 0, len(jobs))
	for w, word := range p.marks {
		for word != 0 {
			b := bits.TrailingZeros64(word)
			q = append(q, p.byRank[w<<6|b])
			word &= word - 1
		}
		p.marks[w] = 0
	}
	if p.cfg.Order != "gregarious" {
		return q
	}
	return p.gregarious(q)
}

// rankAll ranks every job in BFD order.
func (p *planner) rankAll() {
	n := len(p.info)
	p.byRank = make([]workload.JobID, n)
	for i := range p.byRank {
		p.byRank[i] = workload.JobID(i)
	}
	sort.Slice(p.byRank, func(a, b int) bool { return p.bfdLess(p.byRank[a], p.byRank[b]) })
	p.bfdRank = make([]int32, n)
	for r, j := range p.byRank {
		p.bfdRank[j] = int32(r)
	}
	p.marks = make([]uint64, (n+63)/64)
}

// gregarious orders q, in BFD order, as the Heuristic does: each round
// takes the first job of least τ(i, Q) = p_i · partner, where partner is
// the largest p among the other jobs. That is the round's top p for every
// job but the first of those whose p is the top, whose partner is the
// second largest p (the top again when two jobs share it). So the jobs of
// one p share their τ, but for that first one, whose τ = top · second is
// no larger than its group's; and the least τ is always that of the first
// job of some p. A round then costs the distinct values of p (a type
// library's few), not the jobs: a long queue is ordered in about
// jobs × types instead of jobs².
func (p *planner) gregarious(q []workload.JobID) []workload.JobID {
	type group struct {
		p    float64
		jobs []workload.JobID // in BFD order; the first not yet taken at head
		head int
	}
	var groups []group // by p, largest first
	for _, a := range q {
		x := p.info[a].p
		k := sort.Search(len(groups), func(k int) bool { return groups[k].p <= x })
		if k == len(groups) || groups[k].p != x {
			groups = slices.Insert(groups, k, group{p: x})
		}
		groups[k].jobs = append(groups[k].jobs, a)
	}
	out := make([]workload.JobID, 0, len(q))
	for len(out) < len(q) {
		// The largest and the second largest p over the jobs left, a
		// value held by two jobs counted twice (0 when missing).
		top, second, first := 0.0, 0.0, -1
		for k := range groups {
			g := &groups[k]
			n := len(g.jobs) - g.head
			if n == 0 {
				continue
			}
			if first < 0 {
				first, top = k, g.p
				if n > 1 {
					second = g.p
					break
				}
				continue
			}
			second = g.p
			break
		}
		best, bestG, bestRank := -1, 0.0, int32(0)
		for k := range groups {
			g := &groups[k]
			if g.head == len(g.jobs) {
				continue
			}
			partner := top
			if k == first {
				partner = second
			}
			tau, r := g.p*partner, p.bfdRank[g.jobs[g.head]] // q's order
			if best < 0 || tau < bestG || tau == bestG && r < bestRank {
				best, bestG, bestRank = k, tau, r
			}
		}
		g := &groups[best]
		out = append(out, g.jobs[g.head])
		g.head++
	}
	return out
}

func containsJob(list []workload.JobID, j workload.JobID) bool { return firstIndex(list, j) >= 0 }

func firstIndex(list []workload.JobID, j workload.JobID) int {
	for i, x := range list {
		if x == j {
			return i
		}
	}
	return -1
}

func lastIndexInt(list []int, v int) int {
	for i := len(list) - 1; i >= 0; i-- {
		if list[i] == v {
			return i
		}
	}
	return -1
}

func uniqueInts(list []int) []int {
	var out []int
	for _, v := range list {
		found := false
		for _, u := range out {
			found = found || u == v
		}
		if !found {
			out = append(out, v)
		}
	}
	return out
}
