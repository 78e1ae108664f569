package sharing

import (
	"math"
	"sort"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/workload"
)

// BSBFParams configure SJF-BSBF.
type BSBFParams struct {
	Params
	TheoremTest bool   `json:"theorem_test" help:"share only when Theorem 1 says the pair finishes sooner on average than if the new job waited; off shares whenever memory allows (an FFS-like policy with BSBF's choice of partners)"`
	TieShares   bool   `json:"tie_shares,omitempty" help:"share when sharing and waiting tie (the paper's Fig. 6(b) matches not sharing, the default)"`
	Rank        string `json:"rank" enum:"pair_jct,benefit" help:"order of the partners that pass the test: lowest pair JCT first (Algorithm 1) or largest benefit (waiting minus sharing) first (ambiguity A11)"`
}

// NewBSBF returns an SJF-BSBF policy.
func NewBSBF(p BSBFParams) engine.Policy {
	return &scheduler{title: "SJF-BSBF", p: p.Params, branch: &bsbf{p: p}}
}

// bsbf is the sharing branch of Algorithm 1 with Algorithm 2 per partner.
type bsbf struct {
	p     BSBFParams
	opts  []Option
	cands []candidate
	slot  []int32 // job id -> index+1 in cands during one placement
	lr    []float64
	lrAt  []float64 // time lr was computed, per job
}

// candidate is a running job whose GPUs the new job could share.
type candidate struct {
	id      workload.JobID
	gpus    []cluster.GPUID // its GPUs that can take one more job
	memFree float64         // least memory left on them
	choice  Choice
}

func (b *bsbf) place(sc *scheduler, s *engine.State, id workload.JobID) ([]cluster.GPUID, int) {
	job := s.Job(id)
	b.collect(s, sc.shareable, job.GPUType)
	if len(b.cands) == 0 {
		return nil, 0
	}
	b.opts = sc.subOptions(s, id, b.opts)
	lnSeq := b.opts[0].LNShare
	believed := s.Perf()
	for i := range b.cands {
		c := &b.cands[i]
		partner := s.Job(c.id)
		lR := b.remainingSolo(s, c.id)
		xiR, xiN := perf.PairSlowdown(believed, partner, job), perf.PairSlowdown(believed, job, partner)
		c.choice = BatchScaling(b.opts, c.memFree, lR, lnSeq, xiR, xiN, b.p.TieShares)
		if !b.p.TheoremTest && c.choice.Fits {
			c.choice.Share = true
			c.choice.PairJCT = c.choice.AvgShare
		}
		logPair(s, id, c, lR, lnSeq, xiR, xiN)
	}
	ok := b.cands[:0]
	for _, c := range b.cands {
		if c.choice.Share {
			ok = append(ok, c)
		}
	}
	sort.SliceStable(ok, func(x, y int) bool { return b.better(&ok[x], &ok[y]) })
	chosen := make([]cluster.GPUID, 0, job.GPUs)
	sub := job.BatchSize
	for _, c := range ok {
		added := 0
		for _, g := range consolidatedOrder(s.Cluster(), c.gpus) {
			if len(chosen) < job.GPUs && !containsGPU(chosen, g) {
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
	if len(chosen) == 0 {
		return nil, 0
	}
	if len(chosen) < job.GPUs { // shared GPUs first, then free ones (A8)
		more := freeTopUp(s, sc.free, job.GPUs-len(chosen), job.GPUType, chosen)
		if more == nil {
			s.Log(id, "SJF-BSBF: %s stays pending: its partners offer %d GPUs and too few are free for the other %d", job.Name, len(chosen), job.GPUs-len(chosen))
			return nil, 0
		}
		chosen = append(chosen, more...)
	}
	return chosen, sub
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
	if len(x.gpus) != len(y.gpus) {
		return len(x.gpus) > len(y.gpus)
	}
	return x.id < y.id
}

// collect lists the distinct running jobs holding GPUs that can take one
// more job, with those GPUs (A6: Algorithm 2 runs once per job).
func (b *bsbf) collect(s *engine.State, shareable []cluster.GPUID, gpuType string) {
	if len(b.slot) < s.NumJobs() {
		b.slot = make([]int32, s.NumJobs())
	}
	b.cands = b.cands[:0]
	c := s.Cluster()
	for _, g := range shareable {
		if gpuType != "" && c.GPUs[g].Type != gpuType {
			continue
		}
		free := s.MemoryFreeGB(g)
		for _, r := range s.JobsOn(g) {
			k := b.slot[r]
			if k == 0 {
				b.cands = append(b.cands, candidate{id: r, gpus: nil, memFree: math.Inf(1)})
				k = int32(len(b.cands))
				b.slot[r] = k
			}
			cd := &b.cands[k-1]
			cd.gpus = append(cd.gpus, g)
			cd.memFree = min(cd.memFree, free)
		}
	}
	for _, cd := range b.cands {
		b.slot[cd.id] = 0
	}
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
	if b.lrAt[id] == s.Now() {
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

func logPair(s *engine.State, id workload.JobID, c *candidate, lR, lnSeq, xiR, xiN float64) {
	job, partner := s.Job(id), s.Job(c.id)
	ch := c.choice
	if !ch.Fits {
		s.Log(id, "SJF-BSBF: pair %s (new) with %s (running): %s does not fit beside it even at sub-batch 1 → wait",
			job.Name, partner.Name, job.Name)
		return
	}
	verdict := "wait"
	if ch.Share {
		verdict = "share"
	}
	s.Log(id, "SJF-BSBF: pair %s (new) with %s (running): L_R %s, L_N %s alone, ξ %.2f/%.2f, sub-batch %d of %d (%d steps): pair JCT %s if shared, %s if it waits → %s",
		job.Name, partner.Name, fmtS(lR), fmtS(lnSeq), xiR, xiN, ch.SubBatch, job.BatchSize,
		Accumulation(job.BatchSize, ch.SubBatch), fmtS(ch.AvgShare), fmtS(ch.AvgSeq), verdict)
}

// Accumulation is the number of micro-batches of a per-GPU batch run at a
// sub-batch.
func Accumulation(batch, sub int) int { return perf.Accumulation(batch, sub) }

func containsGPU(list []cluster.GPUID, g cluster.GPUID) bool {
	for _, h := range list {
		if h == g {
			return true
		}
	}
	return false
}

func init() {
	policy.Register(policy.Factory{
		Name:  "sjf-bsbf",
		Title: "SJF-BSBF",
		Paper: "Luo et al., Scheduling Deep Learning Jobs in Multi-Tenant GPU Clusters via Wise Resource Sharing (2024); spec 000",
		Doc: "Shortest job first with best sharing benefit first. Pending jobs are served shortest first on free GPUs. " +
			"A job that cannot get enough free GPUs looks at GPUs that hold one running job: for each such job it asks " +
			"whether starting now beside it (both slowed down by interference) beats waiting for it to finish, which " +
			"Theorem 1 answers by comparing the pair's average completion time in the two cases. If the two do not fit " +
			"in GPU memory together, the new job's per-GPU batch is halved until they do, and gradient accumulation " +
			"keeps the effective batch. The partners with the lowest pair completion time are used first. Jobs are " +
			"never preempted or moved, and at most two share a GPU.",
		NewParams: func() any {
			return &BSBFParams{Params: defaultParams(), TheoremTest: true, Rank: "pair_jct"}
		},
		New: func(p any) (engine.Policy, error) { return NewBSBF(*p.(*BSBFParams)), nil },
	})
}
