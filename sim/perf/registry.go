package perf

import (
	"fmt"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/internal/registry"
)

// Family is what a base perf model registers: its name and documentation,
// its parameter struct P with defaults, and how to build the model for a
// cluster from filled parameters. The registry converts to and from the
// untyped Kind that scenarios, the schema and the page read, so a model
// never casts its parameters.
type Family[P any] struct {
	Name string
	Doc  string
	// Defaults returns the parameters a scenario starts from, a fresh
	// value on each call; nil means P's zero value.
	Defaults func() P
	// New builds the model from filled parameters.
	New func(P, *cluster.Cluster) (Model, error)
}

// Kind is the registry's untyped view of a Family, for readers that
// handle every model alike.
type Kind struct {
	Name string
	Doc  string
	// NewParams returns a pointer to a parameter struct holding the
	// defaults; the scenario decoder fills it.
	NewParams func() any
	// New builds the model from what NewParams returned; anything else is
	// an error, not a panic.
	New func(params any, c *cluster.Cluster) (Model, error)
}

var kinds = registry.New[Kind]("perf model")

// Register makes a base model available to scenarios. It panics on a
// duplicate or empty name, a missing New or parameters that are not a
// struct: programming errors.
func Register[P any](f Family[P]) {
	if f.New == nil {
		panic(fmt.Sprintf("perf model %q: a family needs a New", f.Name))
	}
	params := registry.ParamsOf("perf model", f.Name, f.Defaults)
	kinds.Add(f.Name, Kind{Name: f.Name, Doc: f.Doc, NewParams: params.New,
		New: func(v any, c *cluster.Cluster) (Model, error) {
			p, err := params.From(v)
			if err != nil {
				return nil, err
			}
			return f.New(p, c)
		}})
}

// Lookup returns the registered base model with that name.
func Lookup(name string) (Kind, bool) { return kinds.Get(name) }

// Names returns the registered base models, sorted.
func Names() []string { return kinds.Names() }

func init() {
	Register(Family[ConstantParams]{
		Name: "constant",
		Doc:  "Each job alone finishes in its duration_s wherever it runs, optionally faster or slower per GPU type.",
		New: func(p ConstantParams, _ *cluster.Cluster) (Model, error) {
			return NewConstant(p), nil
		},
	})
}
