package scenario

import (
	"encoding/hex"
	"encoding/json"
	"hash/fnv"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

// runKeyFields is everything one run of one policy reads: its inputs, the
// engine's knobs, the measured window and how its jobs are grouped, and
// the policy with its parameters as decoded (defaults filled in, so
// {"round_s": 360} and no parameters are the same run when 360 is the
// default). Names, labels, checks, reference values and plots are not in
// it: they change what is shown, not what is computed.
type runKeyFields struct {
	Cluster      cluster.Spec
	Jobs         []workload.Job
	Generator    json.RawMessage
	GenParams    any
	PerfModel    string
	PerfRaw      json.RawMessage
	PerfParams   any
	Interference *perf.InterferenceSpec
	Engine       Engine
	Measure      Measure
	Metrics      MetricOptions
	Policy       string
	Params       any
	Seed         uint64
}

// RunKey names the computation of policy i on seed: two runs with the same
// key, in this scenario or another, give the same result, so one can be
// copied from the other. It is "" when the run cannot be named (its
// parameters do not encode), and such a run is never shared.
func (sc *Scenario) RunKey(i int, seed uint64) string {
	if i < 0 || i >= len(sc.Policies) || i >= len(sc.policyParams) {
		return ""
	}
	b, err := json.Marshal(runKeyFields{
		Cluster: sc.Cluster, Jobs: sc.Workload.Jobs, Generator: sc.Workload.Generator, GenParams: sc.genParams,
		PerfModel: sc.Perf.Model, PerfRaw: sc.Perf.Params, PerfParams: sc.perfParams, Interference: sc.Perf.Interference,
		Engine: sc.Engine, Measure: sc.Measure, Metrics: sc.Metrics,
		Policy: sc.Policies[i].Name, Params: sc.policyParams[i], Seed: seed,
	})
	if err != nil {
		return ""
	}
	// FNV-128a rather than SHA-256: the keys only tell apart the runs of
	// one study, where an accidental 128-bit collision is out of reach,
	// and crypto/sha256 links about 100 KB of FIPS code into the
	// Workers build, which has a size budget (build/wasmsize).
	h := fnv.New128a()
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}
