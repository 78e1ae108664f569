package scenario

import (
	"fmt"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
)

// Inputs are what one run of one seed needs, apart from the policy.
type Inputs struct {
	Cluster *cluster.Cluster
	Jobs    []workload.Job
	Perf    perf.Model
}

// Build makes the cluster, the jobs of one seed and the perf model.
func (sc *Scenario) Build(seed uint64) (*Inputs, error) {
	spec, err := sc.Cluster.ForSeed(seed)
	if err != nil {
		return nil, err
	}
	c, err := cluster.New(spec)
	if err != nil {
		return nil, err
	}
	m, err := sc.buildPerf(c)
	if err != nil {
		return nil, err
	}
	jobs, err := sc.jobs(seed)
	if err != nil {
		return nil, fmt.Errorf("workload: %w", err)
	}
	if err := perf.Prepare(m, c, jobs); err != nil {
		return nil, fmt.Errorf("perf: %w", err)
	}
	if sc.Measure.JobsTo > len(jobs) {
		return nil, fmt.Errorf("measure.jobs_to is %d but seed %d has only %d jobs", sc.Measure.JobsTo, seed, len(jobs))
	}
	return &Inputs{Cluster: c, Jobs: jobs, Perf: m}, nil
}

func (sc *Scenario) jobs(seed uint64) ([]workload.Job, error) {
	if sc.generator != nil {
		return sc.generator.Generate(seed)
	}
	return workload.Finalize(append([]workload.Job(nil), sc.Workload.Jobs...))
}

func (sc *Scenario) buildPerf(c *cluster.Cluster) (perf.Model, error) {
	name := sc.Perf.Model
	if name == "" {
		name = "constant"
	}
	kind, _ := perf.Lookup(name)
	base, err := kind.New(sc.perfParams, c)
	if err != nil {
		return nil, fmt.Errorf("perf: %w", err)
	}
	if sc.Perf.Interference == nil || sc.Perf.Interference.Empty() {
		return base, nil
	}
	return &perf.Composite{Base: base, Factors: []perf.Factor{perf.NewInterference(*sc.Perf.Interference)}}, nil
}

// NewPolicy builds a fresh instance of policy i for one run.
func (sc *Scenario) NewPolicy(i int) (engine.Policy, error) {
	f, _ := sc.registry().Lookup(sc.Policies[i].Name)
	return f.New(sc.policyParams[i])
}

// EngineConfig returns the engine settings of the scenario for one run.
func (sc *Scenario) EngineConfig(in *Inputs, p engine.Policy, seed uint64) engine.Config {
	cfg := engine.Config{
		Cluster: in.Cluster, Jobs: in.Jobs, Perf: in.Perf, Policy: p, Seed: seed,
		SharingLimit: sc.Engine.SharingLimit, Overheads: sc.Engine.Overheads, Budgets: sc.Engine.Budgets,
		Window: sc.Window(),
	}
	if s := sc.Measure.SaturateAfterS; s > 0 {
		cfg.Budgets.MaxTimeS = s
	}
	return cfg
}

// Window is the measured range of job IDs; empty means every job.
func (sc *Scenario) Window() engine.Window {
	if sc.Measure.JobsTo == 0 {
		return engine.Window{}
	}
	return engine.Window{From: sc.Measure.JobsFrom, To: sc.Measure.JobsTo}
}

// Measured returns the records of the measured jobs.
func (sc *Scenario) Measured(recs []engine.JobRecord) []engine.JobRecord {
	w := sc.Window()
	if w.Empty() {
		return recs
	}
	return recs[w.From:min(w.To, len(recs))]
}
