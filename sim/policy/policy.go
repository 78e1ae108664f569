// Package policy is the registry of scheduling policies and the building
// blocks they share: consolidated placement, priority queues, solo-time
// estimates. Each family lives in a subpackage (fifo, sjf, ...) that
// registers itself with Register; a family never imports another family.
package policy

import (
	"fmt"
	"reflect"

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
}

var factories = registry.New[Factory]("policy")

// Register makes a policy available under f.Name. It panics on a duplicate
// or empty name, a missing New or parameters that are not a struct: all
// programming errors, found when the package is first imported.
func Register[P any](f Family[P]) {
	if f.Name == "" || f.New == nil {
		panic(fmt.Sprintf("policy %q: a family needs a Name and a New", f.Name))
	}
	if t := reflect.TypeFor[P](); t.Kind() != reflect.Struct {
		panic(fmt.Sprintf("policy %s: parameters must be a struct, not %s", f.Name, t))
	}
	defaults := f.Defaults
	if defaults == nil {
		defaults = func() P { var p P; return p }
	}
	factories.Add(f.Name, Factory{
		Name: f.Name, Title: f.Title, Paper: f.Paper, Doc: f.Doc, MaxJobGPUs: f.MaxJobGPUs,
		NewParams: func() any { p := defaults(); return &p },
		New: func(v any) (engine.Policy, error) {
			p, ok := v.(*P)
			if !ok || p == nil {
				return nil, fmt.Errorf("policy %s: parameters are %T, want %T", f.Name, v, p)
			}
			return f.New(*p)
		},
	})
}

// Lookup returns the policy registered under name.
func Lookup(name string) (Factory, bool) { return factories.Get(name) }

// Names returns the registered policy names, sorted.
func Names() []string { return factories.Names() }

// New builds the named policy with its default parameters.
func New(name string) (engine.Policy, error) {
	f, ok := Lookup(name)
	if !ok {
		return nil, fmt.Errorf("no policy named %q", name)
	}
	return f.New(f.NewParams())
}
