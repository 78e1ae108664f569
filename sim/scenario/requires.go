package scenario

import (
	"fmt"
	"slices"

	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/schema"
	"github.com/schedlab/schedlab/sim/workload"
)

// checkRequires refuses a scenario that does not give a policy what its
// registration declares it needs (policy.Requires): its perf model, and
// for a policy that plans an offline batch, every job at time 0. What the
// parameters say is checked here; a generator that cannot say whether its
// jobs all arrive at 0 is checked on the dry build (see batchProblems).
func (sc *Scenario) checkRequires() []schema.Problem {
	var ps []schema.Problem
	model := sc.Perf.Model
	if model == "" {
		model = "constant"
	}
	for i, p := range sc.Policies {
		f, _ := sc.registry().Lookup(p.Name)
		r, path := f.Requires, schema.Index("policies", i)+".name"
		if !r.WorksWith(model) {
			ps = append(ps, schema.Problem{Path: path, Msg: fmt.Sprintf(
				"%s works only with %s, but perf.model is %q; choose that model or another policy",
				sc.PolicyLabel(i), r.PerfText(), model)})
		}
		if c, ok := sc.policyParams[i].(policy.GPUTypeChecker); ok {
			if field, msg := c.CheckGPUTypes(sc.gpuTypes()); msg != "" {
				ps = append(ps, schema.Problem{Path: schema.Index("policies", i) + ".params." + field, Msg: msg})
			}
		}
		if !r.Batch {
			continue
		}
		if msg := sc.arrivalsOverTime(); msg != "" {
			ps = append(ps, schema.Problem{Path: path, Msg: fmt.Sprintf(
				"%s plans an offline batch and needs every job at time 0, but %s; %s",
				sc.PolicyLabel(i), msg, atZeroAdvice)})
		}
	}
	return ps
}

// atZeroAdvice ends the problem of a batch policy given arrivals over
// time.
const atZeroAdvice = "submit every job at time 0 or use another policy (to import a trace that way, tick \"Every job at time 0\" in the page's import panel, or give schedlab import --at-zero)"

// gpuTypes lists the cluster's GPU types, each once, in order.
func (sc *Scenario) gpuTypes() []string {
	var out []string
	for _, g := range sc.Cluster.Servers {
		if g.GPUType != "" && !slices.Contains(out, g.GPUType) {
			out = append(out, g.GPUType)
		}
	}
	return out
}

// arrivalsOverTime says how the workload makes a job arrive after time 0,
// or "" when it does not or cannot tell without building (a generator that
// is no workload.Batcher).
func (sc *Scenario) arrivalsOverTime() string {
	for i := range sc.Workload.Jobs {
		if j := &sc.Workload.Jobs[i]; j.ArrivalS != 0 {
			return fmt.Sprintf("%s (%q) arrives at %g s", schema.Index("workload.jobs", i), j.Name, j.ArrivalS)
		}
	}
	if b, ok := sc.generator.(workload.Batcher); ok {
		if zero, fields := b.AllAtZero(); !zero {
			return fmt.Sprintf("workload.generator makes arrivals over time (its %s is not 0)", fields)
		}
	}
	return ""
}

// batchProblems checks built jobs against the policies that plan an
// offline batch, for generators that cannot say beforehand.
func (sc *Scenario) batchProblems(jobs []workload.Job) []schema.Problem {
	if _, ok := sc.generator.(workload.Batcher); ok || sc.generator == nil {
		return nil // checked from the parameters
	}
	var ps []schema.Problem
	for i, p := range sc.Policies {
		f, _ := sc.registry().Lookup(p.Name)
		if !f.Requires.Batch {
			continue
		}
		for k := range jobs {
			if j := &jobs[k]; j.ArrivalS != 0 {
				ps = append(ps, schema.Problem{Path: schema.Index("policies", i) + ".name", Msg: fmt.Sprintf(
					"%s plans an offline batch and needs every job at time 0, but workload.generator makes job %q arrive at %g s (seed %d); %s",
					sc.PolicyLabel(i), j.Name, j.ArrivalS, sc.RunSeeds()[0], atZeroAdvice)})
				break
			}
		}
	}
	return ps
}
