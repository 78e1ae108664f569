package perf

import (
	"sort"

	"github.com/schedlab/schedlab/sim/cluster"
)

// Kind registers a base model: its parameters, with defaults, and how to
// build it for a cluster.
type Kind struct {
	Name      string
	Doc       string
	NewParams func() any
	New       func(params any, c *cluster.Cluster) (Model, error)
}

var kinds = map[string]Kind{}

// Register makes a base model available to scenarios. It panics on a
// duplicate name, which is a programming error.
func Register(k Kind) {
	if _, dup := kinds[k.Name]; dup {
		panic("perf: model " + k.Name + " registered twice")
	}
	kinds[k.Name] = k
}

// Lookup returns the registered base model with that name.
func Lookup(name string) (Kind, bool) {
	k, ok := kinds[name]
	return k, ok
}

// Names returns the registered base models, sorted.
func Names() []string {
	names := make([]string, 0, len(kinds))
	for n := range kinds {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

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
