// Package scenario is schedlab's scenario format: one JSON document that
// names a cluster, a workload (explicit jobs or a generator), a perf model,
// the policies to compare and their parameters, the seeds and the plots.
//
// Parse checks a document completely and reports every problem with its
// JSON path and a plain sentence; unknown fields are errors. A parsed
// Scenario builds the inputs of one run per seed.
package scenario

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/schema"
	"github.com/schedlab/schedlab/sim/workload"
)

// Scenario is one document. Fields decoded from kind-specific JSON keep
// their raw form for round-tripping and their decoded parameters beside.
type Scenario struct {
	Name        string        `json:"name" help:"short identifier, e.g. fifo-vs-sjf"`
	Title       string        `json:"title,omitempty" help:"one-line title for galleries"`
	Description string        `json:"description,omitempty" help:"what the scenario shows"`
	Tags        []string      `json:"tags,omitempty" help:"e.g. teaching, paper:gavel"`
	Cluster     cluster.Spec  `json:"cluster"`
	Workload    Workload      `json:"workload"`
	Perf        Perf          `json:"perf,omitempty"`
	Engine      Engine        `json:"engine,omitempty"`
	Policies    []PolicySpec  `json:"policies"`
	Seeds       []uint64      `json:"seeds,omitempty" help:"seeds to run; default [1]"`
	Plots       []string      `json:"plots,omitempty" help:"figures to draw; default jct_cdf, gantt, queue_by_model"`
	Metrics     MetricOptions `json:"metrics,omitempty"`

	// Reproducing a paper: what is measured, what is swept, the paper's
	// numbers, the checks that define "reproduced", and a quick version.
	Measure   Measure    `json:"measure,omitempty"`
	Sweep     *Sweep     `json:"sweep,omitempty"`
	Reference *Reference `json:"reference,omitempty"`
	Checks    []Check    `json:"checks,omitempty"`
	Quick     *Quick     `json:"quick,omitempty"`
	// Exploration marks a whole scenario as a setting the paper does not
	// have; its checks are counted apart from the paper's claims.
	Exploration string      `json:"exploration,omitempty" help:"this scenario adds a setting the paper does not have (say which); its checks are shown and counted apart from the paper's claims"`
	Robustness  *Robustness `json:"robustness,omitempty" help:"makes this scenario a robustness figure: its sweep is over draws of inputs the paper does not publish"`

	raw          []byte           // the document, for variants
	policies     *policy.Registry // where its policies are looked up
	pointJobs    []int64          // jobs of one run at each sweep value (top-level documents)
	generator    workload.Generator
	genParams    any // the generator's decoded parameters
	perfParams   any
	policyParams []any
	buildNotices []schema.Problem // notices from the dry build
	notices      []schema.Problem // see Notices
}

// Workload is either an explicit job list or a generator.
type Workload struct {
	Jobs      []workload.Job  `json:"jobs,omitempty" help:"explicit jobs"`
	Generator json.RawMessage `json:"generator,omitempty" help:"a generator: {\"kind\": ..., parameters}"`
}

// Perf selects the performance model.
type Perf struct {
	Model        string                 `json:"model,omitempty" help:"base model; default constant"`
	Params       json.RawMessage        `json:"params,omitempty" help:"parameters of the base model"`
	Interference *perf.InterferenceSpec `json:"interference,omitempty" help:"slowdown of jobs that share a GPU"`
}

// Engine holds the engine's knobs.
type Engine struct {
	engine.Overheads
	engine.Budgets
	SharingLimit int `json:"sharing_limit,omitempty" min:"0" max:"16" help:"most jobs per GPU, overriding the policies' own limit; 0 keeps theirs"`
}

// PolicySpec is one policy to compare.
type PolicySpec struct {
	Name   string          `json:"name" help:"registered policy name"`
	Label  string          `json:"label,omitempty" help:"name shown in tables and legends; default the policy's title"`
	Params json.RawMessage `json:"params,omitempty" help:"the policy's parameters"`
}

// MetricOptions tune how results are summarized.
type MetricOptions struct {
	LargeJobGPUs int `json:"large_job_gpus,omitempty" min:"0" help:"jobs with more GPUs than this are large; default 4"`
}

// PlotKinds are the plots every scenario draws unless it lists its own.
var PlotKinds = []string{"jct_cdf", "gantt", "queue_by_model"}

// ExtraPlotKinds are drawn only when a scenario asks for them: "shares"
// (each job's target share of every GPU type against what it received,
// for policies that record them, e.g. Gavel's) and "wait_by_model" (the
// average time each model's jobs spent holding no GPUs, which for
// preemptive policies also counts the waits after a preemption).
// "series:NAME" draws a series the policies recorded over time, e.g.
// series:gavel/objective.
var ExtraPlotKinds = []string{"shares", "wait_by_model"}

// Parse reads and checks a scenario document: its shape, every value, the
// limits (see Limits) and everything a run would otherwise refuse later,
// including each sweep value's and the quick version's variant.
func Parse(data []byte) (*Scenario, error) {
	return parse(policy.Default, data, true, true)
}

// ParseWith is Parse with the policies of reg instead of the registered
// ones (policy.Default), for tests that run policies of their own (a
// clone of policy.Default with them added), so that these never enter the
// registry that everything else reads. The scenario's variants keep reg.
func ParseWith(reg *policy.Registry, data []byte) (*Scenario, error) {
	return parse(reg, data, true, true)
}

// parse checks a document; top documents also check their variants and
// the limits of the whole study (a variant is checked by its parent); dry
// builds the workload to find what Build would refuse (see checkBuild).
func parse(reg *policy.Registry, data []byte, top, dry bool) (*Scenario, error) {
	tree, err := schema.Parse(data)
	var twice schema.Problems
	if errors.As(err, &twice) {
		return nil, twice // a key given twice, at its path
	}
	if err != nil {
		return nil, schema.Problems{{Msg: err.Error()}}
	}
	if ps := explicitJobsLimit(tree); ps != nil {
		return nil, schema.Problems(ps) // before decoding them
	}
	sc := Scenario{raw: data, policies: reg}
	ps := schema.Decode(tree, &sc, "")
	ps = append(ps, uncovered(sc.resolve(), ps)...) // report every problem at once
	if len(ps) == 0 {
		ps = sc.checkStudy() // needs the policies resolved
	}
	if len(ps) == 0 {
		ps = sc.checkRequires()
	}
	if len(ps) == 0 {
		ps = sc.checkBuild(dry)
	}
	if len(ps) == 0 && top {
		ps = sc.checkVariants()
	}
	if len(ps) > 0 {
		return nil, schema.Problems(schema.Truncate(ps, 0))
	}
	if top {
		sc.notices = capNotices(append(sc.nameNotices(), sc.buildNotices...))
	}
	return &sc, nil
}

// uncovered drops the problems at paths that already have one (a value of
// the wrong type is not also "required").
func uncovered(ps, have []schema.Problem) []schema.Problem {
	seen := make(map[string]bool, len(have))
	for _, p := range have {
		seen[p.Path] = true
	}
	out := ps[:0]
	for _, p := range ps {
		if !seen[p.Path] {
			out = append(out, p)
		}
	}
	return out
}

// resolve decodes the kind-specific parts and checks what spans fields.
func (sc *Scenario) resolve() []schema.Problem {
	var ps []schema.Problem
	add := func(path, format string, args ...any) {
		ps = append(ps, schema.Problem{Path: path, Msg: fmt.Sprintf(format, args...)})
	}
	if strings.TrimSpace(sc.Name) == "" {
		add("name", "is required")
	}
	if err := sc.Cluster.Expand(); err != nil {
		add("cluster.draw", "%s", strings.TrimPrefix(err.Error(), "cluster: "))
	}
	if len(sc.Cluster.Servers) == 0 {
		add("cluster.servers", "must list at least one server group")
	}
	for i, g := range sc.Cluster.Servers {
		if strings.TrimSpace(g.GPUType) == "" {
			add(schema.Index("cluster.servers", i)+".gpu_type", "is required (e.g. \"V100\")")
		}
	}
	ps = append(ps, sc.checkClusterLimits()...)
	ps = append(ps, sc.resolvePerf()...)
	if wp := sc.resolveWorkload(); len(wp) > 0 {
		ps = append(ps, wp...)
	} else {
		ps = append(ps, sc.checkJobLimits()...)
	}
	ps = append(ps, sc.checkNames()...) // reads single fields: sound beside other problems
	ps = append(ps, sc.resolvePolicies()...)
	seen := map[uint64]bool{}
	for i, s := range sc.Seeds {
		if seen[s] {
			add(schema.Index("seeds", i), "seed %d is listed twice", s)
			break // one is enough to say it
		}
		seen[s] = true
	}
	for i, p := range sc.Plots {
		if name, ok := strings.CutPrefix(p, "series:"); ok && name != "" {
			continue
		}
		if !contains(PlotKinds, p) && !contains(ExtraPlotKinds, p) {
			add(schema.Index("plots", i), "unknown plot %q; known plots: %s, %s, series:NAME", p, strings.Join(PlotKinds, ", "), strings.Join(ExtraPlotKinds, ", "))
		}
	}
	return ps
}

func (sc *Scenario) resolvePerf() []schema.Problem {
	name := sc.Perf.Model
	if name == "" {
		name = "constant"
	}
	kind, ok := perf.Lookup(name)
	if !ok {
		return []schema.Problem{{Path: "perf.model", Msg: fmt.Sprintf("unknown perf model %q; known models: %s", name, strings.Join(perf.Names(), ", "))}}
	}
	params := kind.NewParams()
	if len(sc.Perf.Params) > 0 {
		tree, err := schema.Parse(sc.Perf.Params)
		if err != nil {
			return []schema.Problem{{Path: "perf.params", Msg: err.Error()}}
		}
		if ps := schema.Decode(tree, params, "perf.params"); len(ps) > 0 {
			return ps
		}
	}
	sc.perfParams = params
	return nil
}

func (sc *Scenario) resolveWorkload() []schema.Problem {
	w := &sc.Workload
	hasJobs, hasGen := len(w.Jobs) > 0, len(w.Generator) > 0 && string(w.Generator) != "null"
	switch {
	case hasJobs && hasGen:
		return []schema.Problem{{Path: "workload", Msg: "give either jobs or generator, not both"}}
	case !hasJobs && !hasGen:
		return []schema.Problem{{Path: "workload", Msg: "needs jobs or a generator"}}
	case hasGen:
		return sc.resolveGenerator()
	}
	var ps []schema.Problem
	first := map[string]int{}
	for i := range w.Jobs {
		j := &w.Jobs[i]
		p := schema.Index("workload.jobs", i)
		if j.Name == "" {
			ps = append(ps, schema.Problem{Path: p + ".id", Msg: "is required"})
		} else if k, dup := first[j.Name]; dup {
			ps = append(ps, schema.Problem{Path: p + ".id", Msg: fmt.Sprintf("%q is already the id of workload.jobs[%d]", j.Name, k)})
		} else {
			first[j.Name] = i
		}
		if j.Model == "" {
			ps = append(ps, schema.Problem{Path: p + ".model", Msg: "is required"})
		}
		if sc.usesConstantModel() && !(j.DurationS > 0) {
			ps = append(ps, schema.Problem{Path: p + ".duration_s", Msg: "is required by the constant perf model (the job's run time alone)"})
		}
	}
	return ps
}

func (sc *Scenario) usesConstantModel() bool {
	return sc.Perf.Model == "" || sc.Perf.Model == "constant"
}

func (sc *Scenario) resolveGenerator() []schema.Problem {
	const path = "workload.generator"
	tree, err := schema.Parse(sc.Workload.Generator)
	if err != nil {
		return []schema.Problem{{Path: path, Msg: err.Error()}}
	}
	obj, ok := tree.(map[string]any)
	if !ok {
		return []schema.Problem{{Path: path, Msg: "must be an object with a \"kind\""}}
	}
	name, _ := obj["kind"].(string)
	kind, ok := workload.LookupGenerator(name)
	if !ok {
		msg := fmt.Sprintf("unknown generator %q", name)
		if name == "" {
			msg = "is required"
		}
		return []schema.Problem{{Path: path + ".kind", Msg: msg + "; known generators: " + strings.Join(workload.GeneratorNames(), ", ")}}
	}
	params := kind.NewParams()
	if ps := schema.Decode(tree, params, path, "kind"); len(ps) > 0 {
		// Decode pruned the offending values from tree: what is left is
		// decoded again, so that its names and sizes are still checked
		// (one bad number must not hide a typo beside it).
		rest := kind.NewParams()
		_ = schema.Decode(tree, rest, path, "kind")
		sc.genParams = rest
		return ps
	}
	g, err := kind.New(params)
	if err != nil {
		return []schema.Problem{{Path: path, Msg: err.Error()}}
	}
	sc.generator, sc.genParams = g, params
	return nil
}

func (sc *Scenario) resolvePolicies() []schema.Problem {
	var ps []schema.Problem
	if len(sc.Policies) == 0 {
		return []schema.Problem{{Path: "policies", Msg: "must list at least one policy, e.g. [{\"name\": \"fifo\"}]"}}
	}
	sc.policyParams = make([]any, len(sc.Policies))
	labels := map[string]int{}
	for i := range sc.Policies {
		p := &sc.Policies[i]
		path := schema.Index("policies", i)
		f, ok := sc.registry().Lookup(p.Name)
		if !ok {
			ps = append(ps, schema.Problem{Path: path + ".name", Msg: fmt.Sprintf("unknown policy %q; known policies: %s", p.Name, strings.Join(sc.registry().Names(), ", "))})
			continue
		}
		params := f.NewParams()
		if len(p.Params) > 0 && string(p.Params) != "null" {
			tree, err := schema.Parse(p.Params)
			if err != nil {
				ps = append(ps, schema.Problem{Path: path + ".params", Msg: err.Error()})
				continue
			}
			if pp := schema.Decode(tree, params, path+".params"); len(pp) > 0 {
				ps = append(ps, pp...)
				continue
			}
		}
		sc.policyParams[i] = params
		label := sc.PolicyLabel(i)
		if k, dup := labels[label]; dup {
			ps = append(ps, schema.Problem{Path: path + ".label", Msg: fmt.Sprintf("policies[%d] is also called %q; give each a distinct label", k, label)})
		}
		labels[label] = i
	}
	return ps
}

// PolicyLabel is the display name of policy i.
func (sc *Scenario) PolicyLabel(i int) string {
	p := sc.Policies[i]
	if p.Label != "" {
		return p.Label
	}
	if f, ok := sc.registry().Lookup(p.Name); ok && f.Title != "" {
		return f.Title
	}
	return p.Name
}

// RunSeeds returns the seeds to run: the scenario's, or [1].
func (sc *Scenario) RunSeeds() []uint64 {
	if len(sc.Seeds) == 0 {
		return []uint64{1}
	}
	return sc.Seeds
}

// PlotList returns the plots to draw: the scenario's, or all kinds.
func (sc *Scenario) PlotList() []string {
	if len(sc.Plots) == 0 {
		return PlotKinds
	}
	return sc.Plots
}

// LargeJobGPUs is the small/large threshold.
func (sc *Scenario) LargeJobGPUs() int {
	if sc.Metrics.LargeJobGPUs == 0 {
		return 4
	}
	return sc.Metrics.LargeJobGPUs
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// registry is where the scenario's policies are looked up: policy.Default
// unless it was parsed with ParseWith (a Scenario decoded without Parse
// has none).
func (sc *Scenario) registry() *policy.Registry {
	if sc.policies == nil {
		return policy.Default
	}
	return sc.policies
}
