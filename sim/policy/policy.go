// Package policy is the registry of scheduling policies and the building
// blocks they share: placements made of filters and scores (consolidated,
// strict) with their explanations, the queue and priority schedulers,
// priority queues, solo-time estimates. Each family lives in a subpackage (fifo, sjf, ...) that
// registers itself with Register; a family never imports another family.
package policy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/internal/registry"
)

// Family is what a policy package registers: its names and documentation,
// its parameter struct P with defaults, and how to build the policy from
// filled parameters. The registry does the conversions to and from the
// untyped Factory that scenarios, the schema and the page read, so a
// policy never casts its parameters.
type Family[P any] struct {
	Name  string // registry key used in scenarios, e.g. "sjf"
	Title string // display name, e.g. "SJF"
	Paper string // where it comes from
	Doc   string // one paragraph for learners
	// Defaults returns the parameters a scenario starts from, a fresh value
	// on each call (the decoder writes into it, slices included); nil means
	// P's zero value.
	Defaults func() P
	// New builds a fresh policy for one run from filled parameters.
	New func(P) (engine.Policy, error)
	// MaxJobGPUs is the most GPUs one job may ask for (0: any); the
	// scenario validator refuses workloads with larger jobs.
	MaxJobGPUs int
	// Requires is what the policy needs of a scenario besides its
	// parameters; the scenario validator refuses a scenario without it.
	Requires Requires
}

// Requires declares what a policy needs of a scenario, so that a scenario
// it cannot run is refused up front, with the reason, instead of failing
// in the middle of a run; the CLI and the page show it (Factory.Needs).
type Requires struct {
	// PerfModels lists the perf models the policy works with; empty means
	// any. OJPP, for one, plans with memshare's memory and interference
	// model and can do nothing with another.
	PerfModels []string
	// Batch says the policy plans an offline batch once, at time 0, so
	// every job must arrive at time 0 (SJF-BCO).
	Batch bool
}

// WorksWith reports whether the policy works with the named perf model.
func (r Requires) WorksWith(perfModel string) bool {
	return len(r.PerfModels) == 0 || slices.Contains(r.PerfModels, perfModel)
}

// PerfText names the perf models the policy works with, for messages.
func (r Requires) PerfText() string {
	if len(r.PerfModels) == 1 {
		return "perf model " + r.PerfModels[0]
	}
	return "one of the perf models " + strings.Join(r.PerfModels, ", ")
}

// GPUTypeChecker is implemented by parameters that hold a value per GPU
// type (Gavel's prices), so that the scenario validator refuses a cluster
// they do not cover before a run instead of the policy failing in it. It
// returns the parameter's field name and a sentence, or "" and "".
type GPUTypeChecker interface {
	CheckGPUTypes(types []string) (field, msg string)
}

// NoParams is the parameter struct of a policy without parameters.
type NoParams struct{}

// Factory is the registry's untyped view of a Family, for readers that
// handle every policy alike: the scenario decoder, the schema, the CLI and
// the page.
type Factory struct {
	Name, Title, Paper, Doc string
	// NewParams returns a pointer to a parameter struct holding the
	// defaults; the scenario decoder fills it.
	NewParams func() any
	// New builds a fresh policy for one run from what NewParams returned;
	// anything else is an error, not a panic.
	New func(params any) (engine.Policy, error)
	// MaxJobGPUs is the most GPUs one job may ask for (0: any).
	MaxJobGPUs int
	// Requires is what the policy needs of a scenario.
	Requires Requires
}

// Needs says in one sentence what the policy needs of a scenario, or ""
// when it runs on any: for `schedlab policies` and the page.
func (f Factory) Needs() string {
	var parts []string
	if r := f.Requires; len(r.PerfModels) > 0 {
		parts = append(parts, r.PerfText())
	}
	if f.Requires.Batch {
		parts = append(parts, "every job arriving at time 0 (it plans one offline batch)")
	}
	if f.MaxJobGPUs > 0 {
		parts = append(parts, fmt.Sprintf("jobs of at most %d GPU(s)", f.MaxJobGPUs))
	}
	if len(parts) == 0 {
		return ""
	}
	return "Needs " + strings.Join(parts, "; ") + "."
}

// Registry is a set of policies by name. Default holds the policies that
// scenarios, the CLI and the page see, the ones the families add with
// Register; a test that needs policies of its own (a deliberately broken
// one, say) adds them to a Clone of Default or to a NewRegistry, so that
// they never enter Default.
type Registry struct {
	r *registry.Registry[Factory]
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{registry.New[Factory]("policy")} }

// Default is the registry of the policy families.
var Default = NewRegistry()

// Add makes a policy available under f.Name; Family.Factory makes f. It
// panics on a duplicate or empty name, a programming error.
func (r *Registry) Add(f Factory) { r.r.Add(f.Name, f) }

// Lookup returns the policy registered under name.
func (r *Registry) Lookup(name string) (Factory, bool) { return r.r.Get(name) }

// Names returns the registered policy names, sorted.
func (r *Registry) Names() []string { return r.r.Names() }

// Clone returns a registry with r's policies, to which a test can add its
// own without changing r.
func (r *Registry) Clone() *Registry { return &Registry{r.r.Clone()} }

// New builds the named policy with its default parameters.
func (r *Registry) New(name string) (engine.Policy, error) {
	f, ok := r.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("no policy named %q", name)
	}
	return f.New(f.NewParams())
}

// Factory returns the registry's untyped view of the family. It panics on
// a missing name or New, or parameters that are not a struct: all
// programming errors, found when the package is first imported.
func (f Family[P]) Factory() Factory {
	if f.New == nil {
		panic(fmt.Sprintf("policy %q: a family needs a New", f.Name))
	}
	params := registry.ParamsOf("policy", f.Name, f.Defaults)
	return Factory{
		Name: f.Name, Title: f.Title, Paper: f.Paper, Doc: f.Doc, MaxJobGPUs: f.MaxJobGPUs, Requires: f.Requires,
		NewParams: params.New,
		New: func(v any) (engine.Policy, error) {
			p, err := params.From(v)
			if err != nil {
				return nil, err
			}
			return f.New(p)
		},
	}
}

// Register makes a policy available under f.Name in Default. It panics on
// a duplicate or empty name, a missing New or parameters that are not a
// struct: all programming errors, found when the package is first
// imported.
func Register[P any](f Family[P]) { Default.Add(f.Factory()) }

// Lookup returns the policy registered under name in Default.
func Lookup(name string) (Factory, bool) { return Default.Lookup(name) }

// Names returns the policy names registered in Default, sorted.
func Names() []string { return Default.Names() }

// New builds the named policy of Default with its default parameters.
func New(name string) (engine.Policy, error) { return Default.New(name) }
