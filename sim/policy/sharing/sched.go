// Package sharing holds the GPU-sharing policies of the SJF-BSBF paper
// (Luo et al., "Scheduling Deep Learning Jobs in Multi-Tenant GPU Clusters
// via Wise Resource Sharing"), as specified in spec 000:
//
//   - SJF-BSBF serves pending jobs shortest first. A job that cannot get
//     enough free GPUs may join GPUs a running job holds, but only when
//     Theorem 1 says the pair finishes sooner on average than if it waited,
//     with its per-GPU batch shrunk (gradient accumulation keeps the
//     effective batch) until it fits in memory (Algorithm 2). Partners that
//     give the lowest pair JCT are used first (Algorithm 1).
//   - SJF-FFS is its ablation: it shares first-fit whenever memory allows.
//
// Both are gang-scheduled and never preempt or migrate; at most C jobs
// (2 in the paper) share a GPU. The knob preempt runs them as their
// authors' own scheduler code does, preemptively (preempt.go).
package sharing

import (
	"math"
	"sort"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/detmath"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/workload"
)

// Params are the knobs both sharing policies have (see BSBFParams and
// FFSParams for their meaning).
type Params struct {
	MaxJobsPerGPU    int
	Key              string
	KeyNoiseSigma    float64
	BatchScaling     bool
	RestoreFullBatch bool
	Placement        string  // for starts alone on free GPUs
	Preempt          bool    // decide as preempt.go says
	RestartS         float64 // with Preempt: the overhead of a restart
}

// brancher is the part of Algorithm 1 that differs between the policies:
// placing a job that does not fit on free GPUs alone. It returns the GPUs
// and sub-batch to start with, or nil.
type brancher interface {
	// It uses GPUs of type t only.
	place(sc *scheduler, s *engine.State, id workload.JobID, t string) ([]cluster.GPUID, int)
	// idle reports that place would return nil for job id now, and do
	// nothing else that shows (no log entry, nothing remembered); it may
	// answer false when unsure. The GPUs hold too few free ones for it.
	idle(sc *scheduler, s *engine.State, id workload.JobID) bool
	// started lets go of what the branch kept about job id while it waited.
	started(id workload.JobID)
}

// scheduler is Algorithm 1 (spec 000 §3.1) with a pluggable sharing branch.
type scheduler struct {
	title  string
	p      Params
	branch brancher
	place  *policy.Placement // for starts alone on free GPUs
	waits  policy.WaitNotes

	queue []queued // pending jobs, shortest first
	// tryAll tries every pending job at every pass, as before idle
	// existed (tests: skipping changes nothing).
	tryAll bool
	// Per-pass view of the GPUs, rebuilt after each start; version counts
	// the rebuilds so that branches can cache what they derive from it.
	free, shareable []cluster.GPUID
	version         int

	opts    [][]Option // per job: the sub-batches it may share with, computed once
	modelIx []int32    // per job: index of its model in models
	models  []string
	xiCache [][]float64 // xiCache[a][b]: ξ of model a beside model b; 0 = not yet known
	gone    []bool      // per job: finished

	base     []float64 // Preempt: per job, its queue key when it arrived
	stopping []bool    // Preempt: per job, scratch of couldMakeRoom
}

type queued struct {
	key  float64
	id   workload.JobID
	gpus int32 // its GPU count, at hand for idle
}

func (a queued) before(b queued) bool {
	if a.key != b.key {
		return a.key < b.key
	}
	return a.id < b.id // IDs follow arrival order
}

// Options implements engine.Policy.
func (sc *scheduler) Options() engine.Options {
	return engine.Options{MaxJobsPerGPU: max(sc.p.MaxJobsPerGPU, 1), Subscribe: engine.Mask(engine.Arrival, engine.Completion)}
}

// Decide implements engine.Policy: at every arrival and completion, walk
// the pending jobs shortest first and start every one that can start.
func (sc *scheduler) Decide(s *engine.State, triggers []engine.Trigger) error {
	if sc.place == nil {
		p, err := policy.PlacementByName(sc.p.Placement)
		if err != nil {
			return err
		}
		sc.place = p
		sc.gone = make([]bool, s.NumJobs())
		if sc.p.Preempt {
			sc.base = make([]float64, s.NumJobs())
		}
	}
	completed := false
	for _, t := range triggers {
		switch t.Kind {
		case engine.Arrival:
			k := sc.key(s, t.Job)
			if sc.p.Preempt {
				sc.base[t.Job] = k
			}
			sc.push(queued{k, t.Job, int32(s.Job(t.Job).GPUs)})
		case engine.Completion:
			completed = true
			sc.gone[t.Job] = true
		}
	}
	if completed && sc.p.RestoreFullBatch {
		if err := sc.restoreBatches(s); err != nil {
			return err
		}
	}
	if sc.p.Preempt {
		return sc.decidePreemptive(s)
	}
	sc.scanGPUs(s)
	keep := sc.queue[:0]
	for _, q := range sc.queue {
		started := false
		if len(sc.free)+len(sc.shareable) > 0 && (sc.tryAll || !sc.idle(s, q)) {
			var err error
			if started, err = sc.try(s, q.id); err != nil {
				return err
			}
		}
		if started {
			sc.branch.started(q.id)
		} else {
			keep = append(keep, q)
		}
	}
	sc.queue = keep
	return nil
}

// idle reports that trying job id now would do nothing: it cannot start
// alone and the sharing branch would not place it. The checks are the
// ones try makes, on counts only, so a long queue of jobs waiting for the
// same GPUs costs a few comparisons each per pass.
func (sc *scheduler) idle(s *engine.State, q queued) bool {
	g, free, id := int(q.gpus), len(sc.free), q.id
	switch {
	case g <= free: // it may start alone (counts of its type are at most these)
		return false
	case sc.p.MaxJobsPerGPU < 2 || g > free+len(sc.shareable):
		return true
	}
	return sc.branch.idle(sc, s, id)
}

// key is the job's place in the queue: its L_k (spec 000 A9).
func (sc *scheduler) key(s *engine.State, id workload.JobID) float64 {
	var k float64
	switch sc.p.Key {
	case "gpus":
		k = float64(s.Job(id).GPUs)
	case "gpu_time":
		k = float64(s.Job(id).GPUs) * policy.SoloDuration(s, id)
	default:
		k = policy.SoloDuration(s, id)
	}
	if sc.p.KeyNoiseSigma > 0 {
		k *= detmath.Exp(sc.p.KeyNoiseSigma * detmath.NormVariate(s.Rand()))
	}
	return k
}

func (sc *scheduler) push(q queued) {
	i := sort.Search(len(sc.queue), func(i int) bool { return q.before(sc.queue[i]) })
	sc.queue = append(sc.queue, queued{})
	copy(sc.queue[i+1:], sc.queue[i:])
	sc.queue[i] = q
}

// scanGPUs lists the free GPUs and those that hold at least one job but
// fewer than C (with C = 2: exactly one, the paper's "One").
func (sc *scheduler) scanGPUs(s *engine.State) {
	sc.version++
	sc.free, sc.shareable = sc.free[:0], sc.shareable[:0]
	limit := max(sc.p.MaxJobsPerGPU, 1)
	for g := range s.Cluster().NumGPUs() {
		switch n := s.NumJobsOn(cluster.GPUID(g)); {
		case n == 0:
			sc.free = append(sc.free, cluster.GPUID(g))
		case n < limit:
			sc.shareable = append(sc.shareable, cluster.GPUID(g))
		}
	}
}

// try starts job id if it can start now: alone on free GPUs if enough are
// free, otherwise through the sharing branch.
func (sc *scheduler) try(s *engine.State, id workload.JobID) (bool, error) {
	job := s.Job(id)
	if nFree := countOfType(s, sc.free, job.GPUType); nFree >= job.GPUs {
		req := policy.RequestFor(s, id)
		gpus := sc.place.Pick(req)
		if gpus != nil {
			if err := s.Start(id, gpus, sc.startOptions(s, id)); err != nil {
				return false, err
			}
			s.Log(id, "%s: started %s alone on %s (solo %s)", sc.title, job.Name, describe(s, gpus), fmtS(policy.SoloDuration(s, id)))
			sc.scanGPUs(s)
			return true, nil
		}
		started, err := sc.trySharing(s, id)
		if !started && err == nil {
			sc.waits.Note(s, id, sc.title, func() string { return sc.place.WhyNot(req) + "; nor can it share GPUs now" })
		}
		return started, err
	}
	return sc.trySharing(s, id)
}

// trySharing starts job id through the sharing branch if it can start
// there now. The branch looks at one GPU type at a time, each type the
// job may run on (the placements' GPU-type filter), and a start must pass
// the rate filter (policy.RunsThere): with a model of measured pair
// throughputs, a job that shares only some of its GPUs, or with a partner
// the table has no pair rate for, would not progress.
func (sc *scheduler) trySharing(s *engine.State, id workload.JobID) (bool, error) {
	job := s.Job(id)
	if sc.p.MaxJobsPerGPU < 2 || countOfType(s, sc.free, job.GPUType)+countOfType(s, sc.shareable, job.GPUType) < job.GPUs {
		return false, nil
	}
	for _, t := range policy.RequestFor(s, id).Types() {
		if countOfType(s, sc.free, t)+countOfType(s, sc.shareable, t) < job.GPUs {
			continue
		}
		gpus, sub := sc.branch.place(sc, s, id, t)
		if gpus == nil {
			continue
		}
		if sub >= job.BatchSize {
			sub = 0
		}
		if ok, why := policy.RunsThere(s, id, gpus, sub); !ok {
			s.Log(id, "%s: %s cannot start on %s: %s", sc.title, job.Name, describe(s, gpus), why)
			continue
		}
		o := sc.startOptions(s, id)
		o.SubBatch = sub
		if err := s.Start(id, gpus, o); err != nil {
			if _, refused := err.(*engine.ActionError); refused {
				s.Log(id, "%s: %s cannot start on %s: %v", sc.title, job.Name, describe(s, gpus), err)
				return false, nil
			}
			return false, err
		}
		s.Log(id, "%s: started %s on %s%s", sc.title, job.Name, describeShared(s, id, gpus), describeSub(job.BatchSize, sub))
		sc.scanGPUs(s)
		return true, nil
	}
	return false, nil
}

// restoreBatches gives a job that shrank its batch its full batch back
// once it is alone on all its GPUs (knob restore_full_batch).
func (sc *scheduler) restoreBatches(s *engine.State) error {
	var ids []workload.JobID
	s.EachRunning(func(id workload.JobID) bool {
		info := s.Info(id)
		if info.SubBatch <= 0 || info.SubBatch >= s.Job(id).BatchSize {
			return true
		}
		for _, g := range info.GPUs {
			if s.NumJobsOn(g) > 1 {
				return true
			}
		}
		ids = append(ids, id)
		return true
	})
	for _, id := range ids {
		gpus := append([]cluster.GPUID(nil), s.GPUsOf(id)...)
		if err := s.Migrate(id, gpus, engine.ActionOptions{SubBatch: s.Job(id).BatchSize, NoOverhead: true}); err != nil {
			return err
		}
		s.Log(id, "%s: %s is alone again and goes back to its full batch of %d", sc.title, s.Job(id).Name, s.Job(id).BatchSize)
	}
	return nil
}

func countOfType(s *engine.State, gpus []cluster.GPUID, t string) int {
	if t == "" {
		return len(gpus)
	}
	return gpusOfType(s.Cluster(), gpus, t)
}

// gpusOfType counts the GPUs of type t in gpus. A cluster of one type
// answers without looking at them: the queue's walk asks for every
// waiting job.
func gpusOfType(c *cluster.Cluster, gpus []cluster.GPUID, t string) int {
	if ts := c.Types(); len(ts) == 1 {
		if t == ts[0] {
			return len(gpus)
		}
		return 0
	}
	n := 0
	for _, g := range gpus {
		if c.GPUs[g].Type == t {
			n++
		}
	}
	return n
}

// options lists the sub-batches job id may share with (all of Algorithm
// 2's, or only its full batch when batch scaling is off), with its solo
// time and memory at each on a consolidated placement (A14). They do not
// change during the job's life, so they are computed once.
func (sc *scheduler) options(s *engine.State, id workload.JobID) []Option {
	if sc.opts == nil {
		sc.opts = make([][]Option, s.NumJobs())
	}
	if o := sc.opts[id]; o != nil {
		return o
	}
	job := s.Job(id)
	subs := []int{job.BatchSize}
	if sc.p.BatchScaling && job.BatchSize > 1 {
		subs = SubBatches(job.BatchSize)
	}
	gpus := perf.ConsolidatedGPUs(s.Cluster(), job.GPUs, job.GPUType)
	out := make([]Option, 0, len(subs))
	for _, b := range subs {
		ln := math.Inf(1)
		if r := perf.SoloRateAt(s.Perf(), s.Cluster(), job, gpus, b); r > 0 {
			ln = job.Iterations / r
		}
		out = append(out, Option{SubBatch: b, LNShare: ln, MemoryGB: s.MemoryGB(id, b)})
	}
	sc.opts[id] = out
	return out
}

// xi is ξ(a|b) under the believed model, looked up once per pair of
// models: every interference model keys on the models of the pair.
func (sc *scheduler) xi(s *engine.State, a, b workload.JobID) float64 {
	ia, ib := sc.modelIndex(s, a), sc.modelIndex(s, b)
	if x := sc.xiCache[ia][ib]; x > 0 {
		return x
	}
	x := perf.PairSlowdown(s.Perf(), s.Job(a), s.Job(b))
	sc.xiCache[ia][ib] = x
	return x
}

func (sc *scheduler) modelIndex(s *engine.State, id workload.JobID) int32 {
	if sc.modelIx == nil {
		sc.modelIx = make([]int32, s.NumJobs())
		for i := range sc.modelIx {
			sc.modelIx[i] = -1
		}
	}
	if k := sc.modelIx[id]; k >= 0 {
		return k
	}
	name := s.Job(id).Model
	k := int32(len(sc.models))
	for i, m := range sc.models {
		if m == name {
			k = int32(i)
		}
	}
	if int(k) == len(sc.models) {
		sc.models = append(sc.models, name)
		for i := range sc.xiCache {
			sc.xiCache[i] = append(sc.xiCache[i], 0)
		}
		sc.xiCache = append(sc.xiCache, make([]float64, len(sc.models)))
	}
	sc.modelIx[id] = k
	return k
}

// freeTopUp picks n free GPUs of type t, first on the servers listed in
// prefer (where the job already has GPUs), then from the servers with the
// most free GPUs; nil if there are not enough.
func freeTopUp(s *engine.State, free []cluster.GPUID, n int, t string, prefer []cluster.GPUID) []cluster.GPUID {
	if n <= 0 {
		return nil
	}
	c := s.Cluster()
	var out []cluster.GPUID
	taken := func(g cluster.GPUID) bool {
		for _, h := range out {
			if h == g {
				return true
			}
		}
		return false
	}
	for _, p := range prefer {
		srv := c.GPUs[p].Server
		for _, g := range free {
			if len(out) < n && c.GPUs[g].Server == srv && !taken(g) && (t == "" || c.GPUs[g].Type == t) {
				out = append(out, g)
			}
		}
	}
	for _, g := range policy.ConsolidatedOrder(c, free) {
		if len(out) < n && !taken(g) && (t == "" || c.GPUs[g].Type == t) {
			out = append(out, g)
		}
	}
	if len(out) < n {
		return nil
	}
	return out
}
