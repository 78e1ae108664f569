package ojpp

import (
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy"
)

const paper = "Li et al., Interference-aware opportunistic job placement for shared distributed deep learning clusters (JPDC 2023)"

// presets are the algorithms of the paper's Table 4 (spec 002 §3.4) as
// changes to the OJPP defaults.
var presets = []struct {
	name, title, doc string
	set              func(p *Params)
}{
	{"ojpp", "OJPP", "The Heuristic (Algorithm 3): jobs are placed least collision-prone first (lowest p_i, the worst " +
		"collision partner it would have in the queue), each worker on the GPU where interference would be lowest among " +
		"those that keep every constraint (compute, memory Σγ + max δ ≤ 1, τ ≤ τ̄, worst slowdown ≤ θ̄, the job's " +
		"workers within θ′ of each other), else on a new GPU.", func(*Params) {}},
	{"ojpp-greedy", "Greedy", "Algorithm 1: best-fit decreasing order (largest compute demand first), every constraint, " +
		"each worker on the GPU with the lowest potential interference.", func(p *Params) { p.Order = "bfd" }},
	{"ojpp-best-fit", "Best-fit", "Traditional two-dimensional best-fit bin packing: each worker on the GPU it fills " +
		"tightest (compute and memory), with no collision, interference or balance bound.", func(p *Params) {
		p.Order, p.Select, p.Collision, p.Interfere, p.Balance = "bfd", "best-fit", false, false, false
	}},
	{"ojpp-i-greedy", "I-Greedy", "Best-fit with the interference bound θ̄ only.", func(p *Params) {
		p.Order, p.Select, p.Collision, p.Interfere, p.Balance = "bfd", "best-fit", false, true, false
	}},
	{"ojpp-b-greedy", "B-Greedy", "Best-fit with the worker-balance bound θ′ only.", func(p *Params) {
		p.Order, p.Select, p.Collision, p.Interfere, p.Balance = "bfd", "best-fit", false, false, true
	}},
	{"ojpp-c-greedy", "C-Greedy", "Best-fit with the collision bound τ̄ only.", func(p *Params) {
		p.Order, p.Select, p.Collision, p.Interfere, p.Balance = "bfd", "best-fit", true, false, false
	}},
	{"ojpp-dedicated", "Dedicated", "One GPU per worker, nothing shared: no slowdown, the most GPUs.", func(p *Params) {
		p.Order, p.Dedicated = "bfd", true
	}},
	{"ojpap", "OJPAP", "OJPP placement plus the online adjustment (Algorithm 4): every tick the smoothed (EWMA) " +
		"interference of each GPU is observed; when one passes θ̄, the more interfered half of the GPUs each hand their " +
		"cheapest worker to the feasible GPU where it suffers least, within a migration budget c̄.", func(p *Params) {
		p.Adjust = "ewma"
	}},
}

func init() {
	for _, pr := range presets {
		set := pr.set
		policy.Register(policy.Family[Params]{
			Name: pr.name, Title: pr.title, Paper: paper, Doc: pr.doc,
			Defaults: func() Params { p := defaults(); set(&p); return p },
			New:      func(p Params) (engine.Policy, error) { return New(p), nil },
			// Placement reads memshare's memory tuples and interference matrix.
			Requires: policy.Requires{PerfModels: []string{"memshare"}},
		})
	}
}
