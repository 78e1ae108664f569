package perf

import (
	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/workload"
)

// PairRates are the rates of jobs a and b under m when both hold the same
// gpus and nothing else runs: what a placement that packs them would get.
// The jobs are renumbered inside, so a job may be paired with a copy of
// itself. Either rate is 0 where the model says the pair cannot run.
func PairRates(m Model, c *cluster.Cluster, a, b *workload.Job, gpus []cluster.GPUID) (ra, rb float64) {
	ps := &pairState{c: c, jobs: [2]workload.Job{*a, *b}, gpus: gpus}
	ps.jobs[0].ID, ps.jobs[1].ID = 0, 1
	return m.Rate(ps, 0), m.Rate(ps, 1)
}

// pairState is a State in which two jobs share the same GPUs and nothing
// else runs.
type pairState struct {
	c    *cluster.Cluster
	jobs [2]workload.Job
	gpus []cluster.GPUID
}

func (p *pairState) Cluster() *cluster.Cluster { return p.c }

func (p *pairState) Job(id workload.JobID) *workload.Job {
	if id == 0 || id == 1 {
		return &p.jobs[id]
	}
	return nil
}

func (p *pairState) Placement(id workload.JobID) Placement {
	if id == 0 || id == 1 {
		return Placement{GPUs: p.gpus}
	}
	return Placement{}
}

func (p *pairState) JobsOn(g cluster.GPUID) []workload.JobID {
	for _, x := range p.gpus {
		if x == g {
			return []workload.JobID{0, 1}
		}
	}
	return nil
}

// PairSlowdown implements PairModel for the memshare model: ξ(a|b) = 1 +
// the slowdown of a worker of a's type beside one of b's type (matrix
// cell plus expected collision penalty). When two jobs of equal size
// share all their GPUs, one worker of each per GPU, every worker of a
// suffers exactly this, so the spread term of a synchronous job is 0 and
// Rate gives a's solo rate over ξ. A model that does not know a job's
// type says 1 (no slowdown), as the other PairModels do for unknown
// models.
func (m *MemShare) PairSlowdown(a, b *workload.Job) float64 {
	ia, oka := m.index[a.Model]
	ib, okb := m.index[b.Model]
	if !oka || !okb {
		return 1
	}
	return 1 + m.WorkerSlowdown(ia, []int{ib})
}
