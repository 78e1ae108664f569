// Package policy is the registry of scheduling policies and the building
// blocks they share: consolidated placement, priority queues, solo-time
// estimates. Each family lives in a subpackage (fifo, sjf, ...) that
// registers itself; a family never imports another family.
package policy

import (
	"fmt"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/internal/registry"
)

// Factory describes a policy and builds instances of it.
type Factory struct {
	Name  string // registry key used in scenarios, e.g. "sjf"
	Title string // display name, e.g. "SJF"
	Paper string // where it comes from
	Doc   string // one paragraph for learners
	// NewParams returns a pointer to the parameter struct holding the
	// defaults; the scenario decoder fills it.
	NewParams func() any
	// New builds a fresh policy for one run.
	New func(params any) (engine.Policy, error)
	// MaxJobGPUs is the most GPUs one job may ask for (0: any); the
	// scenario validator refuses workloads with larger jobs.
	MaxJobGPUs int
}

var factories = registry.New[Factory]("policy")

// Register makes a policy available. It panics on a duplicate name, which
// is a programming error.
func Register(f Factory) {
	if f.NewParams == nil {
		f.NewParams = func() any { return &struct{}{} }
	}
	factories.Add(f.Name, f)
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
