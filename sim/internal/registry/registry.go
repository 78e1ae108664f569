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

// Add registers an entry. An empty or duplicate name is a programming
// error and panics.
func (r *Registry[T]) Add(name string, entry T) {
	if name == "" {
		panic("a " + r.what + " needs a name")
	}
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

// Clone returns a registry with the same entries, to which entries can be
// added without changing r.
func (r *Registry[T]) Clone() *Registry[T] {
	c := New[T](r.what)
	for n, e := range r.entries {
		c.entries[n] = e
	}
	return c
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
