// Package conformance runs registered policies on small random scenarios,
// made for every registered perf model and workload generator, with every
// engine invariant checked after each event, and reports what a policy got
// wrong: a run that fails (an action the engine refused, a livelock, a job
// left waiting on an idle cluster), a job left neither finished nor
// reported unschedulable with a reason, a job that started before it
// arrived or finished without doing its work, and a run whose records
// differ when repeated with the same seed.
//
// A policy runs with its default parameters and with each variant of
// them that its parameter schema offers (every other value of an enum
// parameter, the other value of a boolean one, one change at a time), the
// choices a learner makes with a click on the page.
//
// A policy runs only the cases its registration says it can
// (policy.Requires: its perf models, every job at time 0); on the others
// the check asserts that the scenario validator refuses the scenario at
// the policy's name, so that a declaration is tested, not trusted.
//
// Suite.Policies lets a test check policies of its own (deliberately
// broken ones) from a clone of policy.Default, so that they never enter
// the registry the page and the CLI read.
//
// A new policy family is checked as soon as sim/policy/all imports it; a
// new perf model or generator needs a Setting here, which the package's
// test asks for.
package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/sim/schema"
)

// GPUType is a GPU type a perf model knows, with its memory.
type GPUType struct {
	Name     string
	MemoryGB float64
}

// Setting is a perf model with a workload generator made for it and the
// GPU types it knows. Generator returns the generator's JSON for a small
// workload drawn from r, of single-GPU jobs only when single is set (for
// policies that schedule nothing larger, see policy.Factory.MaxJobGPUs).
// PerfDoc is the scenario's whole perf section when the model takes
// parameters (its "model" is Perf); nil means {"model": Perf}.
// Interference, when set, is the perf section's "interference": slowdowns
// of jobs sharing a GPU on top of the model, which wrap it (perf.Composite)
// so that policies and the engine must find the model through the wrapper.
type Setting struct {
	Name         string // "perf/generator", or "perf+interference/generator"
	Perf         string
	PerfDoc      json.RawMessage
	Interference json.RawMessage
	Generator    func(r *rand.Rand, single bool) string
	Types        []GPUType
}

var (
	gavelTypes   = []GPUType{{"V100", 16}, {"P100", 16}, {"K80", 12}}
	sjfBSBFTypes = []GPUType{{"2080Ti", 11}, {"T4", 16}}
	// memshare's memory fractions are of an 11 GB GPU (the paper's 1080 Ti);
	// ring_allreduce reads no GPU type.
	ojppTypes = []GPUType{{"1080Ti", 11}, {"2080Ti", 11}}
	rarTypes  = []GPUType{{"V100", 16}, {"A100", 40}}
	// Tesserae's scenarios run A100s; its perf model reads no GPU type.
	tesseraeTypes = []GPUType{{"A100", 40}, {"V100", 16}}
)

// scenarioPerf is the perf section of a built-in scenario.
func scenarioPerf(name string) json.RawMessage {
	data, ok := scenarios.Read(name)
	var doc struct{ Perf json.RawMessage }
	if !ok || json.Unmarshal(data, &doc) != nil || doc.Perf == nil {
		panic(fmt.Sprintf("conformance: the built-in scenario %s has no perf section", name)) // embedded: a programming error
	}
	return doc.Perf
}

// arrivalRate is 0 (every job at time 0, an offline batch) for about two
// seeds in three and some jobs per hour for the others, so that a policy
// that needs a batch meets both.
func arrivalRate(r *rand.Rand, perHour int) int {
	if r.IntN(3) != 0 {
		return 0
	}
	return perHour/2 + r.IntN(perHour)
}

// Settings pair every registered perf model with the generators whose
// jobs it knows. Jobs are few (8 to 16) and clusters small (2 to 24 GPUs of
// two or three types), so some jobs ask for more GPUs than there are and
// must be reported unschedulable.
var Settings = []Setting{
	{Name: "constant/poisson", Perf: "constant", Types: gavelTypes, Generator: func(r *rand.Rand, single bool) string {
		mix := `[{"gpus": 1, "weight": 4}, {"gpus": 2, "weight": 2}, {"gpus": 4, "weight": 1}, {"gpus": 8, "weight": 0.5}]`
		if single {
			mix = `[{"gpus": 1, "weight": 1}]`
		}
		return fmt.Sprintf(`{"kind": "poisson", "jobs": %d, "jobs_per_hour": %d, "gpu_mix": %s,
		  "duration": {"dist": "lognormal", "mean_s": 1800, "sigma": 1},
		  "models": [{"model": "resnet50", "weight": 1, "memory_gb": 4}, {"model": "bert", "weight": 1, "memory_gb": 9}]}`,
			8+r.IntN(9), 2+r.IntN(20), mix)
	}},
	{Name: "throughput/gavel", Perf: "throughput", Types: gavelTypes, Generator: func(r *rand.Rand, single bool) string {
		return fmt.Sprintf(`{"kind": "gavel", "jobs": %d, "jobs_per_hour": %d, "multi_gpu": %t}`, 8+r.IntN(9), 1+r.IntN(8), !single)
	}},
	{Name: "throughput/gavel-static", Perf: "throughput", Types: gavelTypes, Generator: func(r *rand.Rand, single bool) string {
		mix := ""
		if single {
			mix = `, "scale_factors": [{"gpus": 1, "weight": 1}]`
		}
		return fmt.Sprintf(`{"kind": "gavel-static", "jobs": %d, "duration_hours": [0.25, 0.5, 1]%s}`, 8+r.IntN(9), mix)
	}},
	{Name: "analytic/sjf-bsbf-sim", Perf: "analytic", Types: sjfBSBFTypes, Generator: func(r *rand.Rand, single bool) string {
		mix := ""
		if single {
			mix = `, "large_share": 0, "small_gpus": [{"gpus": 1, "weight": 1}]`
		}
		return fmt.Sprintf(`{"kind": "sjf-bsbf-sim", "base_jobs": %d, "window_h": 0.5, "small_mean_h": 0.1, "large_mean_h": 0.3%s}`, 8+r.IntN(9), mix)
	}},
	{Name: "analytic/sjf-bsbf-testbed", Perf: "analytic", Types: sjfBSBFTypes, Generator: func(r *rand.Rand, single bool) string {
		mix := `"large_jobs": 2`
		if single {
			mix = `"large_jobs": 0, "small_gpus": [1]`
		}
		return fmt.Sprintf(`{"kind": "sjf-bsbf-testbed", "jobs": %d, %s, "work_gpu_s": 20000, "mean_gap_s": %d}`, 8+r.IntN(9), mix, 10+r.IntN(120))
	}},
	{Name: "memshare/ojpp", Perf: "memshare", Types: ojppTypes, Generator: ojppJobs},
	{Name: "ring_allreduce/sjf-bco", Perf: "ring_allreduce", Types: rarTypes, Generator: rarJobs},
	// The same models wrapped in co-location interference (a 20% slowdown
	// beside any partner, 30% by default): the policies that plan with
	// memshare or ring-all-reduce and the engine's memory drift and
	// iteration splits must see through the wrapper.
	{Name: "memshare+interference/ojpp", Perf: "memshare", Interference: json.RawMessage(`{"uniform": 1.2}`), Types: ojppTypes, Generator: ojppJobs},
	{Name: "ring_allreduce+interference/sjf-bco", Perf: "ring_allreduce", Interference: json.RawMessage(`{"default": 1.3, "combine": "product"}`), Types: rarTypes, Generator: rarJobs},
	// The true slowdowns of packed pairs are the Blox-derived matrix of
	// Tesserae's scenarios, so that packing meets what it plans on.
	{Name: "constant/tesserae", Perf: "constant", PerfDoc: scenarioPerf("tesserae-fig11-migrations"), Types: tesseraeTypes, Generator: func(r *rand.Rand, single bool) string {
		maxGPUs := 0
		if single {
			maxGPUs = 1
		}
		return fmt.Sprintf(`{"kind": "tesserae", "style": %q, "jobs": %d, "jobs_per_hour": %d, "max_gpus": %d}`,
			[]string{"shockwave", "gavel"}[r.IntN(2)], 8+r.IntN(9), 4+r.IntN(40), maxGPUs)
	}},
}

// ojppJobs is a small workload of OJPP's generator.
func ojppJobs(r *rand.Rand, single bool) string {
	workers := 1 + r.IntN(4)
	if single {
		workers = 1
	}
	return fmt.Sprintf(`{"kind": "ojpp", "queue": %d, "jobs": %d, "workers_max": %d, "jobs_per_hour": %d, "duration_jitter": 0.3}`,
		1+r.IntN(4), 8+r.IntN(9), workers, arrivalRate(r, 6))
}

// rarJobs is a small workload of SJF-BCO's generator.
func rarJobs(r *rand.Rand, single bool) string {
	sizes := fmt.Sprintf(`[{"gpus": 1, "count": %d}, {"gpus": 2, "count": %d}, {"gpus": 4, "count": %d}, {"gpus": 8, "count": %d}]`,
		4+r.IntN(5), 1+r.IntN(3), 1+r.IntN(3), r.IntN(2))
	if single {
		sizes = fmt.Sprintf(`[{"gpus": 1, "count": %d}]`, 8+r.IntN(9))
	}
	return fmt.Sprintf(`{"kind": "sjf-bco", "sizes": %s, "jobs_per_hour": %d}`, sizes, arrivalRate(r, 60))
}

// Document returns the scenario of a setting for one seed: a random
// cluster of the setting's GPU types (at least two of them) and its
// generator, with the given policies of policy.Default at their default
// parameters. When one of them schedules only single-GPU jobs, so does the
// workload.
func Document(set Setting, seed uint64, policies ...string) []byte {
	single := false
	specs := make([]policySpec, len(policies))
	for i, p := range policies {
		if f, ok := policy.Lookup(p); ok && f.MaxJobGPUs == 1 {
			single = true
		}
		specs[i] = policySpec{Name: p}
	}
	return document(set, seed, single, specs)
}

// policySpec is a scenario's entry for one policy.
type policySpec struct {
	Name   string          `json:"name"`
	Params json.RawMessage `json:"params,omitempty"`
}

// document is Document with the choice of single-GPU jobs made.
func document(set Setting, seed uint64, single bool, policies []policySpec) []byte {
	h := fnv.New64a()
	h.Write([]byte(set.Name))
	r := rand.New(rand.NewPCG(seed, h.Sum64()))
	types := append([]GPUType(nil), set.Types...)
	r.Shuffle(len(types), func(i, j int) { types[i], types[j] = types[j], types[i] })
	var servers []map[string]any
	for i := range 2 + r.IntN(2) {
		t := types[i%len(types)]
		servers = append(servers, map[string]any{
			"count": 1 + r.IntN(3), "gpus": []int{1, 2, 4}[r.IntN(3)], "gpu_type": t.Name, "gpu_memory_gb": t.MemoryGB,
		})
	}
	doc := map[string]any{
		"name":     fmt.Sprintf("conformance-%s-%d", set.Name, seed),
		"cluster":  map[string]any{"servers": servers},
		"workload": map[string]any{"generator": json.RawMessage(set.Generator(r, single))},
		"perf":     perfDoc(set),
		"policies": policies,
		"seeds":    []uint64{seed},
	}
	data, err := json.Marshal(doc)
	if err != nil {
		panic(err) // maps of plain values always marshal
	}
	return data
}

// perfDoc is a setting's perf section.
func perfDoc(set Setting) any {
	doc := map[string]any{"model": set.Perf}
	switch {
	case set.PerfDoc != nil && set.Interference == nil:
		return set.PerfDoc
	case set.PerfDoc != nil:
		doc = nil
		if err := json.Unmarshal(set.PerfDoc, &doc); err != nil {
			panic(fmt.Sprintf("conformance: setting %s: its perf section is not a JSON object: %v", set.Name, err)) // a programming error
		}
	}
	if set.Interference != nil {
		doc["interference"] = set.Interference
	}
	return doc
}

// Variant is one set of parameters a policy is checked with: its defaults,
// or its defaults with one enum or boolean parameter changed.
type Variant struct {
	Label  string          // "" for the defaults, else e.g. "placement=strict"
	Params json.RawMessage // the scenario's "params"; nil for the defaults
}

// Variants lists the defaults of policy f and, one change at a time, each
// other value of each of its enum parameters and the other value of each
// boolean one, as its parameter schema gives them (schema.Describe): the
// choices a student can make on the page with a click.
func Variants(f policy.Factory) []Variant {
	out := []Variant{{}}
	add := func(name string, v any) {
		params, err := json.Marshal(map[string]any{name: v})
		if err != nil {
			panic(err) // strings and booleans always marshal
		}
		out = append(out, Variant{Label: fmt.Sprintf("%s=%v", name, v), Params: params})
	}
	for _, fd := range schema.Describe(f.NewParams()) {
		switch {
		case fd.Kind == "bool":
			b, _ := fd.Default.(bool)
			add(fd.Name, !b)
		case fd.Kind == "string" && len(fd.Enum) > 0:
			for _, e := range fd.Enum {
				if e != "" && e != fd.Default {
					add(fd.Name, e) // "" stands for a default, which the default itself covers
				}
			}
		}
	}
	return out
}

// Problem is one thing a policy got wrong in one setting and seed.
type Problem struct {
	Policy, Variant, Setting string
	Seed                     uint64
	Msg                      string
}

func (p Problem) String() string {
	with := ""
	if p.Variant != "" {
		with = " with " + p.Variant
	}
	return fmt.Sprintf("%s%s on %s, seed %d: %s", p.Policy, with, p.Setting, p.Seed, p.Msg)
}

// Report is what Check found for one policy: its problems, the cases it
// ran, the cases it declares it cannot run (policy.Requires), which the
// validator refused as it should, and the variants the validator refused
// for their parameters (a rule that spans parameters), with the reason.
type Report struct {
	Problems        []Problem
	Ran, Refused    int
	RefusedVariants []Problem
}

// Suite is what Check runs.
type Suite struct {
	// Policies is where Check looks policy names up: policy.Default when
	// nil, or a clone of it with a test's own policies added.
	Policies *policy.Registry
	Settings []Setting
	Seeds    []uint64
}

// Check runs the policy name with its default parameters on every setting
// and seed, twice each, where its registration says it can run, and checks
// that the validator refuses the others. Each other variant of its
// parameters (Variants) runs once per perf model, on one of the model's
// settings and one seed, both turning from variant to variant, so that the
// variants meet every setting and seed without multiplying the runs.
func (s Suite) Check(ctx context.Context, name string) Report {
	c := checker{reg: s.Policies, name: name}
	if c.reg == nil {
		c.reg = policy.Default
	}
	var out Report
	f, ok := c.reg.Lookup(name)
	if !ok {
		out.Problems = append(out.Problems, Problem{Policy: name, Msg: fmt.Sprintf("no policy named %q", name)})
		return out
	}
	c.f = f
	for vi, v := range Variants(f) {
		for _, k := range s.cases(vi, v) {
			why, err := c.incompatible(k)
			msg := ""
			switch {
			case err != nil:
				msg = err.Error()
			case why != "":
				out.Refused++
				msg = c.checkRefused(k, why)
			default:
				var refused bool
				msg, refused = c.checkOne(ctx, k)
				if refused {
					out.RefusedVariants = append(out.RefusedVariants, c.problem(k, msg))
					msg = ""
				} else {
					out.Ran++
				}
			}
			if msg != "" {
				out.Problems = append(out.Problems, c.problem(k, msg))
			}
		}
	}
	return out
}

// cases are the cases of variant v, the vi-th: for the defaults every
// setting and seed; for another variant one setting of each perf model
// and one seed.
func (s Suite) cases(vi int, v Variant) []kase {
	var out []kase
	if v.Label == "" {
		for _, set := range s.Settings {
			for _, seed := range s.Seeds {
				out = append(out, kase{v: v, set: set, seed: seed})
			}
		}
		return out
	}
	var models []string
	byModel := map[string][]Setting{}
	for _, set := range s.Settings {
		if byModel[set.Perf] == nil {
			models = append(models, set.Perf)
		}
		byModel[set.Perf] = append(byModel[set.Perf], set)
	}
	for mi, m := range models {
		sets := byModel[m]
		k := kase{v: v, set: sets[vi%len(sets)]}
		if len(s.Seeds) > 0 {
			k.seed = s.Seeds[(vi+mi)%len(s.Seeds)]
		}
		out = append(out, k)
	}
	return out
}

// checker checks one policy of a registry.
type checker struct {
	reg  *policy.Registry
	name string
	f    policy.Factory
}

// kase is one case: a variant of the policy's parameters on a setting's
// scenario of one seed.
type kase struct {
	v    Variant
	set  Setting
	seed uint64
}

func (c checker) problem(k kase, msg string) Problem {
	return Problem{Policy: c.name, Variant: k.v.Label, Setting: k.set.Name, Seed: k.seed, Msg: msg}
}

// document is the case's scenario with the policy under test.
func (c checker) document(k kase) []byte {
	return document(k.set, k.seed, c.f.MaxJobGPUs == 1, []policySpec{{Name: c.name, Params: k.v.Params}})
}

// neutral is a policy that runs on any scenario, used to build a case's
// workload without the policy under test.
const neutral = "fifo"

// incompatible says why the registration of the policy declares it cannot
// run the case, or "". It reads the declaration and the jobs the case
// builds, not the validator, whose refusals it checks.
func (c checker) incompatible(k kase) (string, error) {
	f := c.f
	if !f.Requires.WorksWith(k.set.Perf) {
		return fmt.Sprintf("it needs %s", f.Requires.PerfText()), nil
	}
	if !f.Requires.Batch {
		return "", nil
	}
	sc, err := scenario.Parse(document(k.set, k.seed, f.MaxJobGPUs == 1, []policySpec{{Name: neutral}}))
	if err != nil {
		return "", fmt.Errorf("the case's workload is refused with %s: %w", neutral, err)
	}
	in, err := sc.Build(k.seed)
	if err != nil {
		return "", fmt.Errorf("building the case's workload: %w", err)
	}
	for _, j := range in.Jobs {
		if j.ArrivalS != 0 {
			return fmt.Sprintf("it plans a batch and job %s arrives at t=%g", j.Name, j.ArrivalS), nil
		}
	}
	return "", nil
}

// checkRefused says what is wrong when the validator does not refuse, at
// the policy's name, a case the policy declares it cannot run.
func (c checker) checkRefused(k kase, why string) string {
	_, err := scenario.ParseWith(c.reg, c.document(k))
	switch {
	case err == nil:
		return fmt.Sprintf("declared unable to run it (%s), but the validator accepts the scenario", why)
	case !strings.Contains(err.Error(), "policies[0].name: "):
		return fmt.Sprintf("declared unable to run it (%s), but the validator refuses it for something else: %v", why, err)
	}
	return ""
}

// checkOne runs one case twice and says what is wrong, or "". refused
// reports a variant that the validator refuses for its parameters alone
// (the message then says why).
func (c checker) checkOne(ctx context.Context, k kase) (msg string, refused bool) {
	doc := c.document(k)
	if k.v.Label != "" {
		if _, err := scenario.ParseWith(c.reg, doc); err != nil && onlyParams(err) {
			defaults := k
			defaults.v = Variant{}
			if _, derr := scenario.ParseWith(c.reg, c.document(defaults)); derr == nil {
				return err.Error(), true // the variant's change alone is refused
			}
		}
	}
	first, err := run(ctx, c.reg, doc, k.seed, false)
	if err != nil {
		return err.Error(), false
	}
	if msg := checkRecords(first); msg != "" {
		return msg, false
	}
	// The second run keeps the jobs' stories, which must change nothing
	// the run decides.
	again, err := run(ctx, c.reg, doc, k.seed, true)
	if err != nil {
		return "the second run with the same seed (telling stories) failed: " + err.Error(), false
	}
	if msg := sameRecords(first.res, again.res); msg != "" {
		return "not deterministic, or changed by telling stories: the same seed gave different records: " + msg, false
	}
	if again.fluid {
		return "", false // a fluid model places no job on a GPU: it has no story to tell
	}
	return CheckStories(again.in.Cluster, again.res), false
}

// onlyParams reports whether every problem err lists is at the policy's
// parameters.
func onlyParams(err error) bool {
	var ps schema.Problems
	if !errors.As(err, &ps) || len(ps) == 0 {
		return false
	}
	for _, p := range ps {
		if !strings.HasPrefix(p.Path, "policies[0].params") {
			return false
		}
	}
	return true
}

// simulator is experiment.Simulator: a policy whose runs the discrete
// engine cannot express (Gavel's fluid mode) simulates itself. It is
// repeated here so that the check does not link the experiment runner.
type simulator interface {
	Simulate(ctx context.Context, cfg engine.Config) (*engine.Result, error)
}

// outcome is one run: its jobs as the engine saw them and what it recorded.
type outcome struct {
	in    *scenario.Inputs
	res   *engine.Result
	fluid bool // run by the policy's own fluid simulator
}

// run runs the scenario's only policy with every invariant checked after
// each instant (Paranoid), keeping the jobs' stories when stories is set.
func run(ctx context.Context, reg *policy.Registry, doc []byte, seed uint64, stories bool) (outcome, error) {
	sc, err := scenario.ParseWith(reg, doc)
	if err != nil {
		return outcome{}, fmt.Errorf("the scenario is refused: %w", err)
	}
	in, err := sc.Build(seed)
	if err != nil {
		return outcome{}, fmt.Errorf("building the scenario: %w", err)
	}
	p, err := sc.NewPolicy(0)
	if err != nil {
		return outcome{}, fmt.Errorf("building the policy: %w", err)
	}
	cfg := sc.EngineConfig(in, p, seed)
	cfg.Paranoid = true
	cfg.Stories = stories
	var res *engine.Result
	sim, fluid := p.(simulator)
	if fluid {
		res, err = sim.Simulate(ctx, cfg) // a fluid model, as experiments run it
	} else {
		res, err = engine.Run(ctx, cfg)
	}
	if err != nil {
		return outcome{}, fmt.Errorf("the run failed: %w", err)
	}
	return outcome{in: in, res: res, fluid: fluid}, nil
}

// checkRecords verifies each job's record: finished after arriving and
// starting, with all of its iterations done, or unschedulable with a
// reason; nothing else is left at the end of a run.
func checkRecords(o outcome) string {
	if err := engine.CheckRecords(o.in.Jobs, o.res); err != nil {
		return err.Error()
	}
	if len(o.res.Jobs) != len(o.in.Jobs) {
		return fmt.Sprintf("%d records for %d jobs", len(o.res.Jobs), len(o.in.Jobs))
	}
	for _, r := range o.res.Jobs {
		job := &o.in.Jobs[r.Job]
		switch r.Status {
		case engine.Unschedulable:
			if r.Reason == "" {
				return fmt.Sprintf("job %s is unschedulable without a reason", r.Name)
			}
		case engine.Finished:
			switch {
			case r.FirstStartS < r.ArrivalS:
				return fmt.Sprintf("job %s started at t=%v, before its arrival at t=%v", r.Name, r.FirstStartS, r.ArrivalS)
			case math.Abs(r.Iterations-job.Iterations) > 1e-6*job.Iterations:
				return fmt.Sprintf("job %s finished after %.9g of its %.9g iterations", r.Name, r.Iterations, job.Iterations)
			case !(r.RunS > 0) || !(r.GPUSeconds > 0):
				return fmt.Sprintf("job %s finished without holding GPUs (run %v s, %v GPU-s)", r.Name, r.RunS, r.GPUSeconds)
			}
		default:
			return fmt.Sprintf("job %s is %s at the end of the run, neither finished nor unschedulable", r.Name, r.Status)
		}
	}
	return ""
}

// sameRecords compares what two runs recorded: the jobs, the GPU
// intervals and the decision log.
func sameRecords(a, b *engine.Result) string {
	for i := range min(len(a.Jobs), len(b.Jobs)) {
		if !reflect.DeepEqual(a.Jobs[i], b.Jobs[i]) {
			return fmt.Sprintf("job %s: %+v, then %+v", a.Jobs[i].Name, a.Jobs[i], b.Jobs[i])
		}
	}
	switch {
	case len(a.Jobs) != len(b.Jobs):
		return fmt.Sprintf("%d job records, then %d", len(a.Jobs), len(b.Jobs))
	case !reflect.DeepEqual(a.Intervals, b.Intervals):
		return fmt.Sprintf("the GPU allocation intervals differ (%d, then %d)", len(a.Intervals), len(b.Intervals))
	case !engine.SameLog(a.Log, b.Log):
		return fmt.Sprintf("the decision logs differ (%d entries, then %d)", len(a.Log), len(b.Log))
	}
	return ""
}
