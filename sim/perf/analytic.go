package perf

import (
	"fmt"
	"math"
	"strings"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/detmath"
	"github.com/schedlab/schedlab/sim/workload"
)

// Analytic is the iteration-time model of the SJF-BSBF paper (spec 000
// §1.2, §5.5): per-GPU compute linear in the (micro-)batch (Eq. 3), a ring
// all-reduce whose bandwidth depends on whether the workers share a server
// (Eq. 4), compute and communication overlapped with exponent δ and
// gradient accumulation over s micro-batches (Eq. 7), GPU memory linear in
// the sub-batch, and interference ratios ξ for jobs sharing a GPU.
//
// A job progresses at 1 / (t_iter · ξ) iterations per second, where ξ is
// the worst slowdown over its GPUs (the slowest worker sets the pace of a
// synchronous job, spec §1.5). Under a policy whose jobs adapt their batch
// (AdaptiveState, Pollux), a job instead makes progress at its best
// goodput for the GPUs it holds (see adaptiveRate).
//
// The model is immutable after New, so one instance may serve runs in
// parallel.
type Analytic struct {
	p       AnalyticParams
	c       *cluster.Cluster
	index   map[string]int
	xi      [][]float64        // xi[i][k]: slowdown of model i beside model k
	latency float64            // seconds
	speed   map[string]float64 // compute speed per GPU type (1 if absent)
	// batchSteps[k] = MaxBatchFactor^(k/steps): the total batches an
	// adaptive job tries, as multiples of its initial one.
	batchSteps []float64
}

// NewAnalytic builds the model for a cluster from checked parameters.
func NewAnalytic(p AnalyticParams, c *cluster.Cluster) (*Analytic, error) {
	if p.MemoryPreset == "spec_tight" {
		p.Models = TightMemoryTable(p.Models)
	}
	a := &Analytic{p: p, c: c, index: map[string]int{}, latency: p.LatencyUS * 1e-6, speed: map[string]float64{}}
	for _, ts := range p.ComputeSpeed {
		a.speed[ts.GPUType] = ts.Speed
	}
	for i, m := range p.Models {
		a.index[m.Model] = i
	}
	n := len(p.Models)
	a.xi = make([][]float64, n)
	for i := range a.xi {
		a.xi[i] = make([]float64, n)
		for k := range a.xi[i] {
			a.xi[i][k] = a.pairXi(i, k)
		}
	}
	steps := max(p.Adaptive.BatchSteps, 1)
	for k := 0; k <= steps; k++ {
		a.batchSteps = append(a.batchSteps, detmath.Pow(p.Adaptive.MaxBatchFactor, float64(k)/float64(steps)))
	}
	return a, nil
}

// pairXi is the slowdown of model i while one job of model k shares its GPU.
func (a *Analytic) pairXi(i, k int) float64 {
	x := &a.p.Xi
	switch x.Model {
	case "none":
		return 1
	case "uniform":
		return x.Uniform
	case "matrix":
		ri, ok1 := indexOf(x.Models, a.p.Models[i].Model)
		rk, ok2 := indexOf(x.Models, a.p.Models[k].Model)
		if !ok1 || !ok2 {
			return 1
		}
		return x.Matrix[ri][rk]
	}
	return TimeShareXi(a.p.Models[i].Intensity, a.p.Models[k].Intensity, 1, x.Epsilon)
}

// TimeShareXi is the GPU time-share interference model of spec 000 §5.5,
// generalised to n co-runners: a job of GPU intensity u beside partners of
// total intensity others gets the share σ = min(u, max(1/(n+1), 1 −
// others)) of the GPU and slows down by (1 + ε·n) · max(1, u/σ). With one
// partner (n = 1) this is the spec's (1 + ε) · max(1, u_j/σ_j), σ_j =
// min(u_j, max(0.5, 1 − u_p)).
func TimeShareXi(u, others float64, n int, eps float64) float64 {
	if n <= 0 {
		return 1
	}
	sigma := min(u, max(1/float64(n+1), 1-others))
	x := 1.0
	if sigma > 0 && u > sigma {
		x = u / sigma
	}
	return (1 + eps*float64(n)) * x
}

func indexOf(list []string, s string) (int, bool) {
	for i, x := range list {
		if x == s {
			return i, true
		}
	}
	return -1, false
}

// Profile returns the table row of a model.
func (a *Analytic) Profile(model string) (ModelProfile, bool) {
	i, ok := a.index[model]
	if !ok {
		return ModelProfile{}, false
	}
	return a.p.Models[i], true
}

// Params returns the parameters the model was built with.
func (a *Analytic) Params() AnalyticParams { return a.p }

// CompTime is Eq. 3: the compute time of one (micro-)batch of b samples.
func (m *ModelProfile) CompTime(b float64) float64 { return m.AlphaCompS + m.BetaCompS*b }

// MemoryAt is the GPU memory a worker holds at sub-batch b: m0 + m1·b.
func (m *ModelProfile) MemoryAt(b float64) float64 { return m.MemBaseGB + m.MemPerSampleGB*b }

// Overlap combines compute and communication time with exponent δ:
// (comp^δ + comm^δ)^(1/δ); δ = 1 adds them, large δ approaches the max.
func Overlap(comp, comm, delta float64) float64 {
	switch {
	case comm <= 0:
		return comp
	case comp <= 0:
		return comm
	case delta == 1:
		return comp + comm
	case delta == 2:
		return math.Sqrt(comp*comp + comm*comm) // exactly rounded everywhere
	}
	hi := max(comp, comm) // scale to keep the powers in range
	return hi * detmath.Pow(detmath.Pow(comp/hi, delta)+detmath.Pow(comm/hi, delta), 1/delta)
}

// IterTime is Eq. 7: one iteration of a per-GPU batch B run as s
// micro-batches of B/s samples; the first s−1 only compute, the last
// overlaps its compute with the all-reduce.
func IterTime(m *ModelProfile, batch float64, s int, comm, delta float64) float64 {
	return IterTimeAt(m, batch, s, comm, delta, 1)
}

// IterTimeAt is IterTime on a GPU that computes speed times faster than
// the one α and β were fitted on: compute time divides by speed, the
// all-reduce does not.
func IterTimeAt(m *ModelProfile, batch float64, s int, comm, delta, speed float64) float64 {
	s = max(s, 1)
	comp := m.CompTime(batch/float64(s)) / speed
	return float64(s-1)*comp + Overlap(comp, comm, delta)
}

// ComputeSpeed is the compute speed of a gang on gpus: its slowest GPU's,
// since the slowest worker sets the pace of synchronous training.
func (a *Analytic) ComputeSpeed(gpus []cluster.GPUID) float64 {
	speed := 0.0
	for _, g := range gpus {
		f, ok := a.speed[a.c.GPUs[g].Type]
		if !ok {
			f = 1
		}
		if speed == 0 || f < speed {
			speed = f
		}
	}
	if speed == 0 {
		return 1
	}
	return speed
}

// RingAllReduceS is the time of a ring all-reduce of gradMB megabytes over
// g workers at bwGBps with a per-step latency: 2(g−1)·λ + 2(g−1)/g · M/BW,
// and 0 for a single worker (spec 000 §5.5).
func RingAllReduceS(g int, gradMB, bwGBps, latencyS float64) float64 {
	if g <= 1 || bwGBps <= 0 {
		return 0
	}
	steps := float64(2 * (g - 1))
	return steps*latencyS + steps/float64(g)*(gradMB/1000)/bwGBps
}

// Accumulation is the number of micro-batches s = ceil(B/b) a per-GPU
// batch B takes at sub-batch b (0 or b ≥ B means none).
func Accumulation(batch, subBatch int) int {
	if subBatch <= 0 || subBatch >= batch {
		return 1
	}
	return (batch + subBatch - 1) / subBatch
}

// bandwidth is the ring bandwidth over gpus, with the parameters'
// overrides of the cluster's links.
func (a *Analytic) bandwidth(gpus []cluster.GPUID) float64 {
	bw := a.c.RingBandwidthGBps(gpus)
	if len(gpus) < 2 {
		return bw
	}
	if a.c.ServersSpanned(gpus) == 1 {
		if a.p.IntraServerGBps > 0 {
			return a.p.IntraServerGBps
		}
	} else if a.p.InterServerGBps > 0 {
		return a.p.InterServerGBps
	}
	return bw
}

// CommTime is the all-reduce time of a job of this model on gpus.
func (a *Analytic) CommTime(m *ModelProfile, gpus []cluster.GPUID) float64 {
	return RingAllReduceS(len(gpus), m.GradientMB, a.bandwidth(gpus), a.latency)
}

func (a *Analytic) batchOf(j *workload.Job, m *ModelProfile) int {
	if j.BatchSize > 0 {
		return j.BatchSize
	}
	return m.BatchSize
}

// SoloIterTime is the iteration time of job j alone on gpus at sub-batch
// sub (0 for its full batch), or 0 if its model is not in the table.
func (a *Analytic) SoloIterTime(j *workload.Job, gpus []cluster.GPUID, sub int) float64 {
	i, ok := a.index[j.Model]
	if !ok || len(gpus) == 0 {
		return 0
	}
	m := &a.p.Models[i]
	b := a.batchOf(j, m)
	return IterTimeAt(m, float64(b), Accumulation(b, sub), a.CommTime(m, gpus), a.p.Delta, a.ComputeSpeed(gpus))
}

// Rate implements Model.
func (a *Analytic) Rate(s State, id workload.JobID) float64 {
	j := s.Job(id)
	pl := s.Placement(id)
	i, ok := a.index[j.Model]
	if !ok || len(pl.GPUs) == 0 {
		return 0
	}
	m := &a.p.Models[i]
	var rate float64
	if ad, ok := s.(AdaptiveState); ok && ad.AdaptiveBatch() {
		rate = a.adaptiveRate(j, m, pl.GPUs)
	} else {
		b := a.batchOf(j, m)
		rate = 1 / IterTimeAt(m, float64(b), Accumulation(b, pl.SubBatch), a.CommTime(m, pl.GPUs), a.p.Delta, a.ComputeSpeed(pl.GPUs))
	}
	return rate / a.slowdown(s, id, i, pl.GPUs)
}

// slowdown is the worst interference over the job's GPUs. On a GPU with
// one partner it is the pair ratio; with more, the time-share model counts
// them all, and the uniform and matrix models take the worst partner.
func (a *Analytic) slowdown(s State, id workload.JobID, me int, gpus []cluster.GPUID) float64 {
	worst := 1.0
	for _, g := range gpus {
		residents := s.JobsOn(g)
		if len(residents) < 2 {
			continue
		}
		var x float64
		if a.p.Xi.Model == "time_share" && len(residents) > 2 {
			others, n := 0.0, 0
			for _, p := range residents {
				if p == id {
					continue
				}
				if k, ok := a.index[s.Job(p).Model]; ok {
					others += a.p.Models[k].Intensity
				}
				n++
			}
			x = TimeShareXi(a.p.Models[me].Intensity, others, n, a.p.Xi.Epsilon)
		} else {
			x = 1
			for _, p := range residents {
				if p == id {
					continue
				}
				if k, ok := a.index[s.Job(p).Model]; ok {
					x = max(x, a.xi[me][k])
				}
			}
		}
		worst = max(worst, x)
	}
	return worst
}

// PairSlowdown implements PairModel: ξ(a|b), the slowdown of job a while
// job b shares its GPUs.
func (a *Analytic) PairSlowdown(x, y *workload.Job) float64 {
	i, ok1 := a.index[x.Model]
	k, ok2 := a.index[y.Model]
	if !ok1 || !ok2 {
		return 1
	}
	return a.xi[i][k]
}

// MemoryGB implements MemoryModel: m0 + m1·b at sub-batch b (0 for the
// job's batch size); jobs of models outside the table hold their memory_gb.
func (a *Analytic) MemoryGB(j *workload.Job, subBatch int) float64 {
	i, ok := a.index[j.Model]
	if !ok {
		return j.MemoryGB
	}
	m := &a.p.Models[i]
	b := a.batchOf(j, m)
	if subBatch > 0 && subBatch < b {
		b = subBatch
	}
	return m.MemoryAt(float64(b))
}

// Coupling implements Model: a job's rate depends on who shares its GPUs.
func (a *Analytic) Coupling() Coupling { return SharedGPU }

// Prepare fills each job's batch size from the table when it has none,
// turns a solo duration into iterations on a consolidated placement
// (spec 000 §5.4 step 5: I = round(D / t_iter(B, s=1; G))) and a number of
// iterations into a solo duration.
func (a *Analytic) Prepare(c *cluster.Cluster, jobs []workload.Job) error {
	for k := range jobs {
		j := &jobs[k]
		i, ok := a.index[j.Model]
		if !ok {
			return fmt.Errorf("job %s: model %q is not in the analytic model's table (known: %s)", j.Name, j.Model, strings.Join(a.modelNames(), ", "))
		}
		m := &a.p.Models[i]
		if j.BatchSize == 0 {
			j.BatchSize = m.BatchSize
		}
		gpus := ConsolidatedGPUs(c, j.GPUs, j.GPUType)
		if gpus == nil {
			// The job can never run here and the engine reports it as
			// unschedulable, but it must still have work to be a job at all.
			if !(j.Iterations > 0) {
				j.Iterations = 1
			}
			continue
		}
		t := a.SoloIterTime(j, gpus, 0)
		switch {
		case j.Iterations > 0:
			if j.DurationS == 0 {
				j.DurationS = j.Iterations * t
			}
		case j.DurationS > 0:
			j.Iterations = max(1, math.Round(j.DurationS/t))
		default:
			return fmt.Errorf("job %s: the analytic perf model needs iterations or duration_s", j.Name)
		}
	}
	return nil
}

func (a *Analytic) modelNames() []string {
	out := make([]string, len(a.p.Models))
	for i, m := range a.p.Models {
		out[i] = m.Model
	}
	return out
}

// ConsolidatedGPUs returns n GPUs of an empty cluster packed on as few
// servers as possible (the first servers of the type, in order), or nil if
// the cluster has fewer: the placement solo-time estimates assume.
func ConsolidatedGPUs(c *cluster.Cluster, n int, gpuType string) []cluster.GPUID {
	gpus := make([]cluster.GPUID, 0, n)
	for _, srv := range c.Servers {
		if gpuType != "" && srv.Type != gpuType {
			continue
		}
		for k := 0; k < srv.NumGPUs && len(gpus) < n; k++ {
			gpus = append(gpus, srv.FirstGPU+cluster.GPUID(k))
		}
		if len(gpus) == n {
			return gpus
		}
	}
	return nil
}

// adaptiveRate is the progress of a job that adapts its total batch to the
// GPUs it holds, as Pollux's jobs do (spec 000 §4.5). With total batch M
// between its initial M0 = G·B and MaxBatchFactor·M0, the per-GPU batch
// M/a runs in micro-batches no larger than memory allows (accumulating the
// rest), and the goodput is M·eff(M)/t_iter with the statistical
// efficiency eff(M) = (φ + M0)/(φ + M), φ = NoiseScaleFactor·M0. The job
// uses the best M on a grid; it progresses at goodput/M0 iterations of its
// original configuration per second, so on its own G GPUs at M = M0 it
// runs exactly as a fixed-batch job does.
func (a *Analytic) adaptiveRate(j *workload.Job, m *ModelProfile, gpus []cluster.GPUID) float64 {
	n := float64(len(gpus))
	m0 := float64(j.GPUs * a.batchOf(j, m))
	phi := a.p.Adaptive.NoiseScaleFactor * m0
	comm := a.CommTime(m, gpus)
	maxLocal := a.maxLocalBatch(m, gpus)
	speed := a.ComputeSpeed(gpus)
	best := 0.0
	for _, f := range a.batchSteps {
		total := m0 * f
		local := total / n
		s := 1
		if maxLocal > 0 && local > maxLocal {
			s = int(math.Ceil(local / maxLocal))
		}
		good := total * (phi + m0) / (phi + total) / IterTimeAt(m, local, s, comm, a.p.Delta, speed)
		best = max(best, good)
	}
	return best / m0
}

// maxLocalBatch is the largest micro-batch that fits the smallest GPU
// memory among gpus, or 0 when memory does not limit it.
func (a *Analytic) maxLocalBatch(m *ModelProfile, gpus []cluster.GPUID) float64 {
	capGB := 0.0
	for i, g := range gpus {
		if c := a.c.GPUs[g].MemoryGB; i == 0 || c < capGB {
			capGB = c
		}
	}
	if capGB <= 0 || m.MemPerSampleGB <= 0 {
		return 0
	}
	return max(1, math.Floor((capGB-m.MemBaseGB)/m.MemPerSampleGB))
}
