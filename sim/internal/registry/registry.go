// Package registry is a set of named plugins (policies, perf models,
// workload generators, metrics) that packages add to in their init
// functions and scenarios look up by name.
package registry

import "sort"

// Registry maps names to entries.
type Registry[T any] struct {
	what    string // for the duplicate panic, e.g. "policy"
	entries map[string]T
}

// New returns an empty registry of things called what.
func New[T any](what string) *Registry[T] {
	return &Registry[T]{what: what, entries: map[string]T{}}
}

// Add registers an entry. A duplicate name is a programming error and
// panics.
func (r *Registry[T]) Add(name string, entry T) {
	if _, dup := r.entries[name]; dup {
		panic(r.what + " " + name + " registered twice")
	}
	r.entries[name] = entry
}

// Get returns the entry registered under name.
func (r *Registry[T]) Get(name string) (T, bool) {
	e, ok := r.entries[name]
	return e, ok
}

// Names returns the registered names, sorted.
func (r *Registry[T]) Names() []string {
	names := make([]string, 0, len(r.entries))
	for n := range r.entries {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
