// Package pollux is a simplified Pollux (Qiao et al., OSDI'21), the
// elastic scheduler the SJF-BSBF paper compares against in simulation, as
// spec 000 §4.5 proposes it. Every round it re-divides the GPUs among all
// active jobs: one GPU each in order of least attained service, then each
// remaining GPU to the job whose speedup gains most in the power-mean
// (p = −1) objective, a job's speedup being its goodput (throughput ×
// statistical efficiency, with its batch size adapted to its GPUs) over its
// goodput on a fair share. A job whose allocation changes restarts, which
// costs a delay and is penalised in the objective. GPUs are never shared.
package pollux

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

// Params configure Pollux. The defaults follow Pollux's artifact (spec 000
// §4.5 [ext]) where it has one and the spec's proposal otherwise.
type Params struct {
	RoundS          float64  `json:"round_s" min:"1" max:"86400" unit:"s" help:"how often the allocation is re-optimized"`
	RestartS        float64  `json:"restart_s" min:"0" max:"86400" unit:"s" help:"delay of no progress when a running or preempted job's allocation changes; a first start costs the engine's first_start_s, as for every policy"`
	RestartPenalty  bool     `json:"restart_penalty" help:"discount the speedup of a job whose allocation would change by (age − restarts·delay)/(age + delay), Pollux's penalty"`
	MaxGPUFactor    float64  `json:"max_gpu_factor" min:"1" max:"1024" help:"a job gets at most this many times the GPUs it asked for"`
	SingleGPUModels []string `json:"single_gpu_models,omitempty" help:"models that never get more than one GPU (NCF in Pollux)"`
	OneDistributed  bool     `json:"one_distributed_per_server" help:"avoid putting two jobs that span servers on one server (Pollux's interference avoidance)"`
}

// New returns a Pollux policy.
func New(p Params) engine.Policy { return &pollux{p: p} }

type pollux struct {
	p       Params
	goodput [][]float64 // per job, its solo adaptive rate at a GPUs (index a); 0 = not yet known
	jobs    []*active
}

// active is one job during one round's allocation.
type active struct {
	id       workload.JobID
	attained float64 // GPU-seconds so far
	cur      int     // GPUs it holds now
	alloc    int     // GPUs it gets
	maxA     int
	fair     float64 // goodput on a fair share
	restart  float64 // restart factor applied when its allocation changes
	gain     float64
}

func (p *pollux) Options() engine.Options {
	return engine.Options{MaxJobsPerGPU: 1, Elastic: true, AdaptiveBatch: true,
		Subscribe: engine.Mask(engine.Arrival, engine.Completion, engine.WakeUp)}
}

func (p *pollux) Decide(s *engine.State, triggers []engine.Trigger) error {
	for _, t := range triggers {
		if t.Kind == engine.WakeUp {
			if err := p.allocate(s); err != nil {
				return err
			}
			break
		}
	}
	if s.NumPending()+s.NumRunning() == 0 {
		return nil
	}
	return s.WakeAt((math.Floor(s.Now()/p.p.RoundS) + 1) * p.p.RoundS)
}

// rate is job id's goodput (in its own iterations per second) alone on a
// consolidated set of a GPUs with its batch adapted to them.
func (p *pollux) rate(s *engine.State, id workload.JobID, a int) float64 {
	if p.goodput == nil {
		p.goodput = make([][]float64, s.NumJobs())
	}
	g := p.goodput[id]
	if g == nil {
		g = make([]float64, s.Cluster().NumGPUs()+1)
		p.goodput[id] = g
	}
	if g[a] == 0 {
		job := s.Job(id)
		gpus := perf.ConsolidatedGPUs(s.Cluster(), a, job.GPUType)
		if gpus == nil {
			g[a] = -1 // does not fit
		} else {
			g[a] = perf.AdaptiveSoloRate(s.Perf(), s.Cluster(), job, gpus)
		}
	}
	return g[a]
}

// speedup is SP_j(a): goodput on a GPUs over goodput on a fair share,
// discounted by the restart factor when a is not what the job holds.
func (p *pollux) speedup(s *engine.State, j *active, a int) float64 {
	if a <= 0 {
		return 0
	}
	sp := p.rate(s, j.id, a) / j.fair
	if a != j.cur && j.cur > 0 {
		sp *= j.restart
	}
	return sp
}

// gainOf is how much one more GPU for j lowers Σ 1/SP (p = −1).
func (p *pollux) gainOf(s *engine.State, j *active) float64 {
	if j.alloc >= j.maxA {
		return math.Inf(-1)
	}
	next := p.speedup(s, j, j.alloc+1)
	if next <= 0 {
		return math.Inf(-1)
	}
	return 1/p.speedup(s, j, j.alloc) - 1/next
}

// allocate divides the GPUs for this round (spec 000 §4.5 steps 1–5).
func (p *pollux) allocate(s *engine.State) error {
	p.jobs = p.jobs[:0]
	now := s.Now()
	collect := func(id workload.JobID) bool {
		info := s.Info(id)
		j := &active{id: id, attained: info.AttainedGPU, cur: len(info.GPUs), restart: 1}
		if p.p.RestartPenalty && info.Starts > 0 {
			age := now - s.Job(id).ArrivalS
			restarts := float64(info.Starts + info.Resizes - 1)
			j.restart = max(0.01, (age-restarts*p.p.RestartS)/(age+p.p.RestartS))
		}
		p.jobs = append(p.jobs, j)
		return true
	}
	s.EachRunning(collect)
	s.EachPending(collect)
	if len(p.jobs) == 0 {
		return nil
	}
	sort.Slice(p.jobs, func(a, b int) bool {
		x, y := p.jobs[a], p.jobs[b]
		if x.attained != y.attained {
			return x.attained < y.attained
		}
		return x.id < y.id
	})
	n := s.Cluster().NumGPUs()
	fair := (n + len(p.jobs) - 1) / len(p.jobs)
	left := n
	for _, j := range p.jobs {
		job := s.Job(j.id)
		j.maxA = min(n, max(1, int(p.p.MaxGPUFactor*float64(job.GPUs))))
		for _, m := range p.p.SingleGPUModels {
			if job.Model == m {
				j.maxA = 1
			}
		}
		j.fair = p.rate(s, j.id, min(fair, n))
		if left > 0 && p.rate(s, j.id, 1) > 0 {
			j.alloc = 1
			left--
		}
	}
	for _, j := range p.jobs {
		if j.alloc > 0 {
			j.gain = p.gainOf(s, j)
		} else {
			j.gain = math.Inf(-1)
		}
	}
	for ; left > 0; left-- {
		var best *active
		for _, j := range p.jobs {
			if j.gain > 0 && (best == nil || j.gain > best.gain) {
				best = j
			}
		}
		if best == nil {
			break // no job gets faster enough to be worth a GPU
		}
		best.alloc++
		best.gain = p.gainOf(s, best)
	}
	return p.place(s)
}

// place applies the allocation: shrink and stop first, then grow and start.
func (p *pollux) place(s *engine.State) error {
	o := engine.ActionOptions{OverheadS: p.p.RestartS, NoOverhead: p.p.RestartS == 0}
	for _, j := range p.jobs {
		switch {
		case j.alloc == j.cur:
		case j.alloc == 0:
			if err := s.Preempt(j.id); err != nil {
				return err
			}
			s.Log(j.id, "Pollux: %s gives up its %d GPUs", s.Job(j.id).Name, j.cur)
		case j.alloc < j.cur:
			keep := policy.ConsolidatedOrder(s.Cluster(), s.GPUsOf(j.id))[:j.alloc]
			if err := s.Resize(j.id, keep, o); err != nil {
				return err
			}
			s.Log(j.id, "Pollux: %s shrinks from %d to %d GPUs", s.Job(j.id).Name, j.cur, j.alloc)
		}
	}
	grow := make([]*active, 0, len(p.jobs))
	for _, j := range p.jobs {
		if j.alloc > j.cur {
			grow = append(grow, j)
		}
	}
	sort.SliceStable(grow, func(a, b int) bool { return grow[a].alloc > grow[b].alloc })
	for _, j := range grow {
		gpus := p.pick(s, j)
		if len(gpus) <= j.cur {
			continue // fragmentation left nothing better
		}
		if j.cur == 0 {
			first := o
			if s.Info(j.id).Starts == 0 {
				first = engine.ActionOptions{} // what the engine charges every policy
			}
			if err := s.Start(j.id, gpus, first); err != nil {
				return err
			}
			s.Log(j.id, "Pollux: %s starts on %d GPUs", s.Job(j.id).Name, len(gpus))
			continue
		}
		if err := s.Resize(j.id, gpus, o); err != nil {
			return err
		}
		s.Log(j.id, "Pollux: %s grows from %d to %d GPUs", s.Job(j.id).Name, j.cur, len(gpus))
	}
	return nil
}

// pick chooses j.alloc GPUs among the free ones and those j holds: one
// server if it fits on one (the one where j already has most, then the
// fullest that fits), otherwise whole servers first, avoiding servers that
// another multi-server job uses.
func (p *pollux) pick(s *engine.State, j *active) []cluster.GPUID {
	c := s.Cluster()
	own := s.GPUsOf(j.id)
	avail := func(g cluster.GPUID) bool { return s.NumJobsOn(g) == 0 || slices.Contains(own, g) }
	type srv struct {
		id          cluster.ServerID
		avail, mine int
		busy        bool // hosts a multi-server job other than j
	}
	servers := make([]srv, 0, len(c.Servers))
	for _, sv := range c.Servers {
		x := srv{id: sv.ID}
		for k := 0; k < sv.NumGPUs; k++ {
			g := sv.FirstGPU + cluster.GPUID(k)
			if avail(g) {
				x.avail++
			}
			if slices.Contains(own, g) {
				x.mine++
			}
			for _, r := range s.JobsOn(g) {
				if r != j.id && c.ServersSpanned(s.GPUsOf(r)) > 1 {
					x.busy = true
				}
			}
		}
		if x.avail > 0 {
			servers = append(servers, x)
		}
	}
	take := func(ids []srv, want int) []cluster.GPUID {
		var out []cluster.GPUID
		for _, x := range ids {
			sv := &c.Servers[x.id]
			for k := 0; k < sv.NumGPUs && len(out) < want; k++ {
				if g := sv.FirstGPU + cluster.GPUID(k); avail(g) {
					out = append(out, g)
				}
			}
		}
		return out
	}
	// One server, if one can hold the whole job.
	sort.Slice(servers, func(a, b int) bool {
		x, y := servers[a], servers[b]
		if x.mine != y.mine {
			return x.mine > y.mine
		}
		if x.avail != y.avail {
			return x.avail < y.avail // best fit
		}
		return x.id < y.id
	})
	for _, x := range servers {
		if x.avail >= j.alloc {
			return take([]srv{x}, j.alloc)
		}
	}
	// Several servers: those with the most room first, servers hosting
	// another multi-server job last.
	sort.Slice(servers, func(a, b int) bool {
		x, y := servers[a], servers[b]
		if p.p.OneDistributed && x.busy != y.busy {
			return !x.busy
		}
		if x.avail != y.avail {
			return x.avail > y.avail
		}
		if x.mine != y.mine {
			return x.mine > y.mine
		}
		return x.id < y.id
	})
	return take(servers, j.alloc)
}

func init() {
	policy.Register(policy.Factory{
		Name:  "pollux",
		Title: "Pollux",
		Paper: "Qiao et al., Pollux: Co-adaptive Cluster Scheduling for Goodput-Optimized Deep Learning (OSDI 2021); simplified as in spec 000 §4.5",
		Doc: "Elastic and adaptive. Every minute Pollux re-divides the GPUs among all jobs: one GPU each, least " +
			"served first, then every remaining GPU to the job whose speedup grows most, where a job's speed is its " +
			"goodput: throughput times the statistical efficiency of the larger batch it adopts on more GPUs. The " +
			"objective favours fairness (it maximises the harmonic mean of speedups), and a job whose allocation " +
			"changes restarts, which costs time. It shines when GPUs are plentiful and struggles under overload, " +
			"and it changes the jobs' batch sizes, which may change what they converge to.",
		NewParams: func() any {
			return &Params{RoundS: 60, RestartS: 30, RestartPenalty: true, MaxGPUFactor: 4,
				SingleGPUModels: []string{"ncf"}, OneDistributed: true}
		},
		New: func(p any) (engine.Policy, error) { return New(*p.(*Params)), nil },
	})
}
