package perf

import (
	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/perf/gaveltable"
	"github.com/schedlab/schedlab/sim/workload"
)

// Binder is implemented by models that answer rate queries faster with
// tables built for one run's cluster and jobs. Bind returns a model that
// gives exactly the receiver's answers and implements the same interfaces;
// it may keep mutable caches, so it serves one run (one goroutine) only,
// while the receiver stays read-only (runs in parallel share it).
type Binder interface {
	Bind(c *cluster.Cluster, jobs []workload.Job) Model
}

// Bind returns m bound to one run's cluster and jobs (see Binder) when it
// is a Binder; otherwise m. A wrapper binds by rebuilding itself around its
// bound base (Composite), never by handing out its base: As is not for
// this.
func Bind(m Model, c *cluster.Cluster, jobs []workload.Job) Model {
	if b, ok := m.(Binder); ok {
		return b.Bind(c, jobs)
	}
	return m
}

// Bind implements Binder: the composite around its bound base, or c itself
// when the base does not bind.
func (c *Composite) Bind(cl *cluster.Cluster, jobs []workload.Job) Model {
	base := Bind(c.Base, cl, jobs)
	if base == c.Base {
		return c
	}
	return &Composite{Base: base, Factors: c.Factors}
}

// jobCounter is implemented by states that count the jobs on a GPU
// without listing them (the engine's); NumJobsOn(g) is len(JobsOn(g)).
type jobCounter interface {
	NumJobsOn(g cluster.GPUID) int
}

// rateViewer is implemented by states that answer in one call what a
// bound rate query reads of them (the engine's): a query is made for
// every job whose placement or neighbours changed, thousands a round in
// Gavel's studies, and the calls it replaces (Cluster, Job, Placement and
// NumJobsOn per GPU, each through an interface) cost as much as the
// table lookup.
type rateViewer interface {
	// RateView returns Cluster(), Job(id), Placement(id).GPUs and whether
	// every one of those GPUs holds one job (NumJobsOn(g) == 1).
	RateView(id workload.JobID) (c *cluster.Cluster, j *workload.Job, gpus []cluster.GPUID, alone bool)
}

// boundThroughput is the Throughput model for one run: each job's table
// row at its own scale factor, found by model name once and then read by
// job id, and each GPU's type as an index, so that a rate query compares
// no strings. A query about another cluster or other jobs (a what-if
// state) goes to the model itself.
type boundThroughput struct {
	*Throughput
	c    *cluster.Cluster
	jobs []workload.Job
	rows []int32 // by job: 1 + Row(job, job.GPUs), 0 until first asked
	kind []int16 // by GPU: its type's index in c.Types()
	cols []int   // by type index: the table's column, -1 if none
}

// Bind implements Binder.
func (m *Throughput) Bind(c *cluster.Cluster, jobs []workload.Job) Model {
	b := &boundThroughput{Throughput: m, c: c, jobs: jobs, rows: make([]int32, len(jobs)),
		kind: make([]int16, len(c.GPUs)), cols: make([]int, len(c.Types()))}
	at := make(map[string]int, len(c.Types()))
	for i, t := range c.Types() {
		at[t] = i
		b.cols[i] = m.t.GPUIndex(t)
	}
	for g := range c.GPUs {
		b.kind[g] = int16(at[c.GPUs[g].Type])
	}
	return b
}

// RateByPlacement implements PlacementRated: a table's rate depends on
// the job, its GPUs' type and servers and its partner on them alone (the
// rows it keeps are found once, the same every time).
func (b *boundThroughput) RateByPlacement() bool { return true }

// Unwrap implements Wrapper: the model the tables were built from, so that
// As[*Throughput] finds it in a bound run.
func (b *boundThroughput) Unwrap() Model { return b.Throughput }

// ours reports whether job id of state s is one of the bound run's jobs
// on the bound cluster, so that the tables built for them answer.
func (b *boundThroughput) ours(s State, id workload.JobID, j *workload.Job) bool {
	return b.mine(id, j) && s.Cluster() == b.c
}

// mine reports whether j is the record of the bound run's job id.
func (b *boundThroughput) mine(id workload.JobID, j *workload.Job) bool {
	return int(id) >= 0 && int(id) < len(b.jobs) && j == &b.jobs[id]
}

// row is Row(j, sf) for job id of the run.
func (b *boundThroughput) row(id workload.JobID, j *workload.Job, sf int) int {
	if sf != j.GPUs {
		return b.Throughput.Row(j, sf)
	}
	if r := b.rows[id]; r != 0 {
		return int(r - 1)
	}
	r := b.Throughput.Row(j, sf)
	b.rows[id] = int32(r + 1)
	return r
}

// jobRow is Row(j, j.GPUs), from the memo when j is one of the run's
// jobs (the same record, not a copy that may differ).
func (b *boundThroughput) jobRow(j *workload.Job) int {
	if id := j.ID; int(id) >= 0 && int(id) < len(b.jobs) && j == &b.jobs[id] {
		return b.row(id, j, j.GPUs)
	}
	return b.Throughput.Row(j, j.GPUs)
}

// col is the table's column of a GPU type, GPUIndex(gpuType): the
// bound cluster's types are compared exactly (the callers pass the
// cluster's own names), any other name goes to GPUIndex, which lowers it.
func (b *boundThroughput) col(gpuType string) int {
	for i, t := range b.c.Types() {
		if t == gpuType {
			return b.cols[i]
		}
	}
	return b.t.GPUIndex(gpuType)
}

// SoloThroughput implements Throughputs: Throughput.SoloThroughput with the
// row and column read from the tables. Gavel's allocators and mechanism
// ask it for every job and type at every recompute, and the model's own
// finds the row by model name in a map and the column by comparing names.
func (b *boundThroughput) SoloThroughput(j *workload.Job, gpuType string) float64 {
	return b.t.Solo(b.jobRow(j), b.col(gpuType), gaveltable.Consolidated)
}

// PairThroughput implements Throughputs: Throughput.PairThroughput with
// the rows and column read from the tables (Gandiva's and space
// sharing's pairs ask it for every candidate pair and type).
func (b *boundThroughput) PairThroughput(x, y *workload.Job, gpuType string) (float64, float64) {
	if x.GPUs != y.GPUs {
		return 0, 0
	}
	return b.t.Pair(b.jobRow(x), b.jobRow(y), b.col(gpuType), gaveltable.Consolidated)
}

// Rate implements Model: Throughput.Rate, step for step, with the row and
// column read from the tables.
func (b *boundThroughput) Rate(s State, id workload.JobID) float64 {
	var (
		j    *workload.Job
		gpus []cluster.GPUID
		solo bool // every GPU holds this job alone
	)
	if v, ok := s.(rateViewer); ok {
		var c *cluster.Cluster
		c, j, gpus, solo = v.RateView(id)
		if c != b.c || !b.mine(id, j) {
			return b.Throughput.Rate(s, id)
		}
	} else {
		j = s.Job(id)
		if !b.ours(s, id, j) {
			return b.Throughput.Rate(s, id)
		}
		gpus = s.Placement(id).GPUs
		if n, ok := s.(jobCounter); ok {
			solo = alone(n, gpus)
		}
	}
	if len(gpus) == 0 {
		return 0
	}
	k := b.kind[gpus[0]]
	for _, g := range gpus[1:] {
		if b.kind[g] != k {
			return 0
		}
	}
	place := gaveltable.Consolidated
	if b.servers && b.c.ServersSpanned(gpus) > 1 {
		place = gaveltable.Unconsolidated
	}
	row, col := b.row(id, j, len(gpus)), b.cols[k]
	if solo {
		return b.t.Solo(row, col, place)
	}
	partner, measured := pairPartner(s, id, gpus)
	switch {
	case !measured:
		return 0
	case partner < 0:
		return b.t.Solo(row, col, place)
	}
	pj := s.Job(partner)
	prow := 0
	if b.ours(s, partner, pj) {
		prow = b.row(partner, pj, len(gpus))
	} else {
		prow = b.Throughput.Row(pj, len(gpus))
	}
	own, _ := b.t.Pair(row, prow, col, place)
	return own
}

// alone reports whether each of gpus holds exactly one job: the job whose
// placement they are (a job holds every GPU of its placement), so it has
// no partner.
func alone(n jobCounter, gpus []cluster.GPUID) bool {
	for _, g := range gpus {
		if n.NumJobsOn(g) != 1 {
			return false
		}
	}
	return true
}
