package gavel

import (
	"math"
	"math/rand/v2"
	"sort"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

// planJob is an active job as an allocator sees it.
type planJob struct {
	id      workload.JobID
	job     *workload.Job
	sf      int
	weight  float64
	thr     []float64 // throughput per GPU type (iterations/s), 0 where it cannot run
	rem     float64   // iterations left
	elapsed float64   // seconds since arrival
	isoTime float64   // time it would have run so far with an isolated share (FTF)
	waited  float64   // seconds since arrival holding no GPUs
}

// planInput is what an allocator plans over.
type planInput struct {
	now   float64
	types []string  // GPU types, in cluster order
	count []float64 // GPUs of each type
	jobs  []planJob // in arrival order
	rng   *rand.Rand
	oracle
}

// oracle answers throughput questions about jobs on GPU types.
type oracle struct {
	model perf.Model
	c     *cluster.Cluster
}

// solo is job j's throughput on its scale factor's GPUs of type t.
func (o oracle) solo(j *workload.Job, t string) float64 {
	if th, ok := o.model.(perf.Throughputs); ok {
		return th.SoloThroughput(j, t)
	}
	// Any other model: its rate on the first GPUs of that type.
	var gpus []cluster.GPUID
	for _, g := range o.c.GPUs {
		if g.Type == t && len(gpus) < j.GPUs {
			gpus = append(gpus, g.ID)
		}
	}
	if len(gpus) < j.GPUs {
		return 0
	}
	return perf.SoloRate(o.model, o.c, j, gpus)
}

// pair is the throughputs of a and b sharing GPUs of type t.
func (o oracle) pair(a, b *workload.Job, t string) (float64, float64) {
	if th, ok := o.model.(perf.Throughputs); ok {
		return th.PairThroughput(a, b, t)
	}
	return 0, 0
}

func (in *planInput) totalGPUs() float64 {
	s := 0.0
	for _, n := range in.count {
		s += n
	}
	return s
}

// thrEqual is a job's throughput under X^equal: an equal time share on
// every device, Σ_j T_j·n_j / Σ_j n_j (spec 001 §1.8).
func (in *planInput) thrEqual(thr []float64) float64 {
	s := 0.0
	for j, t := range thr {
		s += t * in.count[j]
	}
	return s / in.totalGPUs()
}

// isoRow is X^isolated of a job among m active jobs: (n_j/m)/sf on each
// type, scaled down so the row sums to at most 1, only where it can run.
func (in *planInput) isoRow(p *planJob, m int) []float64 {
	x := make([]float64, len(in.types))
	sum := 0.0
	for j := range x {
		if p.thr[j] > 0 {
			x[j] = in.count[j] / float64(m) / float64(p.sf)
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

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func best(thr []float64) float64 {
	b := 0.0
	for _, t := range thr {
		b = math.Max(b, t)
	}
	return b
}

// combo is one row of an allocation: a job alone (b = -1) or a pair
// sharing GPUs, with its time fraction on each GPU type. a and b index
// planInput.jobs.
type combo struct {
	a, b int
	x    []float64
}

// allocation is a policy's answer.
type allocation struct {
	combos    []combo
	objective float64
	why       string // one line for the decision log
}

// perJob sums each job's time fractions per type over its combos.
func (al *allocation) perJob(n, types int) [][]float64 {
	out := make([][]float64, n)
	for i := range out {
		out[i] = make([]float64, types)
	}
	for _, c := range al.combos {
		for j, v := range c.x {
			out[c.a][j] += v
			if c.b >= 0 {
				out[c.b][j] += v
			}
		}
	}
	return out
}

// effective is each job's effective throughput under the allocation, with
// the given per-type throughputs and pair throughputs.
func (in *planInput) effective(al *allocation, thr func(i int) []float64) []float64 {
	out := make([]float64, len(in.jobs))
	for _, c := range al.combos {
		for j, v := range c.x {
			if v == 0 {
				continue
			}
			if c.b < 0 {
				out[c.a] += v * thr(c.a)[j]
				continue
			}
			ta, tb := in.pair(in.jobs[c.a].job, in.jobs[c.b].job, in.types[j])
			out[c.a] += v * ta
			out[c.b] += v * tb
		}
	}
	return out
}

// singles turns per-job rows into an allocation of single jobs.
func singles(rows [][]float64) []combo {
	var out []combo
	for i, r := range rows {
		if sum(r) > 0 {
			out = append(out, combo{a: i, b: -1, x: r})
		}
	}
	return out
}

func sum(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}

// typeOrder is the reference's fixed visiting order: V100, P100, K80,
// i.e. type names in descending order.
func typeOrder(types []string) []int {
	idx := make([]int, len(types))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return types[idx[a]] > types[idx[b]] })
	return idx
}
