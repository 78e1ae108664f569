package plan

import (
	"math"
	"math/rand/v2"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

// Entity is one owner of jobs in hierarchical fairness (spec 001 §2.9).
type Entity struct {
	Name   string  `json:"name" help:"the value of the jobs' entity field"`
	Weight float64 `json:"weight" min:"0.000001" help:"the entity's share relative to the others"`
	Policy string  `json:"policy,omitempty" enum:",fairness,fifo" help:"how the entity divides its share among its jobs: fairness (by job weight) or fifo (oldest unfinished job first)"`
}

// Allocator computes an allocation for the active jobs.
type Allocator interface {
	Allocate(in *Input) (*Allocation, error)
}

// Job is an active job as an allocator sees it.
type Job struct {
	ID      workload.JobID
	Job     *workload.Job
	SF      int       // scale factor: the GPUs it asks for
	Weight  float64   // its weight in fairness policies
	Thr     []float64 // throughput per GPU type (iterations/s), 0 where it cannot run
	Rem     float64   // iterations left
	Elapsed float64   // seconds since arrival
	IsoTime float64   // time it would have run so far with an isolated share (FTF)
	Waited  float64   // seconds since arrival holding no GPUs
}

// Input is what an allocator plans over.
type Input struct {
	Now   float64
	Types []string  // GPU types, in cluster order
	Count []float64 // GPUs of each type
	Jobs  []Job     // in arrival order
	// Active is how many jobs are active, also those a bound on the
	// waiting jobs (max_waiting) leaves out of Jobs; 0 means len(Jobs).
	// Shares of the cluster that count every active job (an isolated
	// share, 1/M of each type) use it.
	Active int
	Rand   *rand.Rand
	Oracle
}

// Oracle answers throughput questions about jobs on GPU types. It reads
// Gavel's table only when the model is that table itself: it does not look
// through wrappers with perf.As, because a wrapper's factors (a scenario's
// perf.interference) change pair rates that the table does not know; the
// rate queries it falls back on include them.
type Oracle struct {
	Model   perf.Model
	Cluster *cluster.Cluster
}

// Solo is job j's throughput on its scale factor's GPUs of type t.
func (o Oracle) Solo(j *workload.Job, t string) float64 {
	if th, ok := o.Model.(perf.Throughputs); ok {
		return th.SoloThroughput(j, t)
	}
	// Any other model: its rate on the first GPUs of that type.
	var gpus []cluster.GPUID
	for _, g := range o.Cluster.GPUs {
		if g.Type == t && len(gpus) < j.GPUs {
			gpus = append(gpus, g.ID)
		}
	}
	if len(gpus) < j.GPUs {
		return 0
	}
	return perf.SoloRate(o.Model, o.Cluster, j, gpus)
}

// Pair is the throughputs of a and b sharing GPUs of type t.
func (o Oracle) Pair(a, b *workload.Job, t string) (float64, float64) {
	if th, ok := o.Model.(perf.Throughputs); ok {
		return th.PairThroughput(a, b, t)
	}
	// Any other model: their rates sharing the first GPUs of that type, so
	// that a model with a pairwise interference table can be packed too.
	if a.GPUs != b.GPUs {
		return 0, 0
	}
	// Both must fit the GPU's memory together.
	need := perf.JobMemoryGB(o.Model, a, 0) + perf.JobMemoryGB(o.Model, b, 0)
	var gpus []cluster.GPUID
	for _, g := range o.Cluster.GPUs {
		if g.Type == t && len(gpus) < a.GPUs {
			if g.MemoryGB > 0 && need > g.MemoryGB {
				return 0, 0
			}
			gpus = append(gpus, g.ID)
		}
	}
	if len(gpus) < a.GPUs {
		return 0, 0
	}
	return perf.PairRates(o.Model, o.Cluster, a, b, gpus)
}

// ActiveJobs is the number of active jobs, those in Jobs and any a bound
// on the waiting jobs left out.
func (in *Input) ActiveJobs() int {
	return max(in.Active, len(in.Jobs))
}

func (in *Input) TotalGPUs() float64 {
	s := 0.0
	for _, n := range in.Count {
		s += n
	}
	return s
}

// ThrEqual is a job's throughput under X^equal: an equal time share on
// every device, Σ_j T_j·n_j / Σ_j n_j (spec 001 §1.8).
func (in *Input) ThrEqual(thr []float64) float64 {
	s := 0.0
	for j, t := range thr {
		s += t * in.Count[j]
	}
	return s / in.TotalGPUs()
}

// IsoRow is X^isolated of a job among m active jobs: (n_j/m)/sf on each
// type, scaled down so the row sums to at most 1, only where it can run.
func (in *Input) IsoRow(p *Job, m int) []float64 {
	x := make([]float64, len(in.Types))
	sum := 0.0
	for j := range x {
		if p.Thr[j] > 0 {
			x[j] = in.Count[j] / float64(m) / float64(p.SF)
			sum += x[j]
		}
	}
	if sum > 1 {
		for j := range x {
			x[j] /= sum
		}
	}
	return x
}

func Dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func Best(thr []float64) float64 {
	b := 0.0
	for _, t := range thr {
		b = math.Max(b, t)
	}
	return b
}

// Combo is one row of an allocation: a job alone (B = -1) or a pair
// sharing GPUs, with its time fraction on each GPU type. A and B index
// Input.Jobs.
type Combo struct {
	A, B int
	X    []float64
}

// Allocation is a policy's answer.
type Allocation struct {
	Combos    []Combo
	Objective float64
	Why       string // one line for the decision log
}

// PerJob sums each job's time fractions per type over its combos.
func (al *Allocation) PerJob(n, types int) [][]float64 {
	out := make([][]float64, n)
	for i := range out {
		out[i] = make([]float64, types)
	}
	for _, c := range al.Combos {
		for j, v := range c.X {
			out[c.A][j] += v
			if c.B >= 0 {
				out[c.B][j] += v
			}
		}
	}
	return out
}

// Effective is each job's effective throughput under the allocation, with
// the given per-type throughputs and pair throughputs.
func (in *Input) Effective(al *Allocation, thr func(i int) []float64) []float64 {
	return in.EffectiveInto(nil, al, thr)
}

// EffectiveInto is Effective written into out's storage (when it has
// room), for a caller that computes it at every recompute and reads it
// before the next.
func (in *Input) EffectiveInto(out []float64, al *Allocation, thr func(i int) []float64) []float64 {
	if cap(out) < len(in.Jobs) {
		out = make([]float64, len(in.Jobs))
	} else {
		out = out[:len(in.Jobs)]
		clear(out)
	}
	for _, c := range al.Combos {
		for j, v := range c.X {
			if v == 0 {
				continue
			}
			if c.B < 0 {
				out[c.A] += v * thr(c.A)[j]
				continue
			}
			ta, tb := in.Pair(in.Jobs[c.A].Job, in.Jobs[c.B].Job, in.Types[j])
			out[c.A] += v * ta
			out[c.B] += v * tb
		}
	}
	return out
}

// Singles turns per-job rows into an allocation of single jobs, the rows
// whose sum is positive, in order. It counts them first: appending to a
// growing list copied it at every doubling, and an agnostic policy's
// recomputes each make one of hundreds of rows.
func Singles(rows [][]float64) []Combo {
	n := 0
	for _, r := range rows {
		if Sum(r) > 0 {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]Combo, 0, n)
	for i, r := range rows {
		if Sum(r) > 0 {
			out = append(out, Combo{A: i, B: -1, X: r})
		}
	}
	return out
}

func Sum(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}
