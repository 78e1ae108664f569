package perf

import (
	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/internal/registry"
)

// Kind registers a base model: its parameters, with defaults, and how to
// build it for a cluster.
type Kind struct {
	Name      string
	Doc       string
	NewParams func() any
	New       func(params any, c *cluster.Cluster) (Model, error)
}

var kinds = registry.New[Kind]("perf model")

// Register makes a base model available to scenarios. It panics on a
// duplicate name, which is a programming error.
func Register(k Kind) { kinds.Add(k.Name, k) }

// Lookup returns the registered base model with that name.
func Lookup(name string) (Kind, bool) { return kinds.Get(name) }

// Names returns the registered base models, sorted.
func Names() []string { return kinds.Names() }

func init() {
	Register(Kind{
		Name:      "constant",
		Doc:       "Each job alone finishes in its duration_s wherever it runs, optionally faster or slower per GPU type.",
		NewParams: func() any { return &ConstantParams{} },
		New: func(p any, _ *cluster.Cluster) (Model, error) {
			return NewConstant(*p.(*ConstantParams)), nil
		},
	})
}
