package tesserae

import (
	"fmt"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

// perfRates are pair rates taken from the scenario's perf model (the one
// the policy is handed) instead of Blox's measurements (pair_rates
// "perf"): Blox's table knows six models, so on any other trace Tesserae
// would find no pair to pack. A pair's normalised throughputs are each
// job's rate while both share the same consolidated GPUs, over its rate
// alone there, on the first GPU type in cluster order where both run.
// Jobs are keyed by model, batch size and GPU count (packKey); the first
// job seen with a key stands for it, so a model whose rates depend on
// other job fields sees that job's values. Values are computed once per
// pair of keys and kept for the run.
type perfRates struct {
	s     *engine.State
	rep   map[string]*workload.Job
	cache map[[2]string]pairRate
}

type pairRate struct {
	ta, tb float64
	ok     bool
}

func newPerfRates() *perfRates {
	return &perfRates{rep: map[string]*workload.Job{}, cache: map[[2]string]pairRate{}}
}

// packKey is the bucket a job packs in under perf rates: what the perf
// models' pair rates depend on (the throughput table's row is model,
// batch size and GPU count).
func packKey(j *workload.Job) string {
	return fmt.Sprintf("%s/b%d/g%d", j.Model, j.BatchSize, j.GPUs)
}

// see registers a job as its key's representative, if it is the first,
// and returns the key.
func (r *perfRates) see(s *engine.State, j *workload.Job) string {
	r.s = s
	k := packKey(j)
	if _, ok := r.rep[k]; !ok {
		c := *j
		r.rep[k] = &c
	}
	return k
}

// Pair implements pack.Rates.
func (r *perfRates) Pair(a, b string, k int) (float64, float64, bool) {
	if v, ok := r.cache[[2]string{a, b}]; ok {
		return v.ta, v.tb, v.ok
	}
	v := r.compute(r.rep[a], r.rep[b], k)
	r.cache[[2]string{a, b}] = v
	return v.ta, v.tb, v.ok
}

func (r *perfRates) compute(ja, jb *workload.Job, k int) pairRate {
	if ja == nil || jb == nil || ja.GPUs != k || jb.GPUs != k || r.s == nil {
		return pairRate{}
	}
	m, c := r.s.Perf(), r.s.Cluster()
	seen := map[string]bool{}
	for _, g := range c.GPUs {
		if seen[g.Type] {
			continue
		}
		seen[g.Type] = true
		gpus := perf.ConsolidatedGPUs(c, k, g.Type)
		if gpus == nil {
			continue
		}
		sa, sb := perf.SoloRateAt(m, c, ja, gpus, 0), perf.SoloRateAt(m, c, jb, gpus, 0)
		if !(sa > 0) || !(sb > 0) {
			continue
		}
		ra, rb := perf.PairRates(m, c, ja, jb, gpus)
		if !(ra > 0) || !(rb > 0) {
			return pairRate{} // the model says they cannot share
		}
		return pairRate{ta: ra / sa, tb: rb / sb, ok: true}
	}
	return pairRate{}
}
