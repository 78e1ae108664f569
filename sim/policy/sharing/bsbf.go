package sharing

import (
	"math"
	"slices"
	"sort"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/workload"
)

// BSBFParams configure SJF-BSBF.
type BSBFParams struct {
	MaxJobsPerGPU    int     `json:"max_jobs_per_gpu" min:"1" max:"8" help:"C, the most jobs a GPU may hold: 1 never shares, 2 is the paper's choice"`
	Key              string  `json:"key" enum:"duration,gpus,gpu_time" help:"what 'shortest' means when ordering pending jobs: solo run time L_k (the paper), GPU count, or GPUs × run time (ambiguity A9)"`
	KeyNoiseSigma    float64 `json:"key_noise_sigma,omitempty" min:"0" max:"5" help:"σ of a lognormal error multiplying each job's key: what SJF does without perfect job information (0: exact)"`
	BatchScaling     bool    `json:"batch_scaling" help:"shrink a sharing job's per-GPU batch, with gradient accumulation, until it fits in memory beside its partner (Algorithm 2); off: a pair that does not fit at the full batch is rejected"`
	RestoreFullBatch bool    `json:"restore_full_batch,omitempty" help:"when a job that shrank its batch is left alone on its GPUs, switch it back to its full batch (not in the paper; ambiguity A7)"`
	TheoremTest      bool    `json:"theorem_test" help:"share only when Theorem 1 says the pair finishes sooner on average than if the new job waited; off shares whenever memory allows (an FFS-like policy with BSBF's choice of partners)"`
	TieShares        bool    `json:"tie_shares,omitempty" help:"share when sharing and waiting tie (the paper's Fig. 6(b) matches not sharing, the default)"`
	Rank             string  `json:"rank" enum:"pair_jct,benefit" help:"order of the partners that pass the test: lowest pair JCT first (Algorithm 1) or largest benefit (waiting minus sharing) first (ambiguity A11)"`
	// FreeFirst, Preempt and RestartS run SJF-BSBF as the paper's authors'
	// own scheduler code does, not as the paper's text says.
	FreeFirst bool    `json:"free_first,omitempty" help:"a job that shares takes every free GPU first and only the rest from its partners, as the paper's authors' own scheduler code does; off (the paper's text): the partners' GPUs first and free ones only to make up the count, keeping free GPUs for jobs that can run alone"`
	Preempt   bool    `json:"preempt,omitempty" help:"as the paper's authors' own scheduler code runs it (not the paper's text, where jobs are never preempted): at every arrival and completion, a waiting job that cannot start stops running jobs with more solo time left than it, the one with the most left first, until it can start, alone or sharing; stopped jobs keep their progress and wait their turn by the time they have left"`
	RestartS  float64 `json:"restart_s,omitempty" min:"0" max:"1e6" unit:"s" help:"with preempt: time without progress when a preempted job restarts (0: it resumes at once)"`
	// Placement applies when a job starts alone on free GPUs; a job that
	// shares takes its partners' GPUs.
	policy.PlacementParams
}

func (p BSBFParams) common() Params {
	return Params{MaxJobsPerGPU: p.MaxJobsPerGPU, Key: p.Key, KeyNoiseSigma: p.KeyNoiseSigma, BatchScaling: p.BatchScaling, RestoreFullBatch: p.RestoreFullBatch, Placement: p.Placement,
		Preempt: p.Preempt, RestartS: p.RestartS}
}

// DefaultBSBFParams returns the paper's SJF-BSBF.
func DefaultBSBFParams() BSBFParams {
	return BSBFParams{MaxJobsPerGPU: 2, Key: "duration", BatchScaling: true, TheoremTest: true, Rank: "pair_jct", PlacementParams: policy.DefaultPlacementParams()}
}

// NewBSBF returns an SJF-BSBF policy.
func NewBSBF(p BSBFParams) engine.Policy {
	// With preemption a running job may restart with another sub-batch,
	// so its solo time left may grow: declined pairs are evaluated again.
	return &scheduler{title: "SJF-BSBF", p: p.common(), branch: &bsbf{p: p, recheck: p.Preempt}}
}

// bsbf is the sharing branch of Algorithm 1 with Algorithm 2 per partner.
type bsbf struct {
	p BSBFParams

	// The running jobs that hold shareable GPUs, rebuilt when the GPUs
	// change (version); their GPUs are gpuBuf[off : off+n].
	cands   []candidate
	gpuBuf  []cluster.GPUID
	version int
	slot    []int32 // job id -> index+1 in cands while collecting

	ok []candidate // those that pass the test, for one pending job

	// declined remembers, per running job, the pending jobs the test
	// turned down beside it and the most memory its shareable GPUs had
	// left when one did. As the running job progresses its remaining time
	// only shrinks, which only makes sharing worse (spec 000 §2.6), so the
	// pair stays declined until more memory frees up; it is neither
	// re-evaluated nor logged again. Entries of jobs that started, or that
	// declined again at more memory, are dropped in place (id -1) and
	// compacted away once they are half of a list.
	declined [][]decliner
	dead     []int32 // per running job: dropped entries in its list
	// byJob holds the same pairs per pending job, for its placement to
	// look up in one short list (finished running jobs are dropped).
	byJob  [][]decline
	mark   []float64 // per running job: the memory it declined at, for the job being placed
	markAt []uint32  // per running job: which placement mark belongs to
	markIx []int32   // per running job: its place in the placed job's byJob list
	placed uint32
	// blocked counts, per pending job, the current candidates that
	// declined it (at no less memory than they have now), and counted the
	// candidates it was counted against with their memory: a job whose
	// count is len(cands) has nothing to evaluate and is skipped whole.
	blocked []int32
	counted []candidate
	seenMem []float64 // per running job: its memory in counted, when seenAt is the stamp
	seenAt  []uint32
	stamp   uint32

	lr   []float64 // per job: L_R, and the time it was computed
	lrAt []float64

	recheck bool // evaluate declined pairs again (tests: the cache changes nothing)
}

// candidate is a running job whose GPUs the new job could share.
type candidate struct {
	id      workload.JobID
	off, n  int     // its shareable GPUs in gpuBuf
	memFree float64 // least memory left on them
	choice  Choice
}

func (b *bsbf) gpus(c *candidate) []cluster.GPUID { return b.gpuBuf[c.off : c.off+c.n] }

func (b *bsbf) place(sc *scheduler, s *engine.State, id workload.JobID, t string) ([]cluster.GPUID, int) {
	job := s.Job(id)
	b.collect(sc, s)
	if len(b.cands) == 0 {
		return nil, 0
	}
	b.loadDeclines(sc, id)
	opts := sc.leftOptions(s, id, sc.options(s, id))
	lnSeq := opts[0].LNShare
	logging := s.Logging()
	b.ok = b.ok[:0]
	for _, c := range b.cands {
		if !b.ofType(s, &c, t) {
			continue
		}
		wasBlocked := b.isBlocked(&c)
		if !b.recheck && wasBlocked {
			continue
		}
		lR := b.remainingSolo(s, c.id)
		xiR, xiN := sc.xi(s, c.id, id), sc.xi(s, id, c.id)
		c.choice = BatchScaling(opts, c.memFree, lR, lnSeq, xiR, xiN, b.p.TieShares)
		if !b.p.TheoremTest && c.choice.Fits {
			c.choice.Share = true
			c.choice.PairJCT = c.choice.AvgShare
		}
		if logging {
			logPair(s, id, c.id, c.choice, lR, lnSeq, xiR, xiN)
		}
		if !c.choice.Share {
			b.decline(id, &c, wasBlocked)
			continue
		}
		b.ok = append(b.ok, c)
	}
	sort.SliceStable(b.ok, func(x, y int) bool { return b.better(&b.ok[x], &b.ok[y]) })
	chosen := make([]cluster.GPUID, 0, job.GPUs)
	if b.p.FreeFirst { // every free GPU first, the rest from partners
		if n := countOfType(s, sc.free, t); n > 0 {
			chosen = append(chosen, freeTopUp(s, sc.free, min(n, job.GPUs), t, nil)...)
		}
		if len(chosen) >= job.GPUs { // it would not share: starting alone is try's part
			return nil, 0
		}
	}
	nFree := len(chosen)
	sub := job.BatchSize
	for i := range b.ok {
		c := &b.ok[i]
		added := 0
		for _, g := range policy.ConsolidatedOrder(s.Cluster(), b.gpus(c)) {
			if len(chosen) < job.GPUs && !slices.Contains(chosen, g) && s.Cluster().GPUs[g].Type == t {
				chosen = append(chosen, g)
				added++
			}
		}
		if added > 0 { // it has to fit beside every partner it got GPUs from
			sub = min(sub, c.choice.SubBatch)
		}
		if len(chosen) == job.GPUs {
			break
		}
	}
	if len(chosen) == nFree {
		return nil, 0
	}
	if len(chosen) < job.GPUs { // shared GPUs first, then free ones (A8)
		more := freeTopUp(s, sc.free, job.GPUs-len(chosen), t, chosen)
		if more == nil {
			if logging {
				s.Log(id, "SJF-BSBF: %s stays pending: its partners offer %d GPUs and too few are free for the other %d", job.Name, len(chosen)-nFree, job.GPUs-len(chosen))
			}
			return nil, 0
		}
		chosen = append(chosen, more...)
	}
	return chosen, sub
}

// decline is a running job that turned a new job down, the most memory
// its shareable GPUs had left when it did, and where the pair is in the
// running job's list.
type decline struct {
	r   workload.JobID
	mem float64
	at  int32
}

// decliner is a pending job a running job turned down, at mem.
type decliner struct {
	id  workload.JobID // -1: dropped
	mem float64
}

// loadDeclines marks the running jobs that declined job id before, and
// forgets those that have finished.
func (b *bsbf) loadDeclines(sc *scheduler, id workload.JobID) {
	b.placed++
	keep := b.byJob[id][:0]
	for _, d := range b.byJob[id] {
		if !sc.gone[d.r] {
			b.mark[d.r], b.markAt[d.r], b.markIx[d.r] = d.mem, b.placed, int32(len(keep))
			keep = append(keep, d)
		}
	}
	b.byJob[id] = keep
}

// isBlocked reports whether candidate c declined the job loadDeclines
// marked for at no less memory than it has now.
func (b *bsbf) isBlocked(c *candidate) bool {
	return b.markAt[c.id] == b.placed && c.memFree <= b.mark[c.id]
}

// decline records that candidate c turned job id down at its memory now.
func (b *bsbf) decline(id workload.JobID, c *candidate, wasBlocked bool) {
	r := c.id
	i := int(b.markIx[r])
	if b.markAt[r] == b.placed { // loadDeclines found it: declined before at less memory
		b.drop(r, b.byJob[id][i].at)
	} else {
		i = len(b.byJob[id])
		b.byJob[id] = append(b.byJob[id], decline{r: r})
	}
	b.mark[r], b.markAt[r], b.markIx[r] = c.memFree, b.placed, int32(i)
	b.byJob[id][i].mem, b.byJob[id][i].at = c.memFree, int32(len(b.declined[r]))
	b.declined[r] = append(b.declined[r], decliner{id, c.memFree})
	if !wasBlocked {
		b.blocked[id]++
	}
}

// drop marks entry at of running job r's list as gone.
func (b *bsbf) drop(r workload.JobID, at int32) {
	if b.declined[r] != nil { // nil once r has finished
		b.declined[r][at].id = -1
		b.dead[r]++
	}
}

// compact removes the dropped entries of r's list once they are half of
// it, and tells the jobs left where their entries moved.
func (b *bsbf) compact(r workload.JobID) {
	list := b.declined[r]
	if len(list) < 64 || int(b.dead[r])*2 < len(list) {
		return
	}
	k := 0
	for _, d := range list {
		if d.id < 0 {
			continue
		}
		list[k] = d
		for j := range b.byJob[d.id] {
			if b.byJob[d.id][j].r == r {
				b.byJob[d.id][j].at = int32(k)
			}
		}
		k++
	}
	b.declined[r], b.dead[r] = list[:k], 0
}

// recount brings blocked in step with a new list of candidates: a
// candidate that left, or whose memory changed, no longer counts for the
// jobs that declined it; one that arrived, or changed, counts for those
// that declined it at no less memory. Unchanged candidates cost nothing.
func (b *bsbf) recount(s *engine.State) {
	if len(b.blocked) < s.NumJobs() {
		b.blocked = make([]int32, s.NumJobs())
		b.declined, b.dead = make([][]decliner, s.NumJobs()), make([]int32, s.NumJobs())
		b.byJob = make([][]decline, s.NumJobs())
		b.mark, b.markAt, b.markIx = make([]float64, s.NumJobs()), make([]uint32, s.NumJobs()), make([]int32, s.NumJobs())
		b.seenMem, b.seenAt = make([]float64, s.NumJobs()), make([]uint32, s.NumJobs())
	}
	b.stamp += 2 // stamp: counted before; stamp+1: counted and unchanged
	for _, c := range b.counted {
		b.seenMem[c.id], b.seenAt[c.id] = c.memFree, b.stamp
	}
	for _, c := range b.cands {
		if b.seenAt[c.id] == b.stamp && b.seenMem[c.id] == c.memFree {
			b.seenAt[c.id] = b.stamp + 1
			continue
		}
		b.count(c.id, c.memFree, 1)
	}
	for _, c := range b.counted {
		if b.seenAt[c.id] == b.stamp+1 {
			continue
		}
		b.count(c.id, c.memFree, -1)
		if s.Status(c.id) == engine.Finished {
			b.declined[c.id], b.dead[c.id] = nil, 0 // never a candidate again
		}
	}
	b.counted = append(b.counted[:0], b.cands...)
}

// started drops the pairs job id was declined in: it waits no more.
func (b *bsbf) started(id workload.JobID) {
	if int(id) >= len(b.byJob) {
		return
	}
	list := b.byJob[id]
	b.byJob[id] = nil
	for _, d := range list {
		b.drop(d.r, d.at)
		if b.declined[d.r] != nil {
			b.compact(d.r)
		}
	}
}

// forget drops every declined pair, keeping the lists' memory
// (benchmarks: evaluate afresh).
func (b *bsbf) forget() {
	for i := range b.declined {
		b.declined[i], b.dead[i] = b.declined[i][:0], 0
	}
	for i := range b.byJob {
		b.byJob[i] = b.byJob[i][:0]
	}
	clear(b.blocked)
	b.placed++ // no mark left from before
}

// count adds delta to the count of every job that declined running job
// r at memory mem or more.
func (b *bsbf) count(r workload.JobID, mem float64, delta int32) {
	for _, d := range b.declined[r] {
		if d.id >= 0 && mem <= d.mem {
			b.blocked[d.id] += delta
		}
	}
}

// idle reports that placing job id by sharing would do nothing: every
// candidate declined it before at no less memory than it has now.
func (b *bsbf) idle(sc *scheduler, s *engine.State, id workload.JobID) bool {
	b.collect(sc, s)
	return !b.recheck && b.blocked[id] >= int32(len(b.cands))
}

// better orders candidates: lowest pair JCT (or largest benefit) first,
// then the one offering more GPUs, then the lower job ID.
func (b *bsbf) better(x, y *candidate) bool {
	kx, ky := x.choice.PairJCT, y.choice.PairJCT
	if b.p.Rank == "benefit" {
		kx, ky = -x.choice.Benefit(), -y.choice.Benefit()
	}
	if kx != ky {
		return kx < ky
	}
	if x.n != y.n {
		return x.n > y.n
	}
	return x.id < y.id
}

func (b *bsbf) ofType(s *engine.State, c *candidate, t string) bool {
	return hasType(s.Cluster(), b.gpus(c), t)
}

// hasType reports whether gpus has one of type t. A cluster of one type
// answers without looking at them: every waiting job asks of every
// candidate.
func hasType(c *cluster.Cluster, gpus []cluster.GPUID, t string) bool {
	if ts := c.Types(); len(ts) == 1 {
		return len(gpus) > 0 && t == ts[0]
	}
	for _, g := range gpus {
		if c.GPUs[g].Type == t {
			return true
		}
	}
	return false
}

// collect lists the distinct running jobs holding GPUs that can take one
// more job, with those GPUs and the least memory left on them (A6:
// Algorithm 2 runs once per running job, not per GPU). The list depends
// only on the GPUs, so it is rebuilt only when they changed.
func (b *bsbf) collect(sc *scheduler, s *engine.State) {
	if b.version == sc.version && b.cands != nil {
		return
	}
	b.version = sc.version
	if len(b.slot) < s.NumJobs() {
		b.slot = make([]int32, s.NumJobs())
	}
	b.cands = b.cands[:0]
	for _, g := range sc.shareable { // count each job's GPUs
		free := s.MemoryFreeGB(g)
		for _, r := range s.JobsOn(g) {
			k := b.slot[r]
			if k == 0 {
				b.cands = append(b.cands, candidate{id: r, memFree: math.Inf(1)})
				k = int32(len(b.cands))
				b.slot[r] = k
			}
			cd := &b.cands[k-1]
			cd.n++
			cd.memFree = min(cd.memFree, free)
		}
	}
	off := 0
	for i := range b.cands {
		b.cands[i].off = off
		off += b.cands[i].n
		b.cands[i].n = 0
	}
	if cap(b.gpuBuf) < off {
		b.gpuBuf = make([]cluster.GPUID, off)
	}
	b.gpuBuf = b.gpuBuf[:off]
	for _, g := range sc.shareable { // then list them
		for _, r := range s.JobsOn(g) {
			cd := &b.cands[b.slot[r]-1]
			b.gpuBuf[cd.off+cd.n] = g
			cd.n++
		}
	}
	for _, cd := range b.cands {
		b.slot[cd.id] = 0
	}
	b.recount(s)
}

// remainingSolo is L_R: a running job's remaining iterations at its solo
// rate on its GPUs with its sub-batch (A12: what it would need alone).
func (b *bsbf) remainingSolo(s *engine.State, id workload.JobID) float64 {
	if len(b.lr) < s.NumJobs() {
		b.lr = make([]float64, s.NumJobs())
		b.lrAt = make([]float64, s.NumJobs())
		for i := range b.lrAt {
			b.lrAt[i] = -1
		}
	}
	if b.lrAt[id] == s.Now() && !b.p.Preempt { // a preempted job may restart with another sub-batch at once
		return b.lr[id]
	}
	info := s.Info(id)
	l := math.Inf(1)
	if r := perf.SoloRateAt(s.Perf(), s.Cluster(), s.Job(id), info.GPUs, info.SubBatch); r > 0 {
		l = info.Remaining / r
	}
	b.lr[id], b.lrAt[id] = l, s.Now()
	return l
}

func logPair(s *engine.State, id, partnerID workload.JobID, ch Choice, lR, lnSeq, xiR, xiN float64) {
	job, partner := s.Job(id), s.Job(partnerID)
	if !ch.Fits {
		s.Log(id, "SJF-BSBF: pair %s (new) with %s (running): %s does not fit beside it even at sub-batch 1 → wait",
			job.Name, partner.Name, job.Name)
		return
	}
	verdict := "wait"
	if ch.Share {
		verdict = "share"
	}
	// The log spells out the paper's symbols (Theorem 1): L_R and L_N are
	// the running and the new job's times alone, ξ their slowdowns when
	// they share; a student reading the log has no legend otherwise.
	s.Log(id, "SJF-BSBF: pair %s (new) with %s (running): time alone L_R %s for the running job and L_N %s for the new one; sharing slows them by ξ %.2f and %.2f; the new job's sub-batch %d of %d (%d accumulation steps); mean JCT of the pair %s if they share, %s if the new job waits → %s",
		job.Name, partner.Name, fmtS(lR), fmtS(lnSeq), xiR, xiN, ch.SubBatch, job.BatchSize,
		Accumulation(job.BatchSize, ch.SubBatch), fmtS(ch.AvgShare), fmtS(ch.AvgSeq), verdict)
}

// Accumulation is the number of micro-batches of a per-GPU batch run at a
// sub-batch.
func Accumulation(batch, sub int) int { return perf.Accumulation(batch, sub) }

func init() {
	policy.Register(policy.Family[BSBFParams]{
		Name:  "sjf-bsbf",
		Title: "SJF-BSBF",
		Paper: "Luo et al., Scheduling Deep Learning Jobs in Multi-Tenant GPU Clusters via Wise Resource Sharing (2024)",
		Doc: "Shortest job first with best sharing benefit first. Pending jobs are served shortest first on free GPUs. " +
			"A job that cannot get enough free GPUs looks at GPUs that hold one running job: for each such job it asks " +
			"whether starting now beside it (both slowed down by interference) beats waiting for it to finish, which " +
			"Theorem 1 answers by comparing the pair's average completion time in the two cases. If the two do not fit " +
			"in GPU memory together, the new job's per-GPU batch is halved until they do, and gradient accumulation " +
			"keeps the effective batch. The partners with the lowest pair completion time are used first. Jobs are " +
			"never preempted or moved, and at most two share a GPU. With preempt and free_first it runs as the " +
			"paper's authors' own scheduler code runs it: jobs with more time left are stopped to make room, and a " +
			"job that shares takes the free GPUs before its partners'.",
		Defaults: DefaultBSBFParams,
		New:      func(p BSBFParams) (engine.Policy, error) { return NewBSBF(p), nil },
	})
}
